"""Swiss by win group (and its memo), the matching against an independent solver (networkx),
and the fallback's matching of a large group on near candidates as on every pair."""

from __future__ import annotations

import random

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing_service.engine import matching
from pairing_service.engine.matching import (
    NoPerfectMatching,
    every_pair,
    fold_weights,
    min_cost_perfect_matching,
    min_cost_perfect_matching_arrays,
)
from pairing_service.engine.scrabble import Player, Standings
from pairing_service.engine.scrabble.contention import contention
from pairing_service.engine.scrabble.cost import Meetings, RepeatPolicy
from pairing_service.engine.scrabble.pairing import swiss
from pairing_service.engine.scrabble.pairing.swiss import SwissMemo, pair_swiss
from tests.support import field


def _ranks(s, pairs):
    return [tuple(sorted((s.rank(a), s.rank(b)))) for a, b in pairs]


def test_swiss_pairs_top_half_against_bottom_half():
    s = field(*[(5, 10 - i) for i in range(6)])
    assert _ranks(s, pair_swiss(s, s.ids)) == [(1, 4), (2, 5), (3, 6)]


def test_odd_group_floats_its_lowest_player_down():
    s = field((5, 3), (5, 2), (5, 1), (4, 2), (4, 1), (4, 0))
    assert _ranks(s, pair_swiss(s, s.ids)) == [(1, 2), (3, 4), (5, 6)]


def test_swiss_avoids_a_repeat_within_the_group():
    s = field(*[(5, 10 - i) for i in range(4)], opponents={1: [3]})
    assert _ranks(s, pair_swiss(s, s.ids)) == [(1, 4), (2, 3)]


def test_swiss_floats_to_avoid_repeats():
    # #1 and #2 have met; the only fresh opponents are in the group below.
    s = field((5, 2), (5, 1), (4, 2), (4, 1), opponents={1: [2]})
    pairs = _ranks(s, pair_swiss(s, s.ids))
    assert (1, 2) not in pairs


def test_swiss_needs_an_even_field():
    s = field((1, 0), (1, 0), (0, 0))
    with pytest.raises(ValueError):
        pair_swiss(s, s.ids)


def test_large_group_uses_window_and_stays_repeat_free():
    rows = [(10, 1000 - i) for i in range(400)]
    rng = random.Random(7)
    opponents = {i: rng.sample(range(1, 401), 5) for i in range(1, 401)}
    opponents = {k: [o for o in v if o != k] for k, v in opponents.items()}
    s = field(*rows, opponents=opponents)
    # With no repeat allowed the window finds a pairing with no repeat at all; with the
    # default allowance (2) a second meeting is weighed against the Swiss order, and a
    # third never happens (no pair has met twice).
    strict = pair_swiss(s, s.ids, swiss.SwissMemo(RepeatPolicy(0)))
    assert len(strict) == 200
    assert sum(s.meetings(a, b) for a, b in strict) == 0
    allowed = pair_swiss(s, s.ids)
    assert len(allowed) == 200
    assert max(s.meetings(a, b) for a, b in allowed) <= 1


def _networkx_optimum(n, edges, ceilings):
    multipliers, scale = fold_weights(ceilings, n // 2)
    graph = nx.Graph()
    for u, v, cost in edges:
        total = sum(min(c, cap) * m for c, cap, m in zip(cost, ceilings, multipliers, strict=True))
        graph.add_edge(u, v, weight=scale + 1 - total)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sum(graph[u][v]["weight"] for u, v in matching), len(matching)


@pytest.mark.parametrize("seed", range(12))
def test_matching_optimum_agrees_with_networkx(seed):
    rng = random.Random(seed)
    n = rng.choice([4, 6, 10, 16, 24])
    ceilings = (3, 1, 50)
    edges = [
        (u, v, (rng.randint(0, 3), rng.randint(0, 1), rng.randint(0, 50)))
        for u in range(n)
        for v in range(u + 1, n)
        if rng.random() < 0.7 or v == u + 1
    ]
    pairs = min_cost_perfect_matching(n, edges, ceilings)
    multipliers, scale = fold_weights(ceilings, n // 2)
    cost_of = {(u, v): c for u, v, c in edges}
    ours = sum(
        scale
        + 1
        - sum(min(c, cap) * m for c, cap, m in zip(cost_of[p], ceilings, multipliers, strict=True))
        for p in pairs
    )
    theirs, size = _networkx_optimum(n, edges, ceilings)
    assert size == n // 2
    assert ours == theirs


@pytest.mark.parametrize("seed", range(8))
def test_a_graph_built_from_a_matrix_matches_as_the_edge_list(seed, monkeypatch):
    # From 16 nodes the graph is built from a matrix (faster); it must be the same graph
    # (edge order included), so the matching picks the same one among equal optima.
    rng = np.random.default_rng(seed)
    n = int(rng.choice([16, 22, 32]))
    firsts, seconds = every_pair(n)
    keep = (rng.random(len(firsts)) < 0.7) | (seconds == firsts + 1)
    firsts, seconds = firsts[keep], seconds[keep]
    costs = rng.integers(0, 2, (len(firsts), 2)).astype(np.int64)  # ties everywhere
    from_matrix = min_cost_perfect_matching_arrays(n, firsts, seconds, costs, (1, 1))
    monkeypatch.setattr(matching, "_MATRIX_NODES", 10**6)
    from_edges = min_cost_perfect_matching_arrays(n, firsts, seconds, costs, (1, 1))
    assert from_matrix == from_edges


def test_lexicographic_levels_are_strict():
    # One edge with a level-0 cost of 1 must lose to any number of lower-level costs.
    edges = [(0, 1, (1, 0)), (2, 3, (1, 0)), (0, 2, (0, 9)), (1, 3, (0, 9))]
    assert min_cost_perfect_matching(4, edges, (1, 9)) == [(0, 2), (1, 3)]


def test_no_perfect_matching_is_reported():
    with pytest.raises(NoPerfectMatching):
        min_cost_perfect_matching(4, [(0, 1, (0,))], (1,))
    with pytest.raises(NoPerfectMatching):
        min_cost_perfect_matching(3, [(0, 1, (0,))], (1,))


def test_a_higher_group_floats_down_to_save_the_bottom_groups_repeat():
    """The issue's case: E-F and G-H met twice; group-by-group pairs G-H a third time."""
    s = field(
        (5, 40),
        (5, 30),
        (5, 20),
        (5, 10),
        (4, 20),
        (4, 10),  # C D E F | G H
        opponents={3: [4, 4], 4: [3, 3], 5: [6, 6], 6: [5, 5]},
    )
    pairs = pair_swiss(s, s.ids)
    assert sum(s.meetings(a, b) for a, b in pairs) == 0
    assert (5, 6) not in _ranks(s, pairs)
    # One player of the 5-group floats to each of G and H: two cross-group games, no more.
    crossing = [p for p in _ranks(s, pairs) if (p[0] <= 4) != (p[1] <= 4)]
    assert len(crossing) == 2


def test_the_advice_never_repeats_g_and_h_when_it_can_be_avoided(rules):
    from pairing_service.engine.scrabble import advise

    s = field(
        (8, 300),
        (6.5, 200),
        (5, 100),
        (5, 90),
        (5, 80),
        (5, 70),
        (4, 60),
        (4, 50),
        opponents={5: [6, 6], 6: [5, 5], 7: [8, 8], 8: [7, 7]},
    )
    advice = advise(s, rules.scrabble)
    assert sum(s.meetings(*g.players) for g in advice.games if not g.bye) == 0


def _least_meeting_cost(s, players, policy) -> tuple[int, int]:
    """Brute force: the least (back-to-back rematches, meetings past the allowance) of any
    perfect matching of ``players``."""
    if not players:
        return (0, 0)
    first, rest = players[0], players[1:]
    best = None
    for other in rest:
        back, over, _ = policy.pair_cost(s, first, other)
        below = _least_meeting_cost(s, [p for p in rest if p != other], policy)
        cost = (back + below[0], over + below[1])
        best = cost if best is None else min(best, cost)
    return best


@pytest.mark.parametrize("seed", range(60))
def test_swiss_has_no_more_rematches_or_excess_meetings_than_the_best_pairing(seed):
    """Random fields of 4-10 players with heavy histories, under repeat allowances 0-2:
    pair_swiss reaches the fewest back-to-back rematches, then the fewest meetings past
    the allowance, that any pairing of the same players has."""
    rng = random.Random(seed)
    policy = RepeatPolicy(seed % 3)
    n = rng.choice([4, 6, 8, 10])
    rows = sorted(((rng.randint(0, 6) / 2, rng.randint(-50, 50)) for _ in range(n)), reverse=True)
    opponents: dict[int, list[int]] = {i: [] for i in range(1, n + 1)}
    for _ in range(rng.randint(n, 3 * n)):
        a, b = rng.sample(range(1, n + 1), 2)
        opponents[a].append(b)
        opponents[b].append(a)
    s = field(*rows, opponents=opponents)
    pairs = pair_swiss(s, s.ids, swiss.SwissMemo(policy))
    costs = [policy.pair_cost(s, a, b) for a, b in pairs]
    found = (sum(c[0] for c in costs), sum(c[1] for c in costs))
    assert found == _least_meeting_cost(s, list(s.ids), policy)


@pytest.mark.parametrize("seed", range(8))
def test_meetings_table_answers_as_the_standings(seed):
    # Swiss looks meetings up in one table per field (swiss.Meetings): every pair's count
    # and back-to-back flag is the standings' own, one-sided records and repeats included.
    rng = random.Random(seed)
    n = rng.choice([4, 9, 16])
    opponents = {
        i: [rng.choice([o for o in range(1, n + 1) if o != i]) for _ in range(rng.randint(0, 6))]
        for i in range(1, n + 1)
    }
    s = field(*[(rng.randint(0, 6), rng.randint(-50, 50)) for _ in range(n)], opponents=opponents)
    table = Meetings(s)
    ids = list(s.ids)
    at = table.positions_of(ids)
    a, b = (x.ravel() for x in np.meshgrid(np.arange(n), np.arange(n), indexing="ij"))
    repeats = table.repeats(at[a], at[b]).tolist()
    previous = table.back_to_back(at[a], at[b]).tolist()
    for k, (i, j) in enumerate(zip(a.tolist(), b.tolist(), strict=True)):
        if i != j:
            assert repeats[k] == s.meetings(ids[i], ids[j])
            assert previous[k] == int(s.back_to_back(ids[i], ids[j]))


@pytest.mark.parametrize("seed", range(40))
def test_a_field_whose_ideal_swiss_pairs_repeat_nothing_is_paired_as_the_matching_pairs_it(seed):
    # pair_swiss answers such a field without the matching (its ideal pairs are the only
    # pairing at no cost); the matching itself gives exactly the same pairs, for win
    # groups even and odd, floats and fields past the whole-field limit, with histories
    # that touch every pair but the ideal ones.
    from pairing_service.engine.scrabble.cost import pair_closest

    rng = random.Random(seed)
    size = rng.choice([2, 4, 6, 10, 16, 34, 130])
    rows = sorted(((rng.randint(0, 4), rng.randint(-50, 50)) for _ in range(size)), reverse=True)
    plain = field(*rows)
    ordered = list(plain.ids)
    ideal = swiss.swiss_ideal(plain, ordered)
    ideal_pairs = {(a, int(b)) for a, b in enumerate(ideal.tolist()) if a < b}
    history: dict[int, list[int | None]] = {}
    for _ in range(rng.randint(0, 2 * size)):
        a, b = sorted(rng.sample(range(size), 2))
        if (a, b) not in ideal_pairs:
            history.setdefault(a + 1, []).append(b + 1)
            history.setdefault(b + 1, []).append(a + 1)
    s = field(*rows, opponents=history)
    ids = list(s.ids)
    fast = pair_swiss(s, ids, SwissMemo(RepeatPolicy(0)))
    assert _ranks(s, fast) == sorted(tuple(sorted((a + 1, b + 1))) for a, b in ideal_pairs)
    matched = pair_closest(Meetings(s), RepeatPolicy(0), ids, swiss.swiss_ideal(s, ids))
    assert sorted(_ranks(s, matched)) == _ranks(s, fast)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000))
def test_swiss_memo_changes_no_pairing(seed):
    rng = random.Random(seed)
    size = rng.choice([8, 10, 14, 20])
    players = [Player(f"q{i}", rng.randint(4, 10), rng.randint(-200, 200)) for i in range(size)]
    s = Standings.from_players(players)
    memo = SwissMemo()
    ids = list(s.ids)
    first = pair_swiss(s, ids, memo)
    assert first == pair_swiss(s, ids)
    # Another set of players on the same standings reuses what fits and pairs the same.
    rest = ids[2:]
    assert pair_swiss(s, rest, memo) == pair_swiss(s, rest)


@pytest.mark.parametrize("seed", [0, 1])
def test_a_large_groups_matching_on_near_candidates_is_the_whole_graphs(seed, monkeypatch):
    """Beyond ``WHOLE_GROUP_LIMIT`` the fallback's matching takes each player's nearest
    ranks to its ideal partners as candidates; on groups of 150-200 contenders with
    random histories (repeats to avoid) its answer is the matching over every pair's."""
    from pairing_service.engine.scrabble.cost import Meetings
    from pairing_service.engine.scrabble.pairing import fallback

    rng = random.Random(seed)
    size = 150 + 50 * seed
    ids = [f"p{i}" for i in range(size)]
    met: dict[str, list[str]] = {p: [] for p in ids}
    for _ in range(rng.randint(4, 9)):
        order = ids[:]
        rng.shuffle(order)
        for a, b in zip(order[::2], order[1::2], strict=True):
            met[a].append(b)
            met[b].append(a)
    leaders = rng.randint(10, 40)
    players = [
        Player(
            p,
            20 if i < leaders else rng.choice([18, 18, 19]),
            rng.randint(-300, 300),
            opponents=tuple(met[p]),
        )
        for i, p in enumerate(ids)
    ]
    standings = Standings.from_players(players)
    in_contention = contention(standings, 2, None)
    group = sorted(in_contention.relevant, key=standings.rank)[
        : len(in_contention.relevant) // 2 * 2
    ]
    assert len(group) > fallback.WHOLE_GROUP_LIMIT
    meetings = Meetings(standings)
    near = fallback._principled_pairs(
        standings, in_contention, group, 2, None, meetings, RepeatPolicy()
    )
    monkeypatch.setattr(fallback, "WHOLE_GROUP_LIMIT", len(group))
    every = fallback._principled_pairs(
        standings, in_contention, group, 2, None, meetings, RepeatPolicy()
    )
    assert near == every


def test_a_large_fields_repeat_is_repaired_among_the_players_near_it():
    # 300 players in win groups of 20; one ideal pair of the 6th group met last round.
    # The pairs far from it stay the ideal Swiss pairs; near it, the repeat goes.
    rows = [(20 - i // 20, 1000 - i) for i in range(300)]
    plain = field(*rows)
    ideal = swiss.swiss_ideal(plain, list(plain.ids)).tolist()
    a = 105
    b = ideal[a]
    s = field(*rows, opponents={a + 1: [b + 1], b + 1: [a + 1]})
    pairs = pair_swiss(s, s.ids)
    assert len(pairs) == 150 and not any(s.meetings(x, y) for x, y in pairs)
    far = {
        (f"P{i + 1}", f"P{ideal[i] + 1}")
        for i in range(300)
        if i < ideal[i] and min(abs(i - a), abs(i - b), abs(ideal[i] - a), abs(ideal[i] - b)) > 20
    }
    assert far <= set(pairs)
    moved = [pair for pair in pairs if pair not in far]
    assert all(
        min(abs(s.rank(x) - 1 - a), abs(s.rank(x) - 1 - b)) <= 2 * swiss.REPAIR_REACH + 20
        for pair in moved
        for x in pair
    )


def test_cost_levels_too_large_for_the_blossom_are_refused_by_name():
    multipliers, scale = fold_weights([10, 10, 10], 4)
    assert multipliers == [41 * 41, 41, 1] and scale == 41**3
    with pytest.raises(ValueError, match=r"ceilings \[\d+(, \d+)*\] over 1000 pairs"):
        fold_weights([10**12] * 4, 1000)
