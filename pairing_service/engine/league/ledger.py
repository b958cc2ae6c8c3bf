"""A Meeple League organisation held season by season, as a log of actions (seed 001).

An organisation (one game, e.g. code ``AGR``) keeps every season in one log:

- ``season_opened``: sign-ups open for season n (the previous one must be closed);
- ``signed_up``: players (name, laurels, e-mail), in sign-up order;
- ``season_formed``: the leagues by the seed's Steps 1-7, from the service's own record:
  last season's finishes (drop-outs included), each returner's most recent finish, and
  the new players by laurels; each league's schedule (the 7-player grid, balanced
  schedules for other sizes) with game names like ``AGR S2 L3-B G5``; and the hash of each
  player's reporting token (the tokens themselves are answered once, to the organiser);
- ``game_reported`` / ``game_corrected``: a game's scores and positions (a player who
  dropped out marked so, placed last: ``table.py``), by a player of
  that game (the seed: the winner reports) or by the organiser; only the organiser
  corrects (the seed's GM), and the history keeps what was replaced;
- ``season_closed``: every league's finishes by the full tiebreaker chain (the ranking
  coming into the season is the formation order), the season winner (Division 1's), who
  goes up and who goes down. That record forms the next season.

Lifetime standings fold the closed seasons: league points by division, and the season
winners.

Players are people across seasons: the organisation keeps a record of each (id, display
name, e-mail address, the seasons played). A sign-up by id alone reuses the record (a
returner's name and address carry over); a sign-up that gives a name or an address
updates it; ``player_edited`` is the organiser's edit of a record.

A game played with a seat empty (a player who did not come) is recorded as the season's
``ShortGames`` setting says (``log_events.py``): by default as today, the absentee listed
as having dropped out; or as a 3-player game on its own scale. The setting is the
organisation's (at its creation) unless the season sets its own (``season_opened``,
``season_settings_changed``), and cannot change once the season has a result.

The day of the event, for a league (``docs/league.md``): a late entrant is a sign-up
before the season is formed (after it, they sign up for the next season); a player who
does not come to a game is reported as having dropped out of it (the abandoned-game rule:
placed last, no points); and the organiser may correct a game of a closed season when that
changes no league's finishing order, from which the promotions, the relegations and the
next season were made: the season's finishes (points, tiebreak values, lifetime) follow
the correction, and it says what it changed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Literal

from ..errors import Conflict, NotFound, NotPermitted, refuse_repeats
from ..event_codec import JSON, LogEvent
from ..event_log import DIRECTOR, Action, Entry, Ledger, changed, numbered, standing_changes
from ..names import labels
from ..ranking import decimal_text
from ..wording import counted
from .formation import Finish, Formation, Movement, NewPlayer, form_leagues
from .lifetime import Lifetime, SeasonLeague, lifetime
from .log_events import (
    DEFAULT_SHORT_GAMES,
    LEAGUE_EVENTS,
    Created,
    FormedLeague,
    GameCorrected,
    GameReported,
    OrganisationSettings,
    PlayerEdited,
    Reported,
    ReportingTokenReissued,
    SeasonClosed,
    SeasonFormed,
    SeasonOpened,
    SeasonSettingsChanged,
    ShortGames,
    Signed,
    SignedUp,
)
from .rules import LeagueRules
from .schedule import schedule
from .table import Game, InvalidLeague, Line, Result, game_places, league_table

ORGANISER = DIRECTOR  # the organiser holds the director token

SeasonStatus = Literal["signup", "running", "closed"]


class NotYourGame(NotPermitted):
    """A player's reporting token for a game that player is not in."""

    def __str__(self) -> str:
        return f"this reporting token may not report this game: {super().__str__()}"


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


class Organisation:
    """The state of a held league organisation, folded from its log."""

    def __init__(
        self, code: str, rules: LeagueRules, short_games: ShortGames = DEFAULT_SHORT_GAMES
    ) -> None:
        self.code = code
        self.rules = rules
        self.short_games = short_games  # the seasons' default
        self.seasons: list[Season] = []
        self.players: dict[str, PlayerRecord] = {}  # by first sign-up

    def points(self, season: Season) -> dict[int, tuple[Fraction, ...]]:
        """League points by the number of players in a game, in ``season``: the rules'
        scale, and a 3-player game's when the season records short games so."""
        scale = dict(self.rules.league_points)
        if season.short_games.mode == "three_player":
            scale[3] = season.short_games.points
        return scale

    def record(self, player: str) -> PlayerRecord:
        if player not in self.players:
            raise NotFound(f"the organisation has no player {player!r}")
        return self.players[player]

    def email_of(self, player: str) -> str | None:
        found = self.players.get(player)
        return found.email if found else None

    @property
    def latest(self) -> Season | None:
        return self.seasons[-1] if self.seasons else None

    def season(self, number: int) -> Season:
        return numbered(self.seasons, number, "season")

    def table(self, season: Season, league: HeldLeague) -> list[Line]:
        """The league's table now, with the full tiebreaker chain."""
        lines = league_table(
            league.reported(),
            self.points(season),
            season.order,
            league.players,
            recorded=True,
        )
        for line in lines:
            line.name = self.name_of(line.player, season.number)
        return lines

    def moves(self, season: Season) -> tuple[list[str], list[str]]:
        """Who a closed season promotes (each league's winner below Division 1) and
        relegates (each league's bottom ``relegated`` above the bottom division)."""
        bottom = max((lg.division for lg in season.leagues.values()), default=0)
        relegated = self.rules.relegated
        down = [
            f.player
            for f in season.finishes
            if f.division < bottom
            and f.place > (f.league_size or self.rules.league_size) - relegated
        ]
        up = [f.player for f in season.finishes if f.place == 1 and f.division > 1]
        return up, down

    def names(self) -> dict[str, str | None]:
        """Each player's name as their record now holds it (None for one who gave none):
        the history names players so (``names.Named``)."""
        current = len(self.seasons)  # seasons are numbered 1, 2, ... in order
        return {player: self.name_of(player, current) for player in self.players}

    def name_of(self, player: str, through: int) -> str | None:
        """The player's display name as last given at a sign-up to season ``through`` or
        an earlier one (a returner need not give it again), or by the organiser's edit of
        the record; or None."""
        found = self.players.get(player)
        return found.name_through(through) if found else None

    def games_dropped_out_of(self, player: str, before: int) -> list[str]:
        """The games of seasons before ``before`` that ``player`` dropped out of, by name.
        The seed: "Players who drop out of games will lose their ability to play in future
        Meeple League events". A GM "empowered to fix things using their best judgment"
        decides, so the service flags such a sign-up (``drop_out_flags``) and refuses none."""
        return [
            game.name
            for season in self.seasons[: max(before - 1, 0)]
            for league in season.leagues.values()
            for game in league.games.values()
            if game.results is not None
            and any(r.player == player and r.dropped_out for r in game.results)
        ]

    def drop_out_flags(self, number: int) -> list[str]:
        """Season ``number``'s sign-ups who dropped out of a game before, in words."""
        flags = []
        for player in self.season(number).signups:
            games = self.games_dropped_out_of(player, number)
            if games:
                listed = ", ".join(games[:3]) + (
                    f" and {len(games) - 3} more" if len(games) > 3 else ""
                )
                flags.append(
                    f"{player} dropped out of {listed}: the league's rule is that players who "
                    "drop out of games lose their place in future events (the GM decides)"
                )
        return flags

    def most_recent_finish(self, player: str, before: int) -> Finish | None:
        for season in reversed(self.seasons[: before - 1]):
            for finish in season.finishes:
                if finish.player == player:
                    return finish
        return None

    def lifetime(self) -> Lifetime:
        """Lifetime standings by division and season winners, over the closed seasons."""
        played = []
        for season in self.seasons:
            if season.status != "closed":
                continue
            by_league: dict[str, list[Finish]] = {}
            for finish in season.finishes:
                by_league.setdefault(finish.league, []).append(finish)
            for name, finishes in by_league.items():
                standings = tuple((f.player, f.league_points) for f in finishes)
                played.append(SeasonLeague(season.number, name, standings))
        result = lifetime(played)
        for line in result.standings:
            line.name = self.name_of(line.player, len(self.seasons))
        return result

    def player_of(self, token_hash: str) -> str | None:
        latest = self.latest
        if latest is None or latest.status != "running":
            return None
        return latest.reporters.get(token_hash)

    # --- deciding -----------------------------------------------------------------------

    def check_open(self) -> int:
        latest = self.latest
        if latest is not None and latest.status != "closed":
            raise Conflict(f"season {latest.number} is not closed yet")
        return (latest.number if latest else 0) + 1

    def signup_season(self, number: int) -> Season:
        season = self.season(number)
        if season.status != "signup":
            raise Conflict(
                f"season {number} is formed: sign-ups are closed (a late entrant signs up "
                "for the next season)"
            )
        return season

    def formation(
        self, number: int
    ) -> tuple[Formation, list[tuple[str, tuple[tuple[str, ...], ...]]]]:
        """The season's leagues by Steps 1-7 and each league's games (seats in order)."""
        season = self.signup_season(number)
        if len(season.signups) < 4:
            raise Conflict("a season needs at least four players signed up")
        previous = self.seasons[number - 2] if number > 1 else None
        last = list(previous.finishes) if previous else []
        last_ids = {f.player for f in last}
        returning: list[Finish] = []
        new: list[NewPlayer] = []
        for player, signup in season.signups.items():
            if player in last_ids:
                continue
            finish = self.most_recent_finish(player, number)
            if finish is not None:
                returning.append(finish)
            else:
                new.append(NewPlayer(player, signup.laurels))
        formed = form_leagues(
            list(season.signups),
            last,
            returning,
            new,
            league_size=self.rules.league_size,
            relegated=self.rules.relegated,
        )
        games = [
            (league.name, schedule(league.players, self.rules.seven_player_grid).games)
            for league in formed.leagues
        ]
        return formed, games

    def check_report(
        self, number: int, league: str, game: int, results: Sequence[Result], actor: str
    ) -> HeldGame:
        """The game, if ``actor`` may report these results for it now."""
        season = self.season(number)
        closed_fix = season.status == "closed" and actor == ORGANISER
        if season.status != "running" and not closed_fix:
            raise Conflict(f"season {number} is {season.status}: no games to report")
        held = season.league(league).game(game)
        if actor != ORGANISER and actor not in held.seats:
            raise NotYourGame(f"{actor} did not play {held.name}")
        refuse_repeats([r.player for r in results], ("results",), InvalidLeague, ("player",))
        for index, result in enumerate(results):
            if result.player not in held.seats:
                raise InvalidLeague(
                    ("results", index, "player"),
                    f"{result.player!r} did not play {held.name} ({', '.join(held.seats)})",
                )
        missing = [p for p in held.seats if p not in {r.player for r in results}]
        short = season.short_games.mode == "three_player" and len(missing) == 1
        if missing and not short:
            also = (
                " (a 3-player game leaves out one absentee, no more)"
                if season.short_games.mode == "three_player"
                else " (list a player who did not come too, marked dropped_out)"
            )
            raise InvalidLeague(
                ("results",), f"no result for {', '.join(missing)} in {held.name}{also}"
            )
        game_places(results, self.points(season), seats=held.seats)
        return held


def season_finishes(org: Organisation, season: Season) -> list[Finish]:
    """Every league's finishes of a season by the full tiebreaker chain (every game
    reported)."""
    finishes = []
    for league in season.leagues.values():
        table = org.table(season, league)
        finishes += [
            Finish(
                line.player,
                league.division,
                league.name,
                place,
                line.league_points,
                line.wins,
                len(league.players),
                line.seconds,
                line.thirds,
                line.winner_share,
                line.margin,
                line.total_score,
                None if line.previous_rank is None else line.previous_rank + 1,
            )
            for place, line in enumerate(table, start=1)
        ]
    return finishes


class LeagueLedger(Ledger[Organisation]):
    format = "league"
    events = LEAGUE_EVENTS

    def __init__(self, rules: LeagueRules) -> None:
        self.rules = rules

    @staticmethod
    def created(code: str, short_games: ShortGames | None = None) -> Action:
        return Action.of(Created(OrganisationSettings(code, short_games), ()))

    def open_season(self, org: Organisation, short_games: ShortGames | None = None) -> Action:
        return Action.of(SeasonOpened(org.check_open(), short_games))

    def set_short_games(self, org: Organisation, number: int, short: ShortGames) -> Action | None:
        """A season's setting for games with a seat empty, until its first result."""
        season = org.season(number)
        if season.has_result or season.status == "closed":
            raise Conflict(
                f"season {number} has results: how a game with a seat empty is recorded "
                "cannot change now (the games reported were recorded under it)"
            )
        if season.short_games == short:
            return None
        return Action.of(SeasonSettingsChanged(number, short))

    def edit_player(
        self, org: Organisation, player: str, name: str | None, email: str | None
    ) -> Action | None:
        """The organiser's edit of a player's record (the name and address it holds now);
        None when it holds them already."""
        record = org.record(player)
        if record.name == name and record.email == email:
            return None
        return Action.of(PlayerEdited(player, name, email))

    def sign_up(self, org: Organisation, number: int, players: Sequence[SignUp]) -> Action:
        season = org.signup_season(number)
        refuse_repeats([p.player for p in players], ("players",), InvalidLeague, ("id",))
        for index, signup in enumerate(players):
            if signup.player in season.signups:
                raise InvalidLeague(
                    ("players", index, "id"), f"{signup.player!r} has signed up already"
                )
        signed = tuple(Signed(p.player, p.name, p.laurels, p.email) for p in players)
        return Action.of(SignedUp(number, signed))

    def form(
        self,
        org: Organisation,
        number: int,
        reporters: Mapping[str, str],
        salt: str | None = None,
    ) -> Action:
        """``reporters``: each signed-up player's reporting token hash; ``salt``: what the
        tokens were derived with (the API's), kept so that the organiser can be shown
        them again."""
        formed, games = org.formation(number)
        leagues = tuple(
            FormedLeague(league.name, league.division, tuple(league.players), tuple(seats))
            for league, (_, seats) in zip(formed.leagues, games, strict=True)
        )
        return Action.of(
            SeasonFormed(
                number,
                tuple(formed.order),
                leagues,
                tuple(formed.movements),
                tuple(formed.holes),
                {digest: player for player, digest in reporters.items()},
                salt,
            )
        )

    def reissue_token(
        self, org: Organisation, number: int, player: str, token_hash: str, salt: str
    ) -> Action:
        """A new reporting token for ``player`` of a running season (their old one stops
        working): for a lost letter, or a token another may have seen."""
        season = org.season(number)
        if player not in season.signups:
            raise NotFound(f"{player!r} is not signed up for season {number}")
        if season.status != "running":
            raise Conflict(
                f"season {number} is {season.status}: reporting tokens work only while a "
                "season runs"
            )
        return Action.of(ReportingTokenReissued(number, player, token_hash, salt))

    def report(
        self,
        org: Organisation,
        number: int,
        league: str,
        game: int,
        results: Sequence[Result],
        actor: str,
    ) -> Action | None:
        """A game's report, or the organiser's correction; None when already exactly so."""
        held = org.check_report(number, league, game, results, actor)
        if held.results is not None:
            if sorted(held.results, key=lambda r: r.player) == sorted(
                results, key=lambda r: r.player
            ):
                return None
            if actor != ORGANISER:
                raise Conflict(
                    f"{held.name} was reported already (by {held.reported_by}); "
                    "ask the organiser to correct it"
                )
        reported = tuple(Reported.of(r) for r in results)
        if held.results is None:
            return Action.of(GameReported(number, league, game, reported))
        was = tuple(Reported.of(r) for r in held.results)
        if org.season(number).status != "closed":
            return Action.of(GameCorrected(number, league, game, reported, was))
        finishes, changes = self._closed_season_fix(org, number, league, game, results)
        return Action.of(
            GameCorrected(number, league, game, reported, was, tuple(finishes), tuple(changes))
        )

    def _closed_season_fix(
        self, org: Organisation, number: int, league: str, game: int, results: Sequence[Result]
    ) -> tuple[list[Finish], list[str]]:
        """The closed season's finishes after correcting one of its games, and what that
        changes in words; refused when a league's finishing order would change (the
        promotions, relegations and the next season were made from it)."""
        after = self.clone(org)
        held = after.season(number).league(league)
        held.games[game] = replace(held.game(game), results=tuple(results))
        season = org.season(number)
        finishes = season_finishes(after, after.season(number))
        was = {f.player: f for f in season.finishes}
        moved = [f for f in finishes if f.place != was[f.player].place]
        if moved:
            what = ", ".join(f"{f.player} {was[f.player].place} → {f.place}" for f in moved)
            raise Conflict(
                f"this correction would change league {league}'s finishing order ({what}), "
                f"from which season {number}'s promotions and relegations were made: undo "
                f"back to season {number}'s close to correct it"
            )
        changes = standing_changes(
            [(f.player, str(f.league_points)) for f in season.finishes],
            [(f.player, str(f.league_points)) for f in finishes],
            f"season {number} league points",
            names=labels({f.player: org.name_of(f.player, number) for f in finishes}),
        )
        changes.append(
            f"season {number}'s finishing order stands, and with it its promotions, "
            "relegations and the seasons formed from it; the lifetime standings follow the "
            "new points"
        )
        return finishes, changes

    def close_season(self, org: Organisation, number: int) -> Action | None:
        """Close the season; closing a closed one again changes nothing (None), as a
        closed round of the other formats closes again."""
        season = org.season(number)
        if season.status == "closed":
            return None
        if season.status != "running":
            raise Conflict(f"season {number} is {season.status}; only a running season closes")
        waiting = [
            g.name for lg in season.leagues.values() for g in lg.games.values() if g.results is None
        ]
        if waiting:
            shown = ", ".join(waiting[:5]) + (" …" if len(waiting) > 5 else "")
            have = "has" if len(waiting) == 1 else "have"
            raise Conflict(f"{counted(len(waiting), 'game')} {have} no report yet: {shown}")
        finishes = season_finishes(org, season)
        top = next(f for f in finishes if f.division == 1 and f.place == 1)
        return Action.of(SeasonClosed(number, tuple(finishes), top.player))

    # --- fold ---------------------------------------------------------------------------

    def start(self, created: Entry) -> Organisation:
        match self._event(created.action):
            case Created(settings=settings):
                short = settings.short_games or DEFAULT_SHORT_GAMES
                return Organisation(settings.code, self.rules, short)
        raise ValueError(f"a league log begins with its creation, not {created.kind!r}")

    def _apply_event(self, org: Organisation, event: LogEvent, actor: str) -> None:
        match event:
            case SeasonOpened(season=number, short_games=short):
                org.seasons.append(Season(number, short_games=short or org.short_games))
            case SeasonSettingsChanged(season=number, short_games=short):
                org.season(number).short_games = short
            case PlayerEdited(player=player, name=name, email=email):
                record = org.record(player)
                record.names = [(0, name)] if name else []
                record.email = email
            case SignedUp(season=number, players=players):
                season = org.season(number)
                for p in players:
                    season.signups[p.id] = SignUp(p.id, p.name, p.laurels, p.email)
                    record = org.players.setdefault(p.id, PlayerRecord(p.id))
                    if p.name:
                        record.names.append((number, p.name))
                    if p.email:
                        record.email = p.email
            case SeasonFormed(season=number):
                _form(org, org.season(number), event)
            case GameReported(season=number, league=name, game=game, results=results):
                season = org.season(number)  # a report, or its correction
                league = season.league(name)
                league.games[game] = replace(
                    league.game(game),
                    results=tuple(r.result() for r in results),
                    reported_by=actor,
                )
                if isinstance(event, GameCorrected) and event.finishes is not None:
                    season.finishes = event.finishes  # a closed season's game, corrected
            case ReportingTokenReissued(season=number, player=player, token_hash=digest, salt=salt):
                season = org.season(number)
                season.reporters = {d: p for d, p in season.reporters.items() if p != player} | {
                    digest: player
                }
                season.salts[player] = salt
            case SeasonClosed(season=number, finishes=finishes, winner=winner):
                season = org.season(number)
                season.status = "closed"
                season.winner = winner
                season.finishes = finishes
            case _:
                raise ValueError(f"a league log has no action {event.logged_as!r}")

    def clone(self, org: Organisation) -> Organisation:
        # apply() adds seasons, fills a season's sign-ups, leagues and finishes, and
        # replaces games (each immutable) in a league's games.
        copy = Organisation(org.code, org.rules, org.short_games)
        copy.players = {
            pid: replace(record, names=list(record.names)) for pid, record in org.players.items()
        }
        for season in org.seasons:
            leagues = {
                name: replace(lg, games=dict(lg.games)) for name, lg in season.leagues.items()
            }
            copy.seasons.append(
                replace(
                    season,
                    signups=dict(season.signups),
                    leagues=leagues,
                    reporters=dict(season.reporters),
                    salts=dict(season.salts),
                )
            )
        return copy

    def actor(self, org: Organisation, token_hash: str) -> str | None:
        return org.player_of(token_hash)

    def for_director(self, action: Action) -> Mapping[str, JSON]:
        # Token hashes and salts are nobody's business.
        if action.kind == SeasonFormed.logged_as:
            return {k: v for k, v in action.data.items() if k not in ("reporters", "salt")}
        if action.kind == ReportingTokenReissued.logged_as:
            return {k: v for k, v in action.data.items() if k not in ("token_hash", "salt")}
        return action.data

    def public(self, action: Action) -> Mapping[str, JSON]:
        """As the director sees it, less the players' e-mail addresses (sign-ups)."""
        data = self.for_director(action)
        if action.kind == PlayerEdited.logged_as:
            return {k: v for k, v in data.items() if k != "email"}
        players = data.get("players")
        if action.kind != SignedUp.logged_as or not isinstance(players, list):
            return data
        return dict(
            data,
            players=[
                {k: v for k, v in p.items() if k != "email"} if isinstance(p, dict) else p
                for p in players
            ],
        )

    def _describe_event(self, event: LogEvent) -> str:
        return self._describe_named(event, {})

    def _describe_named(self, event: LogEvent, names: Mapping[str, str]) -> str:
        def who(player: str) -> str:
            return names.get(player, player)

        match event:
            case Created(settings=settings):
                return f"Created the {settings.code} organisation"
            case SeasonOpened(season=number, short_games=short):
                how = "" if short is None else f" ({short_words(short)})"
                return f"Season {number}: sign-ups open{how}"
            case SeasonSettingsChanged(season=number, short_games=short):
                return f"Season {number}: {short_words(short)}"
            case PlayerEdited(player=player, name=name):
                return f"Edited player {who(player)}'s record (name: {name or 'none'})"
            case SignedUp(season=number, players=players):
                ids = [who(p.id) for p in players]
                more = f" and {len(ids) - 8} more" if len(ids) > 8 else ""
                return f"Season {number}: signed up {', '.join(ids[:8])}{more}"
            case SeasonFormed(season=number, leagues=leagues, order=order):
                formed = counted(len(leagues), "league")
                return f"Season {number} formed: {formed}, {len(order)} players"
            case GameCorrected(season=number, league=league, game=game, results=results):
                return (
                    f"Season {number}, league {league}, game {game} corrected: "
                    f"{_places(results, who)} (was {_places(event.was, who)})"
                    f"{changed(event.changes)}"
                )
            case GameReported(season=number, league=league, game=game, results=results):
                return f"Season {number}, league {league}, game {game}: {_places(results, who)}"
            case ReportingTokenReissued(season=number, player=player):
                return f"Season {number}: {who(player)}'s reporting token reissued"
            case SeasonClosed(season=number, winner=winner):
                return f"Season {number} closed: {who(winner)} won Division 1"
        raise ValueError(f"a league log has no action {event.logged_as!r}")


def _form(org: Organisation, season: Season, formed: SeasonFormed) -> None:
    """Fold a season's formation: its leagues, each game named and seated."""
    season.status = "running"
    season.order = formed.order
    for league in formed.leagues:
        prefix = f"{org.code} S{season.number} L{league.name}"
        games = {
            k: HeldGame(league.name, k, f"{prefix} G{k}", seats)
            for k, seats in enumerate(league.games, start=1)
        }
        season.leagues[league.name] = HeldLeague(
            league.name, league.division, league.players, games
        )
    season.movements = formed.movements
    season.holes = formed.holes
    season.reporters = dict(formed.reporters)
    if formed.salt is not None:
        season.salts = dict.fromkeys(formed.reporters.values(), formed.salt)


def _places(rows: Sequence[Reported], who: Callable[[str], str]) -> str:
    ordered = sorted(rows, key=lambda r: r.position)
    return ", ".join(
        f"{r.position}. {who(r.player)} {r.score}" + (" (dropped out)" if r.dropped_out else "")
        for r in ordered
    )


def short_words(short: ShortGames) -> str:
    """How a game with a seat empty is recorded, in words (the public page says it)."""
    if short.mode == "dropped_out":
        return (
            "a player who does not come to a game is reported as having dropped out of it: "
            "placed last, with no points; the three who played score their places on the "
            "4-player scale (10, 6, 3)"
        )
    scale = ", ".join(decimal_text(p) for p in short.points)
    return (
        "a game a player does not come to is a 3-player game: the absentee is left out of "
        f"it, and the three who played take {scale}"
    )
