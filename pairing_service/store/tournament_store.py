"""Held tournaments of every format: a row each, and the append-only log of its actions.

:class:`HeldStore` is the store the API holds (``app.extensions["pairing_store"]``), one
per process. It is made of a module per job, each a mixin of the same base:

- ``store_base.py``: what every read and write shares: the snapshot read, the locked
  write transaction, the request's conditions (``If-Match``), idempotency keys of writes,
  the answers (and the ETag they tell ``observe``);
- ``tournament_store.py`` (here): the writes of a tournament's actions, decided by its
  format's engine (:meth:`HeldStore.write`, :meth:`HeldStore.write_as`, undo, and the
  store's own entries, :meth:`HeldStore.record`);
- ``creates.py``: new tournaments, and the idempotency keys of creates;
- ``director_tokens.py``: the director's tokens: a director's tournaments, the check
  before a write's body is read, and the token's rotation;
- ``scorekeeper_writes.py``: issuing, revoking and listing scorekeepers' tokens.

Beside them: ``held.py`` (what the store answers and its errors), ``log_rows.py`` (the
row and the log, as SQL on a connection), ``kept_states.py`` (the states a process keeps
between requests), ``write_keys.py``, ``scorekeepers.py`` and ``tokens.py``.

A write folds the log into the state with the format's
:class:`~pairing_service.engine.event_log.Ledger` (or clones the state kept at the row's
revision), lets the engine decide the action, appends it with the next sequence number
and bumps the revision, in one transaction under the row's lock (``store_base.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from ..engine.event_log import UNDONE, Action, Entry, Ledger, is_correction, undo
from ..instruments import STORE_WRITES
from .creates import Creates
from .director_tokens import DirectorTokens
from .held import Held, ResultStands, Scoring
from .log_rows import append
from .scorekeeper_writes import ScorekeeperWrites

S = TypeVar("S")


class HeldStore(Creates, DirectorTokens, ScorekeeperWrites):
    """The store of held tournaments (every job's mixin, see the module). ``conditions``:
    the current request's (:class:`~.held.Conditions`); ``observe``: told the id and
    revision of every tournament read or written (the API answers it as an ETag)."""

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
            entry = append(conn, tournament_id, log, action, actor)
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
            entry = append(conn, tournament_id, log, action, actor)
            self._keep_write_key(conn, entry, tournament_id)
            after = [*log, entry]
            held = self._held(row, after, ledger.fold(after), bumped=True)
        STORE_WRITES.labels(ledger.format, entry.kind).inc()  # committed
        return self._keep(held), entry

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
            entry = append(conn, tournament_id, log, action, actor)
            self._keep_write_key(conn, entry, tournament_id)
            held = self._held(row, [*log, entry], state, bumped=True)  # the state is unchanged
        STORE_WRITES.labels(ledger.format, entry.kind).inc()  # committed
        return self._keep(held)
