"""Benchmark: the outcome engine on a final round with 12 contenders.

Target (issue 4): an answer, with every principle decided and every need written, in
<= 100 ms for a 12-contender final round. Fields: 12 players within a game of the lead and
20 players who cannot catch them (seeded spreads); each case runs both through the advisor
(table or fallback) and through the audit of COP's KOTH pairing (1-2, 3-4, ...).
Run: ``python bench/bench_scrabble_proof.py``.
"""

from __future__ import annotations

import platform
import random
import statistics
import sys
import time

from pairing_service.engine.scrabble import Player, Standings, advise, audit
from pairing_service.engine.scrabble.contention import contention
from pairing_service.rules import load_rules

TARGET_MS = 100.0
CASES = {
    "12 tied leaders, 2 victors (row 0/0/0/0)": ([20] * 12, 2),
    "12 within a game, 3 victors (fallback)": ([20, 20, 20, 19, 19, 19, 19, 18, 18, 18, 18, 18], 3),
    "12 within a game, 4 victors (fallback)": ([20, 20, 19, 19, 19, 19, 18, 18, 18, 18, 18, 18], 4),
    "12 within a game, 2 victors, cap 250": ([20, 20, 19, 19, 19, 19, 19, 18, 18, 18, 18, 18], 2),
}


def field(half_wins: list[int], seed: int) -> Standings:
    rng = random.Random(seed)
    players = [Player(f"c{i}", hw, rng.randint(-300, 600)) for i, hw in enumerate(half_wins)]
    players += [Player(f"o{i}", 8 - i % 5, rng.randint(-900, 0)) for i in range(20)]
    return Standings.from_players(players)


def main() -> int:
    table = load_rules().scrabble
    print(f"machine: {platform.machine()}, Python {platform.python_version()}")
    print("| case | relevant | advice p50 / max ms | audit of KOTH p50 / max ms | met |")
    print("|---|---:|---:|---:|:---:|")
    failed = False
    for name, (half_wins, victors) in CASES.items():
        cap = 250 if "cap" in name else None
        advice_ms, audit_ms, relevant = [], [], set()
        for seed in range(10):
            standings = field(half_wins, seed)
            relevant.add(len(contention(standings, victors, cap).relevant))
            start = time.perf_counter()
            advise(standings, table, victors=victors, max_spread_per_game=cap)
            advice_ms.append((time.perf_counter() - start) * 1000)
            ids = list(standings.ids)
            koth = [(ids[i], ids[i + 1]) for i in range(0, len(ids), 2)]
            start = time.perf_counter()
            audit(standings, table, koth, None, victors=victors, max_spread_per_game=cap)
            audit_ms.append((time.perf_counter() - start) * 1000)
        ok = statistics.median(advice_ms) <= TARGET_MS and statistics.median(audit_ms) <= TARGET_MS
        failed |= not ok
        print(
            f"| {name} | {'/'.join(str(r) for r in sorted(relevant))} "
            f"| {statistics.median(advice_ms):.1f} / {max(advice_ms):.1f} "
            f"| {statistics.median(audit_ms):.1f} / {max(audit_ms):.1f} | {'yes' if ok else 'NO'} |"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
