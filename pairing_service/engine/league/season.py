"""A Meeple League season as the organisation holds it: its sign-ups, its leagues with
their games (each seated, then reported), the players it formed from and their reporting
tokens' hashes, and, once closed, every finish; and a player's record across seasons."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from ..errors import NotFound
from .formation import Finish, Movement
from .log_events import DEFAULT_SHORT_GAMES, ShortGames
from .table import Game, Result

SeasonStatus = Literal["signup", "running", "closed"]


@dataclass(frozen=True)
class SignUp:
    player: str
    name: str | None
    laurels: Fraction
    email: str | None


@dataclass
class PlayerRecord:
    """A player of the organisation across seasons: the display names given (each with
    the season from which it holds: a sign-up's season, 0 for the organiser's edit, which
    corrects every season), and the e-mail address last given."""

    player: str
    names: list[tuple[int, str]] = field(default_factory=list)
    email: str | None = None

    @property
    def name(self) -> str | None:
        return self.names[-1][1] if self.names else None

    def name_through(self, season: int) -> str | None:
        given = [name for since, name in self.names if since <= season]
        return given[-1] if given else None


@dataclass(frozen=True)
class HeldGame:
    league: str
    number: int
    name: str
    seats: tuple[str, ...]  # players in starting-seat order
    results: tuple[Result, ...] | None = None
    reported_by: str | None = None


@dataclass
class HeldLeague:
    name: str
    division: int
    players: tuple[str, ...]
    games: dict[int, HeldGame]

    def game(self, number: int) -> HeldGame:
        if number not in self.games:
            raise NotFound(f"league {self.name} has no game {number}")
        return self.games[number]

    def reported(self) -> list[Game]:
        return [
            Game(g.name, g.results) for _, g in sorted(self.games.items()) if g.results is not None
        ]


@dataclass
class Season:
    number: int
    status: SeasonStatus = "signup"
    signups: dict[str, SignUp] = field(default_factory=dict)  # in sign-up order
    order: tuple[str, ...] = ()  # the formation's list: the ranking coming into the season
    leagues: dict[str, HeldLeague] = field(default_factory=dict)
    movements: tuple[Movement, ...] = ()
    holes: tuple[str, ...] = ()
    reporters: dict[str, str] = field(default_factory=dict)  # token hash -> player
    salts: dict[str, str] = field(default_factory=dict)  # player -> their token's salt
    finishes: tuple[Finish, ...] = ()
    winner: str | None = None
    short_games: ShortGames = DEFAULT_SHORT_GAMES

    @property
    def has_result(self) -> bool:
        return any(g.results is not None for lg in self.leagues.values() for g in lg.games.values())

    def league(self, name: str) -> HeldLeague:
        if name not in self.leagues:
            raise NotFound(f"season {self.number} has no league {name!r}")
        return self.leagues[name]

    def league_of(self, player: str) -> HeldLeague | None:
        return next((lg for lg in self.leagues.values() if player in lg.players), None)
