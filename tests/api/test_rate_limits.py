"""Rate limits that fit a venue: writes counted per token (every scorekeeper at a venue
shares one address), creations per address, and a Redis that stops answering leaves
writes going, counted in memory, reported by /readyz."""

from __future__ import annotations

import pytest

from pairing_service import create_app
from tests.support import assert_problem, auth

TOURNAMENTS = "/v1/strikes/tournaments"
PLAYERS = {"players": [{"id": f"P{i}"} for i in range(8)]}
NOBODY_LISTENS = "redis://127.0.0.1:1/0"  # port 1: refused at once


@pytest.fixture()
def limited(tmp_path):
    def make(**config):
        app = create_app(
            {"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/r.sqlite3", **config}
        )
        made.append(app)
        return app.test_client()

    made: list = []
    yield make
    for app in made:
        app.extensions["pairing_store"].engine.dispose()


def _undo(client, created, token):
    return client.post(f"{TOURNAMENTS}/{created['id']}/undo", headers=auth(token))


def test_each_token_has_its_own_count_behind_one_address(limited):
    client = limited(WRITE_RATE_LIMIT="3/60", CREATE_RATE_LIMIT="10/60")
    first = client.post(TOURNAMENTS, json=PLAYERS).get_json()
    second = client.post(TOURNAMENTS, json=PLAYERS).get_json()
    assert [_undo(client, first, first["token"]).status_code for _ in range(3)] == [409] * 3
    refused = _undo(client, first, first["token"])
    assert "with this token" in assert_problem(refused, 429)["detail"]
    assert int(refused.headers["Retry-After"]) >= 1
    # Same address, another token (another director, a scorekeeper): its own count.
    assert _undo(client, second, second["token"]).status_code == 409
    issued = client.post(
        f"{TOURNAMENTS}/{second['id']}/scorekeepers",
        json={"name": "Desk"},
        headers=auth(second["token"]),
    )
    assert issued.status_code == 201


def test_creations_are_counted_per_address_apart_from_writes(limited):
    client = limited(WRITE_RATE_LIMIT="5/60", CREATE_RATE_LIMIT="2/60")
    made = [client.post(TOURNAMENTS, json=PLAYERS) for _ in range(2)]
    assert [m.status_code for m in made] == [201, 201]
    refused = client.post(TOURNAMENTS, json=PLAYERS)
    assert "creations" in assert_problem(refused, 429)["detail"]
    elsewhere = client.post(TOURNAMENTS, json=PLAYERS, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert elsewhere.status_code == 201
    created = made[0].get_json()
    assert _undo(client, created, created["token"]).status_code == 409  # writes: their own


def test_a_redis_that_does_not_answer_leaves_writes_going_and_limited(limited, caplog):
    client = limited(WRITE_RATE_LIMIT="3/60", RATE_LIMIT_STORAGE=NOBODY_LISTENS)
    statuses = [client.post(TOURNAMENTS, json=PLAYERS).status_code for _ in range(4)]
    assert statuses == [201, 201, 201, 429]  # counted in memory meanwhile
    assert any("falling back to in-memory" in r.getMessage() for r in caplog.records)
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.get_json()["rate_limit_storage"] == "unavailable"


def test_readyz_says_the_rate_limit_redis_answers(limited, redis_url):
    ready = limited(RATE_LIMIT_STORAGE=redis_url).get("/readyz")
    assert ready.status_code == 200 and ready.get_json()["rate_limit_storage"] == "ok"
    in_memory = limited().get("/readyz").get_json()
    assert "rate_limit_storage" not in in_memory


def test_workers_counting_in_memory_each_keep_their_share(limited, monkeypatch, redis_url):
    """Four workers each counting in memory allow their quarter each, together the limit
    (not four times it); the 429 states the limit as set. Counted in Redis, one count."""
    monkeypatch.setenv("WEB_CONCURRENCY", "4")
    one_worker = limited(WRITE_RATE_LIMIT="8/60")
    made = one_worker.post(TOURNAMENTS, json=PLAYERS).get_json()
    statuses = [_undo(one_worker, made, made["token"]).status_code for _ in range(3)]
    assert statuses == [409, 409, 429]  # 8 / 4 workers = 2 in this one
    refused = _undo(one_worker, made, made["token"])
    assert "more than 8 writes per 60 seconds" in assert_problem(refused, 429)["detail"]
    shared = limited(WRITE_RATE_LIMIT="8/60", RATE_LIMIT_STORAGE=redis_url)
    made = shared.post(TOURNAMENTS, json=PLAYERS).get_json()
    assert [_undo(shared, made, made["token"]).status_code for _ in range(8)] == [409] * 8
