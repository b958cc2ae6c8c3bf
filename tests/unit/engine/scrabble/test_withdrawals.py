"""Players who sit the round out with a known result (tsh's ``off``, finalists resting on
byes): counted exactly by contention, taken out of the judging when certain of a place
(the other places judged among those who play), refused by name otherwise."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pairing_service.engine.scrabble import InvalidStandings, advise
from pairing_service.engine.scrabble.contention import Result, contention
from pairing_service.engine.scrabble.judge.proof import OPPOSITE, Place, RoundUnderTest
from pairing_service.engine.scrabble.withdrawals import field_of
from tests.support import field


def test_a_known_forfeit_settles_the_place_of_the_player_above():
    # P3 is a game behind P2; withdrawn with a forfeit loss each round, P3 cannot catch up.
    s = field((10, 0), (9, 0), (8, 200), (6, 0))
    assert contention(s, 2, None).clinched == ("P1",)
    assert contention(s, 2, None, fixed={"P3": -50}).clinched == ("P1", "P2")
    # A known win (a bye) keeps P3 in reach of P2 on wins, level if P2 loses.
    assert contention(s, 2, None, fixed={"P3": 50}).clinched == ("P1",)


def test_a_known_result_counts_every_round_left():
    s = field((10, 0), (9, 0), (8, 0))
    # Played, P3 can reach 10 wins in two rounds while P1 loses both: in contention.
    assert "P3" in contention(s, 1, None, 2).contenders
    # Two forfeit losses leave P3 on 8; one bye win takes P3 to 9, two to 10.
    assert "P3" not in contention(s, 1, None, 2, fixed={"P3": -50}).relevant
    assert "P3" not in contention(s, 1, None, 1, fixed={"P3": 50}).relevant
    assert "P3" in contention(s, 1, None, 2, fixed={"P3": 50}).contenders


def test_a_certain_player_sitting_out_leaves_the_other_places_to_those_who_play():
    s = field((12, 300), (9, 100), (8.5, 40), (8, 0), (5, 0), (4, 0))
    round_field = field_of(s, 2, None, 1, frozenset({"P1"}), {"P1": -50})
    assert round_field.resting_certain == ("P1",)
    assert round_field.victors == 1
    assert "P1" not in round_field.contention.relevant
    assert any("sits out certain of a victor place" in w for w in round_field.warnings)


@pytest.mark.parametrize(
    ("withdrawn", "known", "words"),
    [
        ({"P9"}, {}, "not in the standings"),
        (set(), {"P5": 50}, "has a known result but is not withdrawn"),
        ({"P2"}, {}, "give the spread their rounds score"),
        ({"P3"}, {"P3": 50}, "finishes a victor or not by the others' results"),
    ],
)
def test_who_cannot_sit_out_is_named(withdrawn, known, words):
    s = field((10, 300), (9, 100), (8.5, 40), (8, 0), (5, 0))
    with pytest.raises(InvalidStandings) as refused:
        field_of(s, 2, None, 1, frozenset(withdrawn), known)
    assert words in refused.value.message


def test_the_advice_pairs_the_race_for_the_place_left(rules):
    # P1 withdrew certain of a place: P2 and P3 race for the other, and play each other.
    s = field((12, 300), (9, 100), (8.5, 40), (7, 0), (5, 0), (4, 0), (3, 0))
    advice = advise(
        s, rules.scrabble, withdrawn=frozenset({"P1"}), known_results={"P1": -50}, victors=2
    )
    games = {game.players for game in advice.games}
    assert ("P2", "P3") in games or ("P3", "P2") in games
    assert all("P1" not in game.players for game in advice.games)
    assert advice.rule.source == "fallback"


def _brute_place(standings, pairs, resting, player, results, victors, cap):
    """``player``'s place over every margin of every game (each game's result fixed where
    ``results`` names it), the resting players' finals fixed: the whole field counted."""
    finals_fixed = {
        p: (
            standings.player(p).half_wins + (2 if s > 0 else 1 if s == 0 else 0),
            standings.player(p).spread + s,
        )
        for p, s in resting.items()
    }
    choices = []
    for a, b in pairs:
        allowed = (
            [results[a]]
            if a in results
            else [OPPOSITE[results[b]]]
            if b in results
            else list(Result)
        )
        options = []
        for result in allowed:
            if result is Result.WIN:
                options += [(2, d) for d in range(1, cap + 1)]
            elif result is Result.DRAW:
                options.append((1, 0))
            else:
                options += [(0, -d) for d in range(1, cap + 1)]
        choices.append(options)
    always, ever = True, False
    for combo in itertools.product(*choices):
        final = dict(finals_fixed)
        for (a, b), (gained, change) in zip(pairs, combo, strict=True):
            pa, pb = standings.player(a), standings.player(b)
            final[a] = (pa.half_wins + gained, pa.spread + change)
            final[b] = (pb.half_wins + 2 - gained, pb.spread - change)
        mine = final[player]
        always &= sum(1 for q, f in final.items() if q != player and f >= mine) < victors
        ever |= sum(1 for q, f in final.items() if q != player and f > mine) < victors
    return Place.CERTAIN if always else Place.SPREAD if ever else Place.OUT


@settings(max_examples=60, deadline=None)
@given(
    playing=st.lists(
        st.tuples(st.integers(0, 6), st.integers(-6, 6)), min_size=4, max_size=6
    ).filter(lambda rows: len(rows) % 2 == 0),
    resting=st.lists(
        st.tuples(st.integers(5, 12), st.integers(-6, 6), st.sampled_from([-2, 0, 2])),
        min_size=1,
        max_size=2,
    ),
    victors=st.integers(2, 3),
)
def test_judging_without_the_certain_players_sitting_out_is_exact(playing, resting, victors):
    """Every playing contender's place in every outcome, judged for the places left among
    those who play, is its place in the whole field with the resting players' finals."""
    cap = 2
    rows = [(hw / 2, sp) for hw, sp, _ in resting] + [(hw / 2, sp) for hw, sp in playing]
    order = sorted(range(len(rows)), key=lambda i: (-rows[i][0], -rows[i][1]))
    s = field(*[rows[i] for i in order])
    ids = [f"P{order.index(i) + 1}" for i in range(len(rows))]
    known = {ids[i]: per_round for i, (_, _, per_round) in enumerate(resting)}
    try:
        round_field = field_of(s, victors, cap, 1, frozenset(known), known)
    except InvalidStandings:
        assume(False)
        return
    assume(round_field.resting_certain)
    players = ids[len(resting) :]
    pairs = [(players[i], players[i + 1]) for i in range(0, len(players), 2)]
    test = RoundUnderTest(s, round_field.contention.relevant, pairs, None, round_field.victors, cap)
    for assignment in test.outcomes():
        results = {test.units[i].first: r for i, r in assignment.items()}
        for player in test.unit_of:
            assert test.place(player, assignment) is _brute_place(
                s, pairs, known, player, results, victors, cap
            ), (player, results)


def test_contenders_sent_to_outsiders_play_each_other_when_none_is_free():
    # Five players, two withdrawn: D and E contend for the one place over three rounds
    # and C, the only player out of contention, has the bye. Each contender is sent to
    # "the highest-ranked player who cannot be a victor", of whom none is free: they play
    # each other, never themselves.
    from pairing_service.engine.scrabble import Player, Standings, advise
    from pairing_service.rules import load_rules

    records = [
        ("A", 0, 147, ("B", "E", "C", "D")),
        ("B", 0, -281, ("A", "C", "E", "E", "E")),
        ("C", 5, -491, ("B", "A", "D")),
        ("D", 10, 79, ("E", "A", "C")),
        ("E", 10, 347, ("D", "A", "B", "B", "B")),
    ]
    field = Standings.from_players(
        [Player(id=i, half_wins=h, spread=s, opponents=o) for i, h, s, o in records]
    )
    advice = advise(
        field,
        load_rules().scrabble,
        max_spread_per_game=100,
        rounds_left=3,
        victors=1,
        withdrawn=frozenset({"A", "B"}),
    )
    games = [g.players for g in advice.games]
    assert all(len(set(g)) == len(g) for g in games), games
    assert sorted(p for g in games for p in g) == ["C", "D", "E"]
    assert ("E", "D") in games
