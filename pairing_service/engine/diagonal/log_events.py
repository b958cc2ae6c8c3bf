"""The events of a Diagonal Race event's log (``engine/event_codec.py`` stores them): each
round's games as the engine paired them, each game's winner and pieces left."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..event_codec import JSON, omitted_when
from ..event_log import Creation, format_events
from ..round_ledger import (
    RESULT_CORRECTED,
    LateEntry,
    PlayerDropped,
    Reinstatement,
    Reseated,
    ResultEntry,
    RoundClosed,
    RoundStart,
    SettingsChange,
)
from .event import FIRST_ROUND_OPPONENTS, LATER_OPPONENTS

Game = tuple[str, str]


LateLosses = Literal["most", "fewest"]
LATE_LOSSES: tuple[LateLosses, ...] = ("most", "fewest")


@dataclass(frozen=True)
class RaceSettings:
    first_round_opponents: int = FIRST_ROUND_OPPONENTS
    opponents: int = LATER_OPPONENTS
    # The losses a late entrant starts with (the seed has no rule): the most of any player
    # still in (the default, as before: nobody falls behind a player who played), or the
    # fewest. Logs from before this setting have none: the most.
    late_entry: LateLosses = omitted_when("most")  # noqa: RUF009


@dataclass(frozen=True)
class Racer:
    id: str
    name: str | None = None
    rating: float | None = None  # None: rated by the order the players were listed in


def racers_named_and_rated(created: dict[str, JSON]) -> dict[str, JSON]:
    """Upcast a creation whose players have no ``name`` or ``rating`` (None: unnamed,
    ranked by the order listed)."""
    players = [{"name": None, "rating": None, **player} for player in created["players"]]
    return {**created, "players": players}


@dataclass(frozen=True)
class Created(Creation):
    upcasters = ((1, racers_named_and_rated),)
    settings: RaceSettings
    players: tuple[Racer, ...]


@dataclass(frozen=True)
class RoundStarted(RoundStart):
    playoff: bool
    games: tuple[Game, ...]
    opponents: int
    step: int | None
    rematches: int


@dataclass(frozen=True)
class Outcome:
    """A game's result as a correction keeps what it replaced."""

    winner: str
    pieces_left: int


@dataclass(frozen=True)
class ResultEntered(ResultEntry):
    game: int
    winner: str
    pieces_left: int


@dataclass(frozen=True)
class ResultCorrected(ResultEntered):
    logged_as = RESULT_CORRECTED
    was: Outcome
    changes: tuple[str, ...] = omitted_when(())  # a correction of an earlier round only


@dataclass(frozen=True)
class PlayerEntered(LateEntry):
    rating: float | None
    before_round: int
    losses: int  # they start with


@dataclass(frozen=True)
class RoundReseated(Reseated):
    games: tuple[Game, ...]
    opponents: int
    step: int | None
    rematches: int
    was: tuple[Game, ...]


@dataclass(frozen=True)
class PlayerReinstated(Reinstatement):
    losses: int  # added: what a late entrant would start with, less what they had


@dataclass(frozen=True)
class SettingsChanged(SettingsChange):
    settings: RaceSettings  # whole, as they now are


DIAGONAL_EVENTS = format_events(
    "a diagonal log",
    Created,
    RoundStarted,
    ResultEntered,
    ResultCorrected,
    RoundClosed,
    PlayerDropped,
    PlayerEntered,
    RoundReseated,
    PlayerReinstated,
    SettingsChanged,
)
