"""Puffing Billy scoring against seed 004: the worked example, ties, events, finals."""

from __future__ import annotations

from decimal import Decimal

import pytest

from pairing_service.engine.puffing_billy import (
    Board,
    BoardEntry,
    InvalidBoard,
    Method,
    score_board,
    standings,
)
from tests.support import BILLY_EXAMPLE


@pytest.fixture(scope="module")
def pb(rules):
    return rules.puffing_billy


def board(*rows, places=None):
    return [
        BoardEntry(name, score, None if places is None else places[i])
        for i, (name, score) in enumerate(rows)
    ]


def totals(scored):
    return {e.id: (e.placement, e.bonus, e.total) for e in scored}


def test_the_seeds_worked_example_digit_for_digit(pb):
    got = totals(score_board(board(*BILLY_EXAMPLE), pb))
    assert got["Jenny"] == (Decimal("3"), Decimal("0.028"), Decimal("3.028"))
    assert got["Damien"][1] == Decimal("0.492")
    assert [got[p][1] for p in ("Damien", "Stephen", "Sybil")] == [
        Decimal("0.492"),
        Decimal("0.240"),
        Decimal("0.194"),
    ]
    assert got["Ben"] == (Decimal("0"), Decimal("0"), Decimal("0"))
    assert all(isinstance(v, Decimal) for row in got.values() for v in row)


def test_a_player_above_the_winner_gets_half_a_point(pb):
    # Rail Baron: the winner reaches home first; Damien has more money.
    got = totals(
        score_board(board(("Jenny", 200_000), ("Damien", 260_000), ("Sybil", 100_000)), pb)
    )
    assert got["Damien"] == (Decimal("2"), Decimal("0.5"), Decimal("2.500"))
    assert got["Jenny"][1] == Decimal("0.023")  # 0.03 x (0.5 + 0.25) = 0.0225 -> .023
    best = score_board(board(("W", 100), ("A", 101), ("B", 150), ("C", 200)), pb)
    assert best[0].bonus == Decimal("0.045")  # the most a winner can get


def test_fifth_and_sixth_get_nothing(pb):
    rows = [(f"P{i}", 100 - i) for i in range(6)]
    got = score_board(board(*rows), pb)
    assert [e.placement for e in got] == [3, 2, 1, 0, 0, 0]
    assert got[4].total == got[5].total == 0


def test_ties_share_the_tied_places(pb):
    # A tie for 2nd and 3rd: (2 + 1) / 2 placement, and the two places' bonuses averaged.
    got = (
        totals(
            score_board(
                board(("A", 200), ("B", 150), ("C", 150), ("D", 100)), pb, Method.PRELIMINARY
            )
        )
        | {}
    )
    tied = totals(
        score_board(board(("A", 200), ("B", 150), ("C", 150), ("D", 100), places=[1, 2, 2, 4]), pb)
    )
    assert tied["B"][0] == tied["C"][0] == Decimal("1.500")
    assert tied["B"][1] == tied["C"][1] == Decimal("0.375")
    assert sum(v[2] for v in tied.values()) == sum(v[2] for v in got.values())
    # A tie for first shares 3 and 2, and the winner's and the runner-up's bonuses.
    first = totals(score_board(board(("A", 200), ("B", 200), ("C", 100), places=[1, 1, 3]), pb))
    assert first["A"][0] == Decimal("2.500")
    # Winner's bonus 0.03 x (0.5 + 0.25) = .023; shared with the 2nd place's .5: .2615 -> .262
    assert first["A"][1] == first["B"][1] == Decimal("0.262")
    # Dense places mean the same tie.
    dense = score_board(
        board(("A", 200), ("B", 150), ("C", 150), ("D", 100), places=[1, 2, 2, 3]), pb
    )
    assert totals(dense) == tied
    # A tie across 4th and 5th shares the 4th place's bonus with a place that has none.
    edge = totals(
        score_board(
            board(
                ("A", 400), ("B", 300), ("C", 200), ("D", 100), ("E", 100), places=[1, 2, 3, 4, 4]
            ),
            pb,
        )
    )
    assert edge["D"][1] == edge["E"][1] == Decimal("0.063")  # 0.125 / 2, rounded half up


@pytest.mark.parametrize(
    ("rows", "places", "at"),
    [
        ([], None, ("players",)),
        ([(f"P{i}", 10) for i in range(7)], None, ("players",)),
        ([("A", 10), ("A", 5)], None, ("players", 1, "id")),
        ([("A", 10), ("B", -5)], None, ("players", 1, "score")),
        ([("A", 10), ("B", 5)], [1, None], ("players",)),
        ([("A", 10), ("B", 5)], [2, 1], ("players",)),
        ([("A", 10), ("B", 5), ("C", 1)], [1, 3, 3], ("players",)),
    ],
)
def test_bad_boards_are_refused(pb, rows, places, at):
    entries = [
        BoardEntry(name, score, None if places is None else places[i])
        for i, (name, score) in enumerate(rows)
    ]
    with pytest.raises(InvalidBoard) as caught:
        score_board(entries, pb)
    assert caught.value.at == at


def test_finals_reward_the_margin_of_victory(pb):
    close = score_board(board(("A", 201), ("B", 200), ("C", 100), ("D", 50)), pb, Method.FINAL)
    blowout = score_board(board(("A", 400), ("B", 200), ("C", 100), ("D", 50)), pb, Method.FINAL)
    assert close[0].bonus == Decimal("0.002")  # 0.5 x 1 / 201 = .00249
    assert blowout[0].bonus == Decimal("0.250")  # 0.5 x 200 / 400
    assert blowout[0].total > close[0].total
    # In preliminaries it is the other way round: close play pays.
    prelim_close = score_board(board(("A", 201), ("B", 200), ("C", 100), ("D", 50)), pb)
    prelim_blowout = score_board(board(("A", 400), ("B", 200), ("C", 100), ("D", 50)), pb)
    assert prelim_close[1].total > prelim_blowout[1].total
    # Never below zero (Rail Baron: more money than the winner), and only the winner's
    # margin counts: the runner-up's money earns nothing.
    odd = score_board(board(("A", 100), ("B", 300), ("C", 10)), pb, Method.FINAL)
    assert odd[0].bonus == 0 and odd[1].bonus == 0


def test_an_event_sums_boards_ranks_and_qualifies(pb):
    boards = [
        Board(tuple(board(("A", 300), ("B", 290), ("C", 100), ("D", 90)))),
        Board(tuple(board(("C", 300), ("A", 250), ("E", 200), ("F", 10)))),
        Board(tuple(board(("B", 300), ("E", 299), ("D", 100), ("F", 50)))),
        Board(tuple(board(("A", 100), ("C", 50))), Method.FINAL),
        Board(tuple(board(("B", 100), ("E", 90))), Method.FINAL),
    ]
    result = standings(boards, pb, finalists=4)
    by_id = {s.id: s for s in result.preliminary}
    expected_a = sum(e.total for b in result.boards[:3] for e in b if e.id == "A")
    assert by_id["A"].total == expected_a and by_id["A"].boards == 2 and by_id["A"].wins == 1
    assert [s.rank for s in result.preliminary] == sorted(s.rank for s in result.preliminary)
    assert len(result.qualifiers) >= 4
    assert all(by_id[p].qualified for p in result.qualifiers)
    # The final: A beats C by half its score (bonus .25), B beats E by a tenth (.05).
    assert result.champions == ["A"]
    assert {s.id for s in result.final} == {"A", "B", "C", "E"}


def test_a_tie_at_the_cut_qualifies_everyone_tied(pb):
    boards = [
        Board(tuple(board(("A", 100), ("B", 50)))),
        Board(tuple(board(("C", 100), ("D", 50)))),
    ]
    result = standings(boards, pb, finalists=1)
    assert result.qualifiers == ["A", "C"] and result.tied_at_cut == ["A", "C"]
    assert [s.rank for s in result.preliminary] == [1, 1, 3, 3]
