"""Redis, which keeps the shared write limits, killed while scorekeepers enter results
through a real gunicorn: no write answers a 5xx, every acknowledged result is kept,
/readyz reports the outage without taking the instance out of service, and reports the
recovery when Redis is back, with no restart."""

from __future__ import annotations

import os
import shutil
import subprocess
import time

import pytest

from tests.support.servers import call, free_port, logged_actions, start_gunicorn, wait_ready

pytestmark = [pytest.mark.slow, pytest.mark.gunicorn]


def start_redis(port: int) -> subprocess.Popen[bytes]:
    binary = shutil.which("redis-server")
    if binary is None:
        if os.environ.get("CI") == "true":
            pytest.fail("redis-server is not installed (CI=true: the Redis tests must run)")
        pytest.skip("redis-server is not installed")
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    import redis

    while time.monotonic() < deadline:
        try:
            if redis.Redis(port=port, socket_timeout=1).ping():
                return process
        except redis.RedisError:
            time.sleep(0.05)
    process.kill()
    pytest.fail("redis-server did not start")


def test_writes_go_on_while_the_rate_limit_redis_is_down(tmp_path):
    redis_port, port = free_port(), free_port()
    redis_process = start_redis(redis_port)
    database_url = f"sqlite:///{tmp_path}/redis-outage.sqlite3"
    log = tmp_path / "gunicorn.log"
    server = start_gunicorn(
        database_url,
        port,
        log,
        PAIRING_RATE_LIMIT_STORAGE=f"redis://127.0.0.1:{redis_port}/0",
        PAIRING_WRITE_RATE_LIMIT="10000/60",
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, server, log)
        assert call(base, "GET", "/readyz")[1]["rate_limit_storage"] == "ok"
        status, created = call(
            base, "POST", "/v1/puffing-billy/events", {"players": [{"id": p} for p in "ABCD"]}
        )
        assert status == 201
        event, token = f"/v1/puffing-billy/events/{created['id']}", created["token"]
        answers: list[int] = []

        def enter(board: int) -> None:
            sheet = {"players": [{"id": "A", "score": 100 + board}, {"id": "B", "score": 90}]}
            answers.append(call(base, "PUT", f"{event}/boards/{board}", sheet, token)[0])

        for board in range(1, 21):
            enter(board)
        redis_process.kill()
        redis_process.wait()
        for board in range(21, 61):
            enter(board)
        ready_status, ready = call(base, "GET", "/readyz")
        assert ready_status == 200 and ready["rate_limit_storage"] == "unavailable"
        redis_process = start_redis(redis_port)
        for board in range(61, 81):
            enter(board)
        assert call(base, "GET", "/readyz")[1]["rate_limit_storage"] == "ok"
        assert answers == [200] * 80
        boards = [d for kind, d in logged_actions(database_url, created["id"]) if kind != "created"]
        assert len(boards) == 80  # every acknowledged board kept, once
        assert "Traceback" not in log.read_text()
    finally:
        server.terminate()
        server.wait(timeout=30)
        redis_process.kill()
