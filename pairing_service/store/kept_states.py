"""The states a process keeps between requests, by tournament, with their revision.

Folding a long log on every read costs (a 400-board Puffing Billy event: ~15 ms), so each
process keeps the last states it folded or wrote. A read still asks the database for the
tournament's row in its snapshot, and uses the kept state only when the revision there is
the kept one: every action bumps the revision in the same transaction, so a kept state is
never stale, whichever worker wrote. Kept states are never changed: writes fold (or
clone) their own copy, and keep it only after their commit.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, TypeVar

from .held import Held

S = TypeVar("S")

KEPT_STATES = 64  # per process; a state of a large event is a few MB at most


class KeptStates:
    """The last ``size`` states kept, least recently used dropped first; thread-safe (a
    gunicorn worker may serve with threads)."""

    def __init__(self, size: int = KEPT_STATES) -> None:
        self._held: OrderedDict[str, Held[Any]] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def recall(self, tournament_id: str, revision: int) -> Held[Any] | None:
        """The kept state of the tournament at ``revision``, if this one is kept."""
        with self._lock:
            held = self._held.get(tournament_id)
            if held is None or held.revision != revision:
                return None
            self._held.move_to_end(tournament_id)
            return held

    def keep(self, held: Held[S]) -> Held[S]:
        """Remember a committed state (it must never be changed from now on)."""
        with self._lock:
            self._held[held.id] = held
            self._held.move_to_end(held.id)
            while len(self._held) > self._size:
                self._held.popitem(last=False)
        return held
