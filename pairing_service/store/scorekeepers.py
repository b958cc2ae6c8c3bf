"""Scorekeepers' tokens, in the ``scorekeepers`` table (migration 0006).

A director issues a scorekeeper a token that enters results (a strikes table's, a Diagonal
Race game's, a Puffing Billy board's), for every round or for one, and nothing else; and
revokes it. Only its hash is kept. The log records each issue and revocation by the
scorekeeper's number, never the token or the director's label for them, and names
``scorekeeper <number>`` as the actor of each result they enter. These are the queries;
``HeldStore`` runs them in its write transactions.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from ..engine.errors import NotFound, NotPermitted
from ..engine.event_log import scorekeeper_actor
from . import schema
from .tokens import utc

TABLE = schema.scorekeepers


@dataclass(frozen=True)
class Scorekeeper:
    number: int
    name: str
    round: int | None  # the one round whose results the token enters; None: every round
    created_at: datetime
    revoked_at: datetime | None
    token_salt: str | None = None  # set when the token was derived from an Idempotency-Key

    @property
    def actor(self) -> str:
        return scorekeeper_actor(self.number)


def _scorekeeper(row: Any) -> Scorekeeper:
    revoked = row.revoked_at
    return Scorekeeper(
        row.number,
        row.name,
        row.round,
        utc(row.created_at),
        None if revoked is None else utc(revoked),
        row.token_salt,
    )


def listed(conn: Connection, tournament_id: str) -> list[Scorekeeper]:
    rows = conn.execute(
        select(TABLE).where(TABLE.c.tournament_id == tournament_id).order_by(TABLE.c.number)
    )
    return [_scorekeeper(row) for row in rows]


def numbered(conn: Connection, tournament_id: str, number: int) -> Scorekeeper:
    row = conn.execute(
        select(TABLE).where(TABLE.c.tournament_id == tournament_id, TABLE.c.number == number)
    ).one_or_none()
    if row is None:
        raise NotFound(f"there is no scorekeeper {number} in this tournament")
    return _scorekeeper(row)


def add(
    conn: Connection,
    tournament_id: str,
    name: str,
    round_number: int | None,
    token_hash: str,
    token_salt: str | None,
    at: datetime,
) -> Scorekeeper:
    """A new scorekeeper, numbered after the tournament's last one (under the write's lock)."""
    last = conn.execute(
        select(func.max(TABLE.c.number)).where(TABLE.c.tournament_id == tournament_id)
    ).scalar()
    number = (last or 0) + 1
    conn.execute(
        insert(TABLE).values(
            tournament_id=tournament_id,
            number=number,
            name=name,
            round=round_number,
            token_hash=token_hash,
            token_salt=token_salt,
            created_at=at,
        )
    )
    return Scorekeeper(number, name, round_number, at, None, token_salt)


def revoke(conn: Connection, tournament_id: str, number: int, at: datetime) -> None:
    conn.execute(
        update(TABLE)
        .where(TABLE.c.tournament_id == tournament_id, TABLE.c.number == number)
        .values(revoked_at=at)
    )


def holder(conn: Connection, tournament_id: str, token_hash: str) -> Scorekeeper | None:
    """The scorekeeper of this tournament whose token has this hash, revoked or not."""
    row = conn.execute(
        select(TABLE).where(
            TABLE.c.tournament_id == tournament_id, TABLE.c.token_hash == token_hash
        )
    ).one_or_none()
    return None if row is None else _scorekeeper(row)


def entering(
    conn: Connection, tournament_id: str, token_hash: str, round_number: int | None
) -> Scorekeeper | None:
    """The scorekeeper who may enter a result of round ``round_number`` (None: a write
    with no round, a Puffing Billy board) with this token; None when the token is not a
    scorekeeper's of this tournament. NotPermitted, saying why, when it is one that may
    not: revoked, or issued for another round."""
    found = holder(conn, tournament_id, token_hash)
    if found is None:
        return None
    if found.revoked_at is not None:
        raise NotPermitted(f"scorekeeper {found.number}'s token was revoked")
    if found.round is not None and found.round != round_number:
        raise NotPermitted(
            f"scorekeeper {found.number}'s token enters results of round {found.round} only"
        )
    return found


def refuse_beyond_results(conn: Connection, tournament_id: str, token_hash: str) -> None:
    """NotPermitted when this token is a scorekeeper's: a write other than a result needs
    the director's (the caller has found it is not the director's)."""
    found = holder(conn, tournament_id, token_hash)
    if found is not None:
        raise NotPermitted(
            f"scorekeeper {found.number}'s token enters results and nothing else; this "
            "needs the director token"
        )
