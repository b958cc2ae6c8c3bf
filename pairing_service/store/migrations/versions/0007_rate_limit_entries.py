"""The write limit's moving windows, counted in the database: one row per write counted,
kept until its window has passed it, so that every worker and instance on the database
shares one exact count.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_limit_entries",
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    op.create_index(
        "ix_rate_limit_entries_key_hash", "rate_limit_entries", ["key_hash", "expires_at"]
    )
    op.create_index("ix_rate_limit_entries_expires_at", "rate_limit_entries", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_rate_limit_entries_expires_at", table_name="rate_limit_entries")
    op.drop_index("ix_rate_limit_entries_key_hash", table_name="rate_limit_entries")
    op.drop_table("rate_limit_entries")
