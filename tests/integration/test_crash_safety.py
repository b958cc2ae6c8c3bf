"""Crash safety: SIGKILL the gunicorn master and workers while clients enter results.

After a restart, every result that was acknowledged (2xx) is stored exactly once and whole,
nothing half-written exists, and the tournament goes on: for every held format, on SQLite
and on PostgreSQL.
"""

from __future__ import annotations

import http.client
import os
import signal
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.support import workloads
from tests.support.servers import call, free_port, start_gunicorn, wait_ready

pytestmark = [pytest.mark.slow, pytest.mark.gunicorn]
# 20 tables, 80 games, 50 Scrabble games, 25 boards, 42 league games
SIZE = {"strikes": 100, "diagonal": 40, "scrabble": 100, "puffing_billy": 100, "league": 42}


@pytest.mark.parametrize("fmt", list(SIZE))
def test_acknowledged_results_survive_sigkill(fmt, database_url, tmp_path):
    log = tmp_path / "gunicorn.log"
    port = free_port()
    process = start_gunicorn(database_url, port, log)
    base = f"http://127.0.0.1:{port}"
    wait_ready(base, process, log)
    held = workloads.create(base, fmt, SIZE[fmt])

    acknowledged: set[int] = set()
    enough = threading.Event()
    lock = threading.Lock()

    def enter(key: int) -> None:
        path, body = held.writes[key]
        try:
            status, _ = call(base, "PUT", path, body, held.token, timeout=10)
        except (OSError, http.client.HTTPException):
            # The server died under this request (before or while answering, e.g. an
            # IncompleteRead of the body): not acknowledged.
            return
        if status == 200:
            with lock:
                acknowledged.add(key)
                if len(acknowledged) >= 6:
                    enough.set()

    with ThreadPoolExecutor(max_workers=8) as pool:
        futures = [pool.submit(enter, key) for key in held.writes]
        enough.wait(timeout=30)
        os.killpg(process.pid, signal.SIGKILL)  # the master and every worker, mid-flight
        for future in futures:
            future.result()
    process.wait(timeout=30)
    assert 6 <= len(acknowledged) < len(held.writes), "the crash should land mid-way"

    # Restart on the same database.
    port = free_port()
    process = start_gunicorn(database_url, port, log)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, process, log)
        stored = workloads.shown(base, held)
        for key in acknowledged:
            assert key in stored, f"acknowledged {fmt} write {key} was lost"
        for key, result in stored.items():  # nothing half-written, nothing changed
            assert result == workloads.expected(held, key)
        assert set(workloads.logged(database_url, held).values()) <= {1}
        # The tournament goes on: the rest is entered and the round closes.
        for key, (path, body) in held.writes.items():
            if key not in stored:
                assert call(base, "PUT", path, body, held.token)[0] == 200
        status, _ = workloads.finish(base, held)
        assert status == 200
        assert workloads.logged(database_url, held) == {key: 1 for key in held.writes}
    finally:
        process.terminate()
        process.wait(timeout=30)
