"""Database engines and migrations: SQLite by default, PostgreSQL by ``DATABASE_URL``.

SQLite: WAL, foreign keys, a busy timeout, and ``BEGIN IMMEDIATE`` for writes, so writers
from several gunicorn workers queue for the lock instead of failing midway. PostgreSQL:
writers lock their tournament's row (``SELECT ... FOR UPDATE``). Migrations run under a lock
(an advisory lock on PostgreSQL, the write lock on SQLite), so workers starting together
migrate once.

Every engine forgets its pooled connections in a forked child (``dispose(close=False)``,
SQLAlchemy's advice for pools that cross a fork): gunicorn loads the app once in its
master and forks the workers from it, and a connection must never be shared by two
processes.
"""

from __future__ import annotations

import os
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
MIGRATION_LOCK_KEY = 7_231_002  # any constant; names the advisory lock
SQLITE_BUSY_MS = 30_000
PG_CONNECT_TIMEOUT_S = 10
WRITE = "pairing_write"  # execution option: this transaction writes


def normalise_url(url: str) -> str:
    """``postgres://`` and ``postgresql://`` use psycopg (3), the driver installed."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def forget_connections_after_fork(engine: Engine) -> None:
    """In a forked child, drop the parent's pooled connections without closing them (they
    are the parent's to close); the child opens its own. Weak: the engine may go."""
    ref = weakref.ref(engine)

    def forget() -> None:
        alive = ref()
        if alive is not None:
            alive.dispose(close=False)

    os.register_at_fork(after_in_child=forget)


def make_engine(url: str, **options: Any) -> Engine:
    engine = _make_engine(url, **options)
    forget_connections_after_fork(engine)
    return engine


def _make_engine(url: str, **options: Any) -> Engine:
    url = normalise_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        # A database host that does not answer fails a request in seconds (a 503), not
        # after the system's TCP timeout.
        options.setdefault("connect_args", {"connect_timeout": PG_CONNECT_TIMEOUT_S})
        return create_engine(url, pool_pre_ping=True, **options)
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_MS / 1000}, **options)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event issue BEGIN, so writes can take the lock at once.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        writes = connection.get_execution_options().get(WRITE, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")

    return engine


def ping(engine: Engine) -> None:
    """Ask the database ``SELECT 1``: the driver's error when it does not answer."""
    with engine.connect() as conn:
        conn.execute(text("SELECT 1"))


def is_postgresql(engine: Engine) -> bool:
    return engine.dialect.name == "postgresql"


def alembic_config() -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def newest_revision() -> str:
    """The newest migration's revision, read from the file names: a migration's file is
    named after its revision (``0007_rate_limit_entries.py`` holds ``"0007"``), and the
    revisions count up from 0001 (``tests/integration/test_migration.py`` holds both)."""
    return max(path.name.split("_", 1)[0] for path in (MIGRATIONS / "versions").glob("0*_*.py"))


def schema_is_current(engine: Engine) -> bool:
    """Whether the database's schema is at the newest revision already: one query, and
    neither alembic nor its migrations imported (a second of a start on a loaded machine,
    at every start and restart once the schema is current)."""
    try:
        with engine.connect() as connection:
            found = connection.execute(text("SELECT version_num FROM alembic_version")).all()
    except DBAPIError:  # a new database: no table yet
        return False
    return [row[0] for row in found] == [newest_revision()]


def migrate(engine: Engine) -> None:
    """Bring the schema to the latest revision, once, even with several workers at once."""
    if schema_is_current(engine):
        return
    from alembic import command

    config = alembic_config()
    with engine.connect().execution_options(**{WRITE: True}) as connection, connection.begin():
        if is_postgresql(engine):
            connection.execute(
                text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY}
            )
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
