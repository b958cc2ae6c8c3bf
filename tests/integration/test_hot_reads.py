"""Public reads through real gevent workers (``api/public_reads.py``): rendered off the
worker's loop and shared by the workers, they answer every reader the same bytes per
revision, a write is seen by the next read on every worker, ``If-None-Match`` gets 304,
and ``/healthz`` and ``/readyz`` answer promptly while readers keep every worker busy."""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.request

import pytest

from tests.support.servers import call, free_port, start_gunicorn, wait_ready

pytestmark = [pytest.mark.slow, pytest.mark.gunicorn]

PLAYERS = 100
READERS = 40
HEALTH_SECONDS = 2.0  # a generous bound for a loaded 2-core machine


def get(base: str, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes, str]:
    request = urllib.request.Request(base + path, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, answer.read(), answer.headers.get("ETag", "")
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers.get("ETag", "")


def test_readers_of_a_busy_event_get_one_answer_per_revision(tmp_path):
    port = free_port()
    log = tmp_path / "gunicorn.log"
    server = start_gunicorn(f"sqlite:///{tmp_path}/reads.sqlite3", port, log)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, server, log)
        field = [{"id": f"P{i}", "rating": 2000 - i, "name": f"Player {i}"} for i in range(PLAYERS)]
        status, created = call(base, "POST", "/v1/scrabble/events", {"players": field, "rounds": 5})
        assert status == 201
        event, token = f"/v1/scrabble/events/{created['id']}", created["token"]
        assert call(base, "POST", f"{event}/rounds", token=token)[0] == 201
        paths = [
            event,
            f"{event}/rounds/1?format=csv",
            f"{event}/export?format=text",
            f"/events/scrabble/{created['id']}",
        ]
        seen: dict[str, set[bytes]] = {path: set() for path in paths}
        statuses: list[int] = []
        health: list[float] = []
        stop = time.monotonic() + 4

        def reader(index: int) -> None:
            while time.monotonic() < stop:
                path = paths[index % len(paths)]
                status, body, _ = get(base, path)
                statuses.append(status)
                seen[path].add(body)
                index += 1

        readers = [threading.Thread(target=reader, args=(i,)) for i in range(READERS)]
        for thread in readers:
            thread.start()
        while time.monotonic() < stop:
            for path in ("/healthz", "/readyz"):
                began = time.monotonic()
                assert get(base, path)[0] == 200
                health.append(time.monotonic() - began)
            time.sleep(0.1)
        for thread in readers:
            thread.join(60)
        assert set(statuses) == {200}
        assert all(len(bodies) == 1 for bodies in seen.values()), {
            p: len(b) for p, b in seen.items()
        }
        assert max(health) < HEALTH_SECONDS, max(health)

        _, _, tag = get(base, event)
        assert get(base, event, {"If-None-Match": tag})[0] == 304
        game = f"{event}/rounds/1/games/1"
        assert call(base, "PUT", game, {"scores": [432, 321]}, token)[0] == 200
        for _ in range(8):  # every worker, whichever answers
            status, after, new_tag = get(base, f"{event}/rounds/1?format=csv")
            assert status == 200 and b"432" in after and new_tag != tag
            assert get(base, event, {"If-None-Match": tag})[0] == 200
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert "Traceback" not in log.read_text()
