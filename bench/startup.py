"""Start-up and respawn time of the served service: gunicorn with 4 workers on SQLite.

Two figures, each over several runs (median and worst):

- ready: from launching gunicorn to the first 200 from ``GET /readyz``;
- respawn: from SIGKILL of one worker to the worker that replaces it answering. The other
  workers are stopped (SIGSTOP) meanwhile, so the answer can only come from the new one;
  they are let go (SIGCONT) once it has answered.

Targets: ready <= 3 s and respawn <= 1 s (medians). Run: ``python bench/startup.py
[--runs 5] [--config FILE]``; it prints a Markdown table and exits 0 when the targets are
met. ``--config`` measures another gunicorn configuration (an earlier one, to compare).
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.servers import ROOT, WORKERS, free_port, start_gunicorn, worker_pids

READY_TARGET_S = 3.0
RESPAWN_TARGET_S = 1.0


def answers(base: str, timeout: float = 1.0) -> bool:
    try:
        with urllib.request.urlopen(base + "/readyz", timeout=timeout) as response:
            return response.status == 200
    except (OSError, urllib.error.HTTPError):
        return False


def cpu_ticks(pids: set[int]) -> int:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total


def wait_idle(pids: set[int], seconds: float = 60) -> None:
    """Until the workers stop using CPU: booted, none holding a lock mid-migration."""
    deadline = time.monotonic() + seconds
    before = cpu_ticks(pids)
    while time.monotonic() < deadline:
        time.sleep(0.3)
        now = cpu_ticks(pids)
        if now - before <= 1:
            return
        before = now


def one_run(folder: Path, config: str) -> tuple[float, float]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = folder / f"gunicorn-{port}.log"
    started = time.monotonic()
    database = f"sqlite:///{folder}/pairing-{port}.sqlite3"
    process = start_gunicorn(database, port, log, config=config)
    try:
        while not answers(base):
            if process.poll() is not None or time.monotonic() - started > 120:
                raise RuntimeError("gunicorn did not start:\n" + log.read_text())
            time.sleep(0.02)
        ready = time.monotonic() - started
        # Every worker up before one is killed.
        while len(worker_pids(process.pid)) < WORKERS:
            time.sleep(0.02)
        wait_idle(worker_pids(process.pid))
        victim, *others = sorted(worker_pids(process.pid))
        for pid in others:
            os.kill(pid, signal.SIGSTOP)
        try:
            killed = time.monotonic()
            os.kill(victim, signal.SIGKILL)
            while not answers(base, timeout=0.5):
                if time.monotonic() - killed > 120:
                    raise RuntimeError("no worker replaced the killed one:\n" + log.read_text())
            respawn = time.monotonic() - killed
        finally:
            for pid in others:
                os.kill(pid, signal.SIGCONT)
        return ready, respawn
    finally:
        process.terminate()
        process.wait(timeout=60)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--config", default=str(ROOT / "gunicorn.conf.py"))
    args = parser.parse_args()
    ready: list[float] = []
    respawn: list[float] = []
    with tempfile.TemporaryDirectory(prefix="pairing-startup-") as folder:
        for _ in range(args.runs):
            up, again = one_run(Path(folder), str(Path(args.config).resolve()))
            ready.append(up)
            respawn.append(again)
    print(f"gunicorn with {WORKERS} workers, SQLite, {args.runs} runs, {Path(args.config).name}")
    print()
    print("| figure | median s | worst s | target (median) |")
    print("|---|---:|---:|---:|")
    print(
        f"| launch to first 200 from /readyz | {statistics.median(ready):.2f} | "
        f"{max(ready):.2f} | {READY_TARGET_S:.0f} s |"
    )
    print(
        f"| SIGKILL of a worker to its replacement answering | "
        f"{statistics.median(respawn):.2f} | {max(respawn):.2f} | {RESPAWN_TARGET_S:.0f} s |"
    )
    print()
    met = (
        statistics.median(ready) <= READY_TARGET_S
        and statistics.median(respawn) <= RESPAWN_TARGET_S
    )
    print("targets met" if met else "targets NOT met")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
