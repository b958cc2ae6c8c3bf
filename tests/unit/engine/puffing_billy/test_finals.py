"""Puffing Billy finals in the rules: the winner's margin, and who may sit at a final board.

The finals bonus is the winner's margin over the best score placed below, as a share of
the winning score, the same on every board size; every other place gets its placement
only (docs/puffing-billy.md). A final board takes qualifiers only, unless the director
marks a player as an alternate. The same through the API: tests/api/puffing_billy/test_finals.py.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
import yaml

from pairing_service.engine.puffing_billy import (
    Board,
    BoardEntry,
    FinalsScoring,
    InvalidBoard,
    Method,
    score_board,
    standings,
)
from tests.support import BILLY_EXAMPLE, ROOT


@pytest.fixture(scope="module")
def pb(rules):
    return rules.puffing_billy


def board(*rows, alternates=()):
    return tuple(BoardEntry(name, score, alternate=name in alternates) for name, score in rows)


def final(rows, pb):
    return {e.id: e for e in score_board(board(*rows), pb, Method.FINAL)}


# --- the finals bonus ------------------------------------------------------------------------


def test_a_201_200_final_rewards_the_winner_not_the_loser(pb):
    scored = final([("A", 201), ("B", 200)], pb)
    assert scored["A"].bonus == Decimal("0.002")  # 0.5 x 1 / 201
    assert scored["B"].bonus == 0  # not .498: the loser beat nobody
    assert scored["A"].total == Decimal("3.002") and scored["B"].total == 2


def test_the_finals_rule_is_the_same_on_every_board_size(pb):
    four = final([("A", 400), ("B", 300), ("C", 200), ("D", 100)], pb)
    five = final([("A", 400), ("B", 300), ("C", 200), ("D", 100), ("E", 50)], pb)
    three = final([("A", 400), ("B", 300), ("C", 200)], pb)
    # The winner's bonus depends on the top two scores only: 0.5 x 100 / 400.
    assert four["A"].bonus == five["A"].bonus == three["A"].bonus == Decimal("0.125")
    # A 4th place gets its placement, whether 5th sat at the board or not.
    assert four["D"].total == five["D"].total == 0
    # Below first, nothing but the placement, on every board.
    for scored in (three, four, five):
        assert all(e.bonus == 0 for p, e in scored.items() if p != "A")


def test_the_bigger_the_winners_margin_the_bigger_the_bonus(pb):
    close = final([("A", 201), ("B", 200), ("C", 100)], pb)
    blowout = final([("A", 400), ("B", 200), ("C", 100)], pb)
    assert blowout["A"].bonus == Decimal("0.250") > close["A"].bonus
    # At most half a point: a margin is never worth a place.
    shutout = final([("A", 400), ("B", 0)], pb)
    assert shutout["A"].bonus == Decimal("0.500")


def test_finals_edge_cases(pb):
    # Rail Baron: the winner has less money than the runner-up, no negative bonus.
    assert final([("A", 100), ("B", 300), ("C", 10)], pb)["A"].bonus == 0
    # Alone at a board, or a 0-0 board: no margin to measure.
    assert final([("A", 100)], pb)["A"].bonus == 0
    assert final([("A", 0), ("B", 0)], pb)["A"].bonus == 0
    # A tie for first shares the winner's margin (over the best placed below) and 3 + 2.
    tied = score_board(
        (BoardEntry("A", 400, 1), BoardEntry("B", 380, 1), BoardEntry("C", 200, 3)),
        pb,
        Method.FINAL,
    )
    assert [e.bonus for e in tied] == [Decimal("0.125"), Decimal("0.125"), 0]
    assert tied[0].placement == tied[1].placement == Decimal("2.500")


def test_the_seeds_worked_example_is_a_preliminary_board_and_stays_digit_for_digit(pb):
    prelim = {e.id: e.total for e in score_board(board(*BILLY_EXAMPLE), pb)}
    assert [str(prelim[p]) for p, _ in BILLY_EXAMPLE] == [
        "3.028",
        "2.492",
        "1.240",
        "0.194",
        "0.000",
    ]
    # The same sheet as a final: Jenny's margin over Damien, 0.5 x 4,000 / 252,000.
    as_final = final(BILLY_EXAMPLE, pb)
    assert as_final["Jenny"].total == Decimal("3.008")
    assert [as_final[p].total for p in ("Damien", "Stephen", "Sybil", "Ben")] == [2, 1, 0, 0]


def test_the_directors_finals_scoring_scores_the_seeds_sheet_as_a_final(pb):
    """winner_margin (the default) gives the margin rule above; close_play the seed's
    preliminary digits; placement_only the placements alone."""
    entries = board(*BILLY_EXAMPLE)
    totals = {
        finals: [str(e.total) for e in score_board(entries, pb, Method.FINAL, finals)]
        for finals in FinalsScoring
    }
    assert totals == {
        FinalsScoring.WINNER_MARGIN: ["3.008", "2.000", "1.000", "0.000", "0.000"],
        FinalsScoring.CLOSE_PLAY: ["3.028", "2.492", "1.240", "0.194", "0.000"],
        FinalsScoring.PLACEMENT_ONLY: ["3.000", "2.000", "1.000", "0.000", "0.000"],
    }
    assert [str(e.total) for e in score_board(entries, pb, Method.FINAL)] == totals[
        FinalsScoring.WINNER_MARGIN
    ]
    # A preliminary board keeps the seed's method whatever the finals are scored by.
    for finals in FinalsScoring:
        prelim = score_board(entries, pb, Method.PRELIMINARY, finals)
        assert [str(e.total) for e in prelim] == totals[FinalsScoring.CLOSE_PLAY]


def test_the_rule_is_written_next_to_the_data():
    text = (ROOT / "rules" / "puffing_billy.yaml").read_text()
    comment = " ".join(text.split("final_margin_factor:")[0].rsplit("# Finals", 1)[1].split())
    assert "winner alone" in comment and "same on every board size" in comment.replace("# ", "")
    assert yaml.safe_load(text)["final_margin_factor"] == "0.5"


# --- who sits at a final board ---------------------------------------------------------------


EIGHT = [(f"P{i}", 1000 - 100 * i) for i in range(1, 9)]
# Two preliminary boards, P1-P4 and P5-P8: with four finalists P1, P5, P2 and P6 qualify.


def prelims():
    return [Board(board(*EIGHT[:4])), Board(board(*EIGHT[4:]))]


def test_the_calculator_refuses_a_non_qualifier_at_a_final_board(pb):
    boards = [*prelims(), Board(board(("P1", 10), ("P8", 5)), Method.FINAL)]
    result = standings(boards[:2], pb, finalists=4)
    assert "P8" not in result.qualifiers
    with pytest.raises(InvalidBoard) as caught:
        standings(boards, pb, finalists=4)
    assert caught.value.at == ("boards", 2, "players", 1, "id") and "P8" in caught.value.message


def test_the_calculator_takes_a_marked_alternate(pb):
    seats = board(("P1", 10), ("P8", 5), alternates={"P8"})
    result = standings([*prelims(), Board(seats, Method.FINAL)], pb, finalists=4)
    assert [s.id for s in result.final] == ["P1", "P8"]
    final_rows = {s.id: s for s in result.final}
    assert final_rows["P1"].qualified and not final_rows["P8"].qualified


@pytest.mark.parametrize(
    ("boards", "finalists", "at"),
    [
        # A qualifier is not an alternate.
        (
            [Board(board(("P1", 10), ("P2", 5), alternates={"P2"}), Method.FINAL)],
            4,
            ("boards", 2, "players", 1, "alternate"),
        ),
        # An alternate sits at a final board only.
        (
            [Board(board(("P1", 10), ("P2", 5), alternates={"P2"}))],
            4,
            ("boards", 2, "players", 1, "alternate"),
        ),
        # Boards of the final need the cut.
        ([Board(board(("P1", 10), ("P2", 5)), Method.FINAL)], 0, ("finalists",)),
        # One final board each.
        (
            [
                Board(board(("P1", 10), ("P2", 5)), Method.FINAL),
                Board(board(("P5", 10), ("P1", 5)), Method.FINAL),
            ],
            4,
            ("boards", 3, "players", 1, "id"),
        ),
    ],
)
def test_the_calculator_refuses_bad_final_seats(pb, boards, finalists, at):
    with pytest.raises(InvalidBoard) as caught:
        standings([*prelims(), *boards], pb, finalists=finalists)
    assert caught.value.at == at
