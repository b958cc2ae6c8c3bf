"""Held Scrabble events, the engine alone: each pairing method, the bye, the default
schedule, and the ledger's fold, undo and corrections."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime

import pytest

from pairing_service.engine.errors import Conflict
from pairing_service.engine.event_log import Entry, undo
from pairing_service.engine.scrabble.contention import contention
from pairing_service.engine.scrabble.cost import RepeatPolicy
from pairing_service.engine.scrabble.held.checks import InvalidEvent
from pairing_service.engine.scrabble.held.gibsonization import Places
from pairing_service.engine.scrabble.held.ledger import ScrabbleLedger
from pairing_service.engine.scrabble.held.log_events import Entrant, EventSettings, RepeatsFor
from pairing_service.engine.scrabble.held.methods import (
    FinalRound,
    bye_for,
    pair_round,
    without_back_to_back,
)
from pairing_service.engine.scrabble.held.schedule import scheduled
from pairing_service.engine.scrabble.held.tsh_export import division_file, tsh_name
from pairing_service.engine.scrabble.standings import Player, Standings
from pairing_service.engine.scrabble.tsh import read_division

AT = datetime(2026, 11, 26, tzinfo=UTC)


class Event:
    """A ledger and its log, acted on as the store would."""

    def __init__(self, rules, players: int, rounds: int, **settings) -> None:
        self.ledger = ScrabbleLedger(rules.scrabble)
        entrants = [Entrant(f"P{i}", None, 2000 - 10 * i) for i in range(players)]
        created = self.ledger.created(EventSettings(rounds, **settings), entrants)
        self.log = [Entry(1, created, AT)]
        self.state = self.ledger.fold(self.log)

    def act(self, action) -> None:
        if action is None:
            return
        entry = Entry(len(self.log) + 1, action, AT)
        self.log.append(entry)
        self.ledger.apply(self.state, entry)

    def undo(self) -> None:
        self.log.append(Entry(len(self.log) + 1, undo(self.log), AT))
        self.state = self.ledger.fold(self.log)

    def play(self, rng: random.Random, **start) -> None:
        self.act(self.ledger.start_round(self.state, **start))
        rnd = self.state.latest
        for game, (a, b) in enumerate(rnd.games, start=1):
            rating = {p: self.state.players[p].rating for p in (a, b)}
            chance = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 400))
            margin = rng.randint(1, 200)
            scores = (400 + margin, 400) if rng.random() < chance else (400, 400 + margin)
            self.act(self.ledger.enter_result(self.state, rnd.number, game, scores))
        self.act(self.ledger.close_round(self.state, rnd.number))


def fresh(count: int) -> Standings:
    return Standings.from_players([Player(f"P{i}", 0, 0) for i in range(count)])


def test_seeded_pairs_the_top_half_against_the_bottom_half_by_rating():
    standings = fresh(6)
    ratings = {f"P{i}": 1000 + i for i in range(6)}  # P5 is the best rated
    pairing = pair_round("seeded", standings, standings.ids, {}, 0, ratings)
    assert {frozenset(g) for g in pairing.games} == {
        frozenset(("P5", "P2")),
        frozenset(("P4", "P1")),
        frozenset(("P3", "P0")),
    }


def test_koth_pairs_neighbours_and_steps_round_a_repeat():
    players = [Player(f"P{i}", 0, 0, opponents=()) for i in range(4)]
    pairing = pair_round(
        "koth", Standings.from_players(players), [p.id for p in players], {}, 0, {}
    )
    assert pairing.games == (("P0", "P1"), ("P2", "P3"))
    met = [
        Player("P0", 2, 0, opponents=("P1",)),
        Player("P1", 0, 0, opponents=("P0",)),
        Player("P2", 2, 0, opponents=("P3",)),
        Player("P3", 0, 0, opponents=("P2",)),
    ]
    standings = Standings.from_players(met)  # P0, P2, P1, P3
    pairing = pair_round("koth", standings, standings.ids, {}, 0, {})
    assert pairing.games == (("P0", "P2"), ("P1", "P3"))


def test_random_is_the_same_for_the_same_seed_and_changes_with_it():
    standings = fresh(20)
    first = pair_round("random", standings, standings.ids, {}, 0, {}, seed=4)
    assert first == pair_round("random", standings, standings.ids, {}, 0, {}, seed=4)
    assert first != pair_round("random", standings, standings.ids, {}, 0, {}, seed=5)


def test_the_bye_goes_to_the_lowest_ranked_of_those_with_fewest_byes():
    standings = fresh(5)
    assert bye_for(standings, standings.ids, {}) == "P4"
    assert bye_for(standings, standings.ids, {"P4": 1, "P3": 1}) == "P2"
    pairing = pair_round("swiss", standings, standings.ids, {"P4": 1}, 0, {})
    assert pairing.bye == "P3" and len(pairing.games) == 2


def test_the_default_schedule():
    settings = EventSettings(7, repeats_allowed=2)
    assert [scheduled(n, settings) for n in range(1, 8)] == [
        ("seeded", 2),
        *[("swiss", 2)] * 5,
        ("advisor", 2),
    ]
    assert scheduled(1, EventSettings(1)) == ("seeded", 2)  # ratings pair a lone round
    # The director's allowance for a range of rounds (tsh's pair and koth take one).
    ranged = EventSettings(
        7, repeats_allowed=2, repeats_by_round=(RepeatsFor(2, 4, 0), RepeatsFor(7, 7, 3))
    )
    assert [scheduled(n, ranged)[1] for n in range(1, 8)] == [2, 0, 0, 0, 2, 2, 3]
    # With graded prizes the last three rounds race each place head to head.
    graded = EventSettings(9, prizes=(300.0, 200.0, 100.0))
    assert [scheduled(n, graded)[0] for n in range(1, 10)] == [
        "seeded",
        *["swiss"] * 5,
        *["advisor"] * 3,
    ]


@pytest.mark.parametrize(("players", "rounds"), [(9, 7), (32, 7), (100, 9)])
def test_a_whole_event_keeps_the_directors_rules(rules, players, rounds):
    event = Event(rules, players, rounds)
    rng = random.Random(players)
    for _ in range(rounds):
        event.play(rng)
    assert event.state.status() == "finished"
    assert event.state.rounds[-1].method == "advisor" and event.state.rounds[-1].rule
    met = event.state.meetings()
    assert max(met.values()) <= 1 + event.state.settings.repeats_allowed
    # no back-to-back rematch
    for before, after in zip(event.state.rounds, event.state.rounds[1:], strict=False):
        assert not {frozenset(g) for g in before.games} & {frozenset(g) for g in after.games}
    # byes spread: nobody has two while someone has none (before the final round, whose
    # bye the advisor gives a player out of contention, docs/scrabble.md)
    byes = Counter(r.bye for r in event.state.rounds[:-1] if r.bye)
    if byes and max(byes.values()) > 1:
        assert len(byes) == players
    # the fold of the log is the state the actions built
    assert event.ledger.fold(event.log).standings() == event.state.standings()


def test_standings_count_wins_draws_byes_forfeits_and_the_spread_cap(rules):
    event = Event(rules, 5, 3, spread_cap=100, bye_spread=60)
    event.act(event.ledger.start_round(event.state))
    rnd = event.state.latest
    (a, b), (c, d) = rnd.games
    event.act(event.ledger.enter_result(event.state, 1, 1, (500, 300)))  # capped at 100
    event.act(event.ledger.enter_result(event.state, 1, 2, None, forfeit=c, spread=30))
    rows = {s.player: s for s in event.state.standings()}
    assert (rows[a].wins, rows[a].spread, rows[b].spread) == (1, 100, -100)
    assert (rows[d].wins, rows[d].spread, rows[c].losses, rows[c].spread) == (1, 30, 1, -30)
    assert (rows[rnd.bye].wins, rows[rnd.bye].spread, rows[rnd.bye].byes) == (1, 60, 1)
    event.act(event.ledger.close_round(event.state, 1))
    event.act(event.ledger.start_round(event.state))
    games = event.state.latest.games
    for game in range(1, len(games) + 1):
        event.act(event.ledger.enter_result(event.state, 2, game, (400, 400)))
    drawn = {p for g in games for p in g}
    rows = {s.player: s for s in event.state.standings()}
    assert all(rows[p].wins % 1 == 0.5 for p in drawn)  # half a win each
    # round 1: two wins and the bye; round 2: two draws (one win between them) and the bye
    assert sum(s.wins for s in event.state.standings()) == 3 + 2 * 0.5 * 2 + 1


def test_undo_and_a_correction_of_an_earlier_round(rules):
    event = Event(rules, 4, 3)
    rng = random.Random(1)
    event.play(rng)
    before = event.state.standings()
    event.act(event.ledger.start_round(event.state))
    was = event.state.round(1).results[1]
    flipped = (was.scores[1] + 1, was.scores[0]) if was.scores else (1, 0)
    correction = event.ledger.enter_result(event.state, 1, 1, flipped)
    assert correction.kind == "result_corrected"
    changes = correction.data["changes"]
    assert changes[-1] == "round 2 was paired before this correction and is kept as it was"
    event.act(correction)
    assert event.state.standings() != before
    assert "corrected" in event.ledger.describe(correction)
    event.undo()
    assert event.state.standings() == before
    event.undo()  # round 2's pairing
    assert len(event.state.rounds) == 1


def test_refusals(rules):
    event = Event(rules, 4, 1)
    with pytest.raises(InvalidEvent) as raised:
        event.ledger.created(EventSettings(3), [Entrant("A", None, 1), Entrant("A", None, 2)])
    assert raised.value.at == ("players", 1, "id")
    event.act(event.ledger.start_round(event.state))
    with pytest.raises(Conflict):
        event.ledger.start_round(event.state)
    with pytest.raises(InvalidEvent) as raised:
        event.ledger.enter_result(event.state, 1, 1, None, forfeit="nobody")
    assert raised.value.at == ("forfeit",)
    with pytest.raises(Conflict):
        event.ledger.close_round(event.state, 1)
    with pytest.raises(Conflict):
        event.ledger.drop(event.state, "P0")
    for game in (1, 2):
        event.act(event.ledger.enter_result(event.state, 1, game, (400, 300)))
    event.act(event.ledger.close_round(event.state, 1))
    assert event.state.status() == "finished"
    with pytest.raises(Conflict):
        event.ledger.start_round(event.state)
    with pytest.raises(Conflict):
        event.ledger.enter_late(event.state, Entrant("L", None, 1500))


def test_a_no_show_is_withdrawn_and_the_round_paired_again(rules):
    event = Event(rules, 6, 3)
    event.act(event.ledger.start_round(event.state))
    no_show = event.state.latest.games[0][1]
    event.act(event.ledger.reseat(event.state, 1, [no_show]))
    rnd = event.state.latest
    assert no_show not in {p for g in rnd.games for p in g} and rnd.bye is not None
    assert event.state.dropped == {no_show: 1}
    assert "paired again" in event.ledger.describe(event.log[-1].action)


def test_a_back_to_back_rematch_is_swapped_with_the_nearest_game():
    last_round = {"A": "B", "B": "A", "C": "E", "E": "C", "D": "F", "F": "D"}
    players = [Player(p, 10 - i, 0, opponents=(last_round[p],)) for i, p in enumerate("ABCDEF")]
    standings = Standings.from_players(players)
    games = [("A", "B"), ("C", "D"), ("E", "F")]
    swapped = without_back_to_back(standings, RepeatPolicy(1), games)
    assert games == [("A", "C"), ("B", "D"), ("E", "F")]
    assert swapped == ["A-C and B-D for A-B, C-D"]
    assert not any(standings.back_to_back(a, b) for a, b in games)


def test_the_tsh_file_reads_back_and_keeps_an_open_round_unscored(rules):
    event = Event(rules, 7, 3, bye_spread=75)
    rng = random.Random(2)
    event.play(rng)
    ours = {(s.wins * 2, s.spread) for s in event.state.standings()}
    event.act(event.ledger.start_round(event.state))  # open: the file has no scores of it
    text = division_file(event.state)
    lines = text.splitlines()
    assert len(lines) == 7
    bye = event.state.round(1).bye
    bye_line = lines[event.state.rating_order().index(bye)]
    assert bye_line.split(";")[1].split()[0] == "75"
    division = read_division(text, complete_rounds_only=True)
    assert division.rounds == 1 and division.partly_entered == 2
    assert {(p.half_wins, p.spread) for p in division.players} == ours


def test_names_are_made_safe_for_a_tsh_line():
    assert tsh_name("Player 12") == "Player-12"
    assert tsh_name("#Lee; Ann") == "Lee, Ann"
    assert tsh_name("Smith, John 3rd") == "Smith, John 3rd"


def test_the_final_round_with_players_withdrawn(rules):
    event = Event(rules, 10, 4)
    rng = random.Random(8)
    for _ in range(3):
        event.play(rng)
    ranked = [s.player for s in event.state.standings()]
    event.act(event.ledger.drop(event.state, ranked[-1]))  # out of reach: judged exactly
    event.act(event.ledger.drop(event.state, ranked[0]))  # the leader: counted as they stand
    event.act(event.ledger.start_round(event.state))
    final = event.state.latest
    assert final.method == "advisor"
    paired = {p for g in final.games for p in g}
    assert final.bye is None and paired == set(ranked[1:-1])
    assert f"{ranked[0]} withdrew in reach of a victor place: counted as they stand" in final.rule
    assert ranked[-1] not in final.rule


def test_a_swiss_round_gibsonizes_a_player_whose_place_is_settled():
    # 28 players after round 13 of 15: #1 is three wins clear of #2 with two rounds left,
    # certain of a victor place on wins alone (tsh: lead greater than the rounds left).
    # The Swiss would pair #1 with #3; Gibsonized, #1 plays the highest-ranked player who
    # can no longer reach a victor place, and the round's rule says so.
    wins = [12, 9, 9, 8.5, 8, 8, 8, 7.5, 7, 7, 7, 7, 6.5, 6, *[5] * 6, *[4] * 4, *[3] * 4]
    s = Standings.from_players(
        [Player(f"P{i}", int(w * 2), 100 - 10 * i) for i, w in enumerate(wins)]
    )
    places = Places(2, None, None, 2)
    race = contention(s, 2, None, 2)
    plain = pair_round("swiss", s, s.ids, {}, 2, {})
    assert next(b for a, b in plain.games if a == "P0") in race.contenders  # Swiss: #1 v #2
    pairing = pair_round("swiss", s, s.ids, {}, 2, {}, places=places)
    opponent = next(b for a, b in pairing.games if a == "P0")
    assert "P0" in race.clinched and opponent not in race.contenders
    highest_outside = min((p for p in s.ids if p not in race.relevant), key=s.rank)
    assert opponent == highest_outside
    assert pairing.rule == (
        f"#1 is certain of a victor place: plays #{s.rank(opponent)}, the highest-ranked "
        "player in no race"
    )
    # Everyone else is still paired Swiss, each once.
    assert sorted(p for g in pairing.games for p in g) == sorted(s.ids)


def test_a_game_against_a_withdrawn_player_keeps_its_round_in_the_record(rules):
    # Two rounds played; the last opponent of some player then withdraws. Their round-1
    # opponent is not last round's, and a game against a withdrawn player is no meeting.
    event = Event(rules, 6, 4)
    rng = random.Random(3)
    event.play(rng)
    event.play(rng)
    first = dict(p for a, b in event.state.round(1).games for p in ((a, b), (b, a)))
    second = dict(p for a, b in event.state.round(2).games for p in ((a, b), (b, a)))
    player = next(p for p in first if first[p] != second[p])
    gone = second[player]
    event.act(event.ledger.drop(event.state, gone))
    players = [p for p in event.state.players if p != gone]
    s = event.state.pairing_standings(players)
    assert gone not in s
    assert not s.back_to_back(player, first[player])
    assert s.meetings(player, first[player]) == 1
    assert len(s.player(player).opponents) == 2 and s.byes(player) == 0


def test_a_withdrawn_player_keeps_their_place_when_deciding_who_is_settled():
    # W (12 wins) has withdrawn; A (11) leads those who play, two rounds left, victors 2.
    # Judged without W, only B (9) could reach A: A would look certain of a victor place
    # and be Gibsonized. W still holds one of the two places, so A races B for the other.
    wins = {"W": 12, "A": 11, "B": 9, "C": 8, "D": 5, "E": 4, "F": 3, "G": 2, "H": 1}
    everyone = Standings.from_players(
        [Player(p, int(w * 2), 100 - 10 * i) for i, (p, w) in enumerate(wins.items())]
    )
    players = [p for p in everyone.ids if p != "W"]
    playing = Standings.from_players([everyone.player(p) for p in players])
    alone = pair_round("swiss", playing, players, {}, 2, {}, places=Places(2, None, None, 2))
    assert (alone.rule or "").startswith("#1 is certain of a victor place")
    assert ("A", "D") in alone.games
    places = Places(2, None, None, 2, everyone)
    pairing = pair_round("swiss", playing, players, {}, 2, {}, places=places)
    assert pairing.rule is None
    assert ("A", "B") in pairing.games


def test_a_lone_settled_player_takes_the_bye_of_an_odd_field():
    wins = [12, 9, 9, 8.5, 8, 8, 7.5, 7, 6, 5, 4]
    s = Standings.from_players(
        [Player(f"P{i}", int(w * 2), 100 - 10 * i) for i, w in enumerate(wins)]
    )
    pairing = pair_round("swiss", s, s.ids, {}, 2, {}, places=Places(2, None, None, 2))
    assert pairing.bye == "P0"
    # ... unless they have had more byes than the player the method would give it.
    again = pair_round("swiss", s, s.ids, {"P0": 1}, 2, {}, places=Places(2, None, None, 2))
    assert again.bye == "P10"
    assert not any("P0" in g and set(g) & {"P1", "P2", "P3"} for g in again.games)


def test_with_graded_prizes_a_player_certain_of_first_never_plays_a_racer():
    # Five places paying differently, three rounds left: #1 is certain of 1st, #2-#6
    # race for the places below it. #1 plays the best player in no race.
    wins = [14, 10, 10, 9.5, 9, 9, 5, 5, 4, 4, 3, 3]
    s = Standings.from_players(
        [Player(f"P{i}", int(w * 2), 100 - 10 * i) for i, w in enumerate(wins)]
    )
    places = Places(5, (500.0, 300.0, 200.0, 100.0, 50.0), None, 3)
    pairing = pair_round("koth", s, s.ids, {}, 2, {}, places=places)
    opponent = next(b for a, b in pairing.games if a == "P0")
    assert s.rank(opponent) >= 7
    assert "certain of 1st" in (pairing.rule or "")


@pytest.mark.parametrize(
    ("c_half_wins", "rounds_left", "in_reach"),
    [
        # One round left: B stays on 10 wins, +300, a victor unless two of A, C and D
        # finish above: either side of the line, counted as they stand.
        (20, 1, True),
        # Two left, C half a win ahead of B: A and C stay above B's 10 wins even losing
        # both. B would be in reach only if a round without a result counted as a draw
        # (11 wins), which it does not.
        (21, 2, False),
    ],
)
def test_a_dropped_player_finishes_on_the_record_they_have(
    rules, c_half_wins, rounds_left, in_reach
):
    # A held event scores nothing for a player who has withdrawn: the advisor counts
    # their record as it stands (no result, no spread, each round left).
    rows = [("A", 21, 100), ("B", 20, 300), ("C", c_half_wins, 0), ("D", 19, 0)]
    rows += [("E", 10, 0), ("F", 8, 0), ("G", 6, 0)]
    everyone = Standings.from_players([Player(p, hw, spread) for p, hw, spread in rows])
    players = [p for p in everyone.ids if p != "B"]
    playing = Standings.from_players([everyone.player(p) for p in players])
    final = FinalRound(rules.scrabble, 2, None, rounds_left, everyone)
    pairing = pair_round("advisor", playing, players, {}, 1, {}, 0, final)
    assert "B" not in {p for game in pairing.games for p in game}
    note = "B withdrew in reach of a victor place: counted as they stand"
    assert (note in (pairing.rule or "")) is in_reach
