"""Hot public reads: 300 anonymous readers of a 200-board event, and clients looping on a
stateless seating, against gunicorn (4 gevent workers) on PostgreSQL.

Set-up (in-process, through the API): a held Scrabble event of 400 players (200 boards a
round), rounds 1-3 played and closed, round 4 started with no result yet. Then gunicorn
serves it from a fresh schema of the PostgreSQL database, and for ``--seconds``:

- **readers** (``--readers``, default 300; one process, gevent): each reads, then waits
  ``--think`` seconds (uniform 0.5x-1.5x, default 1 s) as a phone's page does, from this
  mix of public reads, without ``If-None-Match`` (every answer whole): the event's JSON
  (30 %), round 4 as JSON (20 %), as CSV (15 %), the standings as text (15 %), the
  event's HTML page (20 %);
- **the director** enters a result of round 4 every 2 s (each a write: every cached
  answer of the event is out of date after it);
- **a load balancer** asks ``/healthz`` and ``/readyz`` every 100 ms each, on a new
  connection each time.

Then, for ``--seconds`` / 2, ``--seating`` (default 8) anonymous clients loop on
``POST /v1/strikes/seating`` (40 players with history) with the director's writes and the
health probes going on.

Reports each kind's count, median, p99 and worst latency and the answers by status, with
the machine's load (``uptime``) before and after. The readers, the probes and the director
run in processes of their own (the probes' timing is not the readers' GIL). Run:
``python bench/hot_reads.py [--readers 300] [--seconds 20] [--seating 8]`` (needs
PostgreSQL at 127.0.0.1:5432, database ``test``, trust authentication; ``--database``
names another). Targets: reads p99 <= 300 ms, ``/healthz`` and ``/readyz`` p99 <= 100 ms,
every write <= 200 ms (exit 1 when missed).

The clients share the 2-core machine with the server: the figures are this setup's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATABASE = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
BASE = "/v1/scrabble/events"
PLAYERS = 400  # 200 boards a round
PLAYED = 3  # rounds played and closed before the readers come; the next one is open
READS = (  # (share, kind, path under the event, Accept)
    (30, "event json", "", "application/json"),
    (20, "round json", f"/rounds/{PLAYED + 1}", "application/json"),
    (15, "round csv", f"/rounds/{PLAYED + 1}?format=csv", "text/csv"),
    (15, "standings text", "/export?format=text", "text/plain"),
    (20, "event page html", "", "text/html"),
)
TARGETS = {"reads": 0.300, "healthz": 0.100, "readyz": 0.100}
WRITE_TARGET = 0.200


# --- set-up -------------------------------------------------------------------------------


def fresh_schema(database: str) -> tuple[str, str]:
    from sqlalchemy import create_engine, text

    schema = f"bench_{uuid.uuid4().hex[:12]}"
    admin = create_engine(database)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    admin.dispose()
    return f"{database}?options=-csearch_path%3D{schema}", schema


def drop_schema(database: str, schema: str) -> None:
    from sqlalchemy import create_engine, text

    admin = create_engine(database)
    with admin.begin() as conn:
        conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


def played_event(url: str) -> dict[str, Any]:
    """The event, made in-process: its base, token, and round 4's games."""
    from pairing_service import create_app

    app = create_app({"DATABASE_URL": url, "WRITE_RATE_LIMIT": "", "REQUEST_LOG": False})
    client = app.test_client()
    rng = random.Random(7)
    field = [{"id": f"P{i}", "rating": 1900 - i, "name": f"Player {i}"} for i in range(PLAYERS)]
    body = {"name": "City open", "players": field, "rounds": 8}
    created = client.post(BASE, json=body).get_json()
    base, token = f"{BASE}/{created['id']}", created["token"]
    headers = {"Authorization": f"Bearer {token}"}
    for number in range(1, PLAYED + 2):
        paired = client.post(f"{base}/rounds", headers=headers).get_json()
        if number > PLAYED:
            games = [g["game"] for g in paired["games"]]
            break
        for game in paired["games"]:
            scores = [350 + rng.randrange(150), 350 + rng.randrange(150)]
            at = f"{base}/rounds/{number}/games/{game['game']}"
            assert client.put(at, json={"scores": scores}, headers=headers).status_code == 200
        assert client.post(f"{base}/rounds/{number}/close", headers=headers).status_code == 200
    app.extensions["pairing_store"].engine.dispose()
    return {"base": base, "token": token, "games": games, "id": created["id"]}


# --- the clients, each role a process of its own ------------------------------------------


def timed(connection: Any, method: str, path: str, body: bytes | None, headers: dict) -> tuple:
    """Status and seconds of one request (status 0: no answer); http.client connects when
    asked, so a new connection's set-up counts."""
    import http.client

    began = time.perf_counter()
    try:
        connection.request(method, path, body=body, headers=headers)
        answer = connection.getresponse()
        answer.read()
        status = answer.status
    except (OSError, http.client.HTTPException):
        status = 0
    return status, time.perf_counter() - began


def readers_role(args: argparse.Namespace) -> dict[str, Any]:
    from gevent import monkey

    monkey.patch_all()
    import http.client

    import gevent

    event = json.loads(args.event)
    host, port = args.host, args.port
    stop_at = time.monotonic() + args.seconds
    found: list[tuple[str, int, float]] = []
    weights = [share for share, *_ in READS]

    def reader(index: int) -> None:
        rng = random.Random(index)
        connection = http.client.HTTPConnection(host, port, timeout=60)  # kept alive
        gevent.sleep(rng.uniform(0, args.think))  # readers arrive spread over a think time
        while time.monotonic() < stop_at:
            _, kind, tail, accept = rng.choices(READS, weights)[0]
            path = f"/events/scrabble/{event['id']}" if kind.endswith("html") else event["base"]
            path += "" if kind.endswith("html") else tail
            status, took = timed(connection, "GET", path, None, {"Accept": accept})
            if status == 0:  # a dropped keep-alive: the next one is new
                connection.close()
            found.append((kind, status, took))
            gevent.sleep(args.think * rng.uniform(0.5, 1.5))

    gevent.joinall([gevent.spawn(reader, i) for i in range(args.readers)])
    return {"reads": found}


def probes_role(args: argparse.Namespace) -> dict[str, Any]:
    import http.client
    import threading

    stop_at = time.monotonic() + args.seconds
    found: list[tuple[str, int, float]] = []

    def probe(path: str) -> None:
        while time.monotonic() < stop_at:
            new = http.client.HTTPConnection(args.host, args.port, timeout=60)
            status, took = timed(new, "GET", path, None, {})
            new.close()
            found.append((path.strip("/"), status, took))
            time.sleep(0.1)

    threads = [threading.Thread(target=probe, args=(p,)) for p in ("/healthz", "/readyz")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"probes": found}


def director_role(args: argparse.Namespace) -> dict[str, Any]:
    import http.client

    event = json.loads(args.event)
    games = event["games"][args.first_game :]
    rng = random.Random(args.first_game)
    stop_at = time.monotonic() + args.seconds
    found: list[tuple[str, int, float]] = []
    headers = {"Authorization": f"Bearer {event['token']}", "Content-Type": "application/json"}
    for game in games:
        if time.monotonic() >= stop_at:
            break
        body = json.dumps({"scores": [350 + rng.randrange(150), 350 + rng.randrange(150)]})
        path = f"{event['base']}/rounds/{PLAYED + 1}/games/{game}"
        new = http.client.HTTPConnection(args.host, args.port, timeout=60)
        status, took = timed(new, "PUT", path, body.encode(), headers)
        new.close()
        found.append(("write", status, took))
        time.sleep(2)
    return {"writes": found}


def seating_role(args: argparse.Namespace) -> dict[str, Any]:
    import http.client
    import threading

    stop_at = time.monotonic() + args.seconds
    found: list[tuple[str, int, float]] = []

    def looper(index: int) -> None:
        rng = random.Random(index)
        connection = http.client.HTTPConnection(args.host, args.port, timeout=60)
        while time.monotonic() < stop_at:
            players = [{"id": f"s{i}", "strikes": rng.randrange(0, 30)} for i in range(40)]
            history = [[f"s{(i + j * 7) % 40}" for j in range(4)] for i in range(0, 40, 4)]
            body = {"players": players, "history": history, "round_type": "split"}
            body["seed"] = rng.randrange(1000)
            headers = {"Content-Type": "application/json"}
            sent = json.dumps(body).encode()
            status, took = timed(connection, "POST", "/v1/strikes/seating", sent, headers)
            if status == 0:
                connection.close()  # a new one at the next request
            found.append(("seating", status, took))

    threads = [threading.Thread(target=looper, args=(i,)) for i in range(args.seating)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"seating": found}


ROLES = {
    "readers": readers_role,
    "probes": probes_role,
    "director": director_role,
    "seating": seating_role,
}


# --- the run ------------------------------------------------------------------------------


def spawn(role: str, args: argparse.Namespace, port: int, seconds: float, **more: Any) -> Any:
    command = [sys.executable, __file__, "--role", role, "--port", str(port)]
    command += ["--seconds", str(seconds), "--readers", str(args.readers)]
    command += ["--think", str(args.think), "--seating", str(args.seating)]
    for name, value in more.items():
        command += [f"--{name.replace('_', '-')}", str(value)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, cwd=ROOT)


def gathered(processes: list[Any]) -> list[tuple[str, int, float]]:
    found: list[tuple[str, int, float]] = []
    for process in processes:
        out, _ = process.communicate()
        for rows in json.loads(out).values():
            found += [tuple(row) for row in rows]
    return found


def summary(rows: list[tuple[str, int, float]]) -> dict[str, Any]:
    times = sorted(took for _, _, took in rows)
    statuses: dict[str, int] = {}
    for _, status, _ in rows:
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    if not times:
        return {"count": 0, "statuses": statuses}
    return {
        "count": len(times),
        "median_ms": round(1000 * times[len(times) // 2], 1),
        "p99_ms": round(1000 * times[min(len(times) - 1, int(len(times) * 0.99))], 1),
        "worst_ms": round(1000 * times[-1], 1),
        "statuses": statuses,
    }


def load() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def phase(found: list[tuple[str, int, float]]) -> dict[str, Any]:
    kinds = {
        "reads": [r for r in found if r[0] in {kind for _, kind, *_ in READS}],
        "healthz": [r for r in found if r[0] == "healthz"],
        "readyz": [r for r in found if r[0] == "readyz"],
        "writes": [r for r in found if r[0] == "write"],
        "seating": [r for r in found if r[0] == "seating"],
    }
    report = {name: summary(rows) for name, rows in kinds.items() if rows}
    for _, kind, *_ in READS:
        if any(r[0] == kind for r in found):
            report[kind] = summary([r for r in found if r[0] == kind])
    return report


def met(report: dict[str, Any]) -> list[str]:
    missed = []
    for name, target in TARGETS.items():
        if name in report and report[name]["p99_ms"] > 1000 * target:
            missed.append(f"{name} p99 {report[name]['p99_ms']} ms > {1000 * target:.0f} ms")
    if "writes" in report and report["writes"]["worst_ms"] > 1000 * WRITE_TARGET:
        missed.append(f"a write took {report['writes']['worst_ms']} ms")
    return missed


def main() -> int:
    from tests.support.servers import free_port, start_gunicorn, wait_ready

    parser = argparse.ArgumentParser()
    parser.add_argument("--readers", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--seating", type=int, default=8)
    parser.add_argument("--database", default=os.environ.get("BENCH_DATABASE_URL", DATABASE))
    parser.add_argument("--role", choices=ROLES)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int)
    parser.add_argument("--event")
    parser.add_argument("--first-game", type=int, default=0)
    args = parser.parse_args()
    if args.role:
        print(json.dumps(ROLES[args.role](args)))
        return 0

    url, schema = fresh_schema(args.database)
    folder = Path(tempfile.mkdtemp(prefix="hot-reads-"))
    server = None
    try:
        began = time.perf_counter()
        event = played_event(url)
        print(
            f"event set up in {time.perf_counter() - began:.1f} s; logs in {folder}",
            file=sys.stderr,
        )
        port, log = free_port(), folder / "gunicorn.log"
        server = start_gunicorn(
            url,
            port,
            log,
            PAIRING_REQUEST_LOG="false",
            PAIRING_COSTLY_SLOTS_DIR=str(folder / "costly"),
        )
        wait_ready(f"http://127.0.0.1:{port}", server, log)
        shown = json.dumps(event)
        results: dict[str, Any] = {"load_before": load()}
        seconds = args.seconds
        readers = [
            spawn("readers", args, port, seconds, event=shown),
            spawn("probes", args, port, seconds),
            spawn("director", args, port, seconds, event=shown),
        ]
        results["readers"] = phase(gathered(readers))
        results["load_after_readers"] = load()
        if args.seating:
            half = seconds / 2
            loopers = [
                spawn("seating", args, port, half),
                spawn("probes", args, port, half),
                spawn("director", args, port, half, event=shown, first_game=100),
            ]
            results["seating"] = phase(gathered(loopers))
            results["load_after_seating"] = load()
    finally:
        if server is not None:
            server.terminate()
            server.wait(30)
        drop_schema(args.database, schema)
    print(json.dumps(results, indent=2))
    missed = met(results["readers"]) + met(results.get("seating", {}))
    for line in missed:
        print("missed:", line, file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
