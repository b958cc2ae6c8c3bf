"""What the league's answer schemas read where an answer joins more than one of the
engine's objects, or groups or counts them: small typed views, built by the routes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from ...engine.league import Formation, League, Line, Schedule
from ...engine.league.organisation import Organisation
from ...engine.league.season import HeldGame, HeldLeague, Season, SignUp
from ...store import Held


@dataclass(frozen=True)
class LeagueTable:
    """A league's table as the calculator answers it."""

    standings: Sequence[Line]


@dataclass(frozen=True)
class NamedSchedule:
    """A league's schedule, its games named after the league (AGR S2 L3-B G1)."""

    plan: Schedule
    prefix: str  # AGR S2 L3-B
    optimal: str  # how even the meetings are, in words

    @property
    def games(self) -> list[tuple[str, tuple[str, ...]]]:
        return [(f"{self.prefix} G{i}", seats) for i, seats in enumerate(self.plan.games, 1)]

    @property
    def meetings(self) -> list[tuple[list[str], int]]:
        """Each pair of players (in order), and how many games they meet in; by pair (each
        pair is listed once, so the count never decides)."""
        return sorted((sorted(pair), games) for pair, games in self.plan.meetings.items())


@dataclass(frozen=True)
class FormationByDivision:
    """A formation with its leagues grouped by division."""

    formation: Formation

    @property
    def divisions(self) -> list[tuple[int, list[League]]]:
        grouped: dict[int, list[League]] = {}
        for league in self.formation.leagues:
            grouped.setdefault(league.division, []).append(league)
        return sorted(grouped.items())


@dataclass(frozen=True)
class LeagueProgress:
    """A league on its season's page: how many of its games are reported."""

    league: HeldLeague

    @property
    def reported(self) -> int:
        return sum(game.results is not None for game in self.league.games.values())


@dataclass(frozen=True)
class HeldSeason:
    """A season as its page shows it: its organisation's id beside it, and who a closed
    season moves up and down (the organisation's rules say)."""

    organisation: str
    season: Season
    promoted: list[str]
    relegated: list[str]
    names: dict[str, str | None]  # each signed-up player's display name this season
    drop_out_flags: list[str]  # sign-ups who dropped out of a game in an earlier season
    warnings: tuple[str, ...]  # what the write that answers it asks the organiser to check

    @classmethod
    def of(cls, held: Held[Organisation], number: int, warnings: Sequence[str] = ()) -> HeldSeason:
        org = held.state
        season = org.season(number)
        names = {p: org.name_of(p, number) for p in season.signups}
        flags = org.drop_out_flags(number)
        return cls(held.id, season, *org.moves(season), names, flags, tuple(warnings))

    @property
    def signups(self) -> list[SignUp]:
        return [replace(s, name=self.names.get(s.player)) for s in self.season.signups.values()]

    @property
    def leagues(self) -> list[LeagueProgress]:
        return [LeagueProgress(league) for league in self.season.leagues.values()]


@dataclass(frozen=True)
class FormedSeason(HeldSeason):
    """A season just formed: each player's reporting token (player, token), and whose
    letters the mail server took."""

    reporting_tokens: list[tuple[str, str]]
    letters_sent: int
    letters_not_sent: list[LetterNotSent]
    link_warning: str | None = None  # public_url.link_warning() when the season was formed


@dataclass(frozen=True)
class LetterNotSent:
    """A player the formation did not mail, and why (``mail.Reason``)."""

    player: str
    reason: str
    detail: str
    letter: str  # the letter with the player's reporting token, for the organiser to send


@dataclass(frozen=True)
class ReportedGame(HeldGame):
    """A game just reported, and what the report changed beyond it."""

    changes: tuple[str, ...] = ()


@dataclass(frozen=True)
class LeaguePage:
    """A league of a held season: its table now, and its games by number."""

    organisation: str
    season: int
    league: HeldLeague
    standings: Sequence[Line]

    @classmethod
    def of(cls, held: Held[Organisation], number: int, name: str) -> LeaguePage:
        season = held.state.season(number)
        league = season.league(name)
        return cls(held.id, number, league, held.state.table(season, league))

    @property
    def games(self) -> list[HeldGame]:
        return [game for _, game in sorted(self.league.games.items())]


@dataclass(frozen=True)
class Letter:
    """A player's letter for a season, and where it goes."""

    player: str
    email: str | None
    text: str
    token_filled_in: bool = False


@dataclass(frozen=True)
class SeasonLetters:
    """Every player's letter for a season."""

    season: int
    letters: list[Letter]
    link_warning: str | None = None  # public_url.link_warning()


@dataclass(frozen=True)
class ReissuedToken:
    """A player's new reporting token, and their letter carrying it."""

    player: str
    token: str
    letter: str
    link_warning: str | None


@dataclass(frozen=True)
class PlayedSeason:
    """A season a player signed up for: their league, and once closed their place."""

    season: int
    status: str
    league: str | None
    division: int | None
    place: int | None
    league_points: Fraction | None


@dataclass(frozen=True)
class PlayerView:
    """A player's record across seasons; the e-mail address only for the director."""

    id: str
    name: str | None
    email: str | None
    seasons: list[PlayedSeason]

    @classmethod
    def of(cls, org: Organisation, player: str, director: bool) -> PlayerView:
        record = org.record(player)
        played = []
        for season in org.seasons:
            if player not in season.signups:
                continue
            league = season.league_of(player)
            finish = next((f for f in season.finishes if f.player == player), None)
            played.append(
                PlayedSeason(
                    season.number,
                    season.status,
                    league.name if league else None,
                    league.division if league else None,
                    finish.place if finish else None,
                    finish.league_points if finish else None,
                )
            )
        email = record.email if director else None
        return cls(player, record.name, email, played)


@dataclass(frozen=True)
class Players:
    players: list[PlayerView]
