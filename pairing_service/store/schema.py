"""Tables of the persistent strikes tournaments (SQLAlchemy Core).

The migrations under ``migrations/versions`` create exactly these tables; a test compares
them. Strikes are stored as exact fractions (numerator, denominator).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKeyConstraint,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
)

metadata = MetaData()

tournaments = Table(
    "strikes_tournaments",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(200), nullable=True),
    Column("game", String(8), nullable=False),
    Column("threshold", Integer, nullable=False),
    Column("two_player_games", Boolean, nullable=False),
    Column("strategy", String(20), nullable=False),
    Column("plans", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("revision", Integer, nullable=False),  # bumped by every write
)

players = Table(
    "strikes_players",
    metadata,
    Column("tournament_id", String(32), nullable=False),
    Column("player_id", String(64), nullable=False),
    Column("name", String(100), nullable=True),
    Column("position", Integer, nullable=False),
    Column("dropped_before_round", Integer, nullable=True),
    PrimaryKeyConstraint("tournament_id", "player_id"),
    ForeignKeyConstraint(["tournament_id"], ["strikes_tournaments.id"], ondelete="CASCADE"),
)

rounds = Table(
    "strikes_rounds",
    metadata,
    Column("tournament_id", String(32), nullable=False),
    Column("number", Integer, nullable=False),
    Column("kind", String(10), nullable=False),
    Column("closed", Boolean, nullable=False),
    Column("detrimental_points", Integer, nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("closed_at", DateTime(timezone=True), nullable=True),
    PrimaryKeyConstraint("tournament_id", "number"),
    ForeignKeyConstraint(["tournament_id"], ["strikes_tournaments.id"], ondelete="CASCADE"),
)

seats = Table(
    "strikes_seats",
    metadata,
    Column("tournament_id", String(32), nullable=False),
    Column("round_number", Integer, nullable=False),
    Column("player_id", String(64), nullable=False),
    Column("table_number", Integer, nullable=True),  # NULL: a bye
    Column("group_number", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    PrimaryKeyConstraint("tournament_id", "round_number", "player_id"),
    ForeignKeyConstraint(
        ["tournament_id", "round_number"],
        ["strikes_rounds.tournament_id", "strikes_rounds.number"],
        ondelete="CASCADE",
    ),
)

results = Table(
    "strikes_results",
    metadata,
    Column("tournament_id", String(32), nullable=False),
    Column("round_number", Integer, nullable=False),
    Column("table_number", Integer, nullable=False),
    Column("player_id", String(64), nullable=False),
    Column("place", Integer, nullable=False),
    Column("score", BigInteger, nullable=True),
    Column("strikes_numerator", BigInteger, nullable=False),
    Column("strikes_denominator", BigInteger, nullable=False),
    Column("entered_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("tournament_id", "round_number", "player_id"),
    ForeignKeyConstraint(
        ["tournament_id", "round_number"],
        ["strikes_rounds.tournament_id", "strikes_rounds.number"],
        ondelete="CASCADE",
    ),
)
