"""Moving windows of a rate limit, counted in the service's database (``rate_limit_entries``,
migration 0007): every worker of every instance on the database counts in the same rows,
so a limit of 120 a minute refuses exactly the 121st write of a minute, whichever worker
takes it.

One row per thing counted, until the window has passed it (``expires_at``); a key is
kept as its SHA-256. Counting and adding are one transaction under the key's lock:
SQLite's write lock (``BEGIN IMMEDIATE``), or on PostgreSQL an advisory lock on the key,
so two workers never both take the last place of a window. Rows past their window are
swept every minute or so, by whichever worker counts next.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, Engine, delete, func, insert, select, text

from .database import WRITE, is_postgresql, ping
from .schema import rate_limit_entries as entries

# Names the advisory locks of rate limit keys (PostgreSQL's two-key form: a space of its own).
LOCK_SPACE = 7_231_007
SWEEP_SECONDS = 60.0


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class RateCounts:
    """``engine``: the database's engine, asked each time (a store's engine may be
    replaced, as the tests of an outage do)."""

    def __init__(self, engine: Callable[[], Engine]) -> None:
        self.engine = engine
        self._swept = 0.0
        self._sweep_lock = threading.Lock()

    @contextmanager
    def _locked(self, hashed: str) -> Iterator[Connection]:
        engine = self.engine()
        with engine.connect().execution_options(**{WRITE: True}) as conn, conn.begin():
            if is_postgresql(engine):
                lock = int.from_bytes(bytes.fromhex(hashed[:8]), "big", signed=True)
                conn.execute(
                    text("SELECT pg_advisory_xact_lock(:space, :key)"),
                    {"space": LOCK_SPACE, "key": lock},
                )
            yield conn

    def acquire(self, key: str, limit: int, expiry: float, amount: int = 1) -> bool:
        """Count ``amount`` more under ``key`` if the window of ``expiry`` seconds ending
        now then holds at most ``limit``; False (nothing counted) if it would not."""
        if amount > limit:
            return False
        hashed = key_hash(key)
        with self._locked(hashed) as conn:
            now = time.time()
            if self._count(conn, hashed, now) + amount > limit:
                return False
            row = {"key_hash": hashed, "expires_at": now + expiry}
            conn.execute(insert(entries), [row] * amount)
            self._sweep(conn, now)
        return True

    def add(self, key: str, expiry: float, amount: int = 1) -> int:
        """Count ``amount`` more under ``key``, whatever the count; the count now."""
        hashed = key_hash(key)
        with self._locked(hashed) as conn:
            now = time.time()
            row = {"key_hash": hashed, "expires_at": now + expiry}
            conn.execute(insert(entries), [row] * amount)
            return self._count(conn, hashed, now)

    def window(self, key: str, expiry: float) -> tuple[float, int]:
        """(when the window's oldest entry was counted, how many it holds): now and 0 for
        an empty one."""
        now = time.time()
        with self.engine().connect() as conn:
            oldest, counted = conn.execute(
                select(func.min(entries.c.expires_at), func.count()).where(
                    entries.c.key_hash == key_hash(key), entries.c.expires_at > now
                )
            ).one()
        return (float(oldest) - expiry, int(counted)) if counted else (now, 0)

    def count(self, key: str) -> int:
        with self.engine().connect() as conn:
            return self._count(conn, key_hash(key), time.time())

    def last_expiry(self, key: str) -> float:
        """When the key's latest entry leaves its window (now when it has none)."""
        now = time.time()
        with self.engine().connect() as conn:
            latest = conn.execute(
                select(func.max(entries.c.expires_at)).where(
                    entries.c.key_hash == key_hash(key), entries.c.expires_at > now
                )
            ).scalar_one()
        return now if latest is None else float(latest)

    def clear(self, key: str) -> None:
        with self._locked(key_hash(key)) as conn:
            conn.execute(delete(entries).where(entries.c.key_hash == key_hash(key)))

    def reset(self) -> int:
        with self.engine().begin() as conn:
            return int(conn.execute(delete(entries)).rowcount or 0)

    def answers(self) -> bool:
        """Whether the database answers."""
        try:
            ping(self.engine())
        except Exception:
            return False
        return True

    @staticmethod
    def _count(conn: Connection, hashed: str, now: float) -> int:
        return int(
            conn.execute(
                select(func.count())
                .select_from(entries)
                .where(entries.c.key_hash == hashed, entries.c.expires_at > now)
            ).scalar_one()
        )

    def _sweep(self, conn: Connection, now: float) -> None:
        """Remove every key's rows past their window, at most once a minute per process."""
        with self._sweep_lock:
            if now - self._swept < SWEEP_SECONDS:
                return
            self._swept = now
        conn.execute(delete(entries).where(entries.c.expires_at <= now))
