"""Players who sit the round out with a known result (tsh's ``off``, finalists resting on
byes): counted exactly by contention, taken out of the judging when certain of a place
(the other places judged among those who play), judged at their one final record by the
outcome engine when they may finish either side of a victor line; a withdrawn player
without a known result who can still be a victor is refused by name."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pairing_service.engine.scrabble import InvalidStandings, advise
from pairing_service.engine.scrabble.contention import Result, contention, fixed_final
from pairing_service.engine.scrabble.explain.needs import need_text
from pairing_service.engine.scrabble.judge.comparison import Judge
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
        p: (standings.player(p).half_wins + (2 if s > 0 else 0), standings.player(p).spread + s)
        for p, s in resting.items()
    }
    always, ever = _brute_victor(standings, pairs, finals_fixed, player, results, victors, cap)
    return Place.CERTAIN if always else Place.SPREAD if ever else Place.OUT


def _brute_victor(standings, pairs, finals_fixed, player, results, victors, cap):
    """(a victor for every outcome, for some outcome) of ``player`` over every margin of
    every game (each game's result fixed where ``results`` names a player's), the players
    in ``finals_fixed`` at their one final record: the whole field counted."""
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
    return always, ever


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
    # A contender sitting out beside them is judged at their record (``sitting_out``).
    in_play = round_field.contention
    test = RoundUnderTest(
        s, in_play.relevant, pairs, None, round_field.victors, cap, sitting_out=in_play.fixed
    )
    for assignment in test.outcomes():
        results = {test.units[i].first: r for i, r in assignment.items()}
        for player in test.unit_of:
            assert test.place(player, assignment) is _brute_place(
                s, pairs, known, player, results, victors, cap
            ), (player, results)


def test_a_contender_sitting_out_is_judged_at_their_record_and_named():
    # P2 withdrew with forfeit losses: 9 wins, +80 at the end, a victor unless two of P1,
    # P3, P4 and P5 pass them: either side of the line, so judged in place, not paired.
    s = field((10, 300), (9, 100), (8.5, 40), (8.5, 0), (8, 0), (5, 0), (4, 0))
    round_field = field_of(s, 2, None, 1, frozenset({"P2"}), {"P2": -20})
    assert round_field.contention.sitting_out == (("P2", -20),)
    assert "P2" not in round_field.contention.relevant and round_field.victors == 2
    assert "#2 Player 2 sits out (-20 a round): counted as finishing at 9 wins, +80" in (
        round_field.warnings
    )
    # Two rounds left: both score the forfeit.
    two = field_of(s, 2, None, 2, frozenset({"P2"}), {"P2": -20})
    assert "#2 Player 2 sits out (-20 a round): counted as finishing at 9 wins, +60" in (
        two.warnings
    )


def test_a_dropped_players_record_stands_as_it_is_at_zero_a_round():
    # tsh counts an unplayed round (0) as no result: a player sitting out at 0 keeps their
    # record, neither a draw nor a loss added, however many rounds are left.
    s = field((10, 300), (9, 100), (8.5, 40), (8.5, 0), (8, 0), (5, 0))
    round_field = field_of(s, 2, None, 3, frozenset({"P2"}), {"P2": 0})
    assert "#2 Player 2 sits out (+0 a round): counted as finishing at 9 wins, +100" in (
        round_field.warnings
    )


# P1 is a win ahead, P2 sits out half a win behind, P3 and P4 race below: whether P1 is
# certain after a loss depends only on P2's known result.
P2_DECIDES = ((11, 0), (10.5, 200), (10.5, 100), (10, 0), (5, 0), (5, 0), (4, 0))


@pytest.mark.parametrize(
    ("per_round", "p1_loss", "p1_need"),
    [
        (-50, (True, True), "is a victor whatever happens"),
        (50, (False, False), "needs to win, or draw and have #3 Player 3 not beat #4 Player 4"),
    ],
)
def test_the_record_of_a_player_sitting_out_decides_who_is_certain(
    rules, per_round, p1_loss, p1_need
):
    s = field(*P2_DECIDES)
    known = {"P2": per_round}
    round_field = field_of(s, 2, None, 1, frozenset(known), known)
    assert [p for p, _ in round_field.contention.sitting_out] == ["P2"]  # either side
    judge = Judge(s, round_field.contention, None, round_field.victors, None)
    pairs = [("P1", "P5"), ("P3", "P4"), ("P6", "P7")]
    evaluation = judge.evaluate(pairs)
    # P1 after a loss (11 wins, spread down): one of P3 and P4 finishes above (a win, or
    # P3's draw on spread); forfeits leave P2 at 10.5 below, byes take P2 to 11.5 above.
    assert evaluation.standing("P1", Result.LOSS) == p1_loss
    assert evaluation.standing("P1", Result.WIN) == (True, True)
    assert need_text(evaluation, "P1") == p1_need
    # The advice pairs everyone else, and counts P2 among the contenders.
    advice = advise(s, rules.scrabble, withdrawn=frozenset(known), known_results=known, victors=2)
    paired = sorted(p for g in advice.games for p in g.players)
    assert paired == ["P1", "P3", "P4", "P5", "P6", "P7"]
    assert "P2" in advice.contenders


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    # 5 or 7 players: the others pair off without a bye (whose +50 is beyond this cap,
    # which contention's margins assume it is not).
    rows=st.sampled_from([5, 7]).flatmap(
        lambda size: st.lists(
            st.tuples(st.integers(4, 8), st.integers(-6, 6)), min_size=size, max_size=size
        )
    ),
    sitting_at=st.integers(0, 3),
    per_round=st.sampled_from([-50, -2, 0, 2, 50]),
    victors=st.integers(1, 3),
    seed=st.randoms(use_true_random=False),
)
def test_a_player_sitting_out_either_side_is_judged_as_brute_force(
    rows, sitting_at, per_round, victors, seed
):
    """Each judged player's standing per own result (certain, possible: what every verdict
    and need reads) against brute force over every result and margin of the whole field,
    with one player sitting out at a known result who may finish either side of the line."""
    cap = 2
    s = field(*[(hw / 2, sp) for hw, sp in rows])
    sitting = s.ids[sitting_at % len(s)]
    known = {sitting: per_round}
    round_field = field_of(s, victors, cap, 1, frozenset(known), known)
    assume(round_field.contention.sitting_out)  # either side of the line
    playing = [p for p in s.ids if p != sitting]
    seed.shuffle(playing)
    pairs = [(playing[i], playing[i + 1]) for i in range(0, len(playing), 2)]
    in_play = round_field.contention
    evaluation = Judge(s, in_play, None, victors, cap).evaluate(pairs)
    record = s.player(sitting)
    finals_fixed = {sitting: fixed_final(record.half_wins, record.spread, per_round, 1)}
    for player in in_play.judged:
        own_results = evaluation.test.own_results(player)
        for own in own_results:
            results = {} if own is None else {player: own}
            expected = _brute_victor(s, pairs, finals_fixed, player, results, victors, cap)
            assert evaluation.standing(player, own) == expected, (player, own)


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


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    rows=st.lists(st.tuples(st.integers(8, 16), st.integers(-60, 60)), min_size=8, max_size=12),
    sitting_at=st.integers(0, 3),
    per_round=st.sampled_from([-50, 0, 50]),
    victors=st.integers(1, 3),
    rounds_left=st.integers(1, 3),
    cap=st.sampled_from([20, 100, None]),
)
def test_with_every_game_against_an_outsider_the_engine_agrees_with_contention(
    rows, sitting_at, per_round, victors, rounds_left, cap
):
    """When every player who can be a victor faces one who cannot, no game ties two of
    them, and the engine's standings are contention's, round by round left: the player
    sitting out (their one record covering every round left) is possible and not certain,
    as a contender; a player who plays is certain for every own result exactly when
    clinched."""
    s = field(*[(hw / 2, sp) for hw, sp in rows])
    sitting = s.ids[sitting_at]
    known = {sitting: per_round}
    round_field = field_of(s, victors, cap, rounds_left, frozenset(known), known)
    in_play = round_field.contention
    assume(in_play.sitting_out)
    outsiders = [p for p in s.ids if p not in in_play.judged and p != sitting]
    assume(len(outsiders) >= len(in_play.relevant))
    pairs = list(zip(in_play.relevant, outsiders, strict=False))
    rest = outsiders[len(pairs) :]
    pairs += list(zip(rest[0::2], rest[1::2], strict=False))
    judge = Judge(s, in_play, None, round_field.victors, cap, rounds_left)
    evaluation = judge.evaluate(pairs)
    assert evaluation.standing(sitting, None) == (False, True)
    for player in in_play.relevant:
        results = evaluation.test.own_results(player)
        certain = all(evaluation.standing(player, r)[0] for r in results)
        assert certain == (player in in_play.clinched), player
        assert any(evaluation.standing(player, r)[1] for r in results), player
