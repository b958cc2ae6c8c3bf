"""The write limit is what it says under a real gunicorn with four workers and the
embedded default (the counts in the service's database, SQLite or PostgreSQL): one token's
writes sent at once over many connections are accepted exactly up to the limit, and every
answer's headers and each 429 state the limit as set, with Retry-After on the 429s only.

Counted in each worker's memory, as before, a token was refused at write 92 of 100 under
"120 a minute", and the headers said X-RateLimit-Limit: 30 while the 429 said 120."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.support.servers import call, free_port, start_gunicorn, wait_ready

pytestmark = [pytest.mark.gunicorn]

LIMIT, SENT = 20, 30
WINDOW = 600  # seconds: however slowly a loaded machine sends them, one window


def undo(base: str, path: str, token: str) -> tuple[int, dict[str, str], dict]:
    request = urllib.request.Request(base + path + "/undo", data=b"", method="POST")
    request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, dict(response.headers), json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read())


def test_one_tokens_writes_over_four_workers_meet_the_limit_exactly(database_url, tmp_path):
    port, log = free_port(), tmp_path / "gunicorn.log"
    server = start_gunicorn(database_url, port, log, PAIRING_WRITE_RATE_LIMIT=f"{LIMIT}/{WINDOW}")
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, server, log)
        status, created = call(
            base,
            "POST",
            "/v1/strikes/tournaments",
            {"players": [{"id": f"P{i}"} for i in range(8)]},
        )
        assert status == 201
        path = f"/v1/strikes/tournaments/{created['id']}"
        with ThreadPoolExecutor(max_workers=8) as pool:  # eight connections at once
            answers = list(pool.map(lambda _: undo(base, path, created["token"]), range(SENT)))
    finally:
        server.terminate()
        server.wait(timeout=60)
    statuses = sorted(status for status, _, _ in answers)
    assert statuses == [409] * LIMIT + [429] * (SENT - LIMIT)  # nothing to undo, or refused
    assert {headers["X-RateLimit-Limit"] for _, headers, _ in answers} == {str(LIMIT)}
    for status, headers, body in answers:
        if status == 429:
            assert f"more than {LIMIT} writes per {WINDOW} seconds" in body["detail"]
            assert 1 <= int(headers["Retry-After"]) <= WINDOW
        else:
            assert "Retry-After" not in headers
