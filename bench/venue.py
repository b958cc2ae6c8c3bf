"""A festival's venue behind one address: 10 strikes events of 20 tables each, every table
entered by its own scorekeeper, all 200 scorekeepers on one Wi-Fi (one address) through a
real gunicorn (4 workers) with the write limit shared in Redis at its default (120 writes
a minute). Each scorekeeper enters its table's result, then sends it again as a client
does when the answer was lost (a no-op 200); /healthz is probed meanwhile.

Reports the answers by status (429s are what a per-address limit gave: 96 % of a venue's
writes refused), the median and worst latency of result entry and of /healthz. Run:
``python bench/venue.py [--events 10] [--tables 20]`` (needs Redis at 127.0.0.1:6379, or
``--storage database``, the service's default: the counts in its database).

The clients are Python threads on the same 2-core machine as the server: the latencies
are this setup's, a round's results arriving at once, not a capacity claim.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.servers import call, free_port, start_gunicorn, wait_ready


def put(base: str, path: str, body: dict, token: str) -> tuple[int, float]:
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), method="PUT", headers=headers
    )
    began = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    return status, time.monotonic() - began


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=10)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--storage", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    port, log = free_port(), folder / "gunicorn.log"
    server = start_gunicorn(
        f"sqlite:///{folder}/venue.sqlite3",
        port,
        log,
        PAIRING_WRITE_RATE_LIMIT="120/60",
        PAIRING_RATE_LIMIT_STORAGE=args.storage,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, server, log)
        desks = []  # (tournament path, table, players, scorekeeper token)
        for event in range(args.events):
            players = [{"id": f"E{event}P{i}"} for i in range(5 * args.tables)]  # 5-4-3
            status, made = call(base, "POST", "/v1/strikes/tournaments", {"players": players})
            assert status == 201, made
            path, token = f"/v1/strikes/tournaments/{made['id']}", made["token"]
            tables = call(base, "POST", f"{path}/rounds", token=token)[1]["tables"]
            for table in tables:
                issued = call(base, "POST", f"{path}/scorekeepers", {"name": "desk"}, token)[1]
                desks.append((path, table["table"], table["players"], issued["token"]))
        answers: Counter[int] = Counter()
        entry_seconds: list[float] = []
        health_seconds: list[float] = []
        done = threading.Event()
        lock = threading.Lock()

        def scorekeeper(path: str, table: int, seats: list[str], token: str) -> None:
            url = f"{path}/rounds/1/tables/{table}"
            result = {"results": [{"player": p, "score": 50 - i} for i, p in enumerate(seats)]}
            for _ in range(2):  # the result, then its retry (an answer lost on the Wi-Fi)
                status, seconds = put(base, url, result, token)
                with lock:
                    answers[status] += 1
                    entry_seconds.append(seconds)

        def probe() -> None:
            while not done.is_set():
                began = time.monotonic()
                with urllib.request.urlopen(base + "/healthz", timeout=60) as response:
                    response.read()
                with lock:
                    health_seconds.append(time.monotonic() - began)
                time.sleep(0.1)

        prober = threading.Thread(target=probe)
        prober.start()
        threads = [threading.Thread(target=scorekeeper, args=desk) for desk in desks]
        began = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - began
        done.set()
        prober.join()
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"{len(desks)} scorekeepers, one address, {len(entry_seconds)} writes in {elapsed:.1f} s")
    print("answers:", dict(sorted(answers.items())))
    for name, seconds in (("result entry", entry_seconds), ("/healthz", health_seconds)):
        print(
            f"{name}: median {statistics.median(seconds) * 1000:.0f} ms, "
            f"worst {max(seconds) * 1000:.0f} ms over {len(seconds)}"
        )


if __name__ == "__main__":
    main()
