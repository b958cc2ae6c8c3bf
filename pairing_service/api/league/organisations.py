"""Held Meeple League organisations: seasons, sign-ups, formation, reports, tables, letters;
and the day of the event: a closed season's game corrected, a league's games and seats as
CSV or printable text.

Reads are public. The organiser's writes need the organisation's token
(``director_token.py``); a player reports a game they played in with their own reporting
token, answered once to the organiser when the season is formed.
"""

from __future__ import annotations

import logging
import secrets
import smtplib
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from flask import Response, current_app, url_for
from flask.views import MethodView

from ...engine.league import Line
from ...engine.league.ledger import LeagueLedger, Organisation, Season, SignUp
from ...engine.league.letters import letter
from ...engine.ranking import decimal_text
from ...mail import Mail, NotSent, send
from ...store import Held
from ...store.tokens import hash_token
from ..common import prefers
from ..director_token import director_token
from ..held_blueprint import (
    TOURNAMENT,
    HeldBlueprint,
    HeldResource,
    changes_of,
    created_answer,
    held_store,
    ledger,
    read_by_director,
)
from ..printable_tables import Table, table_format, tabular, tabular_doc
from ..puffing_billy.schemas import as_read_by
from .schemas import (
    FormedOut,
    GameReportedOut,
    GameReportIn,
    HeldLeagueOut,
    LeagueFormatIn,
    LettersOut,
    LifetimeOut,
    OrganisationCreatedOut,
    OrganisationIn,
    OrganisationOut,
    SeasonOut,
    SignUpsIn,
)
from .tools import results_of
from .views import (
    FormedSeason,
    HeldSeason,
    LeaguePage,
    Letter,
    LetterNotSent,
    ReportedGame,
    SeasonLetters,
)

log = logging.getLogger(__name__)

blp = HeldBlueprint(
    "league_organisations",
    __name__,
    url_prefix="/v1/league/organisations",
    description="Held Meeple League organisations: every season, from sign-ups to lifetime "
    "standings.",
)

SEASON = TOURNAMENT + "/seasons/<int(min=1, max=10000):number>"
LEAGUE = SEASON + "/leagues/<league_name:league>"


def leagues() -> LeagueLedger:
    return ledger(LeagueLedger)


def organisation_read(held: Held[Organisation]) -> dict[str, Any]:
    """The organisation as its own page reads it, for the answers built on
    ``HeldResource.shape``."""
    return as_read_by(OrganisationOut(), held)


def season_url(held: Held[Organisation], number: int) -> str:
    return url_for(
        "league_organisations.SeasonResource", tournament_id=held.id, number=number, _external=True
    )


NO_SMTP = "the service has no mail server (SMTP_URL): send the letters of GET …/letters yourself"


def send_letters(
    held: Held[Organisation], season: Season, tokens: dict[str, str]
) -> tuple[int, list[LetterNotSent]]:
    """Mail each player with an e-mail address their letter, token filled in (SMTP_URL);
    how many the server took, and every player not mailed, in sign-up order, with why."""
    url = current_app.config["SMTP_URL"]
    org = held.state
    why: dict[str, NotSent] = {}
    addressed = []
    for signup in season.signups.values():
        if not signup.email:
            why[signup.player] = NotSent("no_address", "no e-mail address was given")
        elif not url:
            why[signup.player] = NotSent("smtp_not_configured", NO_SMTP)
        else:
            addressed.append(signup)
    outcomes: list[NotSent | None] = []
    if addressed:
        report_url = season_url(held, season.number)
        mails = [
            Mail(
                s.email or "",
                f"{org.code} Meeple League, season {season.number}: your games",
                letter(org, season.number, s.player, report_url, tokens[s.player]),
                org.name_of(s.player, season.number),
            )
            for s in addressed
        ]
        sender = current_app.config["MAIL_FROM"]
        try:
            outcomes = send(url, sender, mails, sender_name=f"{org.code} Meeple League")
        except (OSError, smtplib.SMTPException) as error:
            log.warning("league letters not sent: %s", type(error).__name__)
            detail = f"the mail server could not be reached ({type(error).__name__})"
            outcomes = [NotSent("unreachable", detail)] * len(addressed)
    why.update({s.player: o for s, o in zip(addressed, outcomes, strict=True) if o})
    not_sent = [
        LetterNotSent(player, why[player].reason, why[player].detail)
        for player in season.signups
        if player in why
    ]
    return outcomes.count(None), not_sent


@blp.route("")
class Organisations(MethodView):
    @blp.arguments(OrganisationIn)
    @blp.response(201, OrganisationCreatedOut)
    def post(self, body: dict[str, Any]) -> Any:
        """Create an organisation (one game); the answer carries the organiser's token, once."""
        held, token = held_store().create(
            leagues(), body.get("name"), leagues().created(body["code"])
        )
        return created_answer(
            held, token, organisation_read, "league_organisations.OrganisationResource"
        )


@blp.route(TOURNAMENT)
class OrganisationResource(MethodView):
    @blp.response(200, OrganisationOut)
    @blp.documents(404)
    def get(self, tournament_id: str) -> Any:
        """The organisation and its seasons."""
        return held_store().read(leagues(), tournament_id)


@blp.route(TOURNAMENT + "/lifetime")
class LifetimeResource(MethodView):
    @blp.response(200, LifetimeOut)
    @blp.documents(404)
    def get(self, tournament_id: str) -> Any:
        """Lifetime standings by division over every closed season (a point in a higher
        division outranks any number below), and the season winners."""
        return held_store().read(leagues(), tournament_id).state.lifetime()


@blp.route(TOURNAMENT + "/seasons")
class Seasons(MethodView):
    @blp.response(201, SeasonOut)
    @blp.writes()
    def post(self, tournament_id: str) -> Any:
        """Open the next season's sign-ups (the previous season must be closed)."""
        held, _ = held_store().write(
            leagues(), tournament_id, director_token(), leagues().open_season
        )
        number = len(held.state.seasons)
        location = url_for(
            "league_organisations.SeasonResource", tournament_id=held.id, number=number
        )
        return HeldSeason.of(held, number), 201, {"Location": location}


@blp.route(SEASON)
class SeasonResource(MethodView):
    @blp.response(200, SeasonOut)
    @blp.documents(404)
    def get(self, tournament_id: str, number: int) -> Any:
        """A season: sign-ups, leagues and their progress, movements, and once closed the
        winner and who goes up and down."""
        return HeldSeason.of(held_store().read(leagues(), tournament_id), number)


@blp.route(SEASON + "/signups")
class SignUps(MethodView):
    @blp.arguments(SignUpsIn)
    @blp.response(200, SeasonOut)
    @blp.writes()
    def post(self, body: dict[str, Any], tournament_id: str, number: int) -> Any:
        """Sign players up, in sign-up order (refused once the season is formed)."""
        players = [
            SignUp(p["id"], p.get("name"), Fraction(str(p["laurels"])), p.get("email"))
            for p in body["players"]
        ]
        held, _ = held_store().write(
            leagues(),
            tournament_id,
            director_token(),
            lambda org: leagues().sign_up(org, number, players),
        )
        return HeldSeason.of(held, number)


@blp.route(SEASON + "/form")
class Form(MethodView):
    @blp.response(200, FormedOut)
    @blp.writes()
    def post(self, tournament_id: str, number: int) -> Any:
        """Form the season's leagues by the seed's Steps 1-7 from the service's own record
        of the previous seasons, with their schedules. Answers each player's reporting
        token, once; sends each player their letter when SMTP is configured."""
        tokens: dict[str, str] = {}

        def form(org: Organisation) -> Any:
            tokens.update({p: secrets.token_urlsafe(24) for p in org.season(number).signups})
            hashes = {p: hash_token(t) for p, t in tokens.items()}
            return leagues().form(org, number, hashes)

        held, _ = held_store().write(leagues(), tournament_id, director_token(), form)
        sent, not_sent = send_letters(held, held.state.season(number), tokens)
        return FormedSeason(
            **vars(HeldSeason.of(held, number)),
            reporting_tokens=list(tokens.items()),
            letters_sent=sent,
            letters_not_sent=not_sent,
        )


@blp.route(LEAGUE)
class LeagueResource(MethodView):
    @blp.arguments(LeagueFormatIn, location="query")
    @blp.response(200, HeldLeagueOut)
    @blp.doc(**tabular_doc("The league's table and games", HeldLeagueOut))
    @blp.documents(404)
    def get(self, query: dict[str, Any], tournament_id: str, number: int, league: str) -> Any:
        """A league's table now (the full tiebreaker chain, with every value) and its games;
        as CSV (`?format=csv` or `Accept: text/csv`) or printable (`?format=text` or
        `Accept: text/plain`): its games and seats, a line a seat, or with
        `?rows=standings` the table, a line a player."""
        held = held_store().read(leagues(), tournament_id)
        wanted = table_format(query)
        if wanted != "json":
            rows = query["rows"]
            made = standings_rows if rows == "standings" else games_table
            name = f"league-{held.id}-season-{number}-{league}-{rows}"
            return tabular(made(held, number, league), wanted, name)
        return LeaguePage.of(held, number, league)


@blp.route(LEAGUE + "/games/<int(min=1, max=100):game>")
class GameResource(MethodView):
    @blp.arguments(GameReportIn)
    @blp.response(200, GameReportedOut)
    @blp.writes(players=True)
    def put(
        self, body: dict[str, Any], tournament_id: str, number: int, league: str, game: int
    ) -> Any:
        """Report a game: every player's score and finishing position. With a player's
        reporting token, only a game that player is in, once (a different second report
        is a 409); with the organiser's token, any game, and a correction keeps the
        report it replaces in the history.

        The organiser may also correct a game of a closed season when that changes no
        league's finishing order (else 409: undo back to the close); the season's points
        and the lifetime standings follow, and `changes` (and the history) say what
        changed."""
        results = list(results_of(body["results"]))
        held, entry = held_store().write_as(
            leagues(),
            tournament_id,
            director_token(),
            lambda org, actor: leagues().report(org, number, league, game, results, actor),
        )
        reported = held.state.season(number).league(league).game(game)
        return ReportedGame(**vars(reported), changes=tuple(changes_of(entry)))


@blp.route(SEASON + "/close")
class CloseSeason(MethodView):
    @blp.response(200, SeasonOut)
    @blp.writes()
    def post(self, tournament_id: str, number: int) -> Any:
        """Close the season once every game is reported: each league's finishes, the
        season winner (Division 1's), promotions and relegations."""
        held, _ = held_store().write(
            leagues(),
            tournament_id,
            director_token(),
            lambda org: leagues().close_season(org, number),
        )
        return HeldSeason.of(held, number)


def letters_of(held: Held[Organisation], number: int, director: bool) -> list[Letter]:
    """The season's letters; each player's e-mail address only for the ``director``."""
    season = held.state.season(number)
    if season.status == "signup":
        return []
    url = season_url(held, number)
    return [
        Letter(s.player, s.email if director else None, letter(held.state, number, s.player, url))
        for s in season.signups.values()
    ]


@blp.route(SEASON + "/letters")
class Letters(MethodView):
    @blp.response(200, LettersOut)
    @blp.doc(
        responses={
            "200": {
                "description": "The letters (JSON), or all of them as plain text.",
                "content": {"text/plain": {"schema": {"type": "string"}}},
            }
        }
    )
    @blp.documents(404)
    def get(self, tournament_id: str, number: int) -> Any:
        """Every player's letter for the season (their league, games, seats, opponents,
        what to do next, how to report), for a mail merge: the reporting token is a
        placeholder (the formation answered the tokens). `Accept: text/plain`: one text.
        The e-mail addresses only with the organisation's director token (403 with another);
        without it, `email` is null."""
        held = held_store().read(leagues(), tournament_id)
        letters = letters_of(held, number, read_by_director(held))
        if prefers("text/plain"):
            rule = "\n" + "-" * 72 + "\n\n"
            return Response(rule.join(each.text for each in letters), mimetype="text/plain")
        return SeasonLetters(number, letters)


def games_table(held: Held[Organisation], number: int, name: str) -> Table:
    """A league's games to print or import: a line a seat, in starting-seat order, with
    the result once reported."""
    league = held.state.season(number).league(name)
    header = ["game", "name", "seat", "player", "score", "position", "dropped_out"]
    rows: list[Sequence[Any]] = []
    for number_of_game, game in sorted(league.games.items()):
        results = {r.player: r for r in game.results or ()}
        for seat, player in enumerate(game.seats, start=1):
            got = results.get(player)
            rows.append(
                [
                    number_of_game,
                    game.name,
                    seat,
                    player,
                    got.score if got else None,
                    got.position if got else None,
                    got.dropped_out if got else None,
                ]
            )
    title = f"{held.state.code} Meeple League, season {number}, league {name}: games"
    return Table(title, header, rows)


# A league table's columns as CSV and text: each column's name and its cell of a line.
STANDINGS_COLUMNS: tuple[tuple[str, Callable[[Line], Any]], ...] = (
    ("rank", lambda line: line.rank),
    ("player", lambda line: line.player),
    ("name", lambda line: line.name),
    ("league_points", lambda line: decimal_text(line.league_points)),
    ("games", lambda line: line.games),
    ("dropped_out", lambda line: line.dropouts),
    ("wins", lambda line: line.wins),
    ("seconds", lambda line: line.seconds),
    ("thirds", lambda line: line.thirds),
    ("winner_share", lambda line: decimal_text(line.winner_share, 4)),
    ("margin", lambda line: line.margin),
    ("total_score", lambda line: line.total_score),
    ("head_to_head", lambda line: line.head_to_head),
    ("previous_rank", lambda line: None if line.previous_rank is None else line.previous_rank + 1),
    ("ahead_on", lambda line: line.ahead_on),
)


def standings_rows(held: Held[Organisation], number: int, name: str) -> Table:
    """A league's table to print or import: a line a player, best first, with names,
    points as decimals, every tiebreak value, and what put each above the next."""
    lines = LeaguePage.of(held, number, name).standings
    header = [column for column, _ in STANDINGS_COLUMNS]
    rows: list[Sequence[Any]] = [[cell(line) for _, cell in STANDINGS_COLUMNS] for line in lines]
    title = f"{held.state.code} Meeple League, season {number}, league {name}: table"
    return Table(title, header, rows)


def organisation_status(held: Held[Organisation]) -> str:
    """The latest season's status (signup, running, closed), or no_season."""
    latest = held.state.latest
    return latest.status if latest is not None else "no_season"


def standings_table(held: Held[Organisation]) -> tuple[list[str], list[Sequence[Any]]]:
    """The lifetime standings: rank, player, seasons, then points by division."""
    result = held.state.lifetime()
    divisions = sorted({d for line in result.standings for d in line.by_division})
    header = ["rank", "player", "name", "seasons", *(f"division_{d}" for d in divisions)]
    rows: list[Sequence[Any]] = [
        [
            line.rank,
            line.player,
            line.name,
            line.seasons,
            *(decimal_text(line.by_division.get(d, Fraction(0))) for d in divisions),
        ]
        for line in result.standings
    ]
    return header, rows


# What the log routes and the director's list use (the registry, ../formats.py, names it).
HELD = HeldResource(
    blp,
    OrganisationOut,
    organisation_read,
    standings_table,
    read_endpoint="league_organisations.OrganisationResource",
    status=organisation_status,
)
