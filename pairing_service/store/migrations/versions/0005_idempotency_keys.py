"""Idempotency keys of creations: a retried create answers what the first one made.

A create sent with an ``Idempotency-Key`` header records the key's SHA-256, the digest of
the request, the tournament it made and the salt its director token was derived with, in
the database, so that a retry reaching any worker or instance answers the same tournament
and token instead of making a second.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "idempotency_keys",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column("request_hash", sa.String(64), nullable=False),
        sa.Column("tournament_id", sa.String(32), nullable=False),
        sa.Column("token_salt", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
    )


def downgrade() -> None:
    op.drop_table("idempotency_keys")
