"""Persistence: SQLAlchemy 2 Core, SQLite by default, PostgreSQL by ``DATABASE_URL``."""

from .database import make_engine, migrate, normalise_url
from .tournaments import (
    StoredTournament,
    StoreError,
    TournamentNotFound,
    TournamentStore,
    WrongToken,
)

__all__ = [
    "StoreError",
    "StoredTournament",
    "TournamentNotFound",
    "TournamentStore",
    "WrongToken",
    "make_engine",
    "migrate",
    "normalise_url",
]
