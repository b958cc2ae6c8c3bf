"""Scorekeepers as the store's director sees them: issuing a scorekeeper's token
(:meth:`ScorekeeperWrites.add_scorekeeper`, logged as ``scorekeeper_added``), revoking it
(``scorekeeper_revoked``), and listing them. Each write runs in the store's locked
transaction (``store_base.py``) with the director's token; the queries are
``scorekeepers.py``'s. Which results a scorekeeper's token may enter is checked where the
token is (``StoreBase._locked``, ``DirectorTokens.check_director``)."""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any, TypeVar

from ..engine.event_log import Action, Ledger, ScorekeeperAdded, ScorekeeperRevoked
from ..instruments import STORE_WRITES
from . import scorekeepers
from .held import Held
from .log_rows import append, tournament_row
from .scorekeepers import Scorekeeper
from .store_base import StoreBase
from .tokens import derived_token, hash_token, now

S = TypeVar("S")


class ScorekeeperWrites(StoreBase):
    """The store's scorekeepers (a mixin of :class:`~.tournament_store.HeldStore`)."""

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
        key = self._conditions().idempotency_key
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
            entry = append(conn, tournament_id, log, Action.of(event), actor)
            self._keep_write_key(conn, entry, tournament_id)
            held = self._held(row, [*log, entry], state, bumped=True)  # the state is unchanged
        STORE_WRITES.labels(ledger.format, entry.kind).inc()  # committed
        return self._keep(held), added, new_token

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
            entry = append(conn, tournament_id, log, Action.of(ScorekeeperRevoked(number)), actor)
            scorekeepers.revoke(conn, tournament_id, number, entry.at)
            held = self._held(row, [*log, entry], state, bumped=True)
        STORE_WRITES.labels(ledger.format, entry.kind).inc()  # committed
        return self._keep(held), replace(found, revoked_at=entry.at)

    def scorekeepers_of(self, ledger: Ledger[Any], tournament_id: str) -> list[Scorekeeper]:
        """The tournament's scorekeepers, revoked ones too (for its director)."""
        with self.engine.connect() as conn:
            tournament_row(conn, ledger, tournament_id)
            return scorekeepers.listed(conn, tournament_id)

    def scorekeeper_holding(
        self, ledger: Ledger[Any], tournament_id: str, token: str
    ) -> Scorekeeper | None:
        """The scorekeeper whose token this is (revoked or not), for their own page to
        learn what it may enter; None when the token is no scorekeeper's of this event."""
        with self.engine.connect() as conn:
            tournament_row(conn, ledger, tournament_id)
            return scorekeepers.holder(conn, tournament_id, hash_token(token))
