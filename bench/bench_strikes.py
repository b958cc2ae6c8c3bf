"""Benchmark: least-times-met seating, ``optimize`` against the seed's best of 30 random plans.

For 20, 40, 100 and 200 players and several seeds, each strategy runs its own simulated
event of 6 rounds (round types as the seed alternates them; random results, so strikes and
the split groups change every round). Nobody is eliminated, which keeps the field whole:
the hardest case for repeat meetings. Reported per field: total detrimental points over the
6 rounds for each strategy (summed over the seeds), the ratio, and time per round.

Targets (issue 3): ``optimize`` <= 10 % of best-of-30's points wherever a repeat-free
seating exists (40+ players), never above it, and <= 100 ms per round at 200 players.
Run: ``python bench/bench_strikes.py`` (``--quick`` for fewer seeds).
"""

from __future__ import annotations

import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass
from fractions import Fraction

from pairing_service.engine.strikes import (
    Contestant,
    Finish,
    Strategy,
    meetings,
    round_type,
    score_table,
    seat,
    table_plan,
)
from pairing_service.rules import load_rules

FIELDS = (20, 40, 100, 200)
ROUNDS = 6
TARGET_RATIO = 0.10
TARGET_MS_AT_200 = 100.0
NODE_LIMIT = 200_000


def repeat_free_exists(
    members: list[str], sizes: tuple[int, ...], met: set[frozenset[str]], node_limit: int
) -> bool | None:
    """Exact search: can ``members`` sit at tables of ``sizes`` with no pair that met?

    None when the search gives up after ``node_limit`` nodes.
    """
    free = {p: {q for q in members if q != p and frozenset((p, q)) not in met} for p in members}
    tables: list[list[str]] = [[] for _ in sizes]
    nodes = 0

    def place(rest: list[str]) -> bool | None:
        nonlocal nodes
        nodes += 1
        if nodes > node_limit:
            return None
        if not rest:
            return True

        # Most constrained player first: fewest tables they could still join.
        def options(p: str) -> list[int]:
            seen_empty: set[int] = set()
            result = []
            for t, table in enumerate(tables):
                if len(table) == sizes[t] or not all(q in free[p] for q in table):
                    continue
                if not table:  # empty tables of one size are interchangeable
                    if sizes[t] in seen_empty:
                        continue
                    seen_empty.add(sizes[t])
                result.append(t)
            return result

        player = min(rest, key=lambda p: len(options(p)))
        undecided = False
        for t in options(player):
            tables[t].append(player)
            found = place([p for p in rest if p != player])
            tables[t].pop()
            if found:
                return True
            undecided |= found is None
        return None if undecided else False

    return place(list(members))


@dataclass
class RoundRecord:
    points: int
    seconds: float
    best_of_30_points: int  # the seed's method on the same input (optimize's events only)
    repeat_free: bool | None  # a repeat-free seating exists (None: search gave up)


def run_event(size: int, strategy: Strategy, seed: int) -> list[RoundRecord]:
    rules = load_rules().strikes
    rng = random.Random(seed)
    strikes = {f"P{i}": Fraction(0) for i in range(size)}
    history: list[tuple[str, ...]] = []
    records = []
    for number in range(1, ROUNDS + 1):
        plan = table_plan(size, round_type(number), "5-4-3", rules)
        players = [Contestant(pid, value) for pid, value in strikes.items()]
        options = {"seed": seed * 1000 + number}
        started = time.perf_counter()
        seating = seat(
            players, history, plan, rules.detrimental_points, strategy=strategy, **options
        )
        seconds = time.perf_counter() - started
        baseline = seating.random_plans_points
        repeat_free: bool | None = seating.detrimental_points == 0
        if not repeat_free:
            met = set(meetings(history))
            answers = [
                repeat_free_exists(
                    [p for t in seating.tables if t.group == g for p in t.players],
                    group,
                    met,
                    NODE_LIMIT,
                )
                for g, group in enumerate(plan.groups, start=1)
            ]
            repeat_free = False if False in answers else (None if None in answers else True)
        records.append(RoundRecord(seating.detrimental_points, seconds, baseline, repeat_free))
        for table in seating.tables:
            history.append(table.players)
            places = list(range(1, len(table.players) + 1))
            rng.shuffle(places)
            finishes = [Finish(p, place=pl) for p, pl in zip(table.players, places, strict=True)]
            for entry in score_table(finishes, rules.strikes_by_place):
                strikes[entry.player] += entry.strikes
    return records


def main() -> int:
    seeds = range(1, 4) if "--quick" in sys.argv else range(1, 11)
    print(f"machine: {platform.machine()} {platform.processor() or ''}".strip())
    print(f"python: {platform.python_version()}; seeds: {len(seeds)}; rounds: {ROUNDS}")
    print()
    print("Each strategy running its own events (repeats accumulate as they would):")
    print()
    print(
        "| players | best of 30: points | optimize: points | ratio "
        "| best of 30: ms/round (p50) | optimize: ms/round (p50 / max) |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    own: dict[int, dict[str, list[RoundRecord]]] = {}
    failed = False
    for size in FIELDS:
        own[size] = {
            strategy: [r for seed in seeds for r in run_event(size, strategy, seed)]
            for strategy in ("best_of_random", "optimize")
        }
        best, opt = own[size]["best_of_random"], own[size]["optimize"]
        opt_ms = [r.seconds * 1000 for r in opt]
        best_total, opt_total = sum(r.points for r in best), sum(r.points for r in opt)
        print(
            f"| {size} | {best_total} | {opt_total} | {opt_total / max(best_total, 1):.1%} "
            f"| {statistics.median(r.seconds * 1000 for r in best):.1f} "
            f"| {statistics.median(opt_ms):.1f} / {max(opt_ms):.1f} |"
        )
        failed |= opt_total > best_total
        failed |= size == 200 and max(opt_ms) > TARGET_MS_AT_200
    print()
    print("The same inputs (each round of optimize's events, both strategies on it):")
    print()
    print(
        "| players | rounds | repeat-free exists | best of 30 there | optimize there | ratio "
        "| no repeat-free seating (points: best of 30 / optimize) | undecided |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size in FIELDS:
        rounds = own[size]["optimize"]
        free = [r for r in rounds if r.repeat_free]
        forced = [r for r in rounds if r.repeat_free is False]
        undecided = [r for r in rounds if r.repeat_free is None]
        best_free, opt_free = sum(r.best_of_30_points for r in free), sum(r.points for r in free)
        ratio = opt_free / max(best_free, 1)
        print(
            f"| {size} | {len(rounds)} | {len(free)} | {best_free} | {opt_free} | {ratio:.1%} "
            f"| {len(forced)} ({sum(r.best_of_30_points for r in forced)} / "
            f"{sum(r.points for r in forced)}) | {len(undecided)} |"
        )
        failed |= size >= 40 and ratio > TARGET_RATIO
        failed |= any(r.points > r.best_of_30_points for r in rounds)
    print()
    print("targets met" if not failed else "TARGET MISSED")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
