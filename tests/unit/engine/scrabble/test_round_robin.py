"""Round robins, the engine alone: the circle's schedule (small, odd and double round
robins), a withdrawn player's opponents' byes, nobody joining late, and a held event paired
by it from the entry list and the round alone."""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

import pytest

from pairing_service.engine.errors import Conflict
from pairing_service.engine.scrabble.held.log_events import (
    SCRABBLE_EVENTS,
    Entrant,
    EventSettings,
)
from pairing_service.engine.scrabble.held.round_robin import (
    RoundRobin,
    circle_games,
    cycle_length,
)
from pairing_service.engine.scrabble.held.schedule import scheduled
from pairing_service.engine.scrabble.held.tsh_export import division_file
from pairing_service.engine.scrabble.tsh import read_division
from tests.unit.engine.scrabble.test_held_event import Event


def seeds(n: int) -> list[str]:
    return [f"P{i}" for i in range(1, n + 1)]


@pytest.mark.parametrize("n", range(2, 17))
def test_every_pair_meets_once_a_cycle_and_everyone_plays_once_a_round(n):
    met: Counter[frozenset[str | None]] = Counter()
    for r in range(1, cycle_length(n) + 1):
        games = circle_games(seeds(n), r)
        places = [p for game in games for p in game]
        assert len(places) == len(set(places)) == n + n % 2  # the bye's place in an odd field
        met.update(frozenset(game) for game in games)
    pairs = {frozenset((a, b)) for a in seeds(n) for b in seeds(n) if a < b}
    byes = {frozenset((p, None)) for p in seeds(n)} if n % 2 else set()
    assert set(met) == pairs | byes and set(met.values()) == {1}


def test_round_one_sets_the_top_seed_against_the_bottom_and_an_odd_fields_top_seed_sits_out():
    assert circle_games(seeds(6), 1) == [("P1", "P6"), ("P2", "P5"), ("P3", "P4")]
    assert circle_games(seeds(5), 1) == [("P1", None), ("P2", "P5"), ("P3", "P4")]
    # the circle turns one place a round: the top seed meets the second in round 2
    assert circle_games(seeds(6), 2) == [("P1", "P3"), ("P2", "P6"), ("P4", "P5")]


@pytest.mark.parametrize("n", [4, 5, 8, 9])
def test_a_double_round_robin_turns_the_circle_again_without_a_back_to_back_rematch(n):
    cycle = cycle_length(n)
    rounds = [set(map(frozenset, circle_games(seeds(n), r))) for r in range(1, 2 * cycle + 1)]
    assert rounds[cycle:] == rounds[:cycle]  # round cycle + 1 is round 1 again
    met = Counter(game for games in rounds for game in games)
    assert set(met.values()) == {2}
    assert all(not (a & b) for a, b in pairwise(rounds))


def test_a_withdrawn_players_opponent_has_a_bye_and_so_has_the_empty_places():
    robin = RoundRobin(tuple(seeds(7)), 2, 1)  # seven: an empty place too
    assert circle_games(seeds(7), 2) == [
        ("P1", "P3"),
        ("P2", None),
        ("P4", "P7"),
        ("P5", "P6"),
    ]
    pairing = robin.pairing(["P1", "P2", "P3", "P5", "P6", "P7"])  # P4 withdrew
    assert pairing.games == (("P1", "P3"), ("P5", "P6"))
    assert pairing.bye == "P2" and pairing.unopposed == ("P7",)
    assert pairing.rule == "round robin: round 2 of 7; a bye for P7 (their opponent withdrew)"
    # both players of a game withdrawn: no game, and no bye for anyone else
    both = robin.pairing(["P1", "P2", "P3", "P4", "P7"])
    assert both.games == (("P1", "P3"), ("P4", "P7")) and both.unopposed == ()
    assert RoundRobin(tuple(seeds(4)), 5, 1).words(()) == "round robin: round 2 of 3, cycle 2"


def test_a_player_outside_the_circle_is_refused_naming_them():
    with pytest.raises(Conflict, match=r"'?P9'? is not in the round robin that began in round 2"):
        RoundRobin(tuple(seeds(4)), 3, 2).pairing([*seeds(4), "P9"])


# --- a held event paired by it ---------------------------------------------------------------


def played(event: Event, seed: int, rounds: int) -> Event:
    rng = random.Random(seed)
    for _ in range(rounds):
        event.play(rng)
    return event


def test_a_held_round_robin_pairs_from_the_entry_list_and_the_round_alone(rules):
    settings = {"pairing_system": "round_robin"}
    assert [scheduled(n, EventSettings(9, **settings))[0] for n in (1, 5, 9)] == ["round_robin"] * 3
    first = played(Event(rules, 9, 9, **settings), 1, 9)
    second = played(Event(rules, 9, 9, **settings), 2, 9)  # other results
    games = [(r.games, r.bye) for r in first.state.rounds]
    assert games == [(r.games, r.bye) for r in second.state.rounds]
    assert {r.method for r in first.state.rounds} == {"round_robin"}
    # rating order: P0 is the top seed, so round 1 is its bye and P1 v P8, ...
    assert first.state.rounds[0].bye == "P0" and first.state.rounds[0].games[0] == ("P1", "P8")
    met = Counter(frozenset(g) for r in first.state.rounds for g in r.games)
    assert len(met) == 36 and set(met.values()) == {1}
    assert sorted(r.bye for r in first.state.rounds) == [f"P{i}" for i in range(9)]
    assert first.state.rounds[-1].rule == "round robin: round 9 of 9"


def test_a_withdrawal_gives_each_scheduled_opponent_a_bye_worth_the_bye_spread(rules):
    event = played(Event(rules, 6, 5, pairing_system="round_robin", bye_spread=60), 3, 2)
    event.act(event.ledger.drop(event.state, "P2"))
    played(event, 4, 3)
    later = event.state.rounds[2:]
    unopposed = [p for r in later for p in r.unopposed]
    # P2's three remaining opponents, one a round, each a bye
    assert len(unopposed) == len(set(unopposed)) == 3 and all(r.bye is None for r in later)
    assert all(len(r.unopposed) == 1 and len(r.games) == 2 for r in later)
    rows = {s.player: s for s in event.state.standings()}
    for player in unopposed:
        assert rows[player].byes == 1
    byes = [r for p in unopposed for r in event.state.played()[p] if r.outcome == "bye"]
    assert {r.spread for r in byes} == {60}
    # every pair met once, but P2's with those three
    met = Counter(frozenset(g) for r in event.state.rounds for g in r.games)
    assert set(met.values()) == {1} and len(met) == 15 - 3
    # the .t export: each such bye is opponent 0 scoring the bye's spread, and reads back
    read = {
        p.id: (p.half_wins, p.spread) for p in read_division(division_file(event.state)).players
    }
    number = {p: str(i) for i, p in enumerate(event.state.rating_order(), start=1)}
    assert read == {number[p]: (int(s.wins * 2), s.spread) for p, s in rows.items()}


def test_nobody_joins_a_round_robin_once_it_has_begun(rules):
    event = Event(rules, 4, 3, pairing_system="round_robin")
    event.act(event.ledger.enter_late(event.state, Entrant("L", None, 1500)))  # before it
    played(event, 5, 1)
    assert event.state.circle == ("P0", "P1", "P2", "P3", "L")
    with pytest.raises(Conflict, match="the round robin began in round 1: its schedule is"):
        event.ledger.enter_late(event.state, Entrant("M", None, 1500))
    # a player of the circle who withdrew comes back to their own place
    event.act(event.ledger.drop(event.state, "P1"))
    played(event, 6, 1)
    event.act(event.ledger.reinstate(event.state, "P1"))
    played(event, 7, 1)
    last = event.state.rounds[-1]
    assert "P1" in {p for g in last.games for p in g} | {last.bye} and not last.unopposed


def test_another_method_between_round_robin_rounds_leaves_the_schedule_whole(rules):
    event = played(Event(rules, 4, 5, pairing_system="round_robin"), 8, 1)
    event.play(random.Random(9), method="koth")
    played(event, 10, 2)
    robin = [r for r in event.state.rounds if r.method == "round_robin"]
    met = Counter(frozenset(g) for r in robin for g in r.games)
    assert len(met) == 6 and set(met.values()) == {1}  # the circle's three rounds, in order
    assert [r.rule for r in robin] == [f"round robin: round {k} of 3" for k in (1, 2, 3)]


def test_a_no_show_of_a_round_robin_round_is_paired_out_and_keeps_their_place(rules):
    event = Event(rules, 6, 5, pairing_system="round_robin")
    event.act(event.ledger.start_round(event.state))
    no_show = event.state.rounds[0].games[1][0]
    opponent = event.state.rounds[0].games[1][1]
    event.act(event.ledger.reseat(event.state, 1, [no_show]))
    rnd = event.state.rounds[0]
    assert rnd.unopposed == [opponent] and len(rnd.games) == 2
    assert event.state.circle is not None and no_show in event.state.circle


def test_settings_logged_before_the_pairing_system_fold_as_swiss():
    settings = {"rounds": 5, "spread_cap": None, "bye_spread": 50, "repeats_allowed": 1}
    settings |= {"victors": 2, "seed": 0}
    data = {"settings": settings, "players": [{"id": "A", "name": None, "rating": 1500}]}
    created = SCRABBLE_EVENTS.decode("created", data)
    assert created.settings.pairing_system == "swiss"
    paired = SCRABBLE_EVENTS.decode(
        "round_started",
        {"round": 1, "method": "swiss", "games": [["A", "B"]], "bye": None, "repeats_allowed": 0},
    )
    assert paired.unopposed == ()
