"""Who can still become a victor, who is certain, and how the spread cap changes both."""

from __future__ import annotations

from pairing_service.engine.scrabble.contention import contention
from pairing_service.engine.scrabble.judge.proof import Place, RoundUnderTest
from tests.support import field


def test_two_games_clear_is_certain_on_wins():
    s = field((10, 0), (10, 0), (8, 0), (8, 0))
    in_contention = contention(s, 2, None)
    assert in_contention.clinched == ("P1", "P2")
    assert in_contention.contenders == ()


def test_tie_on_wins_is_open_without_a_cap_and_decided_with_one():
    s = field((10, 900), (9, 0), (8, 0))
    assert contention(s, 1, None).clinched == ()
    # #2 wins and #1 loses: level on wins; with 250 per player per game #2 gains at most 500.
    assert contention(s, 1, 250).clinched == ("P1",)
    assert contention(s, 1, 500).clinched == ()


def test_players_two_games_down_are_out():
    s = field((10, 0), (10, 0), (8, 0), (7.5, 0))
    in_contention = contention(s, 2, None)
    assert "P4" not in in_contention.contenders + in_contention.clinched


def test_outcomes_of_a_pairing():
    s = field((10, 0), (10, 0), (9, 0), (9, 0))
    in_contention = contention(s, 2, None)
    test = RoundUnderTest(s, in_contention.relevant, [("P1", "P2"), ("P3", "P4")], None, 2, None)
    outcomes = list(test.outcomes())
    assert len(outcomes) == 9
    # The 1-2 winner is certain whatever the other game does.
    for outcome in outcomes:
        if test.outcome(outcome).results["P1"].value == "win":
            assert test.place("P1", outcome) is Place.CERTAIN


def test_more_rounds_left_widen_contention():
    s = field((10, 0), (9, 0), (8, 0), (7, 0), (5, 0))
    assert contention(s, 1, None, rounds_left=1).contenders == ("P1", "P2")
    assert contention(s, 1, None, rounds_left=2).contenders == ("P1", "P2", "P3")
    assert contention(s, 1, None, rounds_left=3).contenders == ("P1", "P2", "P3", "P4")
    # Two games clear with one round left is certain; with two rounds left it is not.
    t = field((10, 0), (8, 0), (7, 0))
    assert contention(t, 1, None, rounds_left=1).clinched == ("P1",)
    assert contention(t, 1, None, rounds_left=2).clinched == ()


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from pairing_service.engine.scrabble.contention import (  # noqa: E402
    Final,
    Result,
    final_after,
    fixed_final,
    may_reach,
    surely_above,
)


def _pairwise_contention(s, victors, cap, fixed=None):
    """The definition, player against player, as an independent check of the fast version;
    ``fixed``: players whose one round left scores that spread (a single final)."""
    fixed = fixed or {}

    def final(q, result):
        if q.id not in fixed:
            return final_after(q.half_wins, q.spread, result, cap)
        wins, spread = fixed_final(q.half_wins, q.spread, fixed[q.id], 1)
        return Final(wins, spread, spread)

    contenders, clinched = [], []
    for p in s.ranked:
        best, worst = final(p, Result.WIN), final(p, Result.LOSS)
        others = [q for q in s.ranked if q.id != p.id]
        above = sum(surely_above(final(q, Result.LOSS), best) for q in others)
        if above >= victors:
            continue
        catchers = sum(may_reach(final(q, Result.WIN), worst) for q in others)
        (clinched if catchers < victors else contenders).append(p.id)
    return tuple(contenders), tuple(clinched)


@settings(max_examples=200, deadline=None)
@given(
    rows=st.lists(st.tuples(st.integers(0, 12), st.integers(-900, 900)), min_size=1, max_size=25),
    victors=st.integers(1, 8),
    cap=st.one_of(st.none(), st.integers(1, 400)),
)
def test_fast_contention_matches_the_pairwise_definition(rows, victors, cap):
    s = field(*[(hw / 2, spread) for hw, spread in rows])
    in_contention = contention(s, victors, cap)
    assert (in_contention.contenders, in_contention.clinched) == _pairwise_contention(
        s, victors, cap
    )


@settings(max_examples=200, deadline=None)
@given(
    rows=st.lists(
        st.tuples(st.integers(0, 12), st.integers(-900, 900), st.sampled_from([None, -50, 0, 50])),
        min_size=1,
        max_size=25,
    ),
    victors=st.integers(1, 8),
    cap=st.one_of(st.none(), st.integers(1, 400)),
)
def test_contention_with_players_sitting_out_matches_the_pairwise_definition(rows, victors, cap):
    s = field(*[(hw / 2, spread) for hw, spread, _ in rows])
    fixed = {f"P{i}": known for i, (_, _, known) in enumerate(rows, 1) if known is not None}
    in_contention = contention(s, victors, cap, fixed=fixed)
    assert (in_contention.contenders, in_contention.clinched) == _pairwise_contention(
        s, victors, cap, fixed
    )
