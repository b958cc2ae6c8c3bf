"""Meeple League rules: abandoned games, games entered twice, seeding between seasons.

- A game a player dropped out of still scores (seed 001 tracks "the number of players in
  that game" and has a Dropping Out section): the players who finished take the points of
  their places; the leaver is placed last and gets nothing (docs/league.md).
- A game's name is unique within a season: the same game entered twice is refused.
- Between seasons, players level on place and division are ordered by the same full
  tiebreaker chain as within a season, not by the order they were listed in.

The same through the API, and in held organisations: tests/api/league/test_games_and_seeding.py.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from pairing_service.engine.league import (
    Finish,
    Game,
    InvalidLeague,
    Result,
    form_leagues,
    league_table,
)
from pairing_service.engine.league.table import game_places, positions_the_scores_allow

SCALE = {4: (Fraction(10), Fraction(6), Fraction(3), Fraction(1))}


def game(name, *rows):
    """Rows of (player, score, position) or (player, score, position, dropped_out)."""
    return Game(name, tuple(Result(*row) for row in rows))


def by_player(lines):
    return {line.player: line for line in lines}


# --- a player dropped out ----------------------------------------------------------------


def test_a_game_a_player_abandoned_still_scores():
    abandoned = game("G1", ("A", 90, 1), ("B", 70, 2), ("C", 50, 3), ("D", 30, 4, True))
    lines = by_player(league_table([abandoned], SCALE))
    assert {p: line.league_points for p, line in lines.items()} == {
        "A": 10,
        "B": 6,
        "C": 3,
        "D": 0,  # the leaver: last, and not the point a finisher earns for 4th
    }
    leaver = lines["D"]
    assert leaver.games == 1 and leaver.dropouts == 1 and leaver.total_score == 30
    assert lines["A"].dropouts == 0 and lines["A"].wins == 1
    assert [line.player for line in league_table([abandoned], SCALE)][-1] == "D"


def test_two_leavers_get_nothing_and_no_place_counts_for_them():
    # Two left: they share the last places; neither counts a 3rd place.
    abandoned = game("G1", ("A", 90, 1), ("B", 70, 2), ("C", 60, 3, True), ("D", 65, 3, True))
    lines = by_player(league_table([abandoned], SCALE))
    assert (lines["A"].league_points, lines["B"].league_points) == (10, 6)
    assert lines["C"].league_points == lines["D"].league_points == 0
    assert lines["C"].thirds == lines["D"].thirds == 0


@pytest.mark.parametrize(
    ("rows", "at"),
    [
        # A leaver is placed below every player who finished.
        (
            (("A", 90, 1, True), ("B", 70, 2), ("C", 50, 3), ("D", 30, 4)),
            ("games", 0, "results", 0),
        ),
        (
            (("A", 90, 1), ("B", 70, 2, True), ("C", 50, 2), ("D", 30, 4)),
            ("games", 0, "results", 1),
        ),
        # Somebody has to finish the game.
        (
            (("A", 9, 1, True), ("B", 7, 2, True), ("C", 5, 3, True), ("D", 3, 4, True)),
            ("games", 0),
        ),
    ],
)
def test_a_leaver_is_placed_last_and_someone_finishes(rows, at):
    with pytest.raises(InvalidLeague) as caught:
        league_table([game("G1", *rows)], SCALE)
    assert caught.value.at[: len(at)] == at


def test_a_game_listed_without_its_leaver_says_how_to_report_one():
    with pytest.raises(InvalidLeague) as caught:
        league_table([game("G1", ("A", 90, 1), ("B", 70, 2), ("C", 50, 3))], SCALE)
    assert caught.value.at == ("games", 0, "results")
    assert "not 3" in caught.value.message and "dropped_out" in caught.value.message


# --- positions follow the scores ------------------------------------------------------------


@pytest.mark.parametrize(
    "rows",
    [
        (("A", 90, 1), ("B", 70, 2), ("C", 70, 2), ("D", 30, 4)),  # equal scores share 2nd
        (("A", 90, 1), ("B", 70, 2), ("C", 70, 3), ("D", 30, 4)),  # or a tie-break splits them
        (("A", 90, 1), ("B", 70, 2), ("C", 70, 2), ("D", 30, 3)),  # dense positions
        (("A", 50, 1), ("B", 40, 2), ("C", 30, 3), ("D", 95, 4, True)),  # a leaver is last
    ],
)
def test_positions_that_follow_the_scores_are_accepted(rows):
    assert len(league_table([game("G1", *rows)], SCALE)) == 4


@pytest.mark.parametrize(
    ("rows", "index"),
    [
        # Positions typed in seat order: seat 2 scored most but is placed 2nd.
        ((("A", 80, 1), ("B", 120, 2), ("C", 90, 3), ("D", 40, 4)), 1),
        # A higher score sharing a position with a lower one.
        ((("A", 90, 1), ("B", 70, 2), ("C", 60, 2), ("D", 30, 4)), 1),
        ((("A", 90, 1), ("B", 70, 1), ("C", 60, 3), ("D", 30, 4)), 0),
    ],
)
def test_positions_against_the_scores_are_refused(rows, index):
    with pytest.raises(InvalidLeague) as caught:
        league_table([game("G1", *rows)], SCALE)
    assert caught.value.at == ("games", 0, "results", index, "position")
    assert caught.value.rule == "positions-follow-scores"


def test_the_refusal_names_the_seats_and_the_positions_the_scores_give():
    rows = (("D", 40, 4), ("A", 80, 1), ("B", 120, 2), ("C", 90, 3))  # listed in any order
    with pytest.raises(InvalidLeague) as caught:
        game_places(game("G1", *rows).results, SCALE, seats=("A", "B", "C", "D"))
    assert caught.value.at == ("results", 2, "position")
    message = caught.value.message
    assert "seat 2 (B) scored 120 and is placed 2nd, not above seat 1 (A)" in message
    assert message.endswith("by the scores: B 1st, C 2nd, A 3rd, D 4th")


def test_a_recorded_game_reads_as_it_was_accepted():
    # A held league's log may hold reports from before the rule: they still fold.
    rows = (("A", 80, 1), ("B", 120, 2), ("C", 90, 3), ("D", 40, 4))
    lines = by_player(league_table([game("G1", *rows)], SCALE, recorded=True))
    assert lines["A"].wins == 1 and lines["B"].seconds == 1


# --- the same game entered twice -----------------------------------------------------------


ROWS = (("A", 90, 1), ("B", 70, 2), ("C", 50, 3), ("D", 30, 4))


@pytest.mark.parametrize("again", ["AGR S1 L1-A G1", "agr s1  l1-a g1 "])
def test_the_same_game_entered_twice_is_refused(again):
    with pytest.raises(InvalidLeague) as caught:
        league_table([game("AGR S1 L1-A G1", *ROWS), game(again, *ROWS)], SCALE)
    assert caught.value.at == ("games", 1, "name")
    assert "games/0" in caught.value.message


def test_unnamed_games_are_each_counted():
    lines = by_player(league_table([game("", *ROWS), game("", *ROWS)], SCALE))
    assert lines["A"].games == 2


# --- seeding between seasons: the full chain -------------------------------------------------


def two_divisions(**better):
    """1-A, then 2-A and 2-B; B1 (2-A) and C1 (2-B) level on place, points and wins, C1
    listed after B1 but better on ``better``."""
    last = [Finish(f"A{i}", 1, "1-A", i, Fraction(30 - i), 2) for i in range(1, 8)]
    level = {"league_points": Fraction(28), "wins": 2}
    last.append(Finish("B1", 2, "2-A", 1, **level))
    last.append(Finish("C1", 2, "2-B", 1, **level, **better))
    for league, letter in (("2-A", "B"), ("2-B", "C")):
        last += [Finish(f"{letter}{i}", 2, league, i, Fraction(20 - i)) for i in range(2, 8)]
    return last


@pytest.mark.parametrize(
    "better",
    [
        {"seconds": 1},
        {"thirds": 1},
        {"winner_share": Fraction(9, 10)},
        {"margin": 5},
        {"total_score": 400},
        {"previous_rank": 3},
    ],
)
def test_formation_orders_level_finishers_by_the_full_chain(better):
    last = two_divisions(**better)
    formed = form_leagues([f.player for f in last], last, [], [])
    order = list(formed.order)
    assert order.index("C1") < order.index("B1"), order  # not the listing order


def test_formation_falls_back_to_the_listing_order_only_when_the_chain_is_level():
    last = two_divisions()
    order = list(form_leagues([f.player for f in last], last, [], []).order)
    assert order.index("B1") < order.index("C1")


def test_the_positions_offered_are_ones_the_check_accepts_and_leavers_may_stand_in_any_order():
    scores, left = (90, 120, 70, 10), (False, False, True, True)
    offered = positions_the_scores_allow(scores, left)
    assert offered == [(2,), (1,), (3,), (4,)]  # the leavers after the finishers, by score
    rows = [("A", 90, 2), ("B", 120, 1), ("C", 70, 3, True), ("D", 10, 4, True)]
    assert game_places(game("G1", *rows).results, SCALE) == [2, 1, 3, 4]
    # The check places a leaver last whatever their score: the other order passes too.
    swapped = [("A", 90, 2), ("B", 120, 1), ("C", 70, 4, True), ("D", 10, 3, True)]
    assert game_places(game("G1", *swapped).results, SCALE) == [2, 1, 4, 3]
