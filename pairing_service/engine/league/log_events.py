"""The events of a Meeple League organisation's log (``engine/event_codec.py`` stores
them): each season's sign-ups, its leagues as formed, each game's report, and its close
with every finish by the full tiebreaker chain; the organiser's edits of a player's record
(name, e-mail) and of a season's setting for games with a seat empty."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

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
PLAYER_EDITED = "player_edited"
SEASON_SETTINGS_CHANGED = "season_settings_changed"
REPORTING_TOKEN_REISSUED = "reporting_token_reissued"

ShortGameMode = Literal["dropped_out", "three_player"]
SHORT_GAME_MODES: tuple[ShortGameMode, ...] = ("dropped_out", "three_player")


@dataclass(frozen=True)
class ShortGames:
    """How a game played with a seat empty (a player who did not come) is recorded.

    ``dropped_out`` (the default, and what the service always did): the game keeps its
    four players; the absentee is listed ``dropped_out``, placed last with no points, and
    the game counts among their games with the score reported; the three who played take
    the 4-player scale's first three places (10, 6, 3). ``three_player``: the game is a
    3-player game; the absentee is left out of the report and the game is not theirs at
    all (no game, no score in any tiebreak); the three who played score ``points``."""

    mode: ShortGameMode = "dropped_out"
    points: tuple[Fraction, ...] = (Fraction(10), Fraction(6), Fraction(3))


DEFAULT_SHORT_GAMES = ShortGames()


@dataclass(frozen=True)
class OrganisationSettings:
    code: str  # the game's, e.g. AGR
    # The seasons' default for games with a seat empty (None: DEFAULT_SHORT_GAMES).
    short_games: ShortGames | None = omitted_when(None)  # noqa: RUF009 (a field())


@dataclass(frozen=True)
class Created(Creation):
    settings: OrganisationSettings
    players: tuple[ListedPlayer, ...]  # none: players sign up season by season


@dataclass(frozen=True)
class SeasonOpened(LogEvent):
    logged_as = SEASON_OPENED
    season: int
    # None: the organisation's setting
    short_games: ShortGames | None = omitted_when(None)  # noqa: RUF009 (a field())


@dataclass(frozen=True)
class SeasonSettingsChanged(LogEvent):
    """A season's setting for games with a seat empty, changed before its first result."""

    logged_as = SEASON_SETTINGS_CHANGED
    season: int
    short_games: ShortGames


@dataclass(frozen=True)
class PlayerEdited(LogEvent):
    """The organiser's edit of a player's record: the name and e-mail address it holds
    now (either may be None: no name, no address)."""

    logged_as = PLAYER_EDITED
    player: str
    name: str | None
    email: str | None


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
    # The random salt each player's token was derived with (from the organiser's token,
    # so that their letters can show it to the organiser again); older logs have none.
    salt: str | None = omitted_when(None)


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
class ReportingTokenReissued(LogEvent):
    """The organiser's new reporting token for one player of a running season: the
    player's old token stops working at once. The hash and salt are never shown."""

    logged_as = REPORTING_TOKEN_REISSUED
    season: int
    player: str
    token_hash: str
    salt: str


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
    PlayerEdited,
    SeasonSettingsChanged,
    ReportingTokenReissued,
)
