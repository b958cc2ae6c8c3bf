"""The events of a Puffing Billy event's log (``engine/event_codec.py`` stores them): each
board as scored when it was entered, its placements and bonuses exact decimals (text)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..event_codec import JSON, LogEvent, omitted_when
from ..event_log import Creation, ListedPlayer, format_events, players_named
from .scoring import Method, ScoredEntry

BOARD_ENTERED = "board_entered"
BOARD_CORRECTED = "board_corrected"
PRELIMINARIES_CLOSED = "preliminaries_closed"
FINAL_CLOSED = "final_closed"
PLAYER_ENTERED = "player_entered"
SETTINGS_CHANGED = "settings_changed"
# The event's settings (``Created.settings``, ``SettingsChanged``), each defaulting to what
# the service did before it was a setting: every preliminary board counts.
BOARDS_COUNTED = "preliminary_boards_counted"
FINALS_SCORING = "finals_scoring"


@dataclass(frozen=True)
class Created(Creation):
    upcasters = ((1, players_named),)
    # BOARDS_COUNTED: int or absent (every board); FINALS_SCORING: a FinalsScoring value or
    # absent (winner_margin)
    settings: dict[str, JSON]
    players: tuple[ListedPlayer, ...]


@dataclass(frozen=True)
class BoardEntered(LogEvent):
    logged_as = BOARD_ENTERED
    board: int
    stage: Method
    name: str | None
    players: tuple[ScoredEntry, ...]
    # Players of a final board who did not qualify; logs from before alternates existed
    # have none, and the log still leaves out an empty list.
    alternates: tuple[str, ...] = omitted_when(())


@dataclass(frozen=True)
class BoardCorrected(BoardEntered):
    logged_as = BOARD_CORRECTED
    was: tuple[ScoredEntry, ...] = field(kw_only=True)
    # A preliminary board corrected during the final only.
    changes: tuple[str, ...] = omitted_when(())


@dataclass(frozen=True)
class PlayerEntered(LogEvent):
    logged_as = PLAYER_ENTERED
    player: str
    name: str | None


@dataclass(frozen=True)
class PreliminariesClosed(LogEvent):
    logged_as = PRELIMINARIES_CLOSED
    finalists: int
    qualifiers: tuple[str, ...]
    tied_at_cut: tuple[str, ...]


@dataclass(frozen=True)
class FinalClosed(LogEvent):
    logged_as = FINAL_CLOSED
    champions: tuple[str, ...]


@dataclass(frozen=True)
class SettingsChanged(LogEvent):
    """The director's settings changed before the first board: the whole set, as now."""

    logged_as = SETTINGS_CHANGED
    settings: dict[str, JSON]


PUFFING_BILLY_EVENTS = format_events(
    "a Puffing Billy log",
    Created,
    BoardEntered,
    BoardCorrected,
    PlayerEntered,
    PreliminariesClosed,
    FinalClosed,
    SettingsChanged,
)
