"""How an answer schema reads the store's and the engine's objects as they are
(:class:`ReadOut`), and the views of a held tournament (:class:`HeldView`), of a round and
of a round's result (:class:`HeldRound`, :class:`HeldResult`) where a value needs more than
one object; the fields every round-by-round format reads from them."""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from marshmallow import Schema, fields, validate

from ...engine.round_clock import Clock
from ...engine.round_ledger import RoundByRound
from ...store import Held
from .round_clock import round_clock

S = TypeVar("S")
RB = TypeVar("RB", bound=RoundByRound)


class ReadOut(Schema):
    """An answer schema that reads the store's and the engine's objects as they are.

    A field's ``attribute`` is a dotted path from the object dumped
    (``"state.settings.game"``). A step that names a method is called with no arguments, as
    the engine works out standings, status and endings when asked (``"state.standings"``);
    a path that meets None is None (``"state.latest.number"`` before the first round).
    Mappings are read by key, as marshmallow reads them."""

    def get_attribute(self, obj: Any, attr: str, default: Any) -> Any:
        found = obj
        for step in attr.split("."):
            if found is None:
                return None
            if isinstance(found, Mapping):
                found = found.get(step, default)
            else:
                found = getattr(found, step, default)
            if found is default:
                return default
            if inspect.ismethod(found):
                found = found()
        return found


@dataclass(frozen=True)
class HeldView(Generic[S]):
    """A held tournament as its own page answers it: the stored record, read through for
    :class:`HeldOut`'s fields, the director token on the create's answer only, and the
    namesakes the request entered (``entry_warnings.py``: a create's or a late entry's
    answer). A format's view adds, as properties, what its answer derives from more than
    one value."""

    held: Held[S]
    token: str | None = None  # TokenOut: shown once, by the create
    warnings: Sequence[str] = ()  # EntryWarnings: found by the route that entered players

    @property
    def id(self) -> str:
        return self.held.id

    @property
    def name(self) -> str | None:
        return self.held.name

    @property
    def created_at(self) -> datetime:
        return self.held.created_at

    @property
    def revision(self) -> int:
        return self.held.revision

    @property
    def state(self) -> S:
        return self.held.state

    @property
    def clock(self) -> Clock | None:
        """The clock of the round being played, while it runs (a format with rounds)."""
        return round_clock(self.held) if hasattr(self.held.state, "latest") else None


@dataclass(frozen=True)
class HeldRound(Generic[RB]):
    """Round ``number`` of a tournament run round by round, as its answers read it. Made only
    of a round the tournament has: the 404 comes in the route, not while the answer is
    written. A format's view adds the round, typed, and what its answer derives."""

    held: Held[RB]
    number: int

    def __post_init__(self) -> None:
        self.held.state.round(self.number)


@dataclass(frozen=True)
class HeldResult(HeldRound[RB]):
    """Table or game ``at`` of a round, and on the answer to its result what that changed
    beyond it."""

    at: int
    changes: Sequence[str] = ()


def round_status() -> fields.String:
    """Where a round-by-round event stands: its state's ``status()``."""
    return fields.String(
        required=True,
        attribute="state.status",
        validate=validate.OneOf(["registered", "round_open", "between_rounds", "finished"]),
    )


def open_or_closed() -> fields.String:
    """Whether a round is still open: a round view's ``round.closed``, in a word."""
    return RoundState(
        required=True, attribute="round.closed", validate=validate.OneOf(["open", "closed"])
    )


def round_state(closed: bool) -> str:
    """A round's ``closed`` flag in a word."""
    return "closed" if closed else "open"


class RoundState(fields.String):
    """A round's ``closed`` flag, answered in a word."""

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> str:
        return round_state(value)
