"""The store's base: what every read and write of a held tournament shares, whatever job
it does (``tournament_store.py`` says which module does which).

A read folds the log in one snapshot, or answers the state this process kept at the
revision the row has in it (``kept_states.py``). A write opens one transaction, locks the
tournament's row (``SELECT ... FOR UPDATE`` on PostgreSQL, ``BEGIN IMMEDIATE`` on SQLite),
checks the token, and gets the log and a state of its own (:meth:`StoreBase._locked`); it
then appends with the next sequence number and bumps the revision (``log_rows.append``),
and commits. Any error rolls everything back, so a write is whole or absent; the lock
serialises writers from every gunicorn worker, and the log's primary key (tournament,
seq) makes a duplicate append impossible even without it. A write sent with an
Idempotency-Key records it in that transaction, and its retry is answered with the entry
it appended (:meth:`StoreBase._written_with_key`, :meth:`StoreBase._keep_write_key`,
``write_keys.py``).

The jobs are mixins of :class:`StoreBase` rather than functions taking a connection:
each job's writes to a tournament (``replace_token``, ``add_scorekeeper``, ``undo``, ...) run
inside the same locked transaction, answer through the same :meth:`StoreBase._held`
(which tells ``observe`` the revision) and keep their states in the same
:class:`~.kept_states.KeptStates`; as methods of one object they share those without
passing the store's whole state to every function. The SQL itself is plain functions on a
connection (``log_rows.py``, ``scorekeepers.py``, ``write_keys.py``).

The request's conditions and the observer are the store's constructor arguments, given
where the app builds it (``pairing_service/__init__.py``, ``open_store``, with the
API's ``api/held/conditions.py`` reading them from the current request); nothing sets
them later.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, select

from ..engine.event_log import DIRECTOR, Entry, Ledger
from . import schema, scorekeepers, write_keys
from .database import WRITE, is_postgresql, migrate
from .held import (
    Conditions,
    Held,
    Scoring,
    StaleRevision,
    WrongToken,
    no_conditions,
    unobserved,
)
from .kept_states import KEPT_STATES, KeptStates
from .log_rows import read_log, retire_previous, tournament_row
from .tokens import hash_token, now, utc

S = TypeVar("S")


class StoreBase:
    """``conditions``: the current request's (:class:`~.held.Conditions`), asked at every
    write; ``observe``: told the id and revision of every tournament read or written (the
    API answers it as an ETag)."""

    def __init__(
        self,
        engine: Engine,
        kept: int = KEPT_STATES,
        conditions: Callable[[], Conditions] = no_conditions,
        observe: Callable[[str, int], None] = unobserved,
    ) -> None:
        self.engine = engine
        self._conditions = conditions
        self._observe = observe
        self._kept = KeptStates(kept)

    def migrate(self) -> None:
        migrate(self.engine)

    # --- reads --------------------------------------------------------------------------

    def read(self, ledger: Ledger[S], tournament_id: str) -> Held[S]:
        # One snapshot for both SELECTs (SQLite's deferred BEGIN gives one already).
        options = {"isolation_level": "REPEATABLE READ"} if is_postgresql(self.engine) else {}
        with self.engine.connect().execution_options(**options) as conn, conn.begin():
            row = tournament_row(conn, ledger, tournament_id)
            kept = self._kept.recall(tournament_id, row.revision)
            if kept is not None:
                self._observe(kept.id, kept.revision)
                return kept
            log = read_log(conn, ledger, tournament_id)
        return self._keep(self._held(row, log, ledger.fold(log)))

    def revision_of(self, tournament_id: str) -> int | None:
        """The tournament's revision as the database has it now (None: no such
        tournament): one indexed row, the whole cost of a read answered from memory
        (``api/public_reads.py``)."""
        table = schema.tournaments
        with self.engine.connect() as conn:
            found = conn.execute(
                select(table.c.revision).where(table.c.id == tournament_id)
            ).scalar_one_or_none()
        return None if found is None else int(found)

    # --- the locked transaction of a write ----------------------------------------------

    @contextmanager
    def _locked(
        self,
        ledger: Ledger[S],
        tournament_id: str,
        token: str,
        others: bool = False,
        previous: bool = False,
        scoring: Scoring | None = None,
    ) -> Iterator[tuple[Connection, Any, list[Entry], S, str]]:
        """The locked row, its log, a state of it that is the caller's to change, and who
        acts: the director, or (``others``) whoever the ledger says holds the token, or
        (``scoring``) a scorekeeper who may enter that result, or (``previous``) the
        director with the token the last rotation replaced, while its successor is
        unused (only a rotation passes it, to be checked as that rotation's retry). A
        write with the current token retires the one it replaced."""
        with self.engine.connect().execution_options(**{WRITE: True}) as conn, conn.begin():
            row = tournament_row(conn, ledger, tournament_id, lock=True)
            digest = hash_token(token)
            director = hmac.compare_digest(row.token_hash, digest)
            if director and row.previous_token_hash is not None:
                retire_previous(conn, [tournament_id])
            replaced = row.previous_token_hash is not None and hmac.compare_digest(
                row.previous_token_hash, digest
            )
            director = director or (previous and replaced)
            scorekeeper = None
            if not director and scoring is not None:
                scorekeeper = scorekeepers.entering(conn, tournament_id, digest, scoring.round)
            if not director and scorekeeper is None and not others:
                scorekeepers.refuse_beyond_results(conn, tournament_id, digest)
                raise WrongToken(tournament_id)
            kept = self._kept.recall(tournament_id, row.revision)
            if kept is not None:
                log, state = list(kept.log), ledger.clone(kept.state)
            else:
                log = read_log(conn, ledger, tournament_id)
                state = ledger.fold(log)
            if director:
                actor: str | None = DIRECTOR
            elif scorekeeper is not None:
                actor = scorekeeper.actor
            else:
                actor = ledger.actor(state, digest)
            if actor is None:
                raise WrongToken(tournament_id)
            yield conn, row, log, state, actor

    def _unless_stale(self, row: Any) -> bool:
        """Refuse the write when the request names revisions (``If-Match``) and the
        tournament's is not among them; whether it names any. Checked only for a write
        that would change something: a retry of what is already so is answered as done
        (RFC 9110 13.1.1)."""
        conditions = self._conditions()
        if conditions.revisions is not None and row.revision not in conditions.revisions:
            raise StaleRevision(row.id, row.revision)
        return conditions.names

    # --- idempotency keys of writes -----------------------------------------------------

    def _written_with_key(
        self,
        conn: Connection,
        row: Any,
        log: Sequence[Entry],
        conditions: Conditions | None = None,
    ) -> Entry | None:
        """The entry a write with the request's idempotency key appended before, if one
        did (IdempotencyKeyReused if it came with another request). ``conditions``: the
        key and digest to look for, when not the request's (a rotation's key is given by
        its caller)."""
        conditions = self._conditions() if conditions is None else conditions
        if conditions.idempotency_key is None:
            return None
        seq = write_keys.earlier_entry(
            conn, row.id, conditions.idempotency_key, conditions.request_digest, now()
        )
        return None if seq is None else next(e for e in log if e.seq == seq)

    def _keep_write_key(
        self,
        conn: Connection,
        entry: Entry,
        tournament_id: str,
        conditions: Conditions | None = None,
    ) -> None:
        """Record that the write with the request's idempotency key (or ``conditions``'s,
        as for :meth:`_written_with_key`) appended ``entry``."""
        conditions = self._conditions() if conditions is None else conditions
        if conditions.idempotency_key is not None:
            key, digest = conditions.idempotency_key, conditions.request_digest
            write_keys.keep(conn, tournament_id, key, digest, entry.seq, entry.at)

    # --- answers ------------------------------------------------------------------------

    def _held(self, row: Any, log: Sequence[Entry], state: S, bumped: bool = False) -> Held[S]:
        """The tournament as the write or read leaves it (``bumped``: after the entry it
        appended), told to ``observe``."""
        self._observe(row.id, row.revision + (1 if bumped else 0))
        return Held(
            id=row.id,
            format=row.format,
            name=row.name,
            created_at=utc(row.created_at),
            revision=row.revision + (1 if bumped else 0),
            log=tuple(log),
            state=state,
        )

    def _keep(self, held: Held[S]) -> Held[S]:
        """Remember a committed state (it must never be changed from now on)."""
        return self._kept.keep(held)

    def _retire_previous(self, tournament_ids: Sequence[str]) -> None:
        """``log_rows.retire_previous``, in a transaction of its own (a read that used
        the tournaments' current tokens)."""
        with self.engine.connect().execution_options(**{WRITE: True}) as conn, conn.begin():
            retire_previous(conn, tournament_ids)
