"""Persistence: SQLAlchemy 2 Core, SQLite by default, PostgreSQL by ``DATABASE_URL``."""

from .database import make_engine, migrate, normalise_url
from .scorekeepers import Scorekeeper
from .tournament_store import (
    Conditions,
    Held,
    HeldStore,
    ResultStands,
    Scoring,
    StaleRevision,
    StoreError,
    TournamentNotFound,
    WrongToken,
)
from .write_keys import IdempotencyKeyReused

__all__ = [
    "Conditions",
    "Held",
    "HeldStore",
    "IdempotencyKeyReused",
    "ResultStands",
    "Scorekeeper",
    "Scoring",
    "StaleRevision",
    "StoreError",
    "TournamentNotFound",
    "WrongToken",
    "make_engine",
    "migrate",
    "normalise_url",
]
