"""A replaced director token that may still ask for its successor again.

``POST …/token`` answers the new token once; when that answer is lost, the director's
retry with the old token answers the same new token, as long as the new one has not been
used. The row keeps the old token's hash and the salt the new token was derived with,
until the new token is first used (both are then cleared).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as table:
        table.add_column(sa.Column("previous_token_hash", sa.String(64), nullable=True))
        table.add_column(sa.Column("rotation_salt", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as table:
        table.drop_column("rotation_salt")
        table.drop_column("previous_token_hash")
