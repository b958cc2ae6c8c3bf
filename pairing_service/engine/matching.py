"""Minimum-cost perfect matching with lexicographic integer costs.

Contract: ``min_cost_perfect_matching(node_count, edges, ceilings)`` takes nodes numbered
``0..node_count-1`` and candidate edges ``(u, v, cost)`` where ``cost`` is a tuple with one
non-negative integer per level, most important first. Level values are clamped to the
level's ceiling. It returns a perfect matching (every node exactly once) whose cost tuple,
summed over its edges, is lexicographically smallest among the perfect matchings of the
candidate graph; it raises :class:`NoPerfectMatching` when the candidates admit none.

Levels are folded into one integer weight with a radix per level larger than the largest
possible total of all lower levels, so the blossom algorithm (rustworkx, integer weights)
optimises them in strict order. ``check_matching`` is the self-check: it verifies the
result is a perfect matching made of candidate edges.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import itemgetter, mul

import rustworkx as rx

Cost = tuple[int, ...]
Edge = tuple[int, int, Cost]


class NoPerfectMatching(ValueError):
    """The candidate edges do not allow every node to be matched."""


def fold_weights(ceilings: Sequence[int], pair_count: int) -> tuple[list[int], int]:
    """Multipliers per level (most important first) and the largest folded cost."""
    multipliers = [0] * len(ceilings)
    scale = 1
    for level in range(len(ceilings) - 1, -1, -1):
        multipliers[level] = scale
        scale *= ceilings[level] * max(pair_count, 1) + 1
    return multipliers, scale


def min_cost_perfect_matching(
    node_count: int, edges: Iterable[Edge], ceilings: Sequence[int]
) -> list[tuple[int, int]]:
    """Perfect matching minimising the lexicographic sum of edge costs (see module doc)."""
    if node_count == 0:
        return []
    if node_count % 2:
        raise NoPerfectMatching(f"{node_count} nodes cannot all be matched")
    multipliers, scale = fold_weights(ceilings, node_count // 2)
    # A positive base makes every edge attractive; maximum cardinality makes it perfect.
    base = scale + 1
    graph: rx.PyGraph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(node_count))
    width = len(ceilings)
    folded: list[tuple[int, int, int]] = []
    for u, v, cost in edges:
        if len(cost) != width:
            raise ValueError(f"edge {u}-{v} has {len(cost)} cost levels, not {width}")
        # Built-ins over the levels (no Python loop): this runs for every edge of a field.
        total = sum(map(mul, map(min, cost, ceilings), multipliers))
        folded.append((u, v, base - total))
    graph.add_edges_from(folded)
    matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    pairs = sorted((min(u, v), max(u, v)) for u, v in matched)
    if len(pairs) * 2 != node_count:
        raise NoPerfectMatching(
            f"only {len(pairs)} of {node_count // 2} pairs can be formed from the candidates"
        )
    check_matching(node_count, pairs, map(itemgetter(0, 1), folded))
    return pairs


def check_matching(
    node_count: int, pairs: Sequence[tuple[int, int]], candidates: Iterable[tuple[int, int]]
) -> None:
    """Self-check: every node appears exactly once, and only candidate edges are used."""
    allowed = set(candidates)
    seen: set[int] = set()
    for u, v in pairs:
        if (u, v) not in allowed and (v, u) not in allowed:
            raise AssertionError(f"edge {u}-{v} is not a candidate")
        if u in seen or v in seen or u == v:
            raise AssertionError(f"node {u} or {v} matched twice")
        seen.update((u, v))
    if len(seen) != node_count:
        raise AssertionError("matching is not perfect")
