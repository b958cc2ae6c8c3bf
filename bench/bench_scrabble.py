"""Benchmark: final-round advice for 32, 400 and 2,000 players, in-process.

Targets (issue 2): p50 <= 5 ms at 32, <= 50 ms at 400, <= 500 ms at 2,000 players.
Fields are simulated Swiss events (seeded) with a full history of previous opponents, so
repeat avoidance has real work to do. Run: ``python bench/bench_scrabble.py``.
"""

from __future__ import annotations

import platform
import random
import statistics
import sys
import time

from pairing_service.engine.scrabble import Player, Standings, advise
from pairing_service.rules import load_rules

TARGETS_MS = {32: 5.0, 400: 50.0, 2000: 500.0}


def simulated_field(size: int, rounds: int, seed: int) -> Standings:
    rng = random.Random(seed)
    half_wins = [0] * size
    spread = [0] * size
    met: list[list[str | None]] = [[] for _ in range(size)]
    for _ in range(rounds):
        order = sorted(range(size), key=lambda i: (-half_wins[i], -spread[i], rng.random()))
        for k in range(0, size - 1, 2):
            a, b = order[k], order[k + 1]
            margin = rng.randint(-250, 250) or 1
            winner, loser = (a, b) if margin > 0 else (b, a)
            half_wins[winner] += 2
            spread[winner] += abs(margin)
            spread[loser] -= abs(margin)
            met[a].append(f"p{b}")
            met[b].append(f"p{a}")
        if size % 2:
            last = order[-1]
            half_wins[last] += 2
            met[last].append(None)
    players = [
        Player(f"p{i}", half_wins[i], spread[i], opponents=tuple(met[i])) for i in range(size)
    ]
    return Standings.from_players(players)


def measure(size: int, repeats: int) -> tuple[float, float]:
    table = load_rules().scrabble
    rounds = {32: 7, 400: 12, 2000: 15}[size]
    samples = []
    for seed in range(repeats):
        standings = simulated_field(size, rounds, seed)
        start = time.perf_counter()
        advise(standings, table)
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(len(samples) * 0.99))]


def main() -> int:
    machine = f"{platform.machine()} {platform.processor() or ''}".strip()
    print(f"machine: {machine}, Python {platform.python_version()}")
    print("| players | p50 ms | p99 ms | target p50 ms | met |")
    print("|---:|---:|---:|---:|:---:|")
    failed = False
    for size, repeats in ((32, 60), (400, 20), (2000, 6)):
        p50, p99 = measure(size, repeats)
        ok = p50 <= TARGETS_MS[size]
        failed |= not ok
        print(
            f"| {size} | {p50:.1f} | {p99:.1f} | {TARGETS_MS[size]:.0f} | {'yes' if ok else 'NO'} |"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
