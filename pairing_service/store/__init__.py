"""Persistence: SQLAlchemy 2 Core, SQLite by default, PostgreSQL by ``DATABASE_URL``."""

from .database import make_engine, migrate, normalise_url
from .held import (
    Conditions,
    Held,
    HeldRow,
    ResultStands,
    Scoring,
    StaleRevision,
    StoreError,
    TournamentNotFound,
    WrongToken,
)
from .scorekeepers import Scorekeeper
from .tournament_store import HeldStore
from .write_keys import IdempotencyKeyReused

__all__ = [
    "Conditions",
    "Held",
    "HeldRow",
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
