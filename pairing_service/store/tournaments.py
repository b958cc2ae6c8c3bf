"""Persistent strikes tournaments: every write is one transaction under the tournament's lock.

A write opens a transaction, locks the tournament (row lock on PostgreSQL, ``BEGIN
IMMEDIATE`` on SQLite), checks the director token, rebuilds the :class:`Event` from the
rows, lets the engine decide, writes the rows, and commits; any error rolls everything
back. So results entered at once from several workers are all kept, none twice.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from sqlalchemy import Connection, Engine, delete, insert, select, update

from ..engine.strikes import Finish, Scored, StrikesRules
from ..engine.strikes.event import Entrant, Event, Round, Seat, Settings
from . import schema
from .database import WRITE, is_postgresql, migrate


class StoreError(Exception):
    """Base of the store's errors."""


class TournamentNotFound(StoreError):
    """No tournament with this id (a 404)."""


class WrongToken(StoreError):
    """The director token does not belong to this tournament (a 403)."""


@dataclass(frozen=True)
class StoredTournament:
    id: str
    name: str | None
    created_at: datetime
    revision: int
    event: Event


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def now() -> datetime:
    return datetime.now(UTC)


class TournamentStore:
    def __init__(self, engine: Engine, rules: StrikesRules) -> None:
        self.engine = engine
        self.rules = rules

    def migrate(self) -> None:
        migrate(self.engine)

    # --- transactions -------------------------------------------------------------------

    @contextmanager
    def _write(self, tournament_id: str, token: str) -> Iterator[tuple[Connection, Any]]:
        with self.engine.connect().execution_options(**{WRITE: True}) as conn, conn.begin():
            row = conn.execute(
                select(schema.tournaments)
                .where(schema.tournaments.c.id == tournament_id)
                .with_for_update()
            ).one_or_none()
            if row is None:
                raise TournamentNotFound(tournament_id)
            if not hmac.compare_digest(row.token_hash, hash_token(token)):
                raise WrongToken(tournament_id)
            yield conn, row
            conn.execute(
                update(schema.tournaments)
                .where(schema.tournaments.c.id == tournament_id)
                .values(revision=schema.tournaments.c.revision + 1)
            )

    def _load(self, conn: Connection, row: Any) -> StoredTournament:
        tid = row.id
        entrants = [
            Entrant(p.player_id, p.name, p.dropped_before_round)
            for p in conn.execute(
                select(schema.players)
                .where(schema.players.c.tournament_id == tid)
                .order_by(schema.players.c.position)
            )
        ]
        rounds: dict[int, Round] = {
            r.number: Round(r.number, r.kind, r.closed, [], {}, r.detrimental_points)
            for r in conn.execute(select(schema.rounds).where(schema.rounds.c.tournament_id == tid))
        }
        for s in conn.execute(
            select(schema.seats)
            .where(schema.seats.c.tournament_id == tid)
            .order_by(schema.seats.c.round_number, schema.seats.c.seat)
        ):
            rounds[s.round_number].seats.append(Seat(s.player_id, s.table_number, s.group_number))
        for r in conn.execute(
            select(schema.results)
            .where(schema.results.c.tournament_id == tid)
            .order_by(
                schema.results.c.round_number,
                schema.results.c.table_number,
                schema.results.c.place,
            )
        ):
            rounds[r.round_number].results.setdefault(r.table_number, []).append(
                Scored(
                    r.player_id,
                    r.place,
                    Fraction(r.strikes_numerator, r.strikes_denominator),
                    r.score,
                )
            )
        settings = Settings(
            row.game, row.threshold, row.two_player_games, row.strategy, row.plans, row.seed
        )
        event = Event(settings, entrants, list(rounds.values()), self.rules)
        created = row.created_at
        if created.tzinfo is None:  # SQLite keeps no offset; every time stored is UTC
            created = created.replace(tzinfo=UTC)
        return StoredTournament(tid, row.name, created, row.revision, event)

    def _reload(self, conn: Connection, tournament_id: str) -> StoredTournament:
        row = conn.execute(
            select(schema.tournaments).where(schema.tournaments.c.id == tournament_id)
        ).one()
        return self._load(conn, row)

    # --- reads --------------------------------------------------------------------------

    def get(self, tournament_id: str) -> StoredTournament:
        # One snapshot for all the SELECTs (SQLite's deferred BEGIN gives one already).
        options = {"isolation_level": "REPEATABLE READ"} if is_postgresql(self.engine) else {}
        with self.engine.connect().execution_options(**options) as conn, conn.begin():
            row = conn.execute(
                select(schema.tournaments).where(schema.tournaments.c.id == tournament_id)
            ).one_or_none()
            if row is None:
                raise TournamentNotFound(tournament_id)
            return self._load(conn, row)

    # --- writes -------------------------------------------------------------------------

    def create(
        self,
        settings: Settings,
        entrants: Sequence[Entrant],
        name: str | None = None,
    ) -> tuple[StoredTournament, str]:
        """A new tournament and its director token (returned once; only its hash is kept)."""
        tid = uuid.uuid4().hex
        token = secrets.token_urlsafe(32)
        with self.engine.connect().execution_options(**{WRITE: True}) as conn, conn.begin():
            conn.execute(
                insert(schema.tournaments).values(
                    id=tid,
                    name=name,
                    game=settings.game,
                    threshold=settings.threshold,
                    two_player_games=settings.two_player_games,
                    strategy=settings.strategy,
                    plans=settings.plans,
                    seed=settings.seed,
                    token_hash=hash_token(token),
                    created_at=now(),
                    revision=1,
                )
            )
            conn.execute(
                insert(schema.players),
                [
                    {"tournament_id": tid, "player_id": e.id, "name": e.name, "position": i}
                    for i, e in enumerate(entrants)
                ],
            )
            return self._reload(conn, tid), token

    def start_round(self, tournament_id: str, token: str) -> tuple[StoredTournament, int]:
        with self._write(tournament_id, token) as (conn, row):
            event = self._load(conn, row).event
            new = event.next_round()
            conn.execute(
                insert(schema.rounds).values(
                    tournament_id=tournament_id,
                    number=new.number,
                    kind=new.kind,
                    closed=False,
                    detrimental_points=new.seating.detrimental_points if new.seating else 0,
                    started_at=now(),
                )
            )
            conn.execute(
                insert(schema.seats),
                [
                    {
                        "tournament_id": tournament_id,
                        "round_number": new.number,
                        "player_id": s.player,
                        "table_number": s.table,
                        "group_number": s.group,
                        "seat": i,
                    }
                    for i, s in enumerate(new.seats)
                ],
            )
        return self.get(tournament_id), new.number

    def enter_result(
        self,
        tournament_id: str,
        token: str,
        round_number: int,
        table: int,
        finishes: Sequence[Finish],
    ) -> StoredTournament:
        """Enter or replace one table's result (the same body twice leaves the same state)."""
        with self._write(tournament_id, token) as (conn, row):
            event = self._load(conn, row).event
            scored = event.score(round_number, table, finishes)
            where = (
                (schema.results.c.tournament_id == tournament_id)
                & (schema.results.c.round_number == round_number)
                & (schema.results.c.table_number == table)
            )
            conn.execute(delete(schema.results).where(where))
            entered = now()
            conn.execute(
                insert(schema.results),
                [
                    {
                        "tournament_id": tournament_id,
                        "round_number": round_number,
                        "table_number": table,
                        "player_id": s.player,
                        "place": s.place,
                        "score": s.score,
                        "strikes_numerator": s.strikes.numerator,
                        "strikes_denominator": s.strikes.denominator,
                        "entered_at": entered,
                    }
                    for s in scored
                ],
            )
        return self.get(tournament_id)

    def close_round(self, tournament_id: str, token: str, round_number: int) -> StoredTournament:
        with self._write(tournament_id, token) as (conn, row):
            event = self._load(conn, row).event
            event.check_close(round_number)
            conn.execute(
                update(schema.rounds)
                .where(
                    (schema.rounds.c.tournament_id == tournament_id)
                    & (schema.rounds.c.number == round_number)
                    & ~schema.rounds.c.closed
                )
                .values(closed=True, closed_at=now())
            )
        return self.get(tournament_id)

    def drop_player(self, tournament_id: str, token: str, player: str) -> StoredTournament:
        with self._write(tournament_id, token) as (conn, row):
            event = self._load(conn, row).event
            before = event.check_drop(player)
            conn.execute(
                update(schema.players)
                .where(
                    (schema.players.c.tournament_id == tournament_id)
                    & (schema.players.c.player_id == player)
                )
                .values(dropped_before_round=before)
            )
        return self.get(tournament_id)
