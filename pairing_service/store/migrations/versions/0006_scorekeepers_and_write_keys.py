"""Scorekeepers' tokens, and idempotency keys of writes.

``scorekeepers``: the tokens a director issues to scorekeepers, which enter results and
nothing else (only their hashes; a label and an optional round each; revoked, not deleted).
``write_keys``: a write sent with an ``Idempotency-Key`` records the key's SHA-256, the
request's digest and the log entry it appended, so that a retry answers that entry.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "scorekeepers",
        sa.Column("tournament_id", sa.String(32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("token_salt", sa.String(32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("tournament_id", "number"),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
    )
    op.create_index("ix_scorekeepers_token_hash", "scorekeepers", ["token_hash"], unique=True)
    op.create_table(
        "write_keys",
        sa.Column("tournament_id", sa.String(32), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("request_hash", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "key_hash"),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
    )


def downgrade() -> None:
    op.drop_table("write_keys")
    op.drop_index("ix_scorekeepers_token_hash", table_name="scorekeepers")
    op.drop_table("scorekeepers")
