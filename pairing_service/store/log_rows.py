"""A held tournament's row and its append-only log, as SQL on the caller's connection:
plain functions, so that every write runs them inside the one transaction (and row lock)
it opened (``write_path.StoreBase._locked``), and a read inside its one snapshot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, insert, select, update

from ..engine.event_log import DIRECTOR, Action, Entry, Ledger, read_action
from . import schema
from .held import TournamentNotFound
from .tokens import now, utc


def tournament_row(
    conn: Connection, ledger: Ledger[Any], tournament_id: str, lock: bool = False
) -> Any:
    """The tournament's row (``lock``: locked for the transaction's write);
    TournamentNotFound when there is none of the ledger's format."""
    query = select(schema.tournaments).where(schema.tournaments.c.id == tournament_id)
    row = conn.execute(query.with_for_update() if lock else query).one_or_none()
    if row is None or row.format != ledger.format:
        raise TournamentNotFound(tournament_id)
    return row


def read_log(conn: Connection, ledger: Ledger[Any], tournament_id: str) -> list[Entry]:
    """The tournament's log, each entry with its typed event (read by its ledger)."""
    table = schema.log
    rows = conn.execute(
        select(table.c.seq, table.c.kind, table.c.data, table.c.actor, table.c.at)
        .where(table.c.tournament_id == tournament_id)
        .order_by(table.c.seq)
    )
    return [Entry(r.seq, read_action(ledger, r.kind, r.data), utc(r.at), r.actor) for r in rows]


def append(
    conn: Connection,
    tournament_id: str,
    log: Sequence[Entry],
    action: Action,
    actor: str = DIRECTOR,
) -> Entry:
    """Append ``action`` to the log after its last entry, and bump the revision."""
    entry = Entry((log[-1].seq if log else 0) + 1, action, now(), actor)
    insert_entry(conn, tournament_id, entry)
    conn.execute(
        update(schema.tournaments)
        .where(schema.tournaments.c.id == tournament_id)
        .values(revision=schema.tournaments.c.revision + 1)
    )
    return entry


def insert_entry(conn: Connection, tournament_id: str, entry: Entry) -> None:
    """One log row, as ``entry`` has it (its seq, time and actor)."""
    conn.execute(
        insert(schema.log).values(
            tournament_id=tournament_id,
            seq=entry.seq,
            kind=entry.kind,
            data=dict(entry.data),
            actor=entry.actor,
            at=entry.at,
        )
    )


def retire_previous(conn: Connection, tournament_ids: Sequence[str]) -> None:
    """The current tokens of these tournaments are used: the tokens they replaced can no
    longer ask for them (nor the rotation's retry answer)."""
    table = schema.tournaments
    conn.execute(
        update(table)
        .where(table.c.id.in_(tournament_ids), table.c.previous_token_hash.is_not(None))
        .values(previous_token_hash=None, rotation_salt=None)
    )
