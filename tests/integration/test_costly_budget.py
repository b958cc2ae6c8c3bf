"""Costly computations cannot starve result entry: eight clients looping on the strikes
planner (a second or more each) against a real gunicorn with four workers, while a
scorekeeper enters a round's results. The planners get 200s or an immediate 503 ``busy``;
every result is answered promptly and kept."""

from __future__ import annotations

import threading
import time

import pytest

from tests.support.servers import call, free_port, start_gunicorn, wait_ready

pytestmark = [pytest.mark.slow, pytest.mark.gunicorn]

PLAN = {"players": 60, "game": "4-3", "threshold": 3, "events": 1500, "seed": 1}
PROMPT_SECONDS = 3.0  # a result's answer, with every other worker busy at most


def test_planners_looping_leave_result_entry_answered(tmp_path):
    port = free_port()
    log = tmp_path / "gunicorn.log"
    server = start_gunicorn(f"sqlite:///{tmp_path}/costly.sqlite3", port, log)
    base = f"http://127.0.0.1:{port}"
    planned: list[int] = []
    stop = threading.Event()

    def plan_forever() -> None:
        while not stop.is_set():
            planned.append(call(base, "POST", "/v1/strikes/plan", PLAN, timeout=120)[0])

    try:
        wait_ready(base, server, log)
        status, created = call(
            base,
            "POST",
            "/v1/strikes/tournaments",
            {"players": [{"id": f"P{i}"} for i in range(40)]},
        )
        assert status == 201
        tournament, token = f"/v1/strikes/tournaments/{created['id']}", created["token"]
        tables = call(base, "POST", f"{tournament}/rounds", token=token)[1]["tables"]
        planners = [threading.Thread(target=plan_forever) for _ in range(8)]
        for planner in planners:
            planner.start()
        time.sleep(2)  # every planner has asked at least once
        slowest = 0.0
        for table in tables:
            sheet = {
                "results": [{"player": p, "score": 50 - i} for i, p in enumerate(table["players"])]
            }
            began = time.monotonic()
            url = f"{tournament}/rounds/1/tables/{table['table']}"
            assert call(base, "PUT", url, sheet, token, timeout=60)[0] == 200
            slowest = max(slowest, time.monotonic() - began)
        health_began = time.monotonic()
        assert call(base, "GET", "/healthz", timeout=60)[0] == 200
        slowest = max(slowest, time.monotonic() - health_began)
    finally:
        stop.set()
        for planner in locals().get("planners", []):
            planner.join(timeout=120)
        server.terminate()
        server.wait(timeout=30)
    assert slowest < PROMPT_SECONDS, f"a result waited {slowest:.1f} s"
    assert set(planned) <= {200, 503} and 200 in planned and 503 in planned, planned
