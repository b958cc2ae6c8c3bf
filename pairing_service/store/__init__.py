"""Persistence: SQLAlchemy 2 Core, SQLite by default, PostgreSQL by ``DATABASE_URL``."""

from .database import make_engine, migrate, normalise_url
from .tournament_store import Held, HeldStore, StoreError, TournamentNotFound, WrongToken

__all__ = [
    "Held",
    "HeldStore",
    "StoreError",
    "TournamentNotFound",
    "WrongToken",
    "make_engine",
    "migrate",
    "normalise_url",
]
