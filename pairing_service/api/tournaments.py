"""Persistent strikes tournaments: create, seat rounds, enter results, close, drop, read.

Reads are public; every write needs ``Authorization: Bearer <director token>`` of that
tournament (401 without one, 403 with another tournament's).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from flask import url_for
from flask.views import MethodView

from ..engine.strikes import Ending
from ..engine.strikes.event import Entrant, Event, Settings
from ..engine.strikes.held import StrikesLedger
from ..store import Held
from .held import (
    HeldBlueprint,
    add_log_routes,
    created_answer,
    director_token,
    held_store,
    ledger,
)
from .strikes import finishes_of, shape_scored
from .strikes_schemas import MAX_SEED, TableResultIn
from .tournament_schemas import CreatedOut, RoundOut, TableOut, TournamentIn, TournamentOut

blp = HeldBlueprint(
    "tournaments",
    __name__,
    url_prefix="/v1/strikes/tournaments",
    description="Persistent strikes tournaments, run round by round.",
)

ROUND = "/<hex32:tournament_id>/rounds/<int(min=1, max=100000):number>"


def strikes() -> StrikesLedger:
    return ledger(StrikesLedger)


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


def shape_tournament(stored: Held[Event]) -> dict[str, Any]:
    event = stored.state
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


def shape_round(stored: Held[Event], number: int) -> dict[str, Any]:
    event = stored.state
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
        created = strikes().created(settings, entrants)
        stored, token = held_store().create(strikes(), body.get("name"), created)
        return created_answer(stored, token, shape_tournament, "tournaments.Tournament")


@blp.route("/<hex32:tournament_id>")
class Tournament(MethodView):
    @blp.response(200, TournamentOut)
    @blp.documents(404)
    def get(self, tournament_id: str) -> Any:
        """The tournament: settings, status, standings, and the winner(s) once decided."""
        return shape_tournament(held_store().read(strikes(), tournament_id))


@blp.route("/<hex32:tournament_id>/rounds")
class Rounds(MethodView):
    @blp.response(201, RoundOut)
    @blp.writes()
    def post(self, tournament_id: str) -> Any:
        """Start the next round: its type, table plan and least-times-met seating.

        After an ending with two winners and 2-player games allowed, this starts their
        tiebreak game instead.
        """
        stored, _ = held_store().write(
            strikes(), tournament_id, director_token(), strikes().start_round
        )
        latest = stored.state.latest
        assert latest is not None  # the round just started
        number = latest.number
        location = url_for("tournaments.RoundResource", tournament_id=stored.id, number=number)
        return shape_round(stored, number), 201, {"Location": location}


@blp.route(ROUND)
class RoundResource(MethodView):
    @blp.response(200, RoundOut)
    @blp.documents(404)
    def get(self, tournament_id: str, number: int) -> Any:
        """A round's tables, byes and results."""
        return shape_round(held_store().read(strikes(), tournament_id), number)


@blp.route(ROUND + "/tables/<int(min=1, max=100000):table>")
class TableResource(MethodView):
    @blp.arguments(TableResultIn)
    @blp.response(200, TableOut)
    @blp.writes()
    def put(self, body: dict[str, Any], tournament_id: str, number: int, table: int) -> Any:
        """Enter or correct a table's result (idempotent).

        Allowed while the round is the latest one: open, or closed with no later round yet.
        A correction keeps the entry it replaces in the history.
        """
        finishes = finishes_of(body["results"])
        stored, _ = held_store().write(
            strikes(),
            tournament_id,
            director_token(),
            lambda event: strikes().enter_result(event, number, table, finishes),
        )
        return shape_table(stored.state, number, table)


@blp.route(ROUND + "/close")
class CloseRound(MethodView):
    @blp.response(200, RoundOut)
    @blp.writes()
    def post(self, tournament_id: str, number: int) -> Any:
        """Close a round: refused while a table has no result. Says who is out, and the
        ending when the event is decided."""
        stored, _ = held_store().write(
            strikes(),
            tournament_id,
            director_token(),
            lambda event: strikes().close_round(event, number),
        )
        return shape_round(stored, number)


@blp.route("/<hex32:tournament_id>/players/<player_id:player>/drop")
class DropPlayer(MethodView):
    @blp.response(200, TournamentOut)
    @blp.writes()
    def post(self, tournament_id: str, player: str) -> Any:
        """Drop a player between rounds; they get no further tables."""
        stored, _ = held_store().write(
            strikes(),
            tournament_id,
            director_token(),
            lambda event: strikes().drop(event, player),
        )
        return shape_tournament(stored)


def standings_table(stored: Held[Event]) -> tuple[list[str], list[Sequence[Any]]]:
    header = [
        "player",
        "name",
        "strikes",
        "games",
        "opponents_met",
        "status",
        "eliminated_after_round",
        "dropped_before_round",
    ]
    rows: list[Sequence[Any]] = [
        [
            s.player,
            s.name,
            str(s.strikes),
            s.games,
            s.opponents_met,
            s.status,
            s.eliminated_after_round,
            s.dropped_before_round,
        ]
        for s in stored.state.standings()
    ]
    return header, rows


add_log_routes(blp, StrikesLedger, TournamentOut, shape_tournament, standings_table)
