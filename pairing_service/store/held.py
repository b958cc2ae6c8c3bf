"""What the store answers, what a write asks of it, and how it refuses: the held tournament
as read (:class:`Held`, :class:`HeldRow`), a write's request conditions
(:class:`Conditions`, :class:`Scoring`) and the store's errors. No SQL here: the modules
of :class:`~pairing_service.store.tournament_store.HeldStore` share these."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Generic, TypeVar

from ..engine.event_codec import JSON
from ..engine.event_log import Entry

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
    """The conditions of a store that serves no requests (a script, a test): none."""
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
