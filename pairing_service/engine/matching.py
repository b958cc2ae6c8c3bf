"""Minimum-cost perfect matching with lexicographic integer costs.

Contract: ``min_cost_perfect_matching(node_count, edges, ceilings)`` takes nodes numbered
``0..node_count-1`` and candidate edges ``(u, v, cost)`` where ``cost`` is a tuple with one
non-negative integer per level, most important first. Level values are clamped to the
level's ceiling. It returns a perfect matching (every node exactly once) whose cost tuple,
summed over its edges, is lexicographically smallest among the perfect matchings of the
candidate graph; it raises :class:`NoPerfectMatching` when the candidates admit none.
``min_cost_perfect_matching_arrays`` is the same on edges given as arrays (one row of
costs per edge), for callers that compute a whole field's costs at once.

Levels are folded into one integer weight with a radix per level larger than the largest
possible total of all lower levels, so the blossom algorithm (rustworkx, integer weights)
optimises them in strict order. A self-check verifies that the result is a perfect
matching made of candidate edges.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

import numpy as np
import rustworkx as rx
from numpy.typing import NDArray

from .errors import EngineError

Cost = tuple[int, ...]
Edge = tuple[int, int, Cost]
Indices = NDArray[np.int64]

# Folded weights stay in int64 below this; above, they are computed as Python integers.
_INT64_SAFE = 1 << 62
# Below this, folded weights are exact as float64 (a matrix's entries).
_FLOAT_EXACT = 1 << 53
# The blossom's weights are 128-bit signed in rustworkx, and its slacks add two duals and
# subtract twice an edge's weight (each at most the largest weight): two bits to spare.
_WEIGHT_BITS = 125
_MATRIX_NODES = 16  # from here, a graph built from a matrix is the faster (measured)


class NoPerfectMatching(EngineError, ValueError):
    """The candidate edges do not allow every node to be matched."""


def fold_weights(ceilings: Sequence[int], pair_count: int) -> tuple[list[int], int]:
    """Multipliers per level (most important first) and the largest folded cost.

    ValueError when the folded weights would not fit the blossom's integers (rustworkx
    keeps them as 128-bit signed integers: an overflow there would silently match
    wrong), naming the ceilings to lower."""
    multipliers = [0] * len(ceilings)
    scale = 1
    for level in range(len(ceilings) - 1, -1, -1):
        multipliers[level] = scale
        scale *= ceilings[level] * max(pair_count, 1) + 1
    edge = scale + 1  # the largest edge weight (``min_cost_perfect_matching_arrays``)
    if edge.bit_length() > _WEIGHT_BITS:
        raise ValueError(
            f"cost levels with ceilings {list(ceilings)} over {pair_count} pairs fold into "
            f"{edge.bit_length()}-bit edge weights; the blossom takes {_WEIGHT_BITS}"
        )
    return multipliers, scale


@lru_cache(maxsize=256)
def every_pair(node_count: int) -> tuple[Indices, Indices]:
    """Every edge (u < v) of ``node_count`` nodes, u then v ascending, as read-only arrays
    (the candidates of a matching over every pair; the same sizes recur)."""
    firsts, seconds = np.triu_indices(node_count, 1)
    pair = firsts.astype(np.int64), seconds.astype(np.int64)
    for array in pair:
        array.setflags(write=False)
    return pair


def min_cost_perfect_matching(
    node_count: int, edges: Iterable[Edge], ceilings: Sequence[int]
) -> list[tuple[int, int]]:
    """Perfect matching minimising the lexicographic sum of edge costs (see module doc)."""
    listed = list(edges)
    width = len(ceilings)
    for u, v, cost in listed:
        if len(cost) != width:
            raise ValueError(f"edge {u}-{v} has {len(cost)} cost levels, not {width}")
    firsts = np.array([e[0] for e in listed], np.int64)
    seconds = np.array([e[1] for e in listed], np.int64)
    costs = np.array([e[2] for e in listed], np.int64).reshape(len(listed), width)
    return min_cost_perfect_matching_arrays(node_count, firsts, seconds, costs, ceilings)


def min_cost_perfect_matching_arrays(
    node_count: int,
    firsts: Indices,
    seconds: Indices,
    costs: NDArray[np.int64],
    ceilings: Sequence[int],
) -> list[tuple[int, int]]:
    """``min_cost_perfect_matching`` on edges ``firsts[i]``-``seconds[i]`` with the cost
    levels ``costs[i]`` (shape: edges x levels)."""
    if node_count == 0:
        return []
    if node_count % 2:
        raise NoPerfectMatching(f"{node_count} nodes cannot all be matched")
    if costs.shape != (len(firsts), len(ceilings)) or len(seconds) != len(firsts):
        raise ValueError(f"costs must have one row of {len(ceilings)} levels per edge")
    multipliers, scale = fold_weights(ceilings, node_count // 2)
    # A positive base makes every edge attractive; maximum cardinality makes it perfect.
    base = scale + 1
    clamped = np.minimum(costs, np.asarray(ceilings, np.int64))
    graph: rx.PyGraph
    if (
        node_count >= _MATRIX_NODES
        and base < _FLOAT_EXACT
        and _upper_row_major(node_count, firsts, seconds)
    ):
        # The same graph (nodes, edges in the same order, the same integer weights) built
        # from a matrix in one call: several times faster than a list of edge tuples.
        matrix = np.zeros((node_count, node_count))
        matrix[firsts, seconds] = base - clamped @ np.asarray(multipliers, np.int64)
        graph = rx.PyGraph.from_adjacency_matrix(matrix, null_value=0.0)
    else:
        if base < _INT64_SAFE:
            weights: list[int] = (base - clamped @ np.asarray(multipliers, np.int64)).tolist()
        else:
            weights = [base - sum(map(int.__mul__, row, multipliers)) for row in clamped.tolist()]
        graph = rx.PyGraph(multigraph=False)
        graph.add_nodes_from(range(node_count))
        graph.add_edges_from(list(zip(firsts.tolist(), seconds.tolist(), weights, strict=True)))
    matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    pairs = sorted((min(u, v), max(u, v)) for u, v in matched)
    if len(pairs) * 2 != node_count:
        raise NoPerfectMatching(
            f"only {len(pairs)} of {node_count // 2} pairs can be formed from the candidates"
        )
    for u, v in pairs:  # the self-check, on the graph built here
        if not graph.has_edge(u, v):
            raise AssertionError(f"edge {u}-{v} is not a candidate")
    _check_perfect(node_count, pairs)
    return pairs


def _upper_row_major(node_count: int, firsts: Indices, seconds: Indices) -> bool:
    """Whether the edges are distinct, u < v, in (u, v) order: the order in which
    ``from_adjacency_matrix`` adds a matrix's upper triangle."""
    if not len(firsts):
        return True
    keys = firsts * node_count + seconds
    return bool((firsts < seconds).all() and (np.diff(keys) > 0).all())


def _check_perfect(node_count: int, pairs: Sequence[tuple[int, int]]) -> None:
    seen: set[int] = set()
    for u, v in pairs:
        if u in seen or v in seen or u == v:
            raise AssertionError(f"node {u} or {v} matched twice")
        seen.update((u, v))
    if len(seen) != node_count:
        raise AssertionError("matching is not perfect")
