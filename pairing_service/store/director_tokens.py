"""The director's token: which tournaments a director's tokens hold
(:meth:`DirectorTokens.held_by`), the check of a director's write before its body is read
(:meth:`DirectorTokens.check_director`), and its rotation (:meth:`DirectorTokens.replace_token`).

A rotation is a write like any other and records its Idempotency-Key with the same
machinery (:meth:`~.store_base.StoreBase._written_with_key`,
:meth:`~.store_base.StoreBase._keep_write_key`): the key's retry finds the
``token_replaced`` entry it appended, and writes nothing. What it needs besides
(``docs/events.md``, "A new director token"): its key is required, so the caller gives it
rather than the request's conditions; and its retry comes with the token it replaced,
because the answer carrying the new one was lost. That old token is let in
(``_locked(previous=True)``) only for the retry of the latest rotation, made with this key,
within ``ROTATION_RETRY_WINDOW`` and before the new token is first used (its first use
clears ``previous_token_hash``, ``log_rows.retire_previous``); anything else it sends is
refused (WrongToken). The new token is derived from the old one, the key and the salt
kept with the row (``tokens.rotated_token``), so the retry is answered it again.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar

from sqlalchemy import select, update

from ..engine.event_log import Action, Entry, Ledger, TokenReplaced
from ..instruments import STORE_WRITES
from . import schema, scorekeepers
from .held import Held, HeldRow, Scoring, TournamentNotFound, WrongToken
from .log_rows import append
from .store_base import StoreBase
from .tokens import hash_token, now, rotated_token, utc
from .write_keys import ROTATION_RETRY_WINDOW

S = TypeVar("S")


class DirectorTokens(StoreBase):
    """The store's work on director tokens (a mixin of
    :class:`~.tournament_store.HeldStore`)."""

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
        sent = replace(self._conditions(), idempotency_key=key)  # required: the caller's
        with self._locked(ledger, tournament_id, token, previous=True) as locked:
            conn, row, log, state, actor = locked
            at = now()
            earlier = self._written_with_key(conn, row, log, sent)
            if not hmac.compare_digest(row.token_hash, hash_token(token)):
                # The token the last rotation replaced: only that rotation's retry.
                if (
                    earlier is None
                    or earlier.at < at - ROTATION_RETRY_WINDOW
                    or earlier.seq != _last_rotation(log)
                    or not row.rotation_salt
                ):
                    raise WrongToken(tournament_id)
                new_token = rotated_token(token, key, tournament_id, row.rotation_salt)
                return self._held(row, log, state), new_token
            if earlier is not None:  # the rotation this key made, sent with its new token
                return self._held(row, log, state), token
            self._unless_stale(row)
            salt = secrets.token_hex(16)
            new_token = rotated_token(token, key, tournament_id, salt)
            entry = append(conn, tournament_id, log, Action.of(TokenReplaced()), actor)
            self._keep_write_key(conn, entry, tournament_id, sent)
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


def _last_rotation(log: Sequence[Entry]) -> int | None:
    """The seq of the log's latest ``token_replaced`` entry, if any."""
    return next((e.seq for e in reversed(log) if e.kind == TokenReplaced.logged_as), None)
