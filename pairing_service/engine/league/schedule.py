"""League schedules: 4-player games, every player in four, meetings even, seats balanced.

- 7 players: the seed's grid (the complements of the Fano plane's lines: every pair meets
  exactly twice, every player has each seat once).
- Any other league of n >= 4 players: n games, each player in four. Meetings are as even as
  possible: the n games hold 6n pair meetings over n(n-1)/2 pairs; a local search over
  player swaps minimises the sum of squared meetings, which is smallest exactly when every
  pair meets floor or ceil of the average (for 8 players: 48 meetings over 28 pairs, so 20
  pairs twice and 8 once; each player meets 5 others twice and 2 once). The search is
  seeded and stops at that bound.
- Seats: the player-game incidence is a 4-regular bipartite graph, which splits into four
  perfect matchings (König); matching k gives everyone's seat k, so every player has each
  starting seat exactly once.
``check_schedule`` is the self-check of those properties.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import rustworkx as rx

from ..errors import refuse_repeats
from .table import InvalidLeague

SEATS = 4
MAX_LEAGUE = 16
SEARCH_STEPS = 20_000


@dataclass(frozen=True)
class Schedule:
    games: tuple[tuple[str, ...], ...]  # players in seat order 1-4
    meetings: dict[frozenset[str], int]


def meeting_bound(n: int) -> tuple[int, int, int]:
    """(low, high, pairs meeting high times) of the most even meeting counts possible."""
    pairs = n * (n - 1) // 2
    total = n * (SEATS * (SEATS - 1) // 2)  # n games of 6 pairs
    low, high_count = divmod(total, pairs)
    return low, low + 1 if high_count else low, high_count


def meetings_of(games: Sequence[Sequence[str]]) -> dict[frozenset[str], int]:
    counted: Counter[frozenset[str]] = Counter()
    for game in games:
        for a, b in itertools.combinations(game, 2):
            counted[frozenset((a, b))] += 1
    return dict(counted)


def schedule(players: Sequence[str], grid: Sequence[Sequence[int]], seed: int = 0) -> Schedule:
    refuse_repeats(players, ("players",), InvalidLeague)
    if len(players) < SEATS:
        raise InvalidLeague(("players",), f"a league needs at least {SEATS} players")
    n = len(players)
    if n == 7:
        games = tuple(tuple(players[i - 1] for i in row) for row in grid)
        return Schedule(games, meetings_of(games))
    groups = _balanced_games(n, seed)
    seated = _seat(groups)
    games = tuple(tuple(players[i] for i in game) for game in seated)
    return Schedule(games, meetings_of(games))


def _balanced_games(n: int, seed: int) -> list[list[int]]:
    """n games of four, each player in four, meetings as even as possible."""
    rng = random.Random(seed)
    best: list[list[int]] | None = None
    best_cost = None
    target = _cost_floor(n)
    for _ in range(20):
        games = _random_regular(n, rng)
        cost = _cost(games, n)
        for _ in range(SEARCH_STEPS):
            if cost == target:
                break
            g1, g2 = rng.sample(range(len(games)), 2)
            i1, i2 = rng.randrange(SEATS), rng.randrange(SEATS)
            a, b = games[g1][i1], games[g2][i2]
            if a == b or b in games[g1] or a in games[g2]:
                continue
            games[g1][i1], games[g2][i2] = b, a
            new = _cost(games, n)
            if new <= cost:
                cost = new
            else:
                games[g1][i1], games[g2][i2] = a, b
        if best_cost is None or cost < best_cost:
            best, best_cost = [list(g) for g in games], cost
        if cost == target:
            break
    assert best is not None
    return best


def _random_regular(n: int, rng: random.Random) -> list[list[int]]:
    """n games of four distinct players, each player in exactly four games."""
    while True:
        slots = [p for p in range(n) for _ in range(SEATS)]
        rng.shuffle(slots)
        games = [slots[i : i + SEATS] for i in range(0, len(slots), SEATS)]
        if all(len(set(g)) == SEATS for g in games):
            return games


def _cost(games: Sequence[Sequence[int]], n: int) -> int:
    counts = [[0] * n for _ in range(n)]
    for game in games:
        for a, b in itertools.combinations(game, 2):
            counts[a][b] += 1
            counts[b][a] += 1
    return sum(counts[a][b] ** 2 for a in range(n) for b in range(a + 1, n))


def _cost_floor(n: int) -> int:
    low, high, high_pairs = meeting_bound(n)
    pairs = n * (n - 1) // 2
    return (pairs - high_pairs) * low * low + high_pairs * high * high


def _seat(games: list[list[int]]) -> list[list[int]]:
    """Seat order per game so every player has each seat once (four perfect matchings)."""
    players = sorted({p for g in games for p in g})
    index = {p: i for i, p in enumerate(players)}
    remaining = {(index[p], g) for g, game in enumerate(games) for p in game}
    seats: list[list[int]] = [[-1] * SEATS for _ in games]
    offset = len(players)
    for seat in range(SEATS):
        graph: rx.PyGraph = rx.PyGraph()
        graph.add_nodes_from(range(offset + len(games)))
        graph.add_edges_from([(p, offset + g, 1) for p, g in remaining])
        matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: int(w))
        if len(matched) != len(games):
            raise AssertionError("a regular bipartite graph always has a perfect matching")
        for u, v in matched:
            p, g = (u, v - offset) if u < offset else (v, u - offset)
            seats[g][seat] = players[p]
            remaining.discard((p, g))
    return seats


def check_schedule(schedule_: Schedule, players: Sequence[str]) -> None:
    """Self-check: four seats per game, each player in four games and each seat once."""
    seats: dict[str, Counter[int]] = {p: Counter() for p in players}
    for game in schedule_.games:
        if len(game) != SEATS or len(set(game)) != SEATS:
            raise AssertionError(f"game {game} does not seat four different players")
        for seat, player in enumerate(game):
            seats[player][seat] += 1
    for player, count in seats.items():
        if sum(count.values()) != SEATS or any(count[s] != 1 for s in range(SEATS)):
            raise AssertionError(f"{player} does not have each seat once")
