"""A database outage answers what it is: `/readyz` says not ready (503), and reads and
writes answer 503 with Retry-After and a problem type of their own, never a 500; when the
database is back, everything answers again without a restart."""

from __future__ import annotations

import pytest

from pairing_service.store import make_engine
from tests.support import assert_problem, auth
from tests.support.held_events import STRIKES, strikes_event

UNREACHABLE = "postgresql://postgres@127.0.0.1:1/none"  # nothing listens on port 1


@pytest.fixture()
def outage(app):
    """Call it to cut the app off its database; the fixture brings it back at the end."""
    store = app.extensions["pairing_store"]
    working = store.engine
    down = make_engine(UNREACHABLE)

    def cut() -> None:
        store.engine = down

    yield cut
    store.engine = working
    down.dispose()


def assert_unavailable(response) -> None:
    body = assert_problem(response, 503)
    assert body["type"] == "/problems/unavailable" and "database" in body["detail"]
    assert int(response.headers["Retry-After"]) > 0


def test_readyz_checks_the_database(app, client, outage):
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.get_json()["database"] == "ok"
    outage()
    assert_unavailable(client.get("/readyz"))
    assert client.get("/healthz").status_code == 200  # the process itself is up


def test_reads_and_writes_answer_503_while_the_database_is_down(app, client, outage):
    base, token = strikes_event(client)
    body = {"players": [{"id": f"P{i}"} for i in range(7)]}
    store = app.extensions["pairing_store"]
    working = store.engine
    outage()
    assert_unavailable(client.post(STRIKES, json=body))
    assert_unavailable(client.post(f"{base}/rounds", headers=auth(token)))
    assert_unavailable(client.get(base))
    assert_unavailable(client.get("/v1/held", headers=auth(token)))
    # The database is back: no restart needed, nothing was written meanwhile.
    store.engine = working
    assert client.get("/readyz").status_code == 200
    assert client.get(base).get_json()["revision"] == 1
    assert client.post(f"{base}/rounds", headers=auth(token)).status_code == 201
