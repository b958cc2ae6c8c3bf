"""What the Puffing Billy answer schemas read where an answer joins more than one of the
engine's objects: small typed views, built by the routes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...engine.puffing_billy import Board, EventResult, Method, ScoredEntry
from ...engine.puffing_billy.ledger import BoardEvent, HeldBoard, Placing
from ...store import Held


@dataclass(frozen=True)
class ScoredBoard:
    """A board as the calculator scored it: by which method, and who sat at it as an
    alternate (at a board of an event)."""

    players: Sequence[ScoredEntry]
    method: Method
    alternates: tuple[str, ...] = ()

    @classmethod
    def of(cls, board: Board, players: Sequence[ScoredEntry]) -> ScoredBoard:
        return cls(players, board.stage, tuple(e.id for e in board.entries if e.alternate))


@dataclass(frozen=True)
class ScoredEvent:
    """The calculator's event: the engine's standings, and every board as scored."""

    result: EventResult
    boards: Sequence[ScoredBoard]


@dataclass(frozen=True)
class NamedPlacing(Placing):
    """A row of the full ranking, with the player's name."""

    name: str | None


@dataclass(frozen=True)
class RankedEvent(Held[BoardEvent]):
    """A held event with its standings, worked out once for every field that shows them;
    on the answer to a request that entered players, the namesakes among them
    (``held/entry_warnings.py``)."""

    result: EventResult
    warnings: Sequence[str] = ()

    @classmethod
    def of(cls, held: Held[BoardEvent]) -> RankedEvent:
        return cls(**vars(held), result=held.state.result())

    @property
    def champions(self) -> list[str]:
        """Decided when the final closes; none before."""
        return self.result.champions if self.state.stage == "finished" else []

    @property
    def ranking(self) -> list[NamedPlacing]:
        names = self.state.players
        return [
            NamedPlacing(p.rank, p.id, p.basis, names[p.id])
            for p in self.state.ranking(self.result)
        ]

    @property
    def without_boards(self) -> list[str]:
        return self.state.without_boards()


@dataclass(frozen=True)
class EventBoard:
    """A board of a held event as its pages show it: the event's id beside the sheet, and
    what entering it changed (answered by the write only)."""

    event: str
    sheet: HeldBoard
    changes: tuple[str, ...] = ()


@dataclass(frozen=True)
class EventBoards:
    """Every board of a held event, by number."""

    event: str
    boards: list[EventBoard]

    @classmethod
    def of(cls, held: Held[BoardEvent]) -> EventBoards:
        entered = held.state.boards
        return cls(held.id, [EventBoard(held.id, entered[n]) for n in sorted(entered)])
