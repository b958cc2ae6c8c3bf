"""Persistent strikes tournaments: tournaments, players, rounds, seats, results.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "strikes_tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(200), nullable=True),
        sa.Column("game", sa.String(8), nullable=False),
        sa.Column("threshold", sa.Integer, nullable=False),
        sa.Column("two_player_games", sa.Boolean, nullable=False),
        sa.Column("strategy", sa.String(20), nullable=False),
        sa.Column("plans", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("revision", sa.Integer, nullable=False),
    )
    op.create_table(
        "strikes_players",
        sa.Column("tournament_id", sa.String(32), nullable=False),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(100), nullable=True),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("dropped_before_round", sa.Integer, nullable=True),
        sa.PrimaryKeyConstraint("tournament_id", "player_id"),
        sa.ForeignKeyConstraint(["tournament_id"], ["strikes_tournaments.id"], ondelete="CASCADE"),
    )
    op.create_table(
        "strikes_rounds",
        sa.Column("tournament_id", sa.String(32), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("closed", sa.Boolean, nullable=False),
        sa.Column("detrimental_points", sa.Integer, nullable=False),
        sa.Column("started_at", WHEN, nullable=False),
        sa.Column("closed_at", WHEN, nullable=True),
        sa.PrimaryKeyConstraint("tournament_id", "number"),
        sa.ForeignKeyConstraint(["tournament_id"], ["strikes_tournaments.id"], ondelete="CASCADE"),
    )
    round_key = sa.ForeignKeyConstraint(
        ["tournament_id", "round_number"],
        ["strikes_rounds.tournament_id", "strikes_rounds.number"],
        ondelete="CASCADE",
    )
    op.create_table(
        "strikes_seats",
        sa.Column("tournament_id", sa.String(32), nullable=False),
        sa.Column("round_number", sa.Integer, nullable=False),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("table_number", sa.Integer, nullable=True),
        sa.Column("group_number", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "round_number", "player_id"),
        round_key,
    )
    op.create_table(
        "strikes_results",
        sa.Column("tournament_id", sa.String(32), nullable=False),
        sa.Column("round_number", sa.Integer, nullable=False),
        sa.Column("table_number", sa.Integer, nullable=False),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("score", sa.BigInteger, nullable=True),
        sa.Column("strikes_numerator", sa.BigInteger, nullable=False),
        sa.Column("strikes_denominator", sa.BigInteger, nullable=False),
        sa.Column("entered_at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "round_number", "player_id"),
        sa.ForeignKeyConstraint(
            ["tournament_id", "round_number"],
            ["strikes_rounds.tournament_id", "strikes_rounds.number"],
            ondelete="CASCADE",
        ),
    )


def downgrade() -> None:
    for table in (
        "strikes_results",
        "strikes_seats",
        "strikes_rounds",
        "strikes_players",
        "strikes_tournaments",
    ):
        op.drop_table(table)
