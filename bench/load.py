"""Load test: 50 concurrent clients for 60 s against a real gunicorn, then a no-op ceiling.

Starts gunicorn (4 workers, SQLite in a temporary folder) on loopback, creates a
200-player strikes tournament with its first round, then runs a mix of requests:
40 % Scrabble final-round advice (32 players, CSV), 30 % strikes seating (40 players with
history), 30 % result entry (PUT of a table's result, a correction of whatever stands). Then the
same number of clients hit GET /healthz, which does nothing: the ceiling of this machine
and client. Reports requests, requests/s, p50/p99 latency and errors for both, and their
ratio. Stops by itself. Run: ``python bench/load.py [--seconds 60] [--clients 50]``.

The clients are Python threads on the same machine as the server (2 cores here), each
opening a connection per request: the figures are for this setup, not a capacity claim.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.servers import call, free_port, start_gunicorn, wait_ready

CSV = "".join(f"p{i},{8 - i // 4},{400 - 13 * i},Player {i}\n" for i in range(32))


def seating_body(rng: random.Random) -> dict:
    players = [{"id": f"s{i}", "strikes": rng.randrange(0, 30)} for i in range(40)]
    history = [[f"s{(i + j * 7) % 40}" for j in range(4)] for i in range(0, 40, 4)]
    return {
        "players": players,
        "history": history,
        "round_type": "split",
        "seed": rng.randrange(1000),
    }


def request(base: str, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> int:
    req = urllib.request.Request(base + path, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def run(base: str, clients: int, seconds: float, pick) -> dict[str, float]:
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def client(index: int) -> None:
        nonlocal errors
        rng = random.Random(index)
        mine: list[float] = []
        failed = 0
        while time.monotonic() < stop_at:
            method, path, body, headers = pick(rng)
            started = time.perf_counter()
            try:
                status = request(base, method, path, body, headers)
            except OSError:
                status = 0
            mine.append(time.perf_counter() - started)
            failed += not 200 <= status < 300
        with lock:
            latencies.extend(mine)
            errors += failed

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    latencies.sort()
    return {
        "requests": len(latencies),
        "rps": len(latencies) / seconds,
        "p50": statistics.median(latencies) * 1000,
        "p99": latencies[int(len(latencies) * 0.99) - 1] * 1000,
        "errors": errors,
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--clients", type=int, default=50)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    log = folder / "gunicorn.log"
    port = free_port()
    process = start_gunicorn(f"sqlite:///{folder}/load.sqlite3", port, log)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, process, log)
        players = [{"id": f"t{i:03d}"} for i in range(200)]
        _, created = call(base, "POST", "/v1/strikes/tournaments", {"players": players, "seed": 1})
        tid, token = created["id"], created["token"]
        _, rnd = call(base, "POST", f"/v1/strikes/tournaments/{tid}/rounds", token=token)
        tables = rnd["tables"]

        def mixed(rng: random.Random):
            roll = rng.random()
            if roll < 0.4:
                return (
                    "POST",
                    "/v1/scrabble/final-round?max_spread_per_game=250",
                    CSV.encode(),
                    {"Content-Type": "text/csv"},
                )
            if roll < 0.7:
                return (
                    "POST",
                    "/v1/strikes/seating",
                    json.dumps(seating_body(rng)).encode(),
                    {"Content-Type": "application/json"},
                )
            table = rng.choice(tables)
            order = list(table["players"])
            rng.shuffle(order)
            body = {"results": [{"player": p, "score": 100 - 10 * i} for i, p in enumerate(order)]}
            return (
                "PUT",
                f"/v1/strikes/tournaments/{tid}/rounds/1/tables/{table['table']}",
                json.dumps(body).encode(),
                {
                    "Content-Type": "application/json",
                    "Authorization": f"Bearer {token}",
                    "If-Match": "*",  # a correction of whatever stands
                },
            )

        def noop(_: random.Random):
            return ("GET", "/healthz", None, {})

        mix = run(base, args.clients, args.seconds, mixed)
        ceiling = run(base, args.clients, args.seconds, noop)
    finally:
        process.terminate()
        process.wait(timeout=30)
    print(f"{args.clients} clients, {args.seconds:g} s each, gunicorn with 4 workers, SQLite")
    print()
    print("| run | requests | requests/s | p50 ms | p99 ms | errors |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, result in (
        ("mixed (advice, seating, results)", mix),
        ("no-op (GET /healthz)", ceiling),
    ):
        print(
            f"| {name} | {result['requests']} | {result['rps']:.0f} | {result['p50']:.1f} "
            f"| {result['p99']:.1f} | {result['errors']} |"
        )
    print()
    print(f"mixed / no-op throughput: {mix['rps'] / ceiling['rps']:.0%}")
    ok = mix["errors"] == 0 and ceiling["errors"] == 0
    print("targets met" if ok else "ERRORS")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
