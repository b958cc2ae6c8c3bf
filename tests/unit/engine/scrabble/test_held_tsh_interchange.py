"""tsh interchange of held Scrabble events, the engine alone: a division file read as
imported rounds, the rules an imported round keeps, the scores as played that the export
writes (read back with the event's spread cap), and tourney.js."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from pairing_service.engine.errors import Conflict
from pairing_service.engine.event_log import Entry
from pairing_service.engine.scrabble.held.checks import InvalidEvent
from pairing_service.engine.scrabble.held.ledger import ScrabbleLedger
from pairing_service.engine.scrabble.held.log_events import (
    Entrant,
    EventSettings,
    ImportedGame,
    SatOut,
)
from pairing_service.engine.scrabble.held.tourney_js import javascript, tourney_js
from pairing_service.engine.scrabble.held.tsh_export import division_file
from pairing_service.engine.scrabble.held.tsh_import import read_tsh_event
from pairing_service.engine.scrabble.tsh import TshError, read_division

AT = datetime(2026, 11, 26, tzinfo=UTC)
SMALL = """\
Able, Ann 1800 2 3 4 ; 420 390 410
Baker, Bob 1750 1 6 5 ; 380 400 450
Cole, Cat 1700 4 1 6 ; 350 401 380
Dunn, Dan 1650 3 0 1 ; 300 -50 330
Eve, Emma 1600 0 0 2 ; 0 0 360
Fay, Finn 1550 0 2 3 ; 50 370 390 ; off 0
"""


def folded(ledger: ScrabbleLedger, actions):
    return ledger.fold([Entry(i, a, AT) for i, a in enumerate(actions, start=1)])


def test_a_file_reads_as_rounds_games_and_players_without_an_opponent():
    event = read_tsh_event(SMALL)
    assert [p.id for p in event.players] == ["1", "2", "3", "4", "5", "6"]
    assert event.players[0] == Entrant("1", "Able, Ann", 1800)
    first, second, third = event.rounds
    assert first.games == (
        ImportedGame(("1", "2"), (420, 380)),
        ImportedGame(("3", "4"), (350, 300)),
    )
    assert first.sat_out == (SatOut("5", 0), SatOut("6", 50))
    assert second.sat_out == (SatOut("4", -50), SatOut("5", 0))
    assert len(third.games) == 3 and third.sat_out == ()
    assert event.withdrawn == {"6": 4}  # after their last game, round 3


def test_the_imported_event_has_the_files_standings(rules):
    ledger = ScrabbleLedger(rules.scrabble)
    tsh = read_tsh_event(SMALL)
    rounds = [(r.games, r.sat_out) for r in tsh.rounds]
    actions = ledger.imported(EventSettings(4), tsh.players, rounds, tsh.withdrawn)
    assert [a.kind for a in actions] == ["created", *["round_imported"] * 3, "player_dropped"]
    state = folded(ledger, actions)
    mine = {s.player: (int(s.wins * 2), s.spread) for s in state.standings()}
    theirs = {p.id: (p.half_wins, p.spread) for p in read_division(SMALL).players}
    assert mine == theirs
    assert state.status() == "between_rounds" and state.dropped == {"6": 4}
    assert all(r.closed and r.method == "tsh" for r in state.rounds)
    # the service pairs the next round from there
    paired = ledger.start_round(state)
    assert paired.kind == "round_started" and "6" not in json.dumps(paired.data["games"])


def test_a_penalty_section_goes_with_the_games_and_keeps_the_files_standings(rules):
    text = "A, B 1500 2 3 ; 400 350 ; penalty -10 0\nC, D 1500 1 0 ; 380 50\n"
    text += "E, F 1400 0 1 ; 50 370 ; penalty 0 -25\n"
    tsh = read_tsh_event(text)
    assert tsh.rounds[0].games == (ImportedGame(("1", "2"), (400, 380), (10, 0)),)
    assert tsh.rounds[1].games == (ImportedGame(("1", "3"), (350, 370), (0, 25)),)
    ledger = ScrabbleLedger(rules.scrabble)
    rounds = [(r.games, r.sat_out) for r in tsh.rounds]
    state = folded(ledger, ledger.imported(EventSettings(3), tsh.players, rounds))
    mine = {s.player: (int(s.wins * 2), s.spread) for s in state.standings()}
    assert mine == {p.id: (p.half_wins, p.spread) for p in read_division(text).players}
    assert mine["1"] == (2, 20 - 10 - 20) and mine["3"] == (4, 50 + 20 - 25)
    exported = division_file(state)
    assert "; penalty -10 0" in exported and "; penalty 0 -25" in exported
    theirs = {p.name: (p.half_wins, p.spread) for p in read_division(exported).players}
    assert theirs == {p.name: (p.half_wins, p.spread) for p in read_division(text).players}


def test_an_imported_round_keeps_the_rules(rules):
    ledger = ScrabbleLedger(rules.scrabble)
    players = [Entrant(p, None, 1500) for p in "ABCD"]
    state = folded(ledger, [ledger.created(EventSettings(3), players)])
    game = ImportedGame(("A", "B"), (400, 300))
    with pytest.raises(InvalidEvent, match="'C' has no game in round 1"):
        ledger.import_round(state, 1, [game])
    with pytest.raises(InvalidEvent, match="'A' is in round 1 twice"):
        ledger.import_round(state, 1, [game, ImportedGame(("A", "C"), (1, 2))], [SatOut("D", 0)])
    with pytest.raises(InvalidEvent, match="not in this event"):
        ledger.import_round(state, 1, [game, ImportedGame(("C", "X"), (1, 2))], [SatOut("D", 0)])
    with pytest.raises(InvalidEvent, match="beyond 2000"):
        ledger.import_round(state, 1, [game, ImportedGame(("C", "D"), (2001, 2))])
    with pytest.raises(InvalidEvent, match="two penalties, each a whole number"):
        ledger.import_round(state, 1, [game, ImportedGame(("C", "D"), (1, 2), (0, -5))])
    with pytest.raises(InvalidEvent, match="the next round is round 1"):
        ledger.import_round(state, 2, [game, ImportedGame(("C", "D"), (1, 2))])
    # once the service has paired a round, no round is imported
    state = folded(ledger, [ledger.created(EventSettings(3), players), ledger.start_round(state)])
    with pytest.raises(Conflict, match="only before the service pairs one"):
        ledger.import_round(state, 2, [game, ImportedGame(("C", "D"), (1, 2))])


def test_too_few_rounds_planned_is_refused_at_rounds(rules):
    ledger = ScrabbleLedger(rules.scrabble)
    tsh = read_tsh_event(SMALL)
    rounds = [(r.games, r.sat_out) for r in tsh.rounds]
    with pytest.raises(InvalidEvent) as refused:
        ledger.imported(EventSettings(2), tsh.players, rounds, tsh.withdrawn)
    assert refused.value.at == ("rounds",)
    with pytest.raises(InvalidEvent, match="withdrew after the last"):  # off after round 3
        ledger.imported(EventSettings(3), tsh.players, rounds, tsh.withdrawn)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("A, B 1500 2 ; 400 ; penalty 10\nC, D 1500 1 ; 300\n", "line 1: round 1: a penalty ab"),
        ("A, B 1500 0 ; 50 ; penalty -10\nC, D 1500 0 ; 50\n", "line 1: round 1: a penalty wi"),
        ("A, B 1500 2 ; 400 ; initrec 2 0 100\nC, D 1500 1 ; 300\n", "line 1: an initrec"),
        ("A, B 4500 2 ; 400\nC, D 1500 1 ; 300\n", "line 1: the rating"),
        ("A, B 1500 2 ; 400\nC, D 1500 1 ; -2300\n", "line 2: round 1: the score"),
        ("A, B 1500 2 3 ; 400 300\nC, D 1500 1 ; 300\n", "line 2: round 2 is only partly"),
    ],
)
def test_what_a_held_event_cannot_hold_is_refused_naming_the_line(text, words):
    with pytest.raises(TshError, match=words):
        read_tsh_event(text)


def test_the_export_writes_the_scores_as_played_and_reads_back_with_the_cap(rules):
    ledger = ScrabbleLedger(rules.scrabble)
    players = [Entrant(p, p, 1600 - i) for i, p in enumerate("ABCD")]
    state = folded(ledger, [ledger.created(EventSettings(2, spread_cap=150), players)])
    games = [ImportedGame(("A", "C"), (290, 610)), ImportedGame(("B", "D"), (400, 380))]
    state = folded(
        ledger,
        [
            ledger.created(EventSettings(2, spread_cap=150), players),
            ledger.import_round(state, 1, games),
        ],
    )
    lines = division_file(state).splitlines()
    assert lines == ["A 1600 3 ; 290", "B 1599 4 ; 400", "C 1598 1 ; 610", "D 1597 2 ; 380"]
    mine = {s.name: s.spread for s in state.standings()}
    assert mine == {"A": -150, "B": 20, "C": 150, "D": -20}
    text = "\n".join(lines)
    assert {p.name: p.spread for p in read_division(text, spread_cap=150).players} == mine
    # without the cap (tsh's is in its configuration, not the file) the margin counts whole
    assert {p.name: p.spread for p in read_division(text).players}["C"] == 320


def test_the_readers_cap_counts_games_only_and_penalties_after_it():
    text = (
        "A, B 1500 2 0 ; 600 300 ; penalty -10 0\n"  # a 400-point win, then a +300 bye
        "C, D 1500 1 3 ; 200 250\n"
        "E, F 1400 0 2 ; -200 240\n"  # a -200 forfeit, then a 10-point win
    )
    capped = {p.id: (p.half_wins, p.spread) for p in read_division(text, spread_cap=100).players}
    assert capped == {"1": (4, 100 - 10 + 300), "2": (2, -100 + 10), "3": (0, -200 - 10)}


def test_tourney_js_is_javascript_with_undefined():
    assert javascript({"a": [None, 1, "x"], "b": True}) == '{"a":[undefined,1,"x"],"b":true}'


def test_tourney_js_writes_every_lt_as_an_escape():
    written = javascript({"name": "</script>", "<key>": ["a<b", 1, None]})
    assert "<" not in written
    assert written == '{"name":"\\u003c/script>","\\u003ckey>":["a\\u003cb",1,undefined]}'
    assert json.loads(written.replace("undefined", "null"))["name"] == "</script>"


def test_tourney_js_holds_the_division_as_tsh_writes_it(rules):
    ledger = ScrabbleLedger(rules.scrabble)
    tsh = read_tsh_event(SMALL)
    rounds = [(r.games, r.sat_out) for r in tsh.rounds]
    state = folded(ledger, ledger.imported(EventSettings(4), tsh.players, rounds, tsh.withdrawn))
    text = tourney_js(state, "Spring open")
    assert text.startswith('newt={"config":{"event_name":"Spring open","max_rounds":4,')
    assert '"players":[undefined,{"etc":{},"id":1,"name":"Able, Ann"' in text
    assert '"etc":{"off":[0]},"id":6,"name":"Fay, Finn","newr":undefined,"pairings":[0,2,3]' in text


def test_a_round_paired_in_tsh_without_results_is_left_to_the_service():
    paired_ahead = (
        "Able, Ann 1800 2 3 ; 420\n"
        "Baker, Bob 1750 1 4 ; 380\n"
        "Cole, Cat 1700 4 1 ; 350\n"
        "Dunn, Dan 1650 3 2 ; 300\n"
    )
    event = read_tsh_event(paired_ahead)
    assert len(event.rounds) == 1
    assert [g.players for g in event.rounds[0].games] == [("1", "2"), ("3", "4")]
