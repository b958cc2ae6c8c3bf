"""The held-rounds bench (``bench/real_held_rounds.py``) on one small real division,
Rainy Competition C (16 players, 12 rounds, spread capped at 250): its cuts are the last 8
rounds, the service pairs everyone still in, and the director's side of a cut is what the
file says, measured here by hand from the file's lines.

Only properties of a correct measurement are asserted, never the service's figures: those
move with the engine. Skipped, saying where it looked, where the division is absent.
"""

from __future__ import annotations

import statistics
from collections import Counter

import pytest

from bench.real_divisions import DIVISIONS, real_path
from bench.real_held_rounds import HeldDivision, measure_division

NAME = "ccc_rainy2026_C.t"
CAP = 250
CUT = 9  # round 10 is paired, three rounds left


@pytest.fixture(scope="module")
def measured() -> HeldDivision:
    from pairing_service.rules import load_rules

    return measure_division(real_path(NAME), load_rules().scrabble)


def file_rows() -> list[tuple[int, list[int], list[int]]]:
    """(rating, opponents, scores) per line, by a plain split of the file."""
    rows = []
    for line in real_path(NAME).read_text(encoding="utf-8").splitlines():
        head, scores = line.split(";")[:2]
        words = head.split()
        numbers = [int(w) for w in words[-13:]]  # the rating, then 12 opponents
        rows.append((numbers[0], numbers[1:], [int(s) for s in scores.split()]))
    return rows


def hand_ranks(rows: list[tuple[int, list[int], list[int]]], rounds: int) -> dict[int, int]:
    """Player number -> rank after ``rounds``: wins, then capped spread, then rating, then
    the order listed (the held event's order)."""
    record = []
    for number, (rating, opponents, scores) in enumerate(rows, start=1):
        wins = spread = 0.0
        for r in range(rounds):
            theirs = rows[opponents[r] - 1][2][r] if opponents[r] else 0
            margin = max(-CAP, min(CAP, scores[r] - theirs))
            wins += 1 if margin > 0 else 0.5 if margin == 0 else 0
            spread += margin
        record.append((-wins, -spread, -rating, number))
    return {row[3]: rank for rank, row in enumerate(sorted(record), start=1)}


def test_the_cuts_are_the_last_eight_rounds(measured: HeldDivision):
    assert DIVISIONS[NAME].rounds == 12
    assert [c.after for c in measured.cuts] == list(range(4, 12))
    assert [c.rounds_left for c in measured.cuts] == [12 - c for c in range(4, 12)]
    assert measured.cap == CAP and measured.paid == 2  # places unknown: the default victors
    assert measured.cuts[-1].method == "advisor"  # the final round


def test_the_service_pairs_every_player_once(measured: HeldDivision):
    for cut in measured.cuts:
        paired = sorted(p for game in cut.service.games for p in game)
        assert paired == sorted(str(n) for n in range(1, 17)), cut.after
        assert cut.ms > 0


def test_the_directors_side_is_the_files_round_measured_by_hand(measured: HeldDivision):
    rows = file_rows()
    rank = hand_ranks(rows, CUT)
    games = {
        frozenset((n, opponents[CUT]))
        for n, (_, opponents, _) in enumerate(rows, start=1)
        if opponents[CUT]
    }
    met = Counter(
        frozenset((n, opponents[r]))
        for n, (_, opponents, _) in enumerate(rows, start=1)
        for r in range(CUT)
        if opponents[r]
    )  # each game is counted from both lines: twice
    top = [abs(rank[a] - rank[b]) for a, b in map(sorted, games) if min(rank[a], rank[b]) <= 10]
    cut = next(c for c in measured.cuts if c.after == CUT)
    director = cut.director
    assert {frozenset(map(int, g)) for g in director.games} == games
    assert director.top_gap == round(statistics.mean(top), 2)
    assert director.repeats == sum(met[g] >= 2 for g in games)
    assert director.third_plus == sum(met[g] >= 4 for g in games)
    last = {frozenset((n, o[CUT - 1])) for n, (_, o, _) in enumerate(rows, start=1)}
    assert director.back_to_back == len(games & last)
    by_rank = sorted((sorted((rank[a], rank[b])) for a, b in map(sorted, games)))
    assert director.boards == " ".join(f"{a}-{b}" for a, b in by_rank[:6])


def test_a_top_three_player_is_sent_down_only_below_twelfth(measured: HeldDivision):
    for cut in measured.cuts:
        for entry in cut.sent_down:
            sent, kept = entry.split(" v #")[1].split(" (director #")
            assert int(sent) > 12 and int(kept.rstrip(")")) <= 3 + 5
