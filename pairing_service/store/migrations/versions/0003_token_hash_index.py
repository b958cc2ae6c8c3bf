"""An index on the director token's hash: a director's list of their tournaments.

``GET /v1/held`` and ``POST /v1/held/lookup`` find a director's tournaments by the
SHA-256 of the tokens they present; without an index that is a scan of every tournament.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_tournaments_token_hash", "tournaments", ["token_hash"])


def downgrade() -> None:
    op.drop_index("ix_tournaments_token_hash", table_name="tournaments")
