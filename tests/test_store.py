"""The store: migrations match the schema, writes are whole or nothing, on both databases."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import func, select

from pairing_service.engine.strikes import Finish
from pairing_service.engine.strikes.event import Entrant, Settings
from pairing_service.store import TournamentNotFound, WrongToken, normalise_url, schema
from pairing_service.store import tournaments as tournaments_module

SETTINGS = Settings("5-4-3", 35, False, "optimize", 30, 5)


@pytest.fixture()
def store(store_app):
    return store_app.extensions["pairing_store"]


def test_migrations_create_exactly_the_schema(store):
    store.migrate()  # a second run changes nothing
    with store.engine.connect() as conn:
        differences = compare_metadata(MigrationContext.configure(conn), schema.metadata)
    assert differences == []


def test_a_failed_write_changes_nothing(store, monkeypatch):
    stored, token = store.create(SETTINGS, [Entrant(f"P{i}") for i in range(8)])
    stored, _ = store.start_round(stored.id, token)
    players = stored.event.round(1).tables()[1]
    store.enter_result(stored.id, token, 1, 1, [Finish(p, score=i) for i, p in enumerate(players)])
    before = store.get(stored.id)

    def broken_clock():
        raise RuntimeError("the disk is full")

    # The correction deletes the old rows, then fails before inserting the new ones.
    monkeypatch.setattr(tournaments_module, "now", broken_clock)
    with pytest.raises(RuntimeError):
        store.enter_result(
            stored.id, token, 1, 1, [Finish(p, score=-i) for i, p in enumerate(players)]
        )
    after = store.get(stored.id)
    assert after.revision == before.revision
    assert after.event.round(1).results == before.event.round(1).results
    with store.engine.connect() as conn:
        rows = conn.execute(select(func.count()).select_from(schema.results)).scalar_one()
    assert rows == len(players)


def test_tokens_and_ids_are_checked(store):
    stored, token = store.create(SETTINGS, [Entrant(f"P{i}") for i in range(8)])
    with pytest.raises(WrongToken):
        store.start_round(stored.id, token + "x")
    with pytest.raises(TournamentNotFound):
        store.get("f" * 32)
    assert store.get(stored.id).event.latest is None


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgres://u@h/db", "postgresql+psycopg://u@h/db"),
        ("postgresql://u@h/db", "postgresql+psycopg://u@h/db"),
        ("postgresql+psycopg://u@h/db", "postgresql+psycopg://u@h/db"),
        ("sqlite:///x.db", "sqlite:///x.db"),
    ],
)
def test_database_urls_use_the_installed_driver(given, expected):
    assert normalise_url(given) == expected


def test_the_default_database_is_a_sqlite_file(tmp_path, monkeypatch):
    from pairing_service import create_app

    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("PAIRING_DATABASE_URL", raising=False)
    app = create_app({"SQLITE_PATH": str(tmp_path / "sub" / "events.sqlite3")})
    engine = app.extensions["pairing_store"].engine
    assert engine.dialect.name == "sqlite"
    assert (tmp_path / "sub" / "events.sqlite3").exists()
    engine.dispose()
