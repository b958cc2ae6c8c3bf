"""Run every benchmark under bench/ and write docs/benchmarks.md.

One command: ``python bench/report.py`` (``--quick`` for shorter runs). Each benchmark prints
its own Markdown table and exits 0 when its targets are met; this collects them with the
machine, the date and a verdict per benchmark.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHES = [
    (
        "Scrabble final-round advice",
        "bench_scrabble.py",
        [],
        "median <= 5 / 50 / 500 ms at 32 / 400 / 2,000 players (worst 20 / 100 / 1,000) over "
        "every field of the size and over the simulated ones, validation + serialisation "
        "<= 20 % at 400, no unverified verdict",
    ),
    (
        "Scrabble outcome engine, 12 contenders",
        "bench_scrabble_proof.py",
        [],
        "<= 100 ms per answer (p50)",
    ),
    (
        "Held Scrabble events: every round through the API, default schedule",
        "bench_scrabble_events.py",
        [],
        "pairing p50 <= 50 ms at 100 players; no back-to-back rematch, no pair past the "
        "allowance, byes spread",
    ),
    (
        "Strikes seating: optimize against best of 30",
        "bench_strikes.py",
        [],
        "optimize <= 10 % of best-of-30 where repeat-free exists, never above; "
        "<= 100 ms/round at 200",
    ),
    (
        "Held events: Diagonal Race (64) and Puffing Billy (200) through the API",
        "bench_events.py",
        [],
        "median write and median standings read <= 20 ms",
    ),
    (
        "Meeple League: five seasons of 300 players through the API",
        "bench_league.py",
        [],
        "formation <= 1 s; median report and table read <= 20 ms",
    ),
    (
        "Web layer: 32-player advice through gunicorn; cost of logging and metrics",
        "bench_web.py",
        [],
        "request log and metrics <= 10 % of a no-op request's server CPU; "
        "the web layer's share reported",
    ),
    (
        "Start-up and respawn: gunicorn with 4 workers",
        "startup.py",
        [],
        "median <= 3 s from launch to the first 200 from /readyz; <= 1 s from SIGKILL of a "
        "worker to its replacement answering",
    ),
    (
        "Load: 50 clients for 60 s on gunicorn",
        "load.py",
        ["--seconds", "60"],
        "0 errors; throughput against a no-op endpoint reported",
    ),
]


def main() -> int:
    quick = "--quick" in sys.argv
    cpu = platform.processor() or platform.machine()
    lines = [
        "# Benchmarks",
        "",
        f"Machine: {platform.system()} {platform.machine()} ({cpu}), {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}. Date: {dt.date.today().isoformat()}. "
        "Written by `python bench/report.py`.",
        "",
        "| benchmark | target | met | time |",
        "|---|---|:---:|---:|",
    ]
    sections: list[str] = []
    failed = False
    for title, script, args, target in BENCHES:
        if quick and script == "load.py":
            args = ["--seconds", "10"]
        if quick and script in (
            "bench_web.py",
            "bench_scrabble.py",
            "bench_scrabble_events.py",
            "bench_strikes.py",
            "bench_events.py",
            "bench_league.py",
        ):
            args = ["--quick"]
        started = time.monotonic()
        run = subprocess.run(
            [sys.executable, str(ROOT / "bench" / script), *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        spent = time.monotonic() - started
        met = run.returncode == 0
        failed |= not met
        lines.append(f"| {title} | {target} | {'yes' if met else 'NO'} | {spent:.0f} s |")
        sections += [
            "",
            f"## {title}",
            "",
            f"`python bench/{script} {' '.join(args)}`".strip(),
            "",
            run.stdout.strip(),
        ]
        if run.returncode not in (0, 1):
            sections += ["", "```", run.stderr.strip()[-2000:], "```"]
    (ROOT / "docs" / "benchmarks.md").write_text(
        "\n".join(lines + sections) + "\n", encoding="utf-8"
    )
    print("\n".join(lines))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
