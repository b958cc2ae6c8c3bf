"""Opponents by rating: the diagonal pattern, for any field and any even number of opponents.

Players are ordered by rating (best first) and numbered 0..n-1 around a circle. In the
seed's matrices every player i meets i ± s, i ± 2s, ... (mod n): with 24 players and four
opponents s = 5 (i ± 5, i ± 10), with 12 players and two opponents s = 4 (i ± 4). Both are
the step closest to n / (k + 1) — the self and the k opponents spread evenly round the
circle — the larger one on a tie. That is the rule here for any n and even k:

- ``k >= n - 1``: everyone plays everyone else (n - 1 games each: the only way the field
  gives everyone the same number of games);
- otherwise the step s closest to n / (k + 1) whose offsets ±s, ..., ±(k/2)s are k distinct
  non-zero residues mod n (one always exists: any s coprime to n works), giving a k-regular
  "diagonal" pairing where everyone plays exactly k games.

Later rounds ask the same pattern to avoid players who already met. When the pattern itself
repeats a meeting, the pairing is the minimum-cost k-factor of the field (everyone exactly
k distinct opponents) whose cost is, in order: rematches (previous meetings summed), then
distance from the pattern (how far each opponent is, in rating order, from the nearest
diagonal offset). It is found exactly by Tutte's reduction of a k-factor to a perfect
matching (shared ``min_cost_perfect_matching``), over candidate opponents within 4 places
of the pattern, then 12, then (up to 40 players) everyone, while the best found still
repeats a meeting. So up to 40 players a rematch-free pairing is found whenever one exists
and otherwise the fewest rematches are used; above 40, the fewest among opponents within 12
places of the pattern (the answer says how many rematches remain).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from ..matching import Edge, NoPerfectMatching, min_cost_perfect_matching

NEAR = 4  # candidate opponents on each side of each diagonal offset, first
WIDE = 12  # ... then this many, when the first window cannot avoid every rematch
EXACT_FIELD = 40  # up to this many players, then everyone: the fewest rematches, exactly
MAX_MEETINGS = 50


@dataclass(frozen=True)
class Pairing:
    games: tuple[tuple[int, int], ...]  # positions in rating order, first < second
    step: int | None  # the diagonal step when the plain pattern was used
    rematches: int  # games between players who have met before (not their meetings)
    opponents: int  # games per player


@cache  # asked for every candidate pair of every pairing; a few (n, k) per event
def diagonal_step(n: int, k: int) -> int | None:
    """The seed's step for n players and k opponents (None when everyone plays everyone)."""
    if k >= n - 1:
        return None
    ideal = n / (k + 1)
    for s in sorted(range(1, n), key=lambda s: (abs(s - ideal), -s)):
        if _valid_offsets(n, k, s):
            return s
    raise AssertionError("a step coprime to n always works")  # pragma: no cover


def _valid_offsets(n: int, k: int, s: int) -> bool:
    offsets = {(sign * j * s) % n for j in range(1, k // 2 + 1) for sign in (1, -1)}
    return 0 not in offsets and len(offsets) == k


def diagonal_games(n: int, k: int) -> tuple[tuple[int, int], ...]:
    """The pattern's games for n players in rating order."""
    step = diagonal_step(n, k)
    if step is None:
        return tuple((a, b) for a in range(n) for b in range(a + 1, n))
    games = {
        (min(i, (i + j * step) % n), max(i, (i + j * step) % n))
        for i in range(n)
        for j in range(1, k // 2 + 1)
    }
    return tuple(sorted(games))


def pattern_distance(n: int, k: int, a: int, b: int) -> int:
    """How far b is from a's nearest diagonal offset, in places round the circle."""
    step = diagonal_step(n, k)
    if step is None:
        return 0
    gap = (b - a) % n
    targets = {(sign * j * step) % n for j in range(1, k // 2 + 1) for sign in (1, -1)}
    return min(min((gap - t) % n, (t - gap) % n) for t in targets)


def pair_round(n: int, k: int, meetings: Callable[[int, int], int]) -> Pairing:
    """k opponents for each of n players in rating order, avoiding rematches (see module)."""
    if n < 2:
        return Pairing((), None, 0, 0)
    k = min(k, n - 1)

    def repeated(games: Sequence[tuple[int, int]]) -> int:
        """Games that are rematches (a pair met twice before is still one game)."""
        return sum(1 for a, b in games if meetings(a, b))

    if k >= n - 1:
        games = diagonal_games(n, k)
        return Pairing(games, None, repeated(games), n - 1)
    step = diagonal_step(n, k)
    plain = diagonal_games(n, k)
    if not any(meetings(a, b) for a, b in plain):
        return Pairing(plain, step, 0, k)
    # Each window holds the pattern itself, so each has a k-factor: widen only while the
    # best pairing found still repeats a meeting.
    windows = (NEAR, WIDE, None) if n <= EXACT_FIELD else (NEAR, WIDE)
    best: tuple[int, tuple[tuple[int, int], ...]] | None = None  # (meetings, games)
    for window in windows:
        games = _k_factor(n, k, _candidates(n, k, window), meetings)
        cost = sum(meetings(a, b) for a, b in games)  # what the k-factor minimises
        if best is None or cost < best[0]:
            best = (cost, games)
        if best[0] == 0:
            break
    assert best is not None
    return Pairing(best[1], None, repeated(best[1]), k)


def _candidates(n: int, k: int, window: int | None) -> list[tuple[int, int]]:
    """Opponents within ``window`` places of a diagonal offset (None: everyone)."""
    if window is None:
        return [(a, b) for a in range(n) for b in range(a + 1, n)]
    step = diagonal_step(n, k) or 1
    found: set[tuple[int, int]] = set()
    for a in range(n):
        for j in range(1, k // 2 + 1):
            for sign in (1, -1):
                centre = a + sign * j * step
                for d in range(-window, window + 1):
                    b = (centre + d) % n
                    if b != a:
                        found.add((min(a, b), max(a, b)))
    return sorted(found)


def _k_factor(
    n: int, k: int, candidates: Sequence[tuple[int, int]], meetings: Callable[[int, int], int]
) -> tuple[tuple[int, int], ...]:
    """Minimum-cost k-factor by Tutte's gadget: a perfect matching of the gadget graph.

    Each player v with d candidate edges gets d "port" nodes (one per edge) and d - k
    "sink" nodes joined to every port. An edge uv joins u's port for it to v's port for it.
    In a perfect matching the sinks absorb d - k ports, so exactly k of v's edges are used.
    """
    ports: dict[tuple[int, int], tuple[int, int]] = {}
    degree = [0] * n
    next_node = 0
    port_nodes: list[list[int]] = [[] for _ in range(n)]
    for a, b in candidates:
        ports[(a, b)] = (next_node, next_node + 1)
        port_nodes[a].append(next_node)
        port_nodes[b].append(next_node + 1)
        degree[a] += 1
        degree[b] += 1
        next_node += 2
    if any(d < k for d in degree):
        raise NoPerfectMatching("a player has fewer than k candidate opponents")
    edges: list[Edge] = []
    for (a, b), (pa, pb) in ports.items():
        edges.append((pa, pb, (min(meetings(a, b), MAX_MEETINGS), pattern_distance(n, k, a, b))))
    for v in range(n):
        for _ in range(degree[v] - k):
            sink = next_node
            next_node += 1
            for port in port_nodes[v]:
                edges.append((port, sink, (0, 0)))
    matched = min_cost_perfect_matching(next_node, edges, (MAX_MEETINGS, n))
    used = {pair for pair in matched}
    return tuple(sorted(edge for edge, (pa, pb) in ports.items() if (pa, pb) in used))
