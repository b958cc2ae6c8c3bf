"""Every held tournament on one design: a row each and an append-only log of actions.

Carries every strikes tournament of revision 0001 over without loss: its row (settings,
token hash, creation time and revision as they were) and a log rebuilt from its rows in
the order the director acted: created; players dropped before round 1; then for each round
its start (the seating as stored), each table's result (the strikes as stored), its close,
and the players dropped before the next round. Then the strikes tables are dropped.

The action data written here is the strikes log format of ``engine/strikes/ledger.py`` as
of this revision; this file does not import it, so later changes there cannot change what
this migration does.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("format", sa.String(20), nullable=False),
        sa.Column("name", sa.String(200), nullable=True),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("revision", sa.Integer, nullable=False),
    )
    op.create_table(
        "tournament_log",
        sa.Column("tournament_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("actor", sa.String(80), nullable=False),
        sa.Column("at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "seq"),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
    )
    _carry_strikes_over(op.get_bind())
    for table in (
        "strikes_results",
        "strikes_seats",
        "strikes_rounds",
        "strikes_players",
        "strikes_tournaments",
    ):
        op.drop_table(table)


def downgrade() -> None:
    raise NotImplementedError(
        "0002 cannot be undone: the log keeps corrections and undos that the strikes "
        "tables of 0001 have no place for. Restore a backup taken before upgrading."
    )


# --- the carry-over -------------------------------------------------------------------------

_meta = sa.MetaData()
_old_tournaments = sa.Table(
    "strikes_tournaments",
    _meta,
    sa.Column("id", sa.String),
    sa.Column("name", sa.String),
    sa.Column("game", sa.String),
    sa.Column("threshold", sa.Integer),
    sa.Column("two_player_games", sa.Boolean),
    sa.Column("strategy", sa.String),
    sa.Column("plans", sa.Integer),
    sa.Column("seed", sa.BigInteger),
    sa.Column("token_hash", sa.String),
    sa.Column("created_at", WHEN),
    sa.Column("revision", sa.Integer),
)
_old_players = sa.Table(
    "strikes_players",
    _meta,
    sa.Column("tournament_id", sa.String),
    sa.Column("player_id", sa.String),
    sa.Column("name", sa.String),
    sa.Column("position", sa.Integer),
    sa.Column("dropped_before_round", sa.Integer),
)
_old_rounds = sa.Table(
    "strikes_rounds",
    _meta,
    sa.Column("tournament_id", sa.String),
    sa.Column("number", sa.Integer),
    sa.Column("kind", sa.String),
    sa.Column("closed", sa.Boolean),
    sa.Column("detrimental_points", sa.Integer),
    sa.Column("started_at", WHEN),
    sa.Column("closed_at", WHEN),
)
_old_seats = sa.Table(
    "strikes_seats",
    _meta,
    sa.Column("tournament_id", sa.String),
    sa.Column("round_number", sa.Integer),
    sa.Column("player_id", sa.String),
    sa.Column("table_number", sa.Integer),
    sa.Column("group_number", sa.Integer),
    sa.Column("seat", sa.Integer),
)
_old_results = sa.Table(
    "strikes_results",
    _meta,
    sa.Column("tournament_id", sa.String),
    sa.Column("round_number", sa.Integer),
    sa.Column("table_number", sa.Integer),
    sa.Column("player_id", sa.String),
    sa.Column("place", sa.Integer),
    sa.Column("score", sa.BigInteger),
    sa.Column("strikes_numerator", sa.BigInteger),
    sa.Column("strikes_denominator", sa.BigInteger),
    sa.Column("entered_at", WHEN),
)
_new_tournaments = sa.Table(
    "tournaments",
    _meta,
    sa.Column("id", sa.String),
    sa.Column("format", sa.String),
    sa.Column("name", sa.String),
    sa.Column("settings", sa.JSON),
    sa.Column("token_hash", sa.String),
    sa.Column("created_at", WHEN),
    sa.Column("revision", sa.Integer),
)
_new_log = sa.Table(
    "tournament_log",
    _meta,
    sa.Column("tournament_id", sa.String),
    sa.Column("seq", sa.Integer),
    sa.Column("kind", sa.String),
    sa.Column("data", sa.JSON),
    sa.Column("actor", sa.String),
    sa.Column("at", WHEN),
)


def _carry_strikes_over(conn: sa.Connection) -> None:
    for row in conn.execute(sa.select(_old_tournaments).order_by(_old_tournaments.c.id)):
        settings = {
            "game": row.game,
            "threshold": row.threshold,
            "two_player_games": bool(row.two_player_games),
            "strategy": row.strategy,
            "plans": row.plans,
            "seed": row.seed,
        }
        conn.execute(
            sa.insert(_new_tournaments).values(
                id=row.id,
                format="strikes",
                name=row.name,
                settings=settings,
                token_hash=row.token_hash,
                created_at=row.created_at,
                revision=row.revision,
            )
        )
        actions = _actions_of(conn, row, settings)
        conn.execute(
            sa.insert(_new_log),
            [
                {
                    "tournament_id": row.id,
                    "seq": seq,
                    "kind": kind,
                    "data": data,
                    "actor": "director",
                    "at": at,
                }
                for seq, (kind, data, at) in enumerate(actions, start=1)
            ],
        )


def _actions_of(
    conn: sa.Connection, tournament: Any, settings: dict[str, Any]
) -> list[tuple[str, dict[str, Any], Any]]:
    tid = tournament.id
    players = list(
        conn.execute(
            sa.select(_old_players)
            .where(_old_players.c.tournament_id == tid)
            .order_by(_old_players.c.position)
        )
    )
    dropped: dict[int, list[str]] = defaultdict(list)
    for p in players:
        if p.dropped_before_round is not None:
            dropped[p.dropped_before_round].append(p.player_id)
    seats: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for s in conn.execute(
        sa.select(_old_seats)
        .where(_old_seats.c.tournament_id == tid)
        .order_by(_old_seats.c.round_number, _old_seats.c.seat)
    ):
        seats[s.round_number].append(
            {"player": s.player_id, "table": s.table_number, "group": s.group_number}
        )
    results: dict[int, dict[int, list[Any]]] = defaultdict(lambda: defaultdict(list))
    for r in conn.execute(sa.select(_old_results).where(_old_results.c.tournament_id == tid)):
        results[r.round_number][r.table_number].append(r)
    # By place, as the 0001 store read them; players sharing a place in their seat order
    # (0001 left that order to the database; the seating is what the director saw).
    seat_of = {
        (number, s["player"]): i for number, rows in seats.items() for i, s in enumerate(rows)
    }
    for number, tables in results.items():
        for rows in tables.values():
            rows.sort(key=lambda r: (r.place, seat_of.get((number, r.player_id), 0)))

    created = tournament.created_at
    actions: list[tuple[str, dict[str, Any], Any]] = [
        (
            "created",
            {
                "settings": settings,
                "players": [{"id": p.player_id, "name": p.name} for p in players],
            },
            created,
        )
    ]
    actions += [("player_dropped", {"player": p, "before_round": 1}, created) for p in dropped[1]]
    for rnd in conn.execute(
        sa.select(_old_rounds)
        .where(_old_rounds.c.tournament_id == tid)
        .order_by(_old_rounds.c.number)
    ):
        number = rnd.number
        actions.append(
            (
                "round_started",
                {
                    "round": number,
                    "kind": rnd.kind,
                    "detrimental_points": rnd.detrimental_points,
                    "seats": seats[number],
                },
                rnd.started_at,
            )
        )
        for table, rows in sorted(results[number].items()):
            entries = [
                {
                    "player": r.player_id,
                    "place": r.place,
                    "score": r.score,
                    "strikes": str(Fraction(r.strikes_numerator, r.strikes_denominator)),
                }
                for r in rows
            ]
            entered = min(r.entered_at for r in rows)
            actions.append(
                ("result_entered", {"round": number, "table": table, "results": entries}, entered)
            )
        if rnd.closed:
            closed = rnd.closed_at or rnd.started_at
            actions.append(("round_closed", {"round": number}, closed))
            actions += [
                ("player_dropped", {"player": p, "before_round": number + 1}, closed)
                for p in dropped[number + 1]
            ]
    return actions
