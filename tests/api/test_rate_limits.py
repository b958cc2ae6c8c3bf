"""Rate limits that fit a venue: writes counted per token (every scorekeeper at a venue
shares one address), creations per address, one exact count in the database for every
worker, headers and 429s that say the limit that counted, Retry-After only where it
belongs, and a Redis that stops answering leaves writes going, counted in memory,
reported by /readyz."""

from __future__ import annotations

import pytest

from pairing_service import create_app
from pairing_service.api.errors import RETRY_AFTER_SECONDS
from pairing_service.store import make_engine
from tests.support import assert_problem, auth
from tests.support.held_events import strikes_event

TOURNAMENTS = "/v1/strikes/tournaments"
PLAYERS = {"players": [{"id": f"P{i}"} for i in range(8)]}
NOBODY_LISTENS = "redis://127.0.0.1:1/0"  # port 1: refused at once
UNREACHABLE = "postgresql://postgres@127.0.0.1:1/none"  # a database nobody serves


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


def test_workers_on_one_database_share_one_exact_count(limited, monkeypatch):
    """Two apps on one database file stand for two workers (or instances): the write limit
    counted in the database refuses exactly the ninth write of 8, whichever takes it, and
    every answer's headers and the 429 state the limit as set (in memory, four workers
    each kept 2 and said so in their headers while the 429 said 8)."""
    monkeypatch.setenv("WEB_CONCURRENCY", "4")
    workers = [limited(WRITE_RATE_LIMIT="8/600"), limited(WRITE_RATE_LIMIT="8/600")]
    made = workers[0].post(TOURNAMENTS, json=PLAYERS).get_json()
    answers = [_undo(workers[n % 2], made, made["token"]) for n in range(9)]
    assert [a.status_code for a in answers] == [409] * 8 + [429]
    assert [a.headers["X-RateLimit-Limit"] for a in answers] == ["8"] * 9
    assert [a.headers["X-RateLimit-Remaining"] for a in answers] == [
        str(left) for left in (7, 6, 5, 4, 3, 2, 1, 0, 0)
    ]
    assert "more than 8 writes per 600 seconds" in assert_problem(answers[-1], 429)["detail"]
    assert [a.headers.get("Retry-After") for a in answers[:8]] == [None] * 8
    assert 1 <= int(answers[-1].headers["Retry-After"]) <= 600


def test_workers_counting_in_memory_each_say_their_share(limited, monkeypatch, redis_url):
    """Four workers each counting in memory allow their quarter each, together the limit
    (not four times it); their headers and their 429 say that share. Counted in Redis,
    one count."""
    monkeypatch.setenv("WEB_CONCURRENCY", "4")
    one_worker = limited(WRITE_RATE_LIMIT="8/60", RATE_LIMIT_STORAGE="memory://")
    made = one_worker.post(TOURNAMENTS, json=PLAYERS).get_json()
    answers = [_undo(one_worker, made, made["token"]) for _ in range(3)]
    assert [a.status_code for a in answers] == [409, 409, 429]  # 8 / 4 workers = 2 here
    assert {a.headers["X-RateLimit-Limit"] for a in answers} == {"2"}
    detail = assert_problem(answers[-1], 429)["detail"]
    assert "more than 2 writes per 60 seconds" in detail and "share of 8 among 4" in detail
    shared = limited(WRITE_RATE_LIMIT="8/60", RATE_LIMIT_STORAGE=redis_url)
    made = shared.post(TOURNAMENTS, json=PLAYERS).get_json()
    assert [_undo(shared, made, made["token"]).status_code for _ in range(8)] == [409] * 8


def test_a_database_outage_answers_its_own_retry_after(limited):
    """The write limit's window (here 600 s) never stands in for the outage's 5 s, and an
    answer that is neither a 429 nor a 503 carries no Retry-After."""
    client = limited(WRITE_RATE_LIMIT="100/600")
    app = client.application
    base, token = strikes_event(client)
    started = client.post(f"{base}/rounds", headers=auth(token))
    assert started.status_code == 201 and "Retry-After" not in started.headers
    assert started.headers["X-RateLimit-Limit"] == "100"
    store = app.extensions["pairing_store"]
    working, down = store.engine, make_engine(UNREACHABLE)
    store.engine = down
    try:
        for write in (
            client.post(f"{base}/undo", headers=auth(token)),
            client.post(TOURNAMENTS, json=PLAYERS),
        ):
            assert assert_problem(write, 503)["type"] == "/problems/unavailable"
            assert write.headers["Retry-After"] == str(RETRY_AFTER_SECONDS)
    finally:
        store.engine = working
        down.dispose()
    assert "Retry-After" not in client.post(f"{base}/undo", headers=auth(token)).headers
