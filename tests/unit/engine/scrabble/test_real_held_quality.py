"""The held event's rounds against the real directors' (``bench/real_held_rounds.py``),
every cut of the last 8 rounds of every real division that holds every round: what a
director would not post never happens, and the top of the field stays together about as
the directors kept it (``docs/benchmarks.md``, "Held events against real directors").

Measured on ``../shared/data/scrabble-real`` (skipped, saying where it looked, where the
folder is missing). The figures themselves are the bench's; these are the limits a
change must not cross.
"""

from __future__ import annotations

import statistics

import pytest

from bench.real_divisions import DIRECTORS_ROUNDS, real_path
from bench.real_held_rounds import Cut, run


@pytest.fixture(scope="module")
def cuts() -> list[Cut]:
    real_path()  # skips with the catalogue's message where the folder is missing
    return [cut for division in run(DIRECTORS_ROUNDS) for cut in division.cuts]


def test_no_top_three_player_is_sent_down_the_field(cuts: list[Cut]):
    # Below 12th where the director kept them within 5 places.
    assert [c.sent_down for c in cuts if c.sent_down] == []


def test_no_settled_player_plays_a_racer_while_someone_outside_the_race_is_free(
    cuts: list[Cut],
):
    assert [c.service.gibson_misses for c in cuts if c.service.gibson_misses] == []


def test_the_top_boards_are_no_further_apart_than_the_directors_half_a_rank_on(
    cuts: list[Cut],
):
    service = statistics.median(c.service.top_gap for c in cuts if c.service.top_gap is not None)
    director = statistics.median(c.director.top_gap for c in cuts if c.director.top_gap is not None)
    assert service <= director + 0.5


def test_rematches_come_only_from_races_and_repeats_stay_below_the_directors(cuts: list[Cut]):
    # A back-to-back rematch only where the advisor keeps a race head to head (the rule
    # says so); repeats overall no more than the directors made.
    rematches = [c for c in cuts if c.service.back_to_back]
    assert all(c.method == "advisor" for c in rematches)
    assert sum(c.service.back_to_back for c in cuts) <= 8
    assert sum(c.service.repeats for c in cuts) <= sum(c.director.repeats for c in cuts)
