"""Persistent strikes tournaments: create, seat rounds, enter results, close, drop, read;
and the day of the event: late entrants, no-shows re-seated, late corrections, a round's
seating and the standings as CSV or printable text.

Reads are public; every write needs ``Authorization: Bearer <director token>`` of that
tournament (401 without one, 403 with another tournament's).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from flask import url_for
from flask.views import MethodView

from ...engine.strikes import Ending
from ...engine.strikes.event import Entrant, Event, Settings
from ...engine.strikes.ledger import HeldEvent, StrikesLedger
from ...store import Held
from ..director_token import director_token
from ..held_blueprint import (
    HeldBlueprint,
    HeldResource,
    changes_of,
    created_answer,
    entered_answer,
    held_store,
    ledger,
)
from ..held_schemas import LateEntrantIn, NoShowsIn
from ..printable_tables import Table, TableFormatIn, table_format, tabular, tabular_doc
from .tool_schemas import MAX_FIELD, MAX_PLAN_SEATS, MAX_SEED, TableResultIn
from .tools import finishes_of, shape_scored
from .tournament_schemas import (
    CreatedOut,
    RoundOut,
    TableEnteredOut,
    TournamentIn,
    TournamentOut,
)

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


def shape_tournament(stored: Held[HeldEvent]) -> dict[str, Any]:
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


def shape_round(stored: Held[HeldEvent], number: int) -> dict[str, Any]:
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
    @blp.arguments(TableFormatIn, location="query")
    @blp.response(200, RoundOut)
    @blp.doc(**tabular_doc("The round's tables, byes and results", RoundOut))
    @blp.documents(404)
    def get(self, query: dict[str, Any], tournament_id: str, number: int) -> Any:
        """A round's tables, byes and results; its seating as CSV (`?format=csv` or
        `Accept: text/csv`) or as a printable list (`?format=text` or `Accept: text/plain`),
        one line a seat."""
        stored = held_store().read(strikes(), tournament_id)
        wanted = table_format(query)
        if wanted != "json":
            name = f"strikes-{stored.id}-round-{number}"
            return tabular(seating_table(stored, number), wanted, name)
        return shape_round(stored, number)


@blp.route(ROUND + "/reseat")
class Reseat(MethodView):
    @blp.arguments(NoShowsIn)
    @blp.response(200, RoundOut)
    @blp.writes()
    def post(self, body: dict[str, Any], tournament_id: str, number: int) -> Any:
        """No-shows: drop players who did not come to the open round and seat the round
        again for those who did, as its start would have (least-times-met, the same plan
        rules). Only before any result of the round is entered (409 after); undo puts the
        first seating and the players back."""
        stored, _ = held_store().write(
            strikes(),
            tournament_id,
            director_token(),
            lambda event: strikes().reseat(event, number, body["no_shows"]),
        )
        return shape_round(stored, number)


@blp.route(ROUND + "/tables/<int(min=1, max=100000):table>")
class TableResource(MethodView):
    @blp.arguments(TableResultIn)
    @blp.response(200, TableEnteredOut)
    @blp.writes()
    def put(self, body: dict[str, Any], tournament_id: str, number: int, table: int) -> Any:
        """Enter or correct a table's result (idempotent).

        The latest round's tables may be entered and corrected freely. A table of an
        earlier round may be corrected when that changes nobody's elimination and not the
        ending (else 409: undo back to it); the later rounds were seated from the old
        standings and stand as played, and `changes` (and the history) say what changed.
        A correction keeps the entry it replaces in the history.
        """
        finishes = finishes_of(body["results"])
        stored, entry = held_store().write(
            strikes(),
            tournament_id,
            director_token(),
            lambda event: strikes().enter_result(event, number, table, finishes),
        )
        return {**shape_table(stored.state, number, table), "changes": changes_of(entry)}


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


@blp.route("/<hex32:tournament_id>/players")
class Players(MethodView):
    @blp.arguments(LateEntrantIn)
    @blp.response(201, TournamentOut)
    @blp.writes()
    def post(self, body: dict[str, Any], tournament_id: str) -> Any:
        """A late entrant, between rounds (409 while a round is open or once the event is
        decided): they start with the most strikes of any player still in (0 before the
        first round), so joining late puts nobody behind them who played."""

        def enter(event: HeldEvent) -> Any:
            most = min(MAX_FIELD, MAX_PLAN_SEATS // event.settings.plans)
            return strikes().enter_late(event, body["id"], body.get("name"), most)

        stored, _ = held_store().write(strikes(), tournament_id, director_token(), enter)
        return entered_answer(stored, shape_tournament, "tournaments.Tournament")


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


def standings_table(stored: Held[HeldEvent]) -> tuple[list[str], list[Sequence[Any]]]:
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


def seating_table(stored: Held[HeldEvent], number: int) -> Table:
    """A round's seating to print or import: a line per seat (byes last), with the result
    once entered."""
    event = stored.state
    rnd = event.round(number)
    header = ["table", "group", "player", "name", "place", "score", "strikes"]
    rows: list[Sequence[Any]] = []
    for table, players in sorted(rnd.tables().items()):
        result = {s.player: s for s in rnd.results.get(table, [])}
        group = next(s.group for s in rnd.seats if s.table == table)
        for player in players:
            got = result.get(player)
            rows.append(
                [
                    table,
                    group,
                    player,
                    event.entrants[player].name,
                    got.place if got else None,
                    got.score if got else None,
                    got.strikes if got else None,
                ]
            )
    rows += [["bye", None, p, event.entrants[p].name, None, None, None] for p in rnd.byes()]
    status = "closed" if rnd.closed else "open"
    title = f"{stored.name or 'Strikes tournament'}: round {number} ({rnd.kind}), {status}"
    return Table(title, header, rows)


# What the log routes and the director's list use (the registry, ../formats.py, names it).
HELD = HeldResource(
    blp,
    TournamentOut,
    shape_tournament,
    standings_table,
    read_endpoint="tournaments.Tournament",
    status=lambda stored: stored.state.status(),
)
