"""What every held format's resource module is built on: :class:`HeldBlueprint` (the write
rate limit applies to the writes of exactly these blueprints, ``ratelimit.py``), the app's
store and ledgers, a director's write (:func:`director_write`), the answers of a create and
of a late entry, :class:`HeldResource`, what the log routes and the director's list need of
the module, and :class:`RoundRoutes`, the routes of the formats run round by round."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any, Generic, Protocol, TypeVar

from flask import Response, current_app, request, url_for
from flask.views import MethodView
from marshmallow import Schema

from ...engine.errors import Conflict, FieldError, NotPermitted
from ...engine.event_log import DIRECTOR, Action, Entry, Ledger
from ...engine.round_ledger import RoundByRound, RoundLedger, late_for_scorekeepers
from ...store import Held, HeldStore, Scoring, WrongToken
from ..errors import problem
from ..parsing import StrictBlueprint
from .conditions import (
    HEADERS,
    IDEMPOTENCY_KEY,
    IF_MATCH,
    ROTATION_IDEMPOTENCY_KEY,
    WRITE_IDEMPOTENCY_KEY,
    idempotency_key_problem,
)
from .director_token import AUTH_DOC, director_token
from .entry_warnings import created_warnings, entered_warnings, late_entrant
from .printables import TableFormatIn, table_format, tabular_doc
from .requests import NoShows
from .round_clock import add_clock_routes
from .schemas import NoShowsIn
from .views import HeldView

F = TypeVar("F", bound=Callable[..., Any])
L = TypeVar("L", bound=Ledger[Any])
S = TypeVar("S")

TOURNAMENT = "/<hex32:tournament_id>"
ROUND = TOURNAMENT + "/rounds/<int(min=1, max=100000):number>"
WRITE_ERRORS = (401, 403, 404, 409, 412, 429)

Shape = Callable[[Held[Any]], dict[str, Any]]  # a format whose answers are built as dicts
PageOf = Callable[[Held[Any]], object]  # what a read schema dumps: a view, or such a dict
StandingsTable = Callable[[Held[Any]], tuple[list[str], list[Sequence[Any]]]]
Status = Callable[[Held[Any]], str]


class HeldBlueprint(StrictBlueprint):
    """The blueprint of a format the service holds: its writes are rate-limited."""

    has_log_routes = False  # set by log_routes.add_log_routes
    has_scorekeeper_routes = False  # set by scorekeepers.add_scorekeeper_routes

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.before_request(_checked_idempotency_key)
        self.before_request(_authorise_write)

    def route(self, rule: str, **options: Any) -> Callable[[Any], Any]:
        """flask-smorest's ``route``; a create (``POST`` on the blueprint's own path, a
        format's collection) documents the Idempotency-Key it takes."""
        register: Callable[[Any], Any] = super().route(rule, **options)
        if rule != "":
            return register

        def decorate(view: Any) -> Any:
            if hasattr(view, "post"):
                view.post = self.doc(**{HEADERS: [IDEMPOTENCY_KEY]})(view.post)
                view.post.__dict__[CREATES] = True  # counted per address (ratelimit.py)
            return register(view)

        return decorate

    def documents(self, *statuses: int) -> Callable[[F], F]:
        """Document the problem responses a route can give."""

        def decorate(view: F) -> F:
            for status in statuses:
                view = self.alt_response(status, response=HTTPStatus(status).name)(view)
            return view

        return decorate

    def writes(
        self, players: bool = False, rotation: bool = False, results: bool = False
    ) -> Callable[[F], F]:
        """Mark and document a write: the bearer token (checked before the body, see
        ``_authorise_write``), and the problems a write can give. ``players``: tokens
        other than the director's may write too (a league's players report games);
        ``rotation``: the token a rotation replaced may retry it, with the rotation's
        Idempotency-Key (``…/token``, which has no body and needs a key); ``results``: a
        scorekeeper's token may make it (a result of the round the path names, if their
        token names one). For players and rotations only a missing token is refused
        early; the store checks every token under its lock."""

        def decide_writer(view: F) -> F:
            writer = "results" if results else "others" if players or rotation else "director"
            view.__dict__[WRITER] = writer
            key = ROTATION_IDEMPOTENCY_KEY if rotation else WRITE_IDEMPOTENCY_KEY
            headers = [IF_MATCH, key]
            documented: F = self.doc(**AUTH_DOC, **{HEADERS: headers})(
                self.documents(*WRITE_ERRORS)(view)
            )
            return documented

        return decide_writer


WRITER = "held_writer"  # the mark ``writes`` leaves on a view; wrappers copy its __dict__
CREATES = "held_creates"  # the mark ``route`` leaves on a create


def _checked_idempotency_key() -> Response | None:
    """A malformed Idempotency-Key is a 400 naming it, before anything else is read."""
    wrong = idempotency_key_problem()
    return None if wrong is None else problem(400, wrong)


def _authorise_write() -> None:
    """Before a held write's body is validated: 401 without a token, 403 with another
    tournament's (404 when there is no such tournament), so an unauthenticated caller
    learns nothing about the body it sent."""
    view = current_app.view_functions.get(request.endpoint or "")
    method = getattr(getattr(view, "view_class", None), request.method.lower(), None)
    writer = getattr(method, WRITER, None)
    if writer is None:
        return
    token = director_token()
    arguments = request.view_args or {}
    tournament_id = arguments.get("tournament_id")
    if tournament_id is None:
        return
    if writer == "director":
        held_store().check_director(tournament_id, token)
    elif writer == "results":
        held_store().check_director(tournament_id, token, Scoring(arguments.get("number")))


def read_by_director(held: Held[Any]) -> bool:
    """Whether a read of ``held`` comes from its director: personal data (players'
    e-mail addresses) is answered only then. No token: a public read; another
    tournament's token: 403, as for a write (a client sending the wrong one wants to know)."""
    if not request.headers.get("Authorization"):
        return False
    token = director_token()
    if not any(row.id == held.id for _, row in held_store().held_by([token])):
        raise WrongToken(held.id)
    return True


def held_store() -> HeldStore:
    found: HeldStore = current_app.extensions["pairing_store"]
    return found


def ledger_of(fmt: str) -> Ledger[Any]:
    """The app's ledger of the format ``fmt`` (built once, with the rules loaded at
    start-up: ``formats.ledgers``)."""
    found: Ledger[Any] = current_app.extensions["pairing_ledgers"][fmt]
    return found


def ledger(kind: type[L]) -> L:
    """The app's ledger of this format."""
    found = ledger_of(kind.format)
    assert isinstance(found, kind)
    return found


def director_write(
    ledger: Ledger[S], tournament_id: str, decide: Callable[[S], Action | None]
) -> tuple[Held[S], Entry | None]:
    """A director's action on a tournament: the request's bearer token (401 without one),
    then the store's one transaction, which checks it (403) and gives ``decide`` the state
    (the engine's refusals: 404, 409, 422). The tournament after it, and the entry logged
    (None when the state already was what was asked)."""
    return held_store().write(ledger, tournament_id, director_token(), decide)


def result_write(
    ledger: Ledger[S],
    tournament_id: str,
    round_number: int | None,
    decide: Callable[[S], Action | None],
    late: Callable[[S], str | None] | None = None,
) -> tuple[Held[S], Entry | None]:
    """A result entered (of round ``round_number``; None: a write with no round): as
    :func:`director_write`, made with the director's token or a scorekeeper's, whom the
    log then names as its actor. ``late`` says why the result is no longer a
    scorekeeper's to enter or correct ("round 1 is closed"), or None while it is: a late
    correction is the director's (:func:`scorekeepers_result`)."""
    scoring = Scoring(round_number)

    def decide_as(state: S, actor: str) -> Action | None:
        if actor == DIRECTOR or late is None:
            return decide(state)
        return scorekeepers_result(state, decide, late(state), actor)

    return held_store().write_as(ledger, tournament_id, director_token(), decide_as, False, scoring)


def scorekeepers_result(
    state: S, decide: Callable[[S], Action | None], late: str | None, actor: str
) -> Action | None:
    """What a scorekeeper (``actor``) may do with a result: enter or correct it while its
    round is open (``late`` None); after (``late`` saying why), only send again what stands
    (a retry, answered as done), and anything else is refused 403 saying that a director
    must correct it: a late correction changes standings that later rounds were made on."""
    if late is None:
        return decide(state)
    try:
        already = decide(state) is None
    except (Conflict, FieldError):  # refused by the rules too: still not theirs to send
        already = False
    if already:
        return None
    raise NotPermitted(
        f"{late}: its results are corrected by a director, with the director token; "
        f"{actor}'s token enters results of open rounds only. Nothing was written"
    )


def round_closed(state: RoundByRound, number: int) -> str | None:
    """Why results of round ``number`` are no longer a scorekeeper's (the formats' rule:
    ``engine/round_ledger.py``), or None while the round is open."""
    return late_for_scorekeepers(state, number)


def optional_body(blueprint: StrictBlueprint, schema: type[Schema]) -> Any:
    """A body a route may go without: ``schema``'s load of it (strict JSON: a 400 or 415 as
    for every body; a 422 naming the field), or of {} when none is sent (every field of
    such a schema is optional)."""
    if not request.get_data(cache=True).strip():
        return schema().load({})
    return blueprint.ARGUMENTS_PARSER.parse(schema(), request, location="json")


def made(answer: object, endpoint: str, **values: Any) -> tuple[object, int, dict[str, str]]:
    """201 with ``answer``, and where to read what was made (``endpoint`` at ``values``)."""
    return answer, 201, {"Location": url_for(endpoint, **values)}


def created_answer(
    held: Held[Any], token: str, shape: Shape, endpoint: str, warnings: Sequence[str] = ()
) -> tuple[dict[str, Any], int, dict[str, str]]:
    """201 with the tournament, its token (once), the namesakes among the players it was
    created with (``entry_warnings.py``), and where to read it (for a format whose answers
    are built as dicts; a view carries its token and warnings: :class:`HeldView`)."""
    location = url_for(endpoint, tournament_id=held.id)
    answer = dict(shape(held), token=token, warnings=list(warnings))
    return answer, 201, {"Location": location}


def entered_answer(
    held: Held[Any], shape: Shape, endpoint: str, warnings: Sequence[str]
) -> tuple[dict[str, Any], int, dict[str, str]]:
    """201 with the tournament a late entrant has just joined, the namesakes they share
    (``entry_warnings.py``), and where to read it."""
    answer = dict(shape(held), warnings=list(warnings))
    return answer, 201, {"Location": url_for(endpoint, tournament_id=held.id)}


def changes_of(entry: Entry | None) -> list[str]:
    """What the action just logged says it changed (nothing, for most actions)."""
    return list(entry.data.get("changes", ())) if entry is not None else []


@dataclass(frozen=True)
class HeldResource:
    """A held format's resource module, as the log routes and the director's list use it."""

    blueprint: HeldBlueprint
    read_schema: type[Schema]  # what the tournament's own page answers
    shape: PageOf  # the tournament as read_schema reads it
    standings: StandingsTable  # printed by the export as CSV or text
    read_endpoint: str  # the tournament's own page, linked from the director's list
    status: Status  # where the tournament stands, in a word, for the director's list


# --- the formats run round by round ---------------------------------------------------------


class RoundEvent(RoundByRound, Protocol):
    """What the round routes read of a format's state."""

    def status(self) -> str:
        """registered, round_open, between_rounds or finished."""
        ...


E = TypeVar("E", bound=RoundEvent)
R = TypeVar("R", bound=RoundLedger[Any, Any])
# A request's body as its schema loads it: a typed object (the schema's post_load), whose
# type the format's method that takes it names.
Body = Any


def _event_name(body: Body) -> str | None:
    """The event's name a create's body gives (its typed load's ``name``)."""
    name: str | None = body.name
    return name


@dataclass(frozen=True)
class RouteDocs:
    """The words the OpenAPI document shows of the round routes: the routes together
    (``about``, their tag's description); what each route does, as its docstring would say
    it (the first paragraph its summary); and what a round's page holds (``round_answer``),
    to say that it comes as CSV or text too."""

    about: str
    create: str
    read: str
    start_round: str
    round: str
    round_answer: str
    reseat: str
    result: str
    close: str
    late_entry: str
    drop: str
    reinstate: str
    settings: str


def described(doc: str) -> Callable[[F], F]:
    """Give a view its description, as its own docstring would."""

    def describe(view: F) -> F:
        view.__doc__ = doc
        return view

    return describe


class RoundRoutes(ABC, Generic[E, R]):
    """Persistent tournaments run round by round: their routes, written once for strikes and
    Diagonal Race. Create, read, start the next round, read a round (JSON, CSV or text), seat
    it again without its no-shows, enter a result, close it, a late entrant, a drop, a
    dropped player reinstated, the settings changed before the first result.

    A format subclasses this with its words (:class:`RouteDocs`), blueprint, ledger,
    schemas, views and engine calls; :meth:`add_routes` adds the routes, in that order, to
    the blueprint made for it."""

    docs: RouteDocs
    name: str  # the blueprint's, and so its endpoints' prefix: "tournaments"
    url_prefix: str
    ledger_kind: type[R]
    view: type[HeldView[E]]  # the tournament as its page answers it
    read_out: type[Schema]  # the tournament's page, and the answer to a late entry or drop
    create_in: type[Schema]
    created_out: type[Schema]  # the create's answer: the page and the director token
    round_view: Callable[[Held[E], int], object]  # round n as round_out reads it (404)
    round_out: type[Schema]
    result_at: str  # where a round's result is entered: "tables/<int(...):table>"
    result_in: type[Schema]
    # the table or game whose result was entered, and what that changed (its `changes`)
    result_view: Callable[[Held[E], int, int, list[str]], object]
    result_out: type[Schema]
    entrant_in: type[Schema]
    settings_in: type[Schema]  # the settings a director may change before the first result
    # An optional body of the round start (the method a director chooses): None, none.
    start_in: type[Schema] | None = None
    # A round's usual length, the clock's when the director names none (round_clock.py).
    clock_minutes: int = 60

    def __init__(self) -> None:
        module, about = type(self).__module__, self.docs.about
        self.blueprint = HeldBlueprint(
            self.name, module, url_prefix=self.url_prefix, description=about
        )

    def ledger(self) -> R:
        """The app's ledger of the format."""
        return ledger(self.ledger_kind)

    @abstractmethod
    def created(self, body: Body) -> Action:
        """The creation the body asks for."""

    # Both ledgers start and reseat rounds alike, but RoundLedger does not declare it: the
    # format says which of its engine's calls it is.
    @abstractmethod
    def start_round(self, state: E) -> Action | None: ...

    def start_round_as(self, state: E, body: Body) -> Action | None:
        """The round start a body asks for (``start_in``); without one, ``start_round``."""
        return self.start_round(state)

    @abstractmethod
    def round_file(self, held: Held[E], number: int, wanted: str) -> Response:
        """Round ``number`` as CSV or text (``wanted``)."""

    @abstractmethod
    def reseat(self, state: E, number: int, no_shows: Sequence[str]) -> Action | None: ...

    @abstractmethod
    def enter_result(self, state: E, number: int, at: int, body: Body) -> Action | None:
        """The result of table or game ``at`` of round ``number``."""

    @abstractmethod
    def enter_late(self, state: E, body: Body) -> Action | None: ...

    @abstractmethod
    def change_settings(self, state: E, body: Body) -> Action | None:
        """The settings the body names changed (those it leaves out stay as they are)."""

    @abstractmethod
    def standings(self, held: Held[E]) -> tuple[list[str], list[Sequence[Any]]]:
        """The standings as a table, for the export."""

    def write(
        self, tournament_id: str, decide: Callable[[E], Action | None]
    ) -> tuple[Held[E], Entry | None]:
        return director_write(self.ledger(), tournament_id, decide)

    def add_routes(self) -> HeldResource:
        """Add the routes; what the log routes and the director's list need of the format."""
        blp, docs, routes = self.blueprint, self.docs, self
        page = f"{blp.name}.Tournament"

        @blp.route("")
        class Tournaments(MethodView):
            @blp.arguments(routes.create_in)
            @blp.response(201, routes.created_out)
            @described(docs.create)
            def post(self, body: Body) -> Any:
                created = routes.created(body)
                held, token = held_store().create(routes.ledger(), _event_name(body), created)
                answer = routes.view(held, token, created_warnings(created))
                return made(answer, page, tournament_id=held.id)

        @blp.route(TOURNAMENT)
        class Tournament(MethodView):
            @blp.response(200, routes.read_out)
            @blp.documents(404)
            @described(docs.read)
            def get(self, tournament_id: str) -> Any:
                return routes.view(held_store().read(routes.ledger(), tournament_id))

        start_doc: dict[str, Any] = {}
        if routes.start_in is not None:
            body_schema = routes.start_in
            start_doc["requestBody"] = {
                "required": False,
                "content": {"application/json": {"schema": body_schema}},
            }

        @blp.route(TOURNAMENT + "/rounds")
        class Rounds(MethodView):
            @blp.doc(**start_doc)
            @blp.response(201, routes.round_out)
            @blp.writes()
            @described(docs.start_round)
            def post(self, tournament_id: str) -> Any:
                body = None if routes.start_in is None else optional_body(blp, routes.start_in)
                held, _ = routes.write(tournament_id, lambda s: routes.start_round_as(s, body))
                latest = held.state.latest
                assert latest is not None  # the round just started
                started = routes.round_view(held, latest.number)
                at = f"{blp.name}.RoundResource"
                return made(started, at, tournament_id=held.id, number=latest.number)

        @blp.route(ROUND)
        class RoundResource(MethodView):
            @blp.arguments(TableFormatIn, location="query")
            @blp.response(200, routes.round_out)
            @blp.doc(**tabular_doc(docs.round_answer, routes.round_out))
            @blp.documents(404)
            @described(docs.round)
            def get(self, query: Body, tournament_id: str, number: int) -> Any:
                held = held_store().read(routes.ledger(), tournament_id)
                wanted = table_format(query)
                if wanted != "json":
                    return routes.round_file(held, number, wanted)
                return routes.round_view(held, number)

        @blp.route(ROUND + "/reseat")
        class Reseat(MethodView):
            @blp.arguments(NoShowsIn)
            @blp.response(200, routes.round_out)
            @blp.writes()
            @described(docs.reseat)
            def post(self, body: NoShows, tournament_id: str, number: int) -> Any:
                no_shows = body.players
                held, _ = routes.write(tournament_id, lambda s: routes.reseat(s, number, no_shows))
                return routes.round_view(held, number)

        @blp.route(f"{ROUND}/{routes.result_at}")
        class Result(MethodView):
            @blp.arguments(routes.result_in)
            @blp.response(200, routes.result_out)
            @blp.writes(results=True)
            @described(docs.result)
            def put(self, body: Body, tournament_id: str, number: int, **at: int) -> Any:
                (place,) = at.values()  # the table or game, as the path names it
                held, entry = result_write(
                    routes.ledger(),
                    tournament_id,
                    number,
                    lambda s: routes.enter_result(s, number, place, body),
                    late=lambda s: round_closed(s, number),
                )
                return routes.result_view(held, number, place, changes_of(entry))

        @blp.route(ROUND + "/close")
        class CloseRound(MethodView):
            @blp.response(200, routes.round_out)
            @blp.writes()
            @described(docs.close)
            def post(self, tournament_id: str, number: int) -> Any:
                held, _ = routes.write(
                    tournament_id, lambda s: routes.ledger().close_round(s, number)
                )
                return routes.round_view(held, number)

        @blp.route(TOURNAMENT + "/players")
        class Players(MethodView):
            @blp.arguments(routes.entrant_in)
            @blp.response(201, routes.read_out)
            @blp.writes()
            @described(docs.late_entry)
            def post(self, body: Body, tournament_id: str) -> Any:
                held, entry = routes.write(tournament_id, lambda s: routes.enter_late(s, body))
                warned = entered_warnings(held.state, late_entrant(entry))
                return made(routes.view(held, warnings=warned), page, tournament_id=held.id)

        @blp.route(TOURNAMENT + "/players/<player_id:player>/drop")
        class DropPlayer(MethodView):
            @blp.response(200, routes.read_out)
            @blp.writes()
            @described(docs.drop)
            def post(self, tournament_id: str, player: str) -> Any:
                held, _ = routes.write(tournament_id, lambda s: routes.ledger().drop(s, player))
                return routes.view(held)

        @blp.route(TOURNAMENT + "/players/<player_id:player>/reinstate")
        class ReinstatePlayer(MethodView):
            @blp.response(200, routes.read_out)
            @blp.writes()
            @described(docs.reinstate)
            def post(self, tournament_id: str, player: str) -> Any:
                held, _ = routes.write(
                    tournament_id, lambda s: routes.ledger().reinstate(s, player)
                )
                return routes.view(held)

        @blp.route(TOURNAMENT + "/settings")
        class Settings(MethodView):
            @blp.arguments(routes.settings_in)
            @blp.response(200, routes.read_out)
            @blp.writes()
            @described(docs.settings)
            def put(self, body: Body, tournament_id: str) -> Any:
                held, _ = routes.write(tournament_id, lambda s: routes.change_settings(s, body))
                return routes.view(held)

        add_clock_routes(self)
        return HeldResource(
            blp,
            self.read_out,
            self.view,
            self.standings,
            read_endpoint=page,
            status=lambda held: held.state.status(),
        )
