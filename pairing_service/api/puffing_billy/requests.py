"""What the Puffing Billy request schemas load (their ``post_load``): typed requests, in
the engine's own types where it has them (a :class:`BoardEntry`, a :class:`Board`,
:class:`EventSettings`), which the routes hand the engine."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.puffing_billy import Board, BoardEntry, FinalsScoring
from ...engine.puffing_billy.ledger import EventSettings
from ..held.requests import Unsent


@dataclass(frozen=True)
class EventRequest:
    """An event to score (``POST /v1/puffing-billy/event``): every board, the cut, and
    how boards count and the final's are scored."""

    boards: tuple[Board, ...]
    finalists: int
    counted: int | None  # each player's best N preliminary boards (None: every one)
    finals: FinalsScoring


@dataclass(frozen=True)
class NewBoardEvent:
    """A held event to create: its name, players (id and name) and settings."""

    name: str | None
    players: tuple[tuple[str, str | None], ...]
    settings: EventSettings


@dataclass(frozen=True)
class BoardSettingsChange:
    """The settings a settings write names; those it leaves out are :data:`UNSENT` (a null
    ``preliminary_boards_counted`` is sent: every board counts)."""

    counted: int | Unsent | None
    finals: FinalsScoring | Unsent


@dataclass(frozen=True)
class Sheet:
    """A held event's score sheet: who sat at the board and scored what, and its label."""

    entries: tuple[BoardEntry, ...]
    name: str | None


@dataclass(frozen=True)
class Cut:
    """How many qualify for the final(s) when the preliminaries close."""

    finalists: int
