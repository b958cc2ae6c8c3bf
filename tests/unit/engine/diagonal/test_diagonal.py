"""Diagonal Race against seed 002: the two matrices, rematches, eliminations, winners."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing_service.engine.diagonal import (
    Entrant,
    GameResult,
    InvalidRound,
    diagonal_games,
    diagonal_step,
    pair_round,
    plan_round,
    simulate,
    tally,
    win_probability,
)
from tests.support import seed_text

SEED = "002_321485612ec2faaa.txt"


def seed_matrices() -> list[dict[int, set[int]]]:
    """The seed's two matrices read from its text, cell by cell."""
    lines = seed_text(SEED).splitlines()
    matrices = []
    for i, line in enumerate(lines):
        if not line.startswith("   00 01"):
            continue
        labels = [(m.start(), int(m.group())) for m in re.finditer(r"\d\d", line)]
        rows: dict[int, set[int]] = {}
        for row in itertools.takewhile(lambda text: re.match(r"^\d\d", text), lines[i + 1 :]):
            columns = set()
            for k, char in enumerate(row):
                if char == "x":
                    columns.add(min(labels, key=lambda lb: abs(lb[0] + 0.5 - k))[1])
            rows[int(row[:2])] = columns
        matrices.append(rows)
    return matrices


def as_matrix(n: int, games) -> dict[int, set[int]]:
    rows: dict[int, set[int]] = {i: set() for i in range(n)}
    for a, b in games:
        rows[a].add(b)
        rows[b].add(a)
    return rows


def test_both_seed_matrices_cell_by_cell():
    twenty_four, twelve = seed_matrices()
    assert len(twenty_four) == 24 and len(twelve) == 12
    assert as_matrix(24, diagonal_games(24, 4)) == twenty_four
    assert as_matrix(12, diagonal_games(12, 2)) == twelve
    assert diagonal_step(24, 4) == 5 and diagonal_step(12, 2) == 4


@pytest.mark.parametrize("n", range(2, 60))
@pytest.mark.parametrize("k", [2, 4, 6])
def test_any_field_is_symmetric_without_self_play_and_even(n, k):
    rows = as_matrix(n, diagonal_games(n, k))
    expected = min(k, n - 1)
    for player, opponents in rows.items():
        assert player not in opponents
        assert len(opponents) == expected  # everyone the same number of games
        for other in opponents:
            assert player in rows[other]


def test_tiny_fields_play_everyone():
    assert diagonal_games(2, 4) == ((0, 1),)
    assert diagonal_games(3, 2) == ((0, 1), (0, 2), (1, 2))
    assert len(diagonal_games(5, 4)) == 10
    assert pair_round(1, 2, lambda a, b: 0).games == ()


def _two_factors(n: int):
    """Every 2-regular graph on n players (brute force, small n)."""
    pairs = list(itertools.combinations(range(n), 2))
    for chosen in itertools.combinations(pairs, n):
        degree = [0] * n
        for a, b in chosen:
            degree[a] += 1
            degree[b] += 1
        if all(d == 2 for d in degree):
            yield chosen


@settings(max_examples=40, deadline=None)
@given(n=st.integers(4, 7), data=st.data())
def test_rematches_are_avoided_whenever_possible_and_minimal_otherwise(n, data):
    pairs = list(itertools.combinations(range(n), 2))
    met = set(data.draw(st.lists(st.sampled_from(pairs), max_size=2 * n)))
    meetings = lambda a, b: int((min(a, b), max(a, b)) in met)  # noqa: E731
    pairing = pair_round(n, 2, meetings)
    rows = as_matrix(n, pairing.games)
    assert all(len(o) == 2 for o in rows.values())
    best = min(sum(meetings(a, b) for a, b in factor) for factor in _two_factors(n))
    assert pairing.rematches == best


def test_opponents_far_from_the_pattern_are_used_when_only_they_avoid_rematches():
    # 36 players, two opponents, step 12: everyone has met everyone 8-16 places away (the
    # pattern and its neighbours), but nobody has met the players next to them.
    def met(a, b):
        gap = min((a - b) % 36, (b - a) % 36)
        return int(8 <= gap <= 16)

    pairing = pair_round(36, 2, met)
    assert diagonal_step(36, 2) == 12
    assert pairing.rematches == 0
    assert all(len(o) == 2 for o in as_matrix(36, pairing.games).values())


def test_the_pattern_is_kept_when_it_repeats_no_one():
    met = {(0, 1)}
    pairing = pair_round(12, 2, lambda a, b: int((a, b) in met))
    assert pairing.games == diagonal_games(12, 2) and pairing.step == 4


def test_plan_round_eliminates_two_losses_and_orders_by_rating():
    entrants = [Entrant(f"P{i}", 2000 - i, 0) for i in range(24)]
    first = plan_round(entrants)
    assert first.opponents == 4 and len(first.games) == 48 and first.eliminated == ()
    later = [
        Entrant(e.id, e.rating, 2 if i % 3 == 0 else i % 2, ("P99",))
        for i, e in enumerate(entrants)
    ]
    plan = plan_round(later)
    out = {e.id for e in later if e.losses >= 2}
    assert set(plan.eliminated) == out
    assert not {p for g in plan.games for p in g} & out
    assert plan.opponents == 2
    assert list(plan.players) == sorted(
        plan.players, key=lambda p: -dict((e.id, e.rating) for e in later)[p]
    )
    with pytest.raises(InvalidRound):
        plan_round([Entrant("A"), Entrant("A")])
    with pytest.raises(InvalidRound):
        plan_round([Entrant(f"P{i}") for i in range(8)], opponents=3)


def game(a, b, winner, pieces=0):
    return GameResult((a, b), winner, pieces)


def test_losses_accumulate_and_the_last_player_wins():
    rounds = [
        [game("A", "B", "A"), game("C", "D", "C"), game("A", "C", "C"), game("B", "D", "B")],
        [game("C", "A", "C"), game("B", "C", "B")],
        [game("C", "B", "C")],
    ]
    state = tally(list("ABCD"), rounds[:1])
    assert {p: r.losses for p, r in state.records.items()} == {"A": 1, "B": 1, "C": 0, "D": 2}
    assert state.records["D"].eliminated_after_round == 1 and not state.finished
    final = tally(list("ABCD"), rounds)
    assert final.finished and final.winners == ["C"] and final.reason == "the last player left"
    assert final.records["A"].eliminated_after_round == 2
    assert final.records["B"].eliminated_after_round == 3


# Round 1 leaves A and B with one loss each and eliminates the helpers X and Y.
ROUND_ONE = [
    game("X", "A", "X"),
    game("A", "B", "A"),
    game("B", "Y", "B"),
    game("B", "Y", "B"),
    game("X", "Y", "Y"),
    game("Y", "X", "Y"),
]
FIELD = ["A", "B", "X", "Y"]


def test_round_one_fixture():
    state = tally(FIELD, [ROUND_ONE])
    assert {p: r.losses for p, r in state.records.items()} == {"A": 1, "B": 1, "X": 2, "Y": 2}


def test_everyone_out_fewest_losses_wins():
    last = [game("A", "B", "B"), game("A", "B", "B"), game("A", "B", "A"), game("A", "B", "A")]
    state = tally(FIELD, [ROUND_ONE, last])
    assert state.records["A"].losses == 3 and state.records["B"].losses == 3
    last = [game("A", "B", "B"), game("A", "B", "A"), game("A", "B", "A")]
    state = tally(FIELD, [ROUND_ONE, last])
    assert (state.records["A"].losses, state.records["B"].losses) == (2, 3)
    assert state.finished and state.winners == ["A"] and state.reason.endswith("fewest losses")


def test_everyone_out_then_direct_comparison_before_pieces():
    # Level at two losses; over all rounds A beat B twice, B beat A once (with more pieces).
    last = [game("A", "B", "A", 1), game("B", "A", "B", 9)]
    state = tally(FIELD, [ROUND_ONE, last])
    assert state.records["A"].losses == state.records["B"].losses == 2
    assert state.winners == ["A"] and state.reason.endswith("then direct comparison")


def test_everyone_out_then_pieces_then_playoff():
    start = [
        game("X", "A", "X"),
        game("Y", "B", "Y"),
        game("A", "Y", "A"),
        game("B", "X", "B"),
        game("X", "Y", "X"),
        game("Y", "X", "Y"),
    ]
    by_pieces = tally(FIELD, [start, [game("A", "B", "A", 5), game("B", "A", "B", 3)]])
    assert by_pieces.winners == ["A"] and by_pieces.reason.endswith("then pieces left")
    level = tally(FIELD, [start, [game("A", "B", "A", 4), game("B", "A", "B", 4)]])
    assert level.playoff == ["A", "B"] and not level.finished and level.winners == []
    assert "new rounds between them" in level.reason


def test_results_are_checked():
    with pytest.raises(InvalidRound) as caught:
        tally(["A", "B"], [[game("A", "Q", "A")]])
    assert caught.value.at == ("rounds", 0, "games", 0, "players", 1)
    with pytest.raises(InvalidRound):
        tally(["A", "B"], [[game("A", "B", "C")]])
    with pytest.raises(InvalidRound) as caught:
        tally(["A", "B", "C"], [[game("A", "B", "A"), game("B", "C", "C")], [game("B", "C", "B")]])
    assert "eliminated after round 1" in caught.value.message


def test_simulator_is_seeded_and_favours_the_strong():
    field = [(f"P{i}", 2200 - 40 * i) for i in range(12)]
    first = simulate(field, events=80, seed=3, luck=0.3)
    assert first == simulate(field, events=80, seed=3, luck=0.3)
    assert abs(sum(first.win_chance.values()) - 1) < 1e-9
    assert first.win_chance["P0"] > first.win_chance["P11"]
    coin = simulate(field, events=80, seed=3, luck=1.0)
    assert max(coin.win_chance.values()) < first.win_chance["P0"] + 0.5
    assert win_probability(1500, 1500, 0.5) == 0.5
    assert win_probability(1900, 1500, 1.0) == 0.5
