"""Held tournaments of every format: a row each, and the append-only log of its actions.

A write opens one transaction, locks the tournament's row (``SELECT ... FOR UPDATE`` on
PostgreSQL, ``BEGIN IMMEDIATE`` on SQLite), checks the director token, folds the log into
the state with the format's :class:`~pairing_service.engine.event_log.Ledger`, lets the engine
decide the action, appends it with the next sequence number and bumps the revision, and
commits. Any error rolls everything back, so a write is whole or absent; the lock
serialises writers from every gunicorn worker, and the log's primary key (tournament,
seq) makes a duplicate append impossible even without it. Reads fold the log in one
snapshot.

Folding a long log on every read costs (a 400-board Puffing Billy event: ~15 ms), so each
process keeps the last states it folded or wrote, by tournament, with their revision. A
read still asks the database for the tournament's row in its snapshot, and uses the kept
state only when the revision there is the kept one: every action bumps the revision in
the same transaction, so a kept state is never stale, whichever worker wrote. Kept states
are never changed: writes fold their own copy, and keep it only after their commit.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Generic, TypeVar

from sqlalchemy import Connection, Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..engine.errors import Conflict
from ..engine.event_codec import JSON
from ..engine.event_log import (
    DIRECTOR,
    UNDONE,
    Action,
    Entry,
    Ledger,
    ScorekeeperAdded,
    ScorekeeperRevoked,
    TokenReplaced,
    is_correction,
    read_action,
    undo,
)
from ..instruments import STORE_WRITES
from . import schema, scorekeepers, write_keys
from .database import WRITE, is_postgresql, migrate
from .scorekeepers import Scorekeeper
from .tokens import derived_token, hash_token, now, rotated_token, utc
from .write_keys import KEY_LIFETIME, ROTATION_RETRY_WINDOW, IdempotencyKeyReused

S = TypeVar("S")


class StoreError(Exception):
    """Base of the store's errors."""


class TournamentNotFound(StoreError):
    """No tournament of this format with this id (a 404)."""


class WrongToken(StoreError):
    """The director token does not belong to this tournament (a 403)."""


class StaleRevision(StoreError):
    """A write made on a revision that is no longer the tournament's (a 412): nothing
    was written."""

    def __init__(self, tournament_id: str, revision: int) -> None:
        super().__init__(tournament_id)
        self.revision = revision  # the tournament's current one


class ResultStands(StoreError):
    """A different result stands where one was entered, and the write did not say which
    revision it corrects (a 409): nothing was written."""

    def __init__(self, revision: int, correction: str, stands: JSON) -> None:
        super().__init__(correction)
        self.revision = revision
        self.correction = correction  # the correction it would have been, in words
        self.stands = stands  # the result that stands, as the log holds it


@dataclass(frozen=True)
class Scoring:
    """A write that enters a result, which a scorekeeper's token may make too: of round
    ``round`` (None: a write with no round, a Puffing Billy board)."""

    round: int | None = None


@dataclass(frozen=True)
class Conditions:
    """What the request asks of a write besides its action (the API reads them from its
    headers, ``If-Match``): whether it ``names`` the revision it is made on, and the
    revisions it may be made on (None: any, ``If-Match: *``). A write that names its
    revision may correct a result that stands; one that does not, may not."""

    names: bool = False
    revisions: frozenset[int] | None = None
    # The write's Idempotency-Key, and the digest of the request that sent it.
    idempotency_key: str | None = None
    request_digest: str = ""


def no_conditions() -> Conditions:
    return Conditions()


def unobserved(tournament_id: str, revision: int) -> None:
    """What the store reports of every tournament it reads or writes, by default."""


@dataclass(frozen=True)
class HeldRow:
    """A held tournament's row, without its log: what a list of tournaments shows."""

    id: str
    format: str
    name: str | None
    created_at: datetime
    revision: int


@dataclass(frozen=True)
class Held(Generic[S]):
    """A held tournament as read: its row, its whole log, and the state folded from it."""

    id: str
    format: str
    name: str | None
    created_at: datetime
    revision: int
    log: tuple[Entry, ...]
    state: S


KEPT_STATES = 64  # per process; a state of a large event is a few MB at most


class HeldStore:
    """``conditions``: the current request's (:class:`Conditions`); ``observe``: told the
    id and revision of every tournament read or written (the API answers it as an ETag)."""

    def __init__(
        self,
        engine: Engine,
        kept: int = KEPT_STATES,
        conditions: Callable[[], Conditions] = no_conditions,
        observe: Callable[[str, int], None] = unobserved,
    ) -> None:
        self.engine = engine
        self.conditions = conditions
        self.observe = observe
        self._kept: OrderedDict[str, Held[Any]] = OrderedDict()
        self._kept_size = kept
        self._kept_lock = threading.Lock()

    def migrate(self) -> None:
        migrate(self.engine)

    # --- reads --------------------------------------------------------------------------

    def read(self, ledger: Ledger[S], tournament_id: str) -> Held[S]:
        # One snapshot for both SELECTs (SQLite's deferred BEGIN gives one already).
        options = {"isolation_level": "REPEATABLE READ"} if is_postgresql(self.engine) else {}
        with self.engine.connect().execution_options(**options) as conn, conn.begin():
            row = self._row(conn, ledger, tournament_id)
            kept = self._recall(tournament_id, row.revision)
            if kept is not None:
                self.observe(kept.id, kept.revision)
                return kept
            log = self._log(conn, ledger, tournament_id)
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

    def held_by(self, tokens: Sequence[str]) -> list[tuple[int, HeldRow]]:
        """The tournaments of every format whose director token is one of ``tokens``: each
        with the index of its token in ``tokens``, oldest tournament first. Only the
        tokens' hashes are compared (an index on ``token_hash`` finds them)."""
        index_of: dict[str, int] = {}
        for index, token in enumerate(tokens):
            index_of.setdefault(hash_token(token), index)  # a token sent twice: its first
        table = schema.tournaments
        query = (
            select(
                table.c.id,
                table.c.format,
                table.c.name,
                table.c.created_at,
                table.c.revision,
                table.c.token_hash,
                table.c.previous_token_hash,
            )
            .where(table.c.token_hash.in_(list(index_of)))
            .order_by(table.c.created_at, table.c.id)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        rotated = [r.id for r in rows if r.previous_token_hash is not None]
        if rotated:  # their new tokens are used: the ones they replaced are retired
            self._retire_previous(rotated)
        return [
            (
                index_of[r.token_hash],
                HeldRow(r.id, r.format, r.name, utc(r.created_at), r.revision),
            )
            for r in rows
        ]

    # --- writes -------------------------------------------------------------------------

    def create(self, ledger: Ledger[S], name: str | None, created: Action) -> tuple[Held[S], str]:
        """A new tournament and its director token (returned once; only its hash is kept).

        With an idempotency key (the request's :class:`Conditions`), a create whose key
        was used before, with the same request, answers the tournament it made and the
        same token, making nothing, whichever worker or instance the first went to (the
        key is stored in the creation's transaction); with another request it is refused
        (IdempotencyKeyReused). The token is then derived from the key and a stored salt,
        so the store keeps no token, only hashes."""
        entry = Entry(1, created, now())
        state = ledger.fold([entry])  # the engine refuses a creation it cannot fold
        return self._write_new(ledger, name, entry.at, 1, [entry], state, entry.kind)

    def create_with_log(
        self,
        ledger: Ledger[S],
        name: str | None,
        created_at: datetime,
        revision: int,
        log: Sequence[Entry],
        state: S,
    ) -> tuple[Held[S], str]:
        """A new tournament holding a whole log (a restored backup, an imported event) and
        its director token (returned once; only its hash is kept), in one transaction: the
        row with ``created_at`` and ``revision``, every entry with its seq, time and actor
        as given, and the scorekeepers the log issued, revoked (their tokens are not the
        log's: the director issues new ones, numbered on). ``state``: what ``log`` folds
        into, checked by the caller. With an idempotency key, as :meth:`create`: a retry
        of the same request answers the tournament it made, and the same token."""
        held, token = self._write_new(ledger, name, created_at, revision, log, state, "imported")
        return self._keep(held), token

    def _write_new(
        self,
        ledger: Ledger[S],
        name: str | None,
        created_at: datetime,
        revision: int,
        log: Sequence[Entry],
        state: S,
        counted_as: str,
    ) -> tuple[Held[S], str]:
        """A new tournament row with ``log``, in one transaction, and its token; with an
        idempotency key, what an earlier request with it made (:meth:`create`)."""
        conditions = self.conditions()
        key, digest = conditions.idempotency_key, conditions.request_digest
        if key is not None and (earlier := self._made_with(ledger, key, digest)) is not None:
            return earlier
        tournament_id = uuid.uuid4().hex
        salt = secrets.token_hex(16)
        token = (
            secrets.token_urlsafe(32) if key is None else derived_token(key, tournament_id, salt)
        )
        try:
            with self.engine.connect().execution_options(**{WRITE: True}) as conn, conn.begin():
                conn.execute(
                    insert(schema.tournaments).values(
                        id=tournament_id,
                        format=ledger.format,
                        name=name,
                        settings=log[0].data.get("settings", {}),
                        token_hash=hash_token(token),
                        created_at=created_at,
                        revision=revision,
                    )
                )
                for entry in log:
                    self._insert(conn, tournament_id, entry)
                _scorekeepers_revoked(conn, tournament_id, log)
                if key is not None:
                    self._keep_key(conn, key, digest, tournament_id, salt, now())
                row = self._row(conn, ledger, tournament_id)
        except IntegrityError:
            # The same key committed first by a request racing this one: answer what it made.
            if key is None or (earlier := self._made_with(ledger, key, digest)) is None:
                raise
            return earlier
        STORE_WRITES.labels(ledger.format, counted_as).inc()  # committed
        return self._held(row, log, state), token

    @staticmethod
    def _keep_key(
        conn: Connection, key: str, digest: str, tournament_id: str, salt: str, at: datetime
    ) -> None:
        """Record what a create with idempotency key ``key`` made (and forget keys past
        their lifetime, first: an expired key may be used again)."""
        table = schema.idempotency_keys
        conn.execute(delete(table).where(table.c.created_at < at - KEY_LIFETIME))
        conn.execute(
            insert(table).values(
                key_hash=hash_token(key),
                request_hash=digest,
                tournament_id=tournament_id,
                token_salt=salt,
                created_at=at,
            )
        )

    def _made_with(self, ledger: Ledger[S], key: str, digest: str) -> tuple[Held[S], str] | None:
        """The tournament a create with idempotency key ``key`` made, and its token; None
        when the key is new (or expired)."""
        table = schema.idempotency_keys
        query = select(table).where(
            table.c.key_hash == hash_token(key), table.c.created_at >= now() - KEY_LIFETIME
        )
        with self.engine.connect() as conn:
            made = conn.execute(query).one_or_none()
            if made is None:
                return None
            if not hmac.compare_digest(made.request_hash, digest):
                raise IdempotencyKeyReused(key)
            row = self._row(conn, ledger, made.tournament_id)
        token = derived_token(key, made.tournament_id, made.token_salt)
        if not hmac.compare_digest(row.token_hash, hash_token(token)):
            raise Conflict(
                "the tournament this Idempotency-Key created has had its director token "
                f"replaced since: it is {made.tournament_id}; use the current token"
            )
        return self.read(ledger, made.tournament_id), token

    def write(
        self,
        ledger: Ledger[S],
        tournament_id: str,
        token: str,
        decide: Callable[[S], Action | None],
    ) -> tuple[Held[S], Entry | None]:
        """Let the engine decide one action on the current state and append it.

        ``decide`` returns None when the state already is what was asked (an identical
        result entered again): nothing is appended and the revision stays.
        """
        return self.write_as(ledger, tournament_id, token, lambda state, _: decide(state), False)

    def write_as(
        self,
        ledger: Ledger[S],
        tournament_id: str,
        token: str,
        decide: Callable[[S, str], Action | None],
        others: bool = True,
        scoring: Scoring | None = None,
    ) -> tuple[Held[S], Entry | None]:
        """As :meth:`write`, for an action that someone other than the director may take:
        whoever the ledger says holds this token (``others``: a league's player), or a
        scorekeeper (``scoring``: a result, of the round it names). ``decide`` is told
        who acts, and the log records it.

        With an idempotency key, a write whose key appended an entry before is answered
        with that entry and the tournament as it is, deciding nothing again."""
        with self._locked(ledger, tournament_id, token, others, scoring=scoring) as locked:
            conn, row, log, state, actor = locked
            earlier = self._written_with_key(conn, row, log)
            if earlier is not None:
                return self._held(row, log, state), earlier
            action = decide(state, actor)
            if action is None:
                return self._held(row, log, state), None
            if not self._unless_stale(row) and is_correction(action):
                stands = action.data.get("was")
                raise ResultStands(row.revision, ledger.summary(action), stands)
            entry = self._append(conn, tournament_id, log, action, actor)
            self._keep_write_key(conn, entry, tournament_id)
            ledger.apply(state, entry)
            held = self._held(row, [*log, entry], state, bumped=True)
        STORE_WRITES.labels(ledger.format, entry.kind).inc()  # committed
        return self._keep(held), entry

    def undo(
        self, ledger: Ledger[S], tournament_id: str, token: str, target: int | None = None
    ) -> tuple[Held[S], Entry]:
        """Take back the latest action still in effect (the undo is logged too); with
        ``target``, only if that is the entry (``event_log.undo``): when it is already
        undone, nothing is written and the undo that took it back is answered again."""
        with self._locked(ledger, tournament_id, token) as (conn, row, log, state, actor):
            earlier = self._written_with_key(conn, row, log)
            if earlier is not None:
                return self._held(row, log, state), earlier
            action = undo(log, target)
            if action is None:
                earlier = next(e for e in log if e.kind == UNDONE and e.data["entry"] == target)
                return self._held(row, log, state), earlier
            self._unless_stale(row)
            entry = self._append(conn, tournament_id, log, action, actor)
            self._keep_write_key(conn, entry, tournament_id)
            after = [*log, entry]
            held = self._held(row, after, ledger.fold(after), bumped=True)
        STORE_WRITES.labels(ledger.format, entry.kind).inc()  # committed
        return self._keep(held), entry

    def replace_token(
        self, ledger: Ledger[S], tournament_id: str, token: str, key: str
    ) -> tuple[Held[S], str]:
        """A new director token, for the holder of the current one; the current one stops
        working with this commit. Only hashes are stored, and the log records that a token
        was replaced, never which (undo does not bring the old one back).

        A rotation is made with an idempotency key, ``key`` (the request's; the API refuses
        a rotation without one), and its retry is recognised by that key and the request's
        digest (:class:`Conditions`), never by the old token still working: the same key
        and request, sent with the token it replaced within ``ROTATION_RETRY_WINDOW`` and
        before the new token is first used, answers the same new token and writes nothing
        (the answer may have been lost); sent with the new token, it answers that one.
        The old token alone, or with another key, is refused (WrongToken). The new token
        is derived from the old one, the key and a stored salt: only hashes are kept."""
        with self._locked(ledger, tournament_id, token, previous=True) as locked:
            conn, row, log, state, actor = locked
            digest, at = self.conditions().request_digest, now()
            earlier = write_keys.earlier_entry(conn, row.id, key, digest, at)
            if not hmac.compare_digest(row.token_hash, hash_token(token)):
                # The token the last rotation replaced: only that rotation's retry.
                retried = write_keys.earlier_entry(
                    conn, row.id, key, digest, at, ROTATION_RETRY_WINDOW
                )
                if retried is None or retried != _last_rotation(log) or not row.rotation_salt:
                    raise WrongToken(tournament_id)
                new_token = rotated_token(token, key, tournament_id, row.rotation_salt)
                return self._held(row, log, state), new_token
            if earlier is not None:  # the rotation this key made, sent with its new token
                return self._held(row, log, state), token
            self._unless_stale(row)
            salt = secrets.token_hex(16)
            new_token = rotated_token(token, key, tournament_id, salt)
            entry = self._append(conn, tournament_id, log, Action.of(TokenReplaced()), actor)
            write_keys.keep(conn, tournament_id, key, digest, entry.seq, entry.at)
            conn.execute(
                update(schema.tournaments)
                .where(schema.tournaments.c.id == tournament_id)
                .values(
                    token_hash=hash_token(new_token),
                    previous_token_hash=hash_token(token),
                    rotation_salt=salt,
                )
            )
            held = self._held(row, [*log, entry], state, bumped=True)  # the state is unchanged
        STORE_WRITES.labels(ledger.format, entry.kind).inc()  # committed
        return self._keep(held), new_token

    # --- scorekeepers ---------------------------------------------------------------

    def add_scorekeeper(
        self,
        ledger: Ledger[S],
        tournament_id: str,
        token: str,
        name: str,
        round_number: int | None,
    ) -> tuple[Held[S], Scorekeeper, str]:
        """A scorekeeper's token, issued by the director (returned once; its hash kept).
        With an idempotency key, a retry answers the same scorekeeper and token (derived
        from the key and a stored salt), issuing none."""
        key = self.conditions().idempotency_key
        with self._locked(ledger, tournament_id, token) as (conn, row, log, state, actor):
            earlier = self._written_with_key(conn, row, log)
            if earlier is not None and key is not None:
                made = scorekeepers.numbered(conn, tournament_id, int(earlier.data["number"]))
                assert made.token_salt is not None  # made with this key
                return (
                    self._held(row, log, state),
                    made,
                    derived_token(key, row.id, made.token_salt),
                )
            self._unless_stale(row)
            salt: str | None = None
            new_token = secrets.token_urlsafe(32)
            if key is not None:  # its retry is answered the same token
                salt = secrets.token_hex(16)
                new_token = derived_token(key, tournament_id, salt)
            added = scorekeepers.add(
                conn, tournament_id, name, round_number, hash_token(new_token), salt, now()
            )
            event = ScorekeeperAdded(added.number, round_number)
            entry = self._append(conn, tournament_id, log, Action.of(event), actor)
            self._keep_write_key(conn, entry, tournament_id)
            held = self._held(row, [*log, entry], state, bumped=True)  # the state is unchanged
        STORE_WRITES.labels(ledger.format, entry.kind).inc()  # committed
        return self._keep(held), added, new_token

    def record(
        self,
        ledger: Ledger[S],
        tournament_id: str,
        token: str,
        decide: Callable[[Held[S]], Action | None],
    ) -> Held[S]:
        """Log an entry of the store's own that leaves the state as it is (a round's
        clock), as ``decide`` makes it from the tournament as it stands (None: nothing
        to log); the director's token only. With an idempotency key, a retry logs nothing
        again."""
        with self._locked(ledger, tournament_id, token) as (conn, row, log, state, actor):
            if self._written_with_key(conn, row, log) is not None:
                return self._held(row, log, state)
            self._unless_stale(row)
            action = decide(self._held(row, log, state))
            if action is None:
                return self._held(row, log, state)
            entry = self._append(conn, tournament_id, log, action, actor)
            self._keep_write_key(conn, entry, tournament_id)
            held = self._held(row, [*log, entry], state, bumped=True)  # the state is unchanged
        STORE_WRITES.labels(ledger.format, entry.kind).inc()  # committed
        return self._keep(held)

    def revoke_scorekeeper(
        self, ledger: Ledger[S], tournament_id: str, token: str, number: int
    ) -> tuple[Held[S], Scorekeeper]:
        """Scorekeeper ``number``'s token stops working (the director's write). Revoking a
        revoked one again writes nothing."""
        with self._locked(ledger, tournament_id, token) as (conn, row, log, state, actor):
            found = scorekeepers.numbered(conn, tournament_id, number)
            if found.revoked_at is not None:
                return self._held(row, log, state), found
            self._unless_stale(row)
            entry = self._append(
                conn, tournament_id, log, Action.of(ScorekeeperRevoked(number)), actor
            )
            scorekeepers.revoke(conn, tournament_id, number, entry.at)
            held = self._held(row, [*log, entry], state, bumped=True)
        STORE_WRITES.labels(ledger.format, entry.kind).inc()  # committed
        return self._keep(held), replace(found, revoked_at=entry.at)

    def scorekeepers_of(self, ledger: Ledger[Any], tournament_id: str) -> list[Scorekeeper]:
        """The tournament's scorekeepers, revoked ones too (for its director)."""
        with self.engine.connect() as conn:
            self._row(conn, ledger, tournament_id)
            return scorekeepers.listed(conn, tournament_id)

    def scorekeeper_holding(
        self, ledger: Ledger[Any], tournament_id: str, token: str
    ) -> Scorekeeper | None:
        """The scorekeeper whose token this is (revoked or not), for their own page to
        learn what it may enter; None when the token is no scorekeeper's of this event."""
        with self.engine.connect() as conn:
            self._row(conn, ledger, tournament_id)
            return scorekeepers.holder(conn, tournament_id, hash_token(token))

    # --- states kept between requests ---------------------------------------------------

    def _recall(self, tournament_id: str, revision: int) -> Held[Any] | None:
        with self._kept_lock:
            held = self._kept.get(tournament_id)
            if held is None or held.revision != revision:
                return None
            self._kept.move_to_end(tournament_id)
            return held

    def _keep(self, held: Held[S]) -> Held[S]:
        """Remember a committed state (it must never be changed from now on)."""
        with self._kept_lock:
            self._kept[held.id] = held
            self._kept.move_to_end(held.id)
            while len(self._kept) > self._kept_size:
                self._kept.popitem(last=False)
        return held

    def check_director(
        self, tournament_id: str, token: str, scoring: Scoring | None = None
    ) -> None:
        """Refuse a director's write before its body is read: TournamentNotFound when there
        is no such tournament, WrongToken when ``token`` is not its director's (nor, for a
        result (``scoring``), a scorekeeper's who may enter it; NotPermitted, saying why,
        for a scorekeeper's that may not). The write checks again under its lock (the
        token may be replaced or revoked in between). The first use of a token a
        rotation issued retires the token it replaced."""
        table = schema.tournaments
        query = select(table.c.token_hash, table.c.previous_token_hash).where(
            table.c.id == tournament_id
        )
        digest = hash_token(token)
        with self.engine.connect() as conn:
            row = conn.execute(query).one_or_none()
            if row is None:
                raise TournamentNotFound(tournament_id)
            if not hmac.compare_digest(row.token_hash, digest):
                if scoring is None:
                    scorekeepers.refuse_beyond_results(conn, tournament_id, digest)
                elif scorekeepers.entering(conn, tournament_id, digest, scoring.round):
                    return
                raise WrongToken(tournament_id)
        if row.previous_token_hash is not None:
            self._retire_previous([tournament_id])

    # --- plumbing -----------------------------------------------------------------------

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
            row = self._row(conn, ledger, tournament_id, lock=True)
            digest = hash_token(token)
            director = hmac.compare_digest(row.token_hash, digest)
            if director and row.previous_token_hash is not None:
                self._retire_previous([tournament_id], conn)
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
            kept = self._recall(tournament_id, row.revision)
            if kept is not None:
                log, state = list(kept.log), ledger.clone(kept.state)
            else:
                log = self._log(conn, ledger, tournament_id)
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

    def _written_with_key(self, conn: Connection, row: Any, log: Sequence[Entry]) -> Entry | None:
        """The entry a write with the request's idempotency key appended before, if one
        did (IdempotencyKeyReused if it came with another request)."""
        conditions = self.conditions()
        if conditions.idempotency_key is None:
            return None
        seq = write_keys.earlier_entry(
            conn, row.id, conditions.idempotency_key, conditions.request_digest, now()
        )
        return None if seq is None else next(e for e in log if e.seq == seq)

    def _keep_write_key(self, conn: Connection, entry: Entry, tournament_id: str) -> None:
        """Record that the write with the request's idempotency key appended ``entry``."""
        conditions = self.conditions()
        if conditions.idempotency_key is not None:
            key, digest = conditions.idempotency_key, conditions.request_digest
            write_keys.keep(conn, tournament_id, key, digest, entry.seq, entry.at)

    def _retire_previous(
        self, tournament_ids: Sequence[str], conn: Connection | None = None
    ) -> None:
        """The current tokens of these tournaments are used: the tokens they replaced
        can no longer ask for them (in ``conn``'s transaction, or one of its own)."""
        if conn is None:
            with self.engine.connect().execution_options(**{WRITE: True}) as own, own.begin():
                self._retire_previous(tournament_ids, own)
            return
        table = schema.tournaments
        conn.execute(
            update(table)
            .where(table.c.id.in_(tournament_ids), table.c.previous_token_hash.is_not(None))
            .values(previous_token_hash=None, rotation_salt=None)
        )

    def _row(
        self, conn: Connection, ledger: Ledger[Any], tournament_id: str, lock: bool = False
    ) -> Any:
        query = select(schema.tournaments).where(schema.tournaments.c.id == tournament_id)
        row = conn.execute(query.with_for_update() if lock else query).one_or_none()
        if row is None or row.format != ledger.format:
            raise TournamentNotFound(tournament_id)
        return row

    def _log(self, conn: Connection, ledger: Ledger[Any], tournament_id: str) -> list[Entry]:
        """The tournament's log, each entry with its typed event (read by its ledger)."""
        table = schema.log
        rows = conn.execute(
            select(table.c.seq, table.c.kind, table.c.data, table.c.actor, table.c.at)
            .where(table.c.tournament_id == tournament_id)
            .order_by(table.c.seq)
        )
        return [Entry(r.seq, read_action(ledger, r.kind, r.data), utc(r.at), r.actor) for r in rows]

    def _append(
        self,
        conn: Connection,
        tournament_id: str,
        log: Sequence[Entry],
        action: Action,
        actor: str = DIRECTOR,
    ) -> Entry:
        entry = Entry((log[-1].seq if log else 0) + 1, action, now(), actor)
        self._insert(conn, tournament_id, entry)
        conn.execute(
            update(schema.tournaments)
            .where(schema.tournaments.c.id == tournament_id)
            .values(revision=schema.tournaments.c.revision + 1)
        )
        return entry

    @staticmethod
    def _insert(conn: Connection, tournament_id: str, entry: Entry) -> None:
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

    def _unless_stale(self, row: Any) -> bool:
        """Refuse the write when the request names revisions (``If-Match``) and the
        tournament's is not among them; whether it names any. Checked only for a write
        that would change something: a retry of what is already so is answered as done
        (RFC 9110 13.1.1)."""
        conditions = self.conditions()
        if conditions.revisions is not None and row.revision not in conditions.revisions:
            raise StaleRevision(row.id, row.revision)
        return conditions.names

    def _held(self, row: Any, log: Sequence[Entry], state: S, bumped: bool = False) -> Held[S]:
        self.observe(row.id, row.revision + (1 if bumped else 0))
        return Held(
            id=row.id,
            format=row.format,
            name=row.name,
            created_at=utc(row.created_at),
            revision=row.revision + (1 if bumped else 0),
            log=tuple(log),
            state=state,
        )


def _last_rotation(log: Sequence[Entry]) -> int | None:
    """The seq of the log's latest ``token_replaced`` entry, if any."""
    return next((e.seq for e in reversed(log) if e.kind == TokenReplaced.logged_as), None)


def _scorekeepers_revoked(conn: Connection, tournament_id: str, log: Sequence[Entry]) -> None:
    """The scorekeepers a copied log issued, revoked: their tokens are not in the log (the
    director issues new ones, numbered on); the history keeps who entered what."""
    revoked_at = now()
    for entry in log:
        if entry.kind == ScorekeeperAdded.logged_as:
            number, round_number = entry.data["number"], entry.data.get("round")
            scorekeepers.add(
                conn,
                tournament_id,
                f"scorekeeper {number} (before the import)",
                round_number if isinstance(round_number, int) else None,
                hash_token(secrets.token_urlsafe(32)),
                None,
                entry.at,
            )
            scorekeepers.revoke(conn, tournament_id, int(number), revoked_at)
