"""A real gunicorn on loopback for the tests: start, wait until ready, call, kill."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]  # the project
WORKERS = 4


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def call(
    base: str,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    timeout: float = 60,
) -> tuple[int, Any]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def start_gunicorn(
    database_url: str,
    port: int,
    log: Path,
    wrapper: tuple[str, ...] = (),
    config: str = "gunicorn.conf.py",
    **env: str,
) -> subprocess.Popen[bytes]:
    """gunicorn with WORKERS workers in its own process group (so a test can kill it all);
    ``env`` adds to or overrides its environment (workers, the write limit, ...);
    ``wrapper`` is a command to run it under (a benchmark's valgrind); ``config`` another
    configuration file (a benchmark's comparison)."""
    environment = {
        **os.environ,
        "DATABASE_URL": database_url,
        "WEB_CONCURRENCY": str(WORKERS),
        "PAIRING_WRITE_RATE_LIMIT": "",
        # Beside the log, not in /tmp: a server killed outright leaves it to the test's folder.
        "PROMETHEUS_MULTIPROC_DIR": str(log.parent / f"metrics-{port}"),
        # Its own slots for costly computations: another server on the machine holds its own.
        "PAIRING_COSTLY_SLOTS_DIR": str(log.parent / f"costly-{port}"),
        # A test's stop cuts off what is still in flight after 5 s (a slow client kept a
        # worker for the whole default 30 s, and a loaded machine's test gave up waiting).
        "GUNICORN_GRACEFUL_TIMEOUT": "5",
        **env,
    }
    return subprocess.Popen(
        [
            *wrapper,
            sys.executable,
            "-m",
            "gunicorn",
            "--config",
            config,
            "--bind",
            f"127.0.0.1:{port}",
            "pairing_service:create_app()",
        ],
        cwd=ROOT,
        env=environment,
        stdout=log.open("a"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def worker_pids(master: int) -> set[int]:
    """The live children of gunicorn's master (its workers), from /proc (Linux)."""
    try:
        listed = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    except OSError:
        return set()
    return {int(pid) for pid in listed if is_alive(int(pid))}


def is_alive(pid: int) -> bool:
    """Whether ``pid`` runs: exists and is not a zombie (dead, waiting to be reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def wait_ready(base: str, process: subprocess.Popen[bytes], log: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            if call(base, "GET", "/readyz", timeout=5)[0] == 200:
                return
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError("gunicorn did not start:\n" + log.read_text())
        time.sleep(0.2)


def logged_actions(database_url: str, tournament: str) -> list[tuple[str, dict[str, Any]]]:
    """A tournament's log as stored, (kind, data) in order, read straight from the database."""
    from sqlalchemy import create_engine, select

    from pairing_service.store import normalise_url, schema

    engine = create_engine(normalise_url(database_url))
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                select(schema.log.c.kind, schema.log.c.data)
                .where(schema.log.c.tournament_id == tournament)
                .order_by(schema.log.c.seq)
            ).all()
    finally:
        engine.dispose()
    return [(kind, data) for kind, data in rows]


def results_logged_per_player(database_url: str, tournament: str) -> dict[str, int]:
    """How many result entries of a strikes tournament's log name each player."""
    counts: dict[str, int] = {}
    for kind, data in logged_actions(database_url, tournament):
        if kind in ("result_entered", "result_corrected"):
            for row in data["results"]:
                counts[row["player"]] = counts.get(row["player"], 0) + 1
    return counts
