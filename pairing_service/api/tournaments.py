"""Persistent strikes tournaments: create, seat rounds, enter results, close, drop, read.

Reads are public; every write needs ``Authorization: Bearer <director token>`` of that
tournament (401 without one, 403 with another tournament's).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from http import HTTPStatus
from typing import Any, TypeVar

from flask import current_app, request, url_for
from flask.views import MethodView

from ..engine.strikes import Ending
from ..engine.strikes.event import Entrant, Event, Settings
from ..store import StoredTournament, TournamentStore
from .errors import MissingToken
from .parsing import StrictBlueprint
from .strikes import finishes_of, shape_scored
from .strikes_schemas import MAX_SEED, TableResultIn
from .tournament_schemas import CreatedOut, RoundOut, TableOut, TournamentIn, TournamentOut

F = TypeVar("F", bound=Callable[..., Any])

blp = StrictBlueprint(
    "tournaments",
    __name__,
    url_prefix="/v1/strikes/tournaments",
    description="Persistent strikes tournaments, run round by round.",
)

MAX_TOKEN_LENGTH = 200
BEARER: dict[str, list[str]] = {"BearerAuth": []}
ROUND = "/<hex32:tournament_id>/rounds/<int(min=1, max=100000):number>"
AUTH_DOC = {"security": [BEARER]}


def documents(*statuses: int) -> Callable[[F], F]:
    """Document the problem responses a route can give."""

    def decorate(view: F) -> F:
        for status in statuses:
            view = blp.alt_response(status, response=HTTPStatus(status).name)(view)
        return view

    return decorate


WRITE_ERRORS = (401, 403, 404, 409, 429)


def store() -> TournamentStore:
    found: TournamentStore = current_app.extensions["pairing_store"]
    return found


def director_token() -> str:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise MissingToken
    return token[: MAX_TOKEN_LENGTH + 1]


def shape_ending(event: Event, ending: Ending | None) -> dict[str, Any] | None:
    if ending is None:
        return None
    return {
        "finished": ending.finished,
        "winners": list(ending.winners),
        "rule": ending.rule,
        "reason": ending.reason,
        "tiebreak_game": event.tiebreak_available(),
    }


def shape_tournament(stored: StoredTournament) -> dict[str, Any]:
    event = stored.event
    settings = event.settings
    ending = shape_ending(event, event.ending())
    return {
        "id": stored.id,
        "name": stored.name,
        "game": settings.game,
        "threshold": settings.threshold,
        "two_player_games": settings.two_player_games,
        "strategy": settings.strategy,
        "plans": settings.plans,
        "seed": settings.seed,
        "created_at": stored.created_at,
        "revision": stored.revision,
        "status": event.status(),
        "current_round": event.latest.number if event.latest else None,
        "standings": [
            {
                "player": s.player,
                "name": s.name,
                "strikes": s.strikes,
                "strikes_exact": str(s.strikes),
                "games": s.games,
                "opponents_met": s.opponents_met,
                "status": s.status,
                "eliminated_after_round": s.eliminated_after_round,
                "dropped_before_round": s.dropped_before_round,
            }
            for s in event.standings()
        ],
        "ending": ending,
        "winners": ending["winners"] if ending and ending["finished"] else [],
    }


def shape_table(event: Event, number: int, table: int) -> dict[str, Any]:
    rnd = event.round(number)
    result = rnd.results.get(table)
    group = next(s.group for s in rnd.seats if s.table == table)
    return {
        "table": table,
        "group": group,
        "players": rnd.tables()[table],
        "result": shape_scored(result) if result is not None else None,
    }


def shape_round(stored: StoredTournament, number: int) -> dict[str, Any]:
    event = stored.event
    rnd = event.round(number)
    eliminated = [p for p, after in event.eliminated_after().items() if after == number]
    return {
        "tournament": stored.id,
        "round": rnd.number,
        "kind": rnd.kind,
        "status": "closed" if rnd.closed else "open",
        "tables": [shape_table(event, number, t) for t in sorted(rnd.tables())],
        "byes": rnd.byes(),
        "detrimental_points": rnd.detrimental_points,
        "eliminated": eliminated,
        "ending": shape_ending(event, event.ending_of_round(number)),
    }


@blp.route("")
class Tournaments(MethodView):
    @blp.arguments(TournamentIn)
    @blp.response(201, CreatedOut)
    def post(self, body: dict[str, Any]) -> Any:
        """Create a tournament; the answer carries the director token, once."""
        settings = Settings(
            game=body["game"],
            threshold=body["threshold"],
            two_player_games=body["two_player_games"],
            strategy=body["strategy"],
            plans=body["plans"],
            seed=body["seed"] if "seed" in body else secrets.randbelow(MAX_SEED),
        )
        entrants = [Entrant(p["id"], p.get("name")) for p in body["players"]]
        stored, token = store().create(settings, entrants, body.get("name"))
        location = url_for("tournaments.Tournament", tournament_id=stored.id)
        return dict(shape_tournament(stored), token=token), 201, {"Location": location}


@blp.route("/<hex32:tournament_id>")
class Tournament(MethodView):
    @blp.response(200, TournamentOut)
    @documents(404)
    def get(self, tournament_id: str) -> Any:
        """The tournament: settings, status, standings, and the winner(s) once decided."""
        return shape_tournament(store().get(tournament_id))


@blp.route("/<hex32:tournament_id>/rounds")
class Rounds(MethodView):
    @blp.response(201, RoundOut)
    @blp.doc(**AUTH_DOC)
    @documents(*WRITE_ERRORS)
    def post(self, tournament_id: str) -> Any:
        """Start the next round: its type, table plan and least-times-met seating.

        After an ending with two winners and 2-player games allowed, this starts their
        tiebreak game instead.
        """
        stored, number = store().start_round(tournament_id, director_token())
        location = url_for("tournaments.RoundResource", tournament_id=stored.id, number=number)
        return shape_round(stored, number), 201, {"Location": location}


@blp.route(ROUND)
class RoundResource(MethodView):
    @blp.response(200, RoundOut)
    @documents(404)
    def get(self, tournament_id: str, number: int) -> Any:
        """A round's tables, byes and results."""
        return shape_round(store().get(tournament_id), number)


@blp.route(ROUND + "/tables/<int(min=1, max=100000):table>")
class TableResource(MethodView):
    @blp.arguments(TableResultIn)
    @blp.response(200, TableOut)
    @blp.doc(**AUTH_DOC)
    @documents(*WRITE_ERRORS)
    def put(self, body: dict[str, Any], tournament_id: str, number: int, table: int) -> Any:
        """Enter or correct a table's result (idempotent).

        Allowed while the round is the latest one: open, or closed with no later round yet.
        """
        stored = store().enter_result(
            tournament_id, director_token(), number, table, finishes_of(body["results"])
        )
        return shape_table(stored.event, number, table)


@blp.route(ROUND + "/close")
class CloseRound(MethodView):
    @blp.response(200, RoundOut)
    @blp.doc(**AUTH_DOC)
    @documents(*WRITE_ERRORS)
    def post(self, tournament_id: str, number: int) -> Any:
        """Close a round: refused while a table has no result. Says who is out, and the
        ending when the event is decided."""
        stored = store().close_round(tournament_id, director_token(), number)
        return shape_round(stored, number)


@blp.route("/<hex32:tournament_id>/players/<player_id:player>/drop")
class DropPlayer(MethodView):
    @blp.response(200, TournamentOut)
    @blp.doc(**AUTH_DOC)
    @documents(*WRITE_ERRORS)
    def post(self, tournament_id: str, player: str) -> Any:
        """Drop a player between rounds; they get no further tables."""
        return shape_tournament(store().drop_player(tournament_id, director_token(), player))
