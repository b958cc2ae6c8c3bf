"""Concurrent writers against a real gunicorn with several workers, on both databases.

Results for every table of a 60-player round are entered at once, each table three times
from different clients: every request succeeds, and each player ends with exactly one
result row. Tournaments created at once are all kept. Workers starting together on a fresh
database migrate it once.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select

from pairing_service.store import normalise_url, schema

ROOT = Path(__file__).resolve().parent.parent
WORKERS = 4
pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def call(base: str, method: str, path: str, body=None, token: str | None = None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


@pytest.fixture()
def server(database_url, tmp_path):
    port = free_port()
    env = dict(os.environ, DATABASE_URL=database_url, WEB_CONCURRENCY=str(WORKERS))
    log = (tmp_path / "gunicorn.log").open("w")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--config",
            "gunicorn.conf.py",
            "--bind",
            f"127.0.0.1:{port}",
            "pairing_service:create_app()",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if call(base, "GET", "/readyz")[0] == 200:
                break
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail("gunicorn did not start:\n" + (tmp_path / "gunicorn.log").read_text())
        time.sleep(0.2)
    yield base, database_url
    process.terminate()
    process.wait(timeout=30)
    log.close()


def test_concurrent_results_are_all_kept_once(server):
    base, database_url = server
    players = [{"id": f"P{i:02d}"} for i in range(60)]
    status, created = call(base, "POST", "/v1/strikes/tournaments", {"players": players, "seed": 3})
    assert status == 201
    tid, token = created["id"], created["token"]
    status, rnd = call(base, "POST", f"/v1/strikes/tournaments/{tid}/rounds", token=token)
    assert status == 201 and len(rnd["tables"]) == 12

    def enter(table):
        body = {
            "results": [{"player": p, "score": 100 - 7 * i} for i, p in enumerate(table["players"])]
        }
        path = f"/v1/strikes/tournaments/{tid}/rounds/1/tables/{table['table']}"
        return call(base, "PUT", path, body, token)

    jobs = [table for table in rnd["tables"] for _ in range(3)]
    with ThreadPoolExecutor(max_workers=24) as pool:
        answers = list(pool.map(enter, jobs))
    assert [status for status, _ in answers] == [200] * len(jobs), answers

    engine = create_engine(normalise_url(database_url))
    try:
        with engine.connect() as conn:
            per_player = conn.execute(
                select(schema.results.c.player_id, func.count())
                .where(schema.results.c.tournament_id == tid)
                .group_by(schema.results.c.player_id)
            ).all()
    finally:
        engine.dispose()
    assert sorted(p for p, _ in per_player) == [p["id"] for p in players]
    assert {count for _, count in per_player} == {1}

    status, closed = call(
        base, "POST", f"/v1/strikes/tournaments/{tid}/rounds/1/close", token=token
    )
    assert status == 200 and closed["status"] == "closed"
    status, read = call(base, "GET", f"/v1/strikes/tournaments/{tid}")
    assert sum(s["strikes"] for s in read["standings"]) == 12 * 60  # 0+6+12+18+24 a table


def test_concurrent_creates_and_round_starts(server):
    base, _ = server
    players = [{"id": f"P{i}"} for i in range(20)]

    def create(_):
        return call(base, "POST", "/v1/strikes/tournaments", {"players": players})

    with ThreadPoolExecutor(max_workers=16) as pool:
        created = list(pool.map(create, range(16)))
    assert [status for status, _ in created] == [201] * 16
    ids = {body["id"] for _, body in created}
    assert len(ids) == 16

    # Many starts of the same round at once: exactly one wins, the rest are 409.
    tid, token = created[0][1]["id"], created[0][1]["token"]

    def start(_):
        return call(base, "POST", f"/v1/strikes/tournaments/{tid}/rounds", token=token)[0]

    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = sorted(pool.map(start, range(8)))
    assert statuses == [201] + [409] * 7
