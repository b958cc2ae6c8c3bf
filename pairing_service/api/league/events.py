"""Held Meeple League organisations: seasons, sign-ups, formation, reports, tables, letters;
and the day of the event: a closed season's game corrected, a league's games and seats as
CSV or printable text.

Reads are public. The organiser's writes need the organisation's token
(``director_token.py``); a player reports a game they played in with their own reporting
token, answered once to the organiser when the season is formed (and carried by the link
to their report page in their letter: ``pages.py``).

Players are people across seasons: ``…/players`` is the organisation's record of each
(name; the e-mail address only for the director; the seasons played), which a sign-up by
id alone reuses and the organiser edits; ``…/signups/import`` signs a season up from CSV.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Response, request, url_for
from flask.views import MethodView

from ...engine.errors import Conflict, FieldError
from ...engine.league.ledger import LeagueLedger
from ...engine.league.letters import letter
from ...engine.league.organisation import Organisation
from ...engine.league.season import SignUp
from ...engine.league.table import Result
from ...engine.names import namesake_warnings
from ...store import Held
from ...store.tokens import hash_token
from ..common import as_read_by, prefers
from ..errors import problem
from ..held.blueprint import (
    TOURNAMENT,
    HeldBlueprint,
    HeldResource,
    changes_of,
    created_answer,
    held_store,
    ledger,
    read_by_director,
)
from ..held.director_token import director_token
from ..held.printables import table_format, tabular, tabular_doc
from ..public_url import link_warning
from .letters import letters_of, report_page_url, send_letters
from .reporting_tokens import REISSUE_NEEDS_A_KEY, new_salt, reporting_token, shown_tokens
from .schemas import (
    FormedOut,
    GameReportedOut,
    GameReportIn,
    HeldLeagueOut,
    LeagueFormatIn,
    LettersOut,
    NewOrganisation,
    NewSeason,
    OrganisationCreatedOut,
    OrganisationIn,
    OrganisationOut,
    PlayerEdit,
    PlayerEditIn,
    PlayerOut,
    PlayersOut,
    ReissuedTokenOut,
    SeasonIn,
    SeasonOut,
    SeasonSettingsChange,
    SeasonSettingsIn,
    SignUpsIn,
)
from .signups_csv import CsvRefused, at_line, signup_rows
from .tables import games_table, organisation_status, standings_table
from .tables import standings_rows as standings_rows  # pages.py reads it here
from .tool_schemas import LifetimeOut
from .views import (
    FormedSeason,
    HeldSeason,
    LeaguePage,
    Players,
    PlayerView,
    ReissuedToken,
    ReportedGame,
    SeasonLetters,
)

blp = HeldBlueprint(
    "league_organisations",
    __name__,
    url_prefix="/v1/league/organisations",
    description="Held Meeple League organisations: every season, from sign-ups to lifetime "
    "standings.",
)

SEASON_IN = SeasonIn()
SEASON = TOURNAMENT + "/seasons/<int(min=1, max=10000):number>"
LEAGUE = SEASON + "/leagues/<league_name:league>"


def leagues() -> LeagueLedger:
    return ledger(LeagueLedger)


def organisation_read(held: Held[Organisation]) -> dict[str, Any]:
    """The organisation as its own page reads it, for the answers built on
    ``HeldResource.shape``."""
    return as_read_by(OrganisationOut(), held)


@blp.route("")
class Organisations(MethodView):
    @blp.arguments(OrganisationIn)
    @blp.response(201, OrganisationCreatedOut)
    def post(self, body: NewOrganisation) -> Any:
        """Create an organisation (one game); the answer carries the organiser's token, once.
        `short_games`: how its seasons record a game with a seat empty (default: the
        absentee is reported as having dropped out)."""
        created = leagues().created(body.code, body.short_games)
        held, token = held_store().create(leagues(), body.name, created)
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


def new_season() -> NewSeason:
    """A new season's body, which the route may go without: the defaults when none is sent,
    else its load (strict JSON: a 400 or 415 as for every body; a 422 naming the field)."""
    if not request.get_data(cache=True).strip():
        return NewSeason()
    loaded: NewSeason = blp.ARGUMENTS_PARSER.parse(SEASON_IN, request, location="json")
    return loaded


@blp.route(TOURNAMENT + "/seasons")
class Seasons(MethodView):
    @blp.doc(
        requestBody={
            "required": False,
            "content": {"application/json": {"schema": SeasonIn}},
        }
    )
    @blp.response(201, SeasonOut)
    @blp.writes()
    def post(self, tournament_id: str) -> Any:
        """Open the next season's sign-ups (the previous season must be closed). An
        optional body sets the season's own `short_games` (else the organisation's)."""
        short = new_season().short_games
        held, _ = held_store().write(
            leagues(),
            tournament_id,
            director_token(),
            lambda org: leagues().open_season(org, short),
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


@blp.route(SEASON + "/settings")
class SeasonSettings(MethodView):
    @blp.arguments(SeasonSettingsIn)
    @blp.response(200, SeasonOut)
    @blp.writes()
    def put(self, body: SeasonSettingsChange, tournament_id: str, number: int) -> Any:
        """Set how the season records a game with a seat empty (`short_games`), until
        its first result (409 after it)."""
        short = body.short_games
        held, _ = held_store().write(
            leagues(),
            tournament_id,
            director_token(),
            lambda org: leagues().set_short_games(org, number, short),
        )
        return HeldSeason.of(held, number)


@blp.route(SEASON + "/signups")
class SignUps(MethodView):
    @blp.arguments(SignUpsIn)
    @blp.response(200, SeasonOut)
    @blp.writes()
    def post(self, players: tuple[SignUp, ...], tournament_id: str, number: int) -> Any:
        """Sign players up, in sign-up order (refused once the season is formed). A
        returner may sign up by id alone: the organisation's record of them (name,
        e-mail address) carries over; a name or address given updates the record."""
        held, _ = held_store().write(
            leagues(),
            tournament_id,
            director_token(),
            lambda org: leagues().sign_up(org, number, players),
        )
        return signed_up(held, number, players)


def signed_up(
    held: Held[Organisation], number: int, players: Sequence[SignUp], notes: Sequence[str] = ()
) -> HeldSeason:
    """The season after a sign-up, warning of names the new sign-ups share (with anyone
    signed up this season) and of what reading their file had to guess."""
    names = HeldSeason.of(held, number).names.items()
    shared = namesake_warnings(names, new=[p.player for p in players])
    return HeldSeason.of(held, number, [*notes, *shared])


@blp.route(SEASON + "/form")
class Form(MethodView):
    @blp.response(200, FormedOut)
    @blp.writes()
    def post(self, tournament_id: str, number: int) -> Any:
        """Form the season's leagues by the seed's Steps 1-7 from the service's own record
        of the previous seasons, with their schedules. Answers each player's reporting
        token, once; sends each player their letter when SMTP is configured. Each token
        is derived from the director token, so that `GET …/letters` with it shows the
        letters with the tokens filled in again (`reporting_tokens.py`)."""
        director, salt = director_token(), new_salt()

        def form(org: Organisation) -> Any:
            made = {
                p: reporting_token(director, tournament_id, number, p, salt)
                for p in org.season(number).signups
            }
            hashes = {p: hash_token(t) for p, t in made.items()}
            return leagues().form(org, number, hashes, salt)

        held, _ = held_store().write(leagues(), tournament_id, director, form)
        # A retry (the same Idempotency-Key) forms nothing again and answers the same tokens.
        tokens = shown_tokens(held.state, held.id, number, director)
        sent, not_sent = send_letters(held, held.state.season(number), tokens)
        return FormedSeason(
            **vars(HeldSeason.of(held, number)),
            reporting_tokens=list(tokens.items()),
            letters_sent=sent,
            letters_not_sent=not_sent,
            link_warning=link_warning(),
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
        self, results: tuple[Result, ...], tournament_id: str, number: int, league: str, game: int
    ) -> Any:
        """Report a game: every player's score and finishing position. With a player's
        reporting token, only a game that player is in, once (a different second report
        is a 409); with the organiser's token, any game, and a correction keeps the
        report it replaces in the history.

        The organiser may also correct a game of a closed season when that changes no
        league's finishing order (else 409: undo back to the close); the season's points
        and the lifetime standings follow, and `changes` (and the history) say what
        changed."""
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
        what to do next, how to report), for a mail merge. `Accept: text/plain`: one text.
        With the organisation's director token (403 with another), each player's e-mail
        address and their reporting token filled in in their link; without it, `email`
        is null and the token a placeholder. `link_warning`: why the links would not
        open on players' phones (null when they would)."""
        held = held_store().read(leagues(), tournament_id)
        letters = letters_of(held, number, read_by_director(held))
        if prefers("text/plain"):
            rule = "\n" + "-" * 72 + "\n\n"
            return Response(rule.join(each.text for each in letters), mimetype="text/plain")
        return SeasonLetters(number, letters, link_warning())


@blp.route(SEASON + "/players/<player_id:player>/token")
class ReportingTokenResource(MethodView):
    @blp.response(200, ReissuedTokenOut)
    @blp.writes()
    @blp.documents(400)
    def post(self, tournament_id: str, number: int, player: str) -> Any:
        """Reissue one player's reporting token (the organiser): their old token stops
        working at once; the answer carries the new one and the player's letter with it.
        For a lost letter, or a token someone else may have seen. The history says a
        token was reissued, never which.

        An `Idempotency-Key` is required (400 without one, nothing replaced): the same
        request with the same key answers the same new token, replacing nothing again.
        The season must be running (409 before its formation or after its close)."""
        director, key = director_token(), request.headers.get("Idempotency-Key")
        if key is None:
            held_store().check_director(tournament_id, director)  # 404 and 403 first
            return problem(400, REISSUE_NEEDS_A_KEY)
        salt = new_salt()

        def reissue(org: Organisation) -> Any:
            token = reporting_token(director, tournament_id, number, player, salt)
            return leagues().reissue_token(org, number, player, hash_token(token), salt)

        held, entry = held_store().write(leagues(), tournament_id, director, reissue)
        assert entry is not None  # a reissue always appends (or is this key's retry)
        made_with = entry.data["salt"]
        assert isinstance(made_with, str)  # the store answers this key's own entry only
        if held.state.season(number).salts.get(player) != made_with:
            raise Conflict(
                f"the token this Idempotency-Key issued to {player} was reissued since: "
                "it no longer works (send a new key for a new token)"
            )
        token = reporting_token(director, held.id, number, player, made_with)
        url = report_page_url(held, number)
        text = letter(held.state, number, player, url, token)
        return ReissuedToken(player, token, text, link_warning())


@blp.route(TOURNAMENT + "/players")
class PlayersResource(MethodView):
    @blp.response(200, PlayersOut)
    @blp.documents(403, 404)
    def get(self, tournament_id: str) -> Any:
        """Every player of the organisation, in order of their first sign-up: id, display
        name, the seasons played (league, division, and once closed place and league
        points). The e-mail address only with the organisation's director token (null
        without it; another token: 403)."""
        held = held_store().read(leagues(), tournament_id)
        director = read_by_director(held)
        org = held.state
        return Players([PlayerView.of(org, p, director) for p in org.players])


@blp.route(TOURNAMENT + "/players/<player_id:player>")
class PlayerResource(MethodView):
    @blp.response(200, PlayerOut)
    @blp.documents(403, 404)
    def get(self, tournament_id: str, player: str) -> Any:
        """A player's record: name, seasons played; the e-mail address only with the
        organisation's director token."""
        held = held_store().read(leagues(), tournament_id)
        return PlayerView.of(held.state, player, read_by_director(held))

    @blp.arguments(PlayerEditIn)
    @blp.response(200, PlayerOut)
    @blp.writes()
    def put(self, edit: PlayerEdit, tournament_id: str, player: str) -> Any:
        """Edit a player's record (the organiser): the `name` and `email` sent replace the
        record's (null clears one; a field not sent stays). Logged, so it can be undone.
        The new address is the one the next letters go to; the new name shows in every
        season's tables (a later sign-up's name replaces it from that season on)."""

        def edited(org: Organisation) -> Any:
            record = org.record(player)
            name, email = edit.applied(record.name, record.email)
            return leagues().edit_player(org, player, name, email)

        held, _ = held_store().write(leagues(), tournament_id, director_token(), edited)
        return PlayerView.of(held.state, player, director=True)


@blp.route(SEASON + "/signups/import")
class SignUpsImport(MethodView):
    @blp.doc(
        requestBody={
            "required": True,
            "content": {
                "text/csv": {
                    "schema": {"type": "string"},
                    "example": "id,name,email\nann,Ann Lee,ann@club.example\nbob,,\n",
                }
            },
        }
    )
    @blp.response(200, SeasonOut)
    @blp.writes()
    @blp.documents(400, 415, 422)
    def post(self, tournament_id: str, number: int) -> Any:
        """Sign players up from a CSV file (`Content-Type: text/csv`): a header line
        naming the columns `id` (required), `name`, `email`, `laurels` (any order), then
        a player a line, in sign-up order. An empty cell is a cell not given (a returner's
        record carries over). All or nothing: any line at fault refuses the whole file
        (422; each error's `pointer` is `/lines/<line number in the file>/<column>`)."""
        try:
            read = signup_rows(request)
        except CsvRefused as refused:
            return refused.answer()
        players = [signup for _, signup in read.rows]
        try:
            held, _ = held_store().write(
                leagues(),
                tournament_id,
                director_token(),
                lambda org: leagues().sign_up(org, number, players),
            )
        except FieldError as refused:
            return at_line(refused, [line for line, _ in read.rows]).answer()
        return signed_up(held, number, players, read.notes)


# What the log routes and the director's list use (the registry, ../formats.py, names it).
HELD = HeldResource(
    blp,
    OrganisationOut,
    organisation_read,
    standings_table,
    read_endpoint="league_organisations.OrganisationResource",
    status=organisation_status,
)
