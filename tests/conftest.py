"""Fixtures of every test: the rules, apps on SQLite and PostgreSQL, a test client.

The tests mirror the tree: ``unit/engine/<format>/`` (the rules, no Flask, no database),
``api/`` (requests through the Flask test client, on SQLite), ``integration/`` (several
processes, real servers, PostgreSQL, a browser). Tests that need PostgreSQL, a real
gunicorn or Chromium are marked ``postgres``, ``gunicorn`` or ``browser`` (``-m "not
browser"`` leaves them out). Shared helpers live in ``tests/support``.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from pairing_service.rules import load_rules

from .support import make_app

# What a test needs, told by the fixtures it uses (tests that start gunicorn themselves
# are marked where they are written).
NEEDS = {
    "postgres": {"postgres_server"},
    "gunicorn": {"start_pair", "gunicorn_server"},
    "browser": {"sites"},
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests on PostgreSQL (by the fixture they use); and give schemathesis's
    tests their own node ids: it names each operation's test after it (``test_x[GET
    /healthz]``) but gives them all the function's node id, and pytest-xdist schedules by
    node id and would run only the first of them."""
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        for marker, fixtures in NEEDS.items():
            if used & fixtures:
                item.add_marker(getattr(pytest.mark, marker))
        if not isinstance(item, pytest.Function) or not item.nodeid.endswith(item.originalname):
            continue
        if item.name.startswith(item.originalname + "[") and item.name.endswith("]"):
            params = item.name[len(item.originalname) + 1 : -1]
            if hasattr(item, "_id"):  # pytest 9 builds the node id from this
                item._id = item._id.with_params(params)
            else:  # pytest 8 keeps it as text
                item._nodeid = f"{item.nodeid}[{params}]"


@pytest.fixture(scope="session")
def rules():
    return load_rules()


POSTGRES_URL = os.environ.get(
    "PAIRING_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


@pytest.fixture(scope="session")
def postgres_server() -> str:
    """The PostgreSQL server of the tests; in CI (CI=true) it must be there."""
    engine = create_engine(POSTGRES_URL)
    try:
        with engine.connect():
            pass
    except OperationalError as exc:
        reason = f"PostgreSQL is not reachable at {POSTGRES_URL}: {exc.orig}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason + " (CI=true: the PostgreSQL tests must run)")
        pytest.skip(reason)
    finally:
        engine.dispose()
    return POSTGRES_URL


@pytest.fixture()
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A database URL whose tables live in a fresh schema, dropped afterwards."""
    schema = f"test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(postgres_server)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    yield f"{postgres_server}?options=-csearch_path%3D{schema}"
    with admin.begin() as conn:
        conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


@pytest.fixture()
def redis_url():
    """The machine's Redis (127.0.0.1:6379); in CI (CI=true) it must be there."""
    import redis

    url = os.environ.get("PAIRING_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    try:
        redis.Redis.from_url(url, socket_timeout=2).ping()
    except redis.RedisError as exc:
        reason = f"Redis is not reachable at {url}: {exc}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason + " (CI=true: the Redis tests must run)")
        pytest.skip(reason)
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/pairing.sqlite3"
    return request.getfixturevalue("postgres_url")


@pytest.fixture()
def app(tmp_path):
    app = make_app(f"sqlite:///{tmp_path}/pairing.sqlite3")
    yield app
    app.extensions["pairing_store"].engine.dispose()


@pytest.fixture()
def store_app(database_url):
    """The app on each database: SQLite and PostgreSQL."""
    app = make_app(database_url)
    yield app
    app.extensions["pairing_store"].engine.dispose()


@pytest.fixture()
def client(app):
    return app.test_client()
