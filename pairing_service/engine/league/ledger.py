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

This module decides the actions; the organisation they are folded into, with what it reads
off its seasons and its checks, is ``organisation.py`` (a season and a player's record:
``season.py``); the fold of each action is ``fold.py``; what the history shows and its
words are ``history.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from ..errors import Conflict, NotFound, refuse_repeats
from ..event_codec import JSON, LogEvent
from ..event_log import Action, Entry, Ledger, standing_changes
from ..names import labels
from ..wording import counted
from .fold import apply_league_event, clone_organisation
from .formation import Finish
from .history import for_the_organiser, for_the_public, league_words
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
from .organisation import ORGANISER, Organisation, season_finishes
from .rules import LeagueRules
from .season import SignUp
from .table import InvalidLeague, Result


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
        apply_league_event(org, event, actor)

    def clone(self, org: Organisation) -> Organisation:
        return clone_organisation(org)

    def actor(self, org: Organisation, token_hash: str) -> str | None:
        return org.player_of(token_hash)

    def for_director(self, action: Action) -> Mapping[str, JSON]:
        # Token hashes and salts are nobody's business.
        return for_the_organiser(action)

    def public(self, action: Action) -> Mapping[str, JSON]:
        """As the director sees it, less the players' e-mail addresses (sign-ups)."""
        return for_the_public(action)

    def _describe_event(self, event: LogEvent) -> str:
        return self._describe_named(event, {})

    def _describe_named(self, event: LogEvent, names: Mapping[str, str]) -> str:
        return league_words(event, names)
