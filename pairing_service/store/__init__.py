"""Persistence: SQLAlchemy 2 Core, SQLite by default, PostgreSQL by ``DATABASE_URL``."""

from .database import make_engine, migrate, normalise_url
from .tournament_store import (
    Conditions,
    Held,
    HeldStore,
    IdempotencyKeyReused,
    ResultStands,
    StaleRevision,
    StoreError,
    TournamentNotFound,
    WrongToken,
)

__all__ = [
    "Conditions",
    "Held",
    "HeldStore",
    "IdempotencyKeyReused",
    "ResultStands",
    "StaleRevision",
    "StoreError",
    "TournamentNotFound",
    "WrongToken",
    "make_engine",
    "migrate",
    "normalise_url",
]
