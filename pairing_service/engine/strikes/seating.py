"""Least-times-met seating: deal players to a table plan so repeat meetings are fewest.

Contract: :func:`seat` takes the players still in (id, strikes), the earlier tables
(``history``: each a list of the ids who met there), a :class:`TablePlan`, and a seed. It
returns a seating whose score is the sum, over every pair seated together, of the
detrimental points for how often that pair met before (0/1/2/4/7/10 by default).

- ``best_of_random`` is the seed's method: ``plans`` random plans, the lowest score wins
  (the first of equal scores).
- ``optimize`` starts from exactly that plan and improves it by swapping two players while
  the score falls, with random kicks to leave local minima, keeping the best plan seen. It
  is never worse than ``best_of_random`` with the same seed and plans. Its budget counts
  swap evaluations, not seconds, so the same inputs always give the same seating.

Split rounds: players are ordered by strikes, and the plan's groups take them in that order
(G1 the fewest strikes). Players with equal strikes at a group boundary are ordered at
random in each random plan, and ``optimize`` may exchange players of equal strikes across
groups, so a tie at the boundary goes whichever way gives fewer repeat meetings. Byes (a
4/3-only game with five left and no 2-player games) go to the fewest strikes; a tie for
fewest is drawn with the seed.

``check_seating`` is the self-check: every player seated once, tables and groups as planned.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from ..errors import refuse_repeats
from .errors import InvalidInput
from .plans import TablePlan

Strategy = Literal["optimize", "best_of_random"]
STRATEGIES: tuple[Strategy, ...] = ("optimize", "best_of_random")
DEFAULT_PLANS = 30
DEFAULT_BUDGET = 20_000  # swap evaluations: at most about 60 ms in CPython
KICK_DEPTH = 2  # random swaps per kick


@dataclass(frozen=True)
class Contestant:
    id: str
    strikes: Fraction = Fraction(0)


@dataclass(frozen=True)
class SeatedTable:
    group: int  # 1-based: G1 holds the fewest strikes
    players: tuple[str, ...]
    detrimental_points: int


@dataclass(frozen=True)
class Seating:
    tables: tuple[SeatedTable, ...]
    byes: tuple[str, ...]
    detrimental_points: int
    strategy: Strategy
    random_plans_points: int  # the best of the random plans, where optimize started
    evaluations: int


def meetings(history: Iterable[Sequence[str]]) -> Counter[frozenset[str]]:
    """How often each pair of players sat at the same table."""
    met: Counter[frozenset[str]] = Counter()
    for table in history:
        members = list(dict.fromkeys(table))
        for i, first in enumerate(members):
            for second in members[i + 1 :]:
                met[frozenset((first, second))] += 1
    return met


def seat(
    players: Sequence[Contestant],
    history: Iterable[Sequence[str]],
    plan: TablePlan,
    points_by_meetings: Sequence[int],
    *,
    strategy: Strategy = "optimize",
    plans: int = DEFAULT_PLANS,
    seed: int = 0,
    budget: int = DEFAULT_BUDGET,
) -> Seating:
    refuse_repeats([p.id for p in players], ("players",), InvalidInput, ("id",))
    if len(players) != plan.seated + plan.byes:
        raise InvalidInput(
            ("players",), f"the plan seats {plan.seated + plan.byes} players, not {len(players)}"
        )
    if plans < 1:
        raise InvalidInput(("plans",), "at least one random plan is needed")
    rng = random.Random(seed)
    byes = _byes(players, plan.byes, rng)
    seated = [p for p in players if p.id not in byes]
    problem = _Problem(seated, history, plan, points_by_meetings)
    best = problem.best_of_random(plans, rng)
    start_points = problem.total(best)
    evaluations = 0
    if strategy == "optimize" and start_points > 0:
        best, evaluations = problem.optimize(best, rng, budget)
    elif strategy not in STRATEGIES:
        raise InvalidInput(("strategy",), f"unknown strategy {strategy!r}")
    tables = tuple(
        SeatedTable(
            group=problem.table_group[t] + 1,
            players=tuple(seated[i].id for i in table),
            detrimental_points=problem.table_points(table),
        )
        for t, table in enumerate(best)
    )
    seating = Seating(
        tables=tables,
        byes=tuple(byes),
        detrimental_points=sum(t.detrimental_points for t in tables),
        strategy=strategy,
        random_plans_points=start_points,
        evaluations=evaluations,
    )
    check_seating(players, plan, seating)
    return seating


def repeat_meetings(seating: Seating, met: Counter[frozenset[str]]) -> int:
    """Pairs seated together this round who had met before."""
    return sum(
        1
        for table in seating.tables
        for i, first in enumerate(table.players)
        for second in table.players[i + 1 :]
        if met[frozenset((first, second))]
    )


def _byes(players: Sequence[Contestant], count: int, rng: random.Random) -> list[str]:
    draw = {p.id: rng.random() for p in players}  # drawn even for no bye: same seatings
    if count == 0:
        return []
    ordered = sorted(players, key=lambda p: (p.strikes, draw[p.id]))
    return [p.id for p in ordered[:count]]


class _Problem:
    """Players as indices 0..n-1, with the pair penalties and the group structure."""

    def __init__(
        self,
        players: Sequence[Contestant],
        history: Iterable[Sequence[str]],
        plan: TablePlan,
        points_by_meetings: Sequence[int],
    ) -> None:
        self.players = players
        self.plan = plan
        index = {p.id: i for i, p in enumerate(players)}
        cap = len(points_by_meetings) - 1
        self.penalty: list[dict[int, int]] = [{} for _ in players]
        for pair, times in meetings(history).items():
            first, second = tuple(pair)
            if first in index and second in index and times:
                points = points_by_meetings[min(times, cap)]
                self.penalty[index[first]][index[second]] = points
                self.penalty[index[second]][index[first]] = points
        self.table_sizes = [size for group in plan.groups for size in group]
        self.table_group = [g for g, group in enumerate(plan.groups) for _ in group]
        self.group_sizes = [sum(group) for group in plan.groups]
        # Strikes as dense integer ranks: the same order and ties as the fractions, but
        # sorting 30 plans by them costs integer comparisons, not Fraction arithmetic.
        rank = {value: r for r, value in enumerate(sorted({p.strikes for p in players}))}
        self.strike_rank = [rank[p.strikes] for p in players]

    def table_points(self, table: Sequence[int]) -> int:
        points = 0
        for i, first in enumerate(table):
            met = self.penalty[first]
            if met:  # most players have met nobody here yet: skip their pairs
                for second in table[i + 1 :]:
                    points += met.get(second, 0)
        return points

    def total(self, tables: Sequence[Sequence[int]]) -> int:
        return sum(self.table_points(table) for table in tables)

    def random_plan(self, rng: random.Random) -> list[list[int]]:
        # Order by strikes with a random draw among equals, cut into groups, shuffle, deal.
        draw = [rng.random() for _ in self.players]
        strike_rank = self.strike_rank
        order = sorted(range(len(self.players)), key=lambda i: (strike_rank[i], draw[i]))
        tables: list[list[int]] = []
        start = 0
        for group, group_size in zip(self.plan.groups, self.group_sizes, strict=True):
            members = order[start : start + group_size]
            start += group_size
            rng.shuffle(members)
            dealt = 0
            for size in group:
                tables.append(members[dealt : dealt + size])
                dealt += size
        return tables

    def best_of_random(self, plans: int, rng: random.Random) -> list[list[int]]:
        best: list[list[int]] = []
        best_points = -1
        for _ in range(plans):
            candidate = self.random_plan(rng)
            points = self.total(candidate)
            if best_points < 0 or points < best_points:
                best, best_points = candidate, points
        return best

    def optimize(
        self, start: list[list[int]], rng: random.Random, budget: int
    ) -> tuple[list[list[int]], int]:
        """Iterated local search over swaps; returns the best plan seen and evaluations used."""
        search = _Search(self, start)
        best_plan = search.snapshot()
        best_points = search.points
        while search.evaluations < budget:
            search.descend(budget)
            if search.points < best_points:
                best_plan, best_points = search.snapshot(), search.points
            if best_points == 0 or search.evaluations >= budget:
                break
            if search.points > best_points:
                search.restore(best_plan)
            if not search.kick(rng, KICK_DEPTH):
                break
        return best_plan, search.evaluations


class _Search:
    """Mutable plan with per-player costs, for swap moves."""

    def __init__(self, problem: _Problem, tables: list[list[int]]) -> None:
        self.problem = problem
        self.evaluations = 0
        self.restore(tables)
        # Who may swap with whom: same group, or equal strikes (a boundary tie). A player
        # can change group only by such a tie, so list every group their strikes reach.
        groups_of_strikes: dict[int, set[int]] = {}
        members: dict[int, list[int]] = {}
        for player in range(len(problem.players)):
            group = self.group_of(player)
            groups_of_strikes.setdefault(problem.strike_rank[player], set()).add(group)
            members.setdefault(group, []).append(player)
        self.partners = [
            [
                other
                for group in sorted(groups_of_strikes[problem.strike_rank[player]])
                for other in members[group]
                if other != player
            ]
            for player in range(len(problem.players))
        ]

    def group_of(self, player: int) -> int:
        return self.problem.table_group[self.seat_table[player]]

    def may_swap(self, a: int, b: int) -> bool:
        strike_rank = self.problem.strike_rank
        return strike_rank[a] == strike_rank[b] or self.group_of(a) == self.group_of(b)

    def restore(self, tables: list[list[int]]) -> None:
        self.tables = [list(table) for table in tables]
        self.seat_table = [0] * len(self.problem.players)
        for t, table in enumerate(self.tables):
            for player in table:
                self.seat_table[player] = t
        self.cost = [0] * len(self.problem.players)
        for table in self.tables:
            self._recost(table)
        self.points = sum(self.cost) // 2

    def snapshot(self) -> list[list[int]]:
        return [list(table) for table in self.tables]

    def _recost(self, table: list[int]) -> None:
        penalty = self.problem.penalty
        for player in table:
            mine = penalty[player]
            self.cost[player] = sum(mine.get(other, 0) for other in table if other != player)

    def delta(self, a: int, b: int) -> int:
        self.evaluations += 1
        table_a, table_b = self.tables[self.seat_table[a]], self.tables[self.seat_table[b]]
        pen_a, pen_b = self.problem.penalty[a], self.problem.penalty[b]
        gained = sum(pen_a.get(x, 0) for x in table_b if x != b) + sum(
            pen_b.get(x, 0) for x in table_a if x != a
        )
        return gained - self.cost[a] - self.cost[b]

    def swap(self, a: int, b: int, change: int) -> None:
        ta, tb = self.seat_table[a], self.seat_table[b]
        table_a, table_b = self.tables[ta], self.tables[tb]
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        self.seat_table[a], self.seat_table[b] = tb, ta
        self._recost(table_a)
        self._recost(table_b)
        self.points += change

    def descend(self, budget: int) -> None:
        """Best-improvement swaps for conflicted players until none improves."""
        improved = True
        while improved and self.points > 0:
            improved = False
            for a in range(len(self.cost)):
                if self.cost[a] == 0:
                    continue
                best_change, best_b = 0, -1
                home = self.seat_table[a]
                for b in self.partners[a]:
                    if self.seat_table[b] == home or not self.may_swap(a, b):
                        continue
                    change = self.delta(a, b)
                    if change < best_change:
                        best_change, best_b = change, b
                if best_b >= 0:
                    self.swap(a, best_b, best_change)
                    improved = True
                if self.evaluations >= budget:
                    return

    def kick(self, rng: random.Random, depth: int) -> bool:
        """Random swaps of conflicted players, to leave a local minimum."""
        conflicted = [p for p in range(len(self.cost)) if self.cost[p] > 0]
        if not conflicted:
            return False
        for _ in range(depth):
            a = rng.choice(conflicted)
            others = [
                b
                for b in self.partners[a]
                if self.seat_table[b] != self.seat_table[a] and self.may_swap(a, b)
            ]
            if not others:
                return False
            b = rng.choice(others)
            self.swap(a, b, self.delta(a, b))
        return True


def check_seating(players: Sequence[Contestant], plan: TablePlan, seating: Seating) -> None:
    """Self-check: every player once, table sizes and group order as the plan says."""
    seen = [pid for table in seating.tables for pid in table.players] + list(seating.byes)
    if sorted(seen) != sorted(p.id for p in players):
        raise AssertionError("seating does not place every player exactly once")
    sizes = [len(t.players) for t in seating.tables]
    if sizes != [size for group in plan.groups for size in group]:
        raise AssertionError("table sizes differ from the plan")
    strikes = {p.id: p.strikes for p in players}
    groups: dict[int, list[Fraction]] = {}
    for table in seating.tables:
        groups.setdefault(table.group, []).extend(strikes[pid] for pid in table.players)
    ordered = [groups[g] for g in sorted(groups)]
    for lower, upper in itertools.pairwise(ordered):
        if max(lower) > min(upper):
            raise AssertionError("a group holds more strikes than the next one")
