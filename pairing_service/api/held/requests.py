"""What the request schemas of every held format load: typed requests, never a mapping of
the body (a schema's ``post_load`` makes them; a route reads their fields). Shared here: a
player entered, the no-shows of a round, and the mark of a setting a partial body leaves
out (:data:`UNSENT`: a settings write keeps what it does not name, where a null it sends
is a value); and what the routes every held format shares take: a round's clock, the
director tokens looked up, a scorekeeper issued. A format's own are in its
``requests.py``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

T = TypeVar("T")


class Unsent(Enum):
    """A field a partial body (a settings write) leaves out: kept as it is. Not None: a
    null sent may be a value (Puffing Billy's ``preliminary_boards_counted``: every
    board)."""

    UNSENT = "unsent"


UNSENT = Unsent.UNSENT


def sent(data: Mapping[str, Any], name: str) -> Any:
    """The value a loaded body gives ``name``, or :data:`UNSENT` when it leaves it out."""
    return data.get(name, UNSENT)


def sent_or(value: T | Unsent, now: T) -> T:
    """What a partial body sets: ``value``, unless it left the field out (``now`` stays)."""
    return now if value is UNSENT else value


@dataclass(frozen=True)
class Entered:
    """A player a request enters: an id, and a name to show (None: they gave none)."""

    id: str
    name: str | None = None

    @staticmethod
    def of(data: Mapping[str, Any]) -> Entered:
        """An ``EntrantIn``'s load. ``EntrantIn`` itself loads a mapping, as the schemas
        built on it (a Scrabble player, a league's sign-up) and their checks read one."""
        return Entered(data["id"], data.get("name"))


@dataclass(frozen=True)
class NoShows:
    """The players seated in the open round who did not come."""

    players: tuple[str, ...]


@dataclass(frozen=True)
class ClockStart:
    """How long the round runs (None: as the event's last clock ran, else the usual)."""

    minutes: int | None = None


@dataclass(frozen=True)
class Lookup:
    """The director tokens a caller presents, in the order given."""

    tokens: tuple[str, ...]


@dataclass(frozen=True)
class NewScorekeeper:
    """A scorekeeper to issue a token to: who they are to the director, and the one round
    whose results it enters (None: every round, and every result of a format without)."""

    name: str
    round: int | None = None
