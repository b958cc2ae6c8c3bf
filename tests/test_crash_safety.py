"""Crash safety: SIGKILL the gunicorn master and workers while clients enter results.

After a restart, every result that was acknowledged (2xx) is stored exactly once and whole,
nothing half-written exists, and the tournament goes on: on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import os
import signal
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from .servers import call, free_port, result_rows_per_player, start_gunicorn, wait_ready

pytestmark = pytest.mark.slow
PLAYERS = 100  # 20 tables of five


def result_body(players: list[str]) -> dict:
    return {"results": [{"player": p, "score": 500 - 37 * i} for i, p in enumerate(players)]}


def test_acknowledged_results_survive_sigkill(database_url, tmp_path):
    log = tmp_path / "gunicorn.log"
    port = free_port()
    process = start_gunicorn(database_url, port, log)
    base = f"http://127.0.0.1:{port}"
    wait_ready(base, process, log)
    players = [{"id": f"P{i:03d}"} for i in range(PLAYERS)]
    status, created = call(base, "POST", "/v1/strikes/tournaments", {"players": players, "seed": 9})
    assert status == 201
    tid, token = created["id"], created["token"]
    status, rnd = call(base, "POST", f"/v1/strikes/tournaments/{tid}/rounds", token=token)
    assert status == 201
    tables = {t["table"]: t["players"] for t in rnd["tables"]}

    acknowledged: dict[int, list[str]] = {}
    enough = threading.Event()
    lock = threading.Lock()

    def enter(table: int) -> None:
        path = f"/v1/strikes/tournaments/{tid}/rounds/1/tables/{table}"
        try:
            status, _ = call(base, "PUT", path, result_body(tables[table]), token, timeout=10)
        except OSError:
            return  # the server died under this request: not acknowledged
        if status == 200:
            with lock:
                acknowledged[table] = tables[table]
                if len(acknowledged) >= 6:
                    enough.set()

    with ThreadPoolExecutor(max_workers=8) as pool:
        futures = [pool.submit(enter, table) for table in tables]
        enough.wait(timeout=30)
        os.killpg(process.pid, signal.SIGKILL)  # the master and every worker, mid-flight
        for future in futures:
            future.result()
    process.wait(timeout=30)
    assert 6 <= len(acknowledged) < len(tables), "the crash should land mid-way"

    # Restart on the same database.
    port = free_port()
    process = start_gunicorn(database_url, port, log)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, process, log)
        status, stored = call(base, "GET", f"/v1/strikes/tournaments/{tid}/rounds/1")
        assert status == 200
        by_table = {t["table"]: t for t in stored["tables"]}
        for table, seated in acknowledged.items():
            result = by_table[table]["result"]
            assert result is not None, f"acknowledged table {table} was lost"
            assert [r["player"] for r in result] == seated  # the order entered: places 1..5
        for table in by_table.values():  # nothing half-written
            if table["result"] is not None:
                assert sorted(r["player"] for r in table["result"]) == sorted(table["players"])
        assert set(result_rows_per_player(database_url, tid).values()) <= {1}
        # The tournament goes on: the rest is entered and the round closes.
        for table, seated in tables.items():
            if by_table[table]["result"] is None:
                path = f"/v1/strikes/tournaments/{tid}/rounds/1/tables/{table}"
                assert call(base, "PUT", path, result_body(seated), token)[0] == 200
        status, closed = call(
            base, "POST", f"/v1/strikes/tournaments/{tid}/rounds/1/close", token=token
        )
        assert status == 200 and closed["status"] == "closed"
        status, read = call(base, "GET", f"/v1/strikes/tournaments/{tid}")
        assert sum(s["strikes"] for s in read["standings"]) == 60 * len(tables)
    finally:
        process.terminate()
        process.wait(timeout=30)
