"""The events of a Meeple League organisation's log (``engine/event_codec.py`` stores
them): each season's sign-ups, its leagues as formed, each game's report, and its close
with every finish by the full tiebreaker chain."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..event_codec import JSON, LogEvent, omitted_when
from ..event_log import Creation, ListedPlayer, format_events
from .formation import Finish, Movement
from .table import Result

SEASON_OPENED = "season_opened"
SIGNED_UP = "signed_up"
SEASON_FORMED = "season_formed"
GAME_REPORTED = "game_reported"
GAME_CORRECTED = "game_corrected"
SEASON_CLOSED = "season_closed"


@dataclass(frozen=True)
class OrganisationSettings:
    code: str  # the game's, e.g. AGR


@dataclass(frozen=True)
class Created(Creation):
    settings: OrganisationSettings
    players: tuple[ListedPlayer, ...]  # none: players sign up season by season


@dataclass(frozen=True)
class SeasonOpened(LogEvent):
    logged_as = SEASON_OPENED
    season: int


@dataclass(frozen=True)
class Signed:
    """A sign-up as the log keeps it."""

    id: str
    name: str | None
    laurels: Fraction
    email: str | None


@dataclass(frozen=True)
class SignedUp(LogEvent):
    logged_as = SIGNED_UP
    season: int
    players: tuple[Signed, ...]


@dataclass(frozen=True)
class FormedLeague:
    name: str
    division: int
    players: tuple[str, ...]
    games: tuple[tuple[str, ...], ...]  # each game's players in starting-seat order


@dataclass(frozen=True)
class SeasonFormed(LogEvent):
    logged_as = SEASON_FORMED
    season: int
    order: tuple[str, ...]  # the ranking coming into the season
    leagues: tuple[FormedLeague, ...]
    movements: tuple[Movement, ...]
    holes: tuple[str, ...]
    reporters: dict[str, str]  # reporting token hash -> player: never shown


@dataclass(frozen=True)
class Reported:
    """A player's result of a game as the log keeps it (``dropped_out`` only for a
    leaver: older logs have none)."""

    player: str
    score: int
    position: int
    dropped_out: bool = omitted_when(False)

    @staticmethod
    def of(result: Result) -> Reported:
        return Reported(result.player, result.score, result.position, result.dropped_out)

    def result(self) -> Result:
        return Result(self.player, self.score, self.position, self.dropped_out)


def finishes_with_tiebreaks(data: dict[str, JSON]) -> dict[str, JSON]:
    """Upcast finishes recorded before the whole tiebreaker chain was (points and wins
    only): the rest reads as level."""
    if "finishes" not in data:  # a correction of a running season's game
        return data
    level = {
        "seconds": 0,
        "thirds": 0,
        "winner_share": "0",
        "margin": 0,
        "total_score": 0,
        "previous_rank": None,
    }
    return {**data, "finishes": [level | finish for finish in data["finishes"]]}


@dataclass(frozen=True)
class GameReported(LogEvent):
    logged_as = GAME_REPORTED
    season: int
    league: str
    game: int
    results: tuple[Reported, ...]


@dataclass(frozen=True)
class GameCorrected(GameReported):
    logged_as = GAME_CORRECTED
    upcasters = ((1, finishes_with_tiebreaks),)
    was: tuple[Reported, ...]
    # A closed season's game only: the season's finishes after it, and what it changed.
    finishes: tuple[Finish, ...] | None = omitted_when(None)
    changes: tuple[str, ...] = omitted_when(())


@dataclass(frozen=True)
class SeasonClosed(LogEvent):
    logged_as = SEASON_CLOSED
    upcasters = ((1, finishes_with_tiebreaks),)
    season: int
    finishes: tuple[Finish, ...]
    winner: str


LEAGUE_EVENTS = format_events(
    "a league log",
    Created,
    SeasonOpened,
    SignedUp,
    SeasonFormed,
    GameReported,
    GameCorrected,
    SeasonClosed,
)
