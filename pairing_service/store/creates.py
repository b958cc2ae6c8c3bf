"""Creates: a new held tournament, from its creation (:meth:`Creates.create`) or from a
whole log (a restored backup, an imported event: :meth:`Creates.create_with_log`), in one
transaction, with its director token; and the idempotency keys of creates, in the
``idempotency_keys`` table (0005), whose retry answers the tournament the key made and
the same token. Writes to an existing tournament record their keys in ``write_keys``
instead (``store_base.py``)."""

from __future__ import annotations

import hmac
import secrets
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import TypeVar

from sqlalchemy import Connection, delete, insert, select
from sqlalchemy.exc import IntegrityError

from ..engine.errors import Conflict
from ..engine.event_log import Action, Entry, Ledger, ScorekeeperAdded
from ..instruments import STORE_WRITES
from . import schema, scorekeepers
from .database import WRITE
from .held import Held
from .log_rows import insert_entry, tournament_row
from .store_base import StoreBase
from .tokens import derived_token, hash_token, now
from .write_keys import KEY_LIFETIME, IdempotencyKeyReused

S = TypeVar("S")


class Creates(StoreBase):
    """The store's creates (a mixin of :class:`~.tournament_store.HeldStore`)."""

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
        conditions = self._conditions()
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
                    insert_entry(conn, tournament_id, entry)
                _scorekeepers_revoked(conn, tournament_id, log)
                if key is not None:
                    _keep_create_key(conn, key, digest, tournament_id, salt, now())
                row = tournament_row(conn, ledger, tournament_id)
        except IntegrityError:
            # The same key committed first by a request racing this one: answer what it made.
            if key is None or (earlier := self._made_with(ledger, key, digest)) is None:
                raise
            return earlier
        STORE_WRITES.labels(ledger.format, counted_as).inc()  # committed
        return self._held(row, log, state), token

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
            row = tournament_row(conn, ledger, made.tournament_id)
        token = derived_token(key, made.tournament_id, made.token_salt)
        if not hmac.compare_digest(row.token_hash, hash_token(token)):
            raise Conflict(
                "the tournament this Idempotency-Key created has had its director token "
                f"replaced since: it is {made.tournament_id}; use the current token"
            )
        return self.read(ledger, made.tournament_id), token


def _keep_create_key(
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
