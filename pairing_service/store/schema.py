"""Tables of every held tournament (SQLAlchemy Core): one row each, and its log of actions.

The migrations under ``migrations/versions`` create exactly these tables; a test compares
them. Action data is JSON; exact numbers (strikes as fractions, Puffing Billy decimals)
are kept in it as text, so no float ever touches them.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Column,
    DateTime,
    Float,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
)

metadata = MetaData()

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("format", String(20), nullable=False),  # strikes, diagonal, puffing_billy, ...
    Column("name", String(200), nullable=True),
    Column("settings", JSON, nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("revision", Integer, nullable=False),  # bumped by every action appended
    # The token the last rotation replaced, and the salt its successor was derived with,
    # until the successor is first used: a retried rotation answers the same token (0004).
    Column("previous_token_hash", String(64), nullable=True),
    Column("rotation_salt", String(32), nullable=True),
    # A director's list of their tournaments finds them by their tokens' hashes (0003).
    Index("ix_tournaments_token_hash", "token_hash"),
)

log = Table(
    "tournament_log",
    metadata,
    Column("tournament_id", String(32), nullable=False),
    Column("seq", Integer, nullable=False),  # 1, 2, 3, ... within the tournament
    Column("kind", String(40), nullable=False),
    Column("data", JSON, nullable=False),
    Column("actor", String(80), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    # Two writers can never both append the same seq: the second one's commit fails.
    PrimaryKeyConstraint("tournament_id", "seq"),
    ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
)

# A create sent with an Idempotency-Key: what it made, so that its retry answers the same
# tournament and token (0005). Keys are kept a day (``write_keys.KEY_LIFETIME``).
idempotency_keys = Table(
    "idempotency_keys",
    metadata,
    Column("key_hash", String(64), primary_key=True),  # SHA-256 of the key
    Column("request_hash", String(64), nullable=False),  # the request it was sent with
    Column("tournament_id", String(32), nullable=False),
    Column("token_salt", String(32), nullable=False),  # the token: derived_token(key, ...)
    Column("created_at", DateTime(timezone=True), nullable=False),
    ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
)

# Scorekeepers: tokens a director issues that enter results and nothing else (0006). Only
# the token's hash is kept; ``name`` is the director's label for them, read only by the
# director; ``round``, when set, is the one round whose results the token enters.
scorekeepers = Table(
    "scorekeepers",
    metadata,
    Column("tournament_id", String(32), nullable=False),
    Column("number", Integer, nullable=False),  # 1, 2, 3, ... within the tournament
    Column("name", String(80), nullable=False),
    Column("round", Integer, nullable=True),
    Column("token_hash", String(64), nullable=False),
    Column("token_salt", String(32), nullable=True),  # set when an Idempotency-Key made it
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("revoked_at", DateTime(timezone=True), nullable=True),
    PrimaryKeyConstraint("tournament_id", "number"),
    ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
    Index("ix_scorekeepers_token_hash", "token_hash", unique=True),
)

# A write to a held tournament sent with an Idempotency-Key: the log entry it appended, so
# that its retry answers that entry instead of acting twice (0006). Kept a day.
write_keys = Table(
    "write_keys",
    metadata,
    Column("tournament_id", String(32), nullable=False),
    Column("key_hash", String(64), nullable=False),  # SHA-256 of the key
    Column("request_hash", String(64), nullable=False),  # the request it was sent with
    Column("seq", Integer, nullable=False),  # the entry the write appended
    Column("created_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("tournament_id", "key_hash"),
    ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
)

# The write limit's moving windows (api/ratelimit.py, store/rate_counts.py): one row per
# write counted, under the SHA-256 of the limit's key (a token's hash and the limit), until
# the window it counts in has passed it (0007). Every worker and instance on the database
# counts in the same rows, so the limit is exact across them.
rate_limit_entries = Table(
    "rate_limit_entries",
    metadata,
    Column("key_hash", String(64), nullable=False),
    Column("expires_at", Float, nullable=False),  # seconds since the epoch
    Index("ix_rate_limit_entries_key_hash", "key_hash", "expires_at"),
    Index("ix_rate_limit_entries_expires_at", "expires_at"),
)
