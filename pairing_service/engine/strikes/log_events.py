"""The events of a strikes tournament's log (``engine/event_codec.py`` stores them).

Each is what the engine decided when the director acted: a round's seating, so a later
change of the seating algorithm never rewrites a played round, and each table's strikes
as exact fractions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..event_codec import omitted_when
from ..event_log import Creation, ListedPlayer, format_events, players_named
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
from .records import RoundKind, Seat, Settings
from .scoring import Scored


@dataclass(frozen=True)
class Created(Creation):
    upcasters = ((1, players_named),)
    settings: Settings
    players: tuple[ListedPlayer, ...]


@dataclass(frozen=True)
class RoundStarted(RoundStart):
    kind: RoundKind
    detrimental_points: int
    seats: tuple[Seat, ...]


@dataclass(frozen=True)
class PlayerResult:
    """One player's row of a table's result."""

    player: str
    place: int
    score: int | None
    strikes: Fraction

    @staticmethod
    def of(scored: Scored) -> PlayerResult:
        return PlayerResult(scored.player, scored.place, scored.score, scored.strikes)

    def scored(self) -> Scored:
        return Scored(self.player, self.place, self.strikes, self.score)


@dataclass(frozen=True)
class ResultEntered(ResultEntry):
    table: int
    results: tuple[PlayerResult, ...]


@dataclass(frozen=True)
class ResultCorrected(ResultEntered):
    logged_as = RESULT_CORRECTED
    was: tuple[PlayerResult, ...]
    changes: tuple[str, ...] = omitted_when(())  # a correction of an earlier round only


@dataclass(frozen=True)
class PlayerEntered(LateEntry):
    before_round: int
    strikes: Fraction  # they start with


@dataclass(frozen=True)
class RoundReseated(Reseated):
    kind: RoundKind
    detrimental_points: int
    seats: tuple[Seat, ...]
    was: tuple[Seat, ...]


@dataclass(frozen=True)
class PlayerReinstated(Reinstatement):
    strikes: Fraction  # added: what a late entrant would start with, less what they had


@dataclass(frozen=True)
class SettingsChanged(SettingsChange):
    settings: Settings  # whole, as they now are


STRIKES_EVENTS = format_events(
    "a strikes log",
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
