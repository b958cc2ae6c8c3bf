"""Held Diagonal Race events: create, generate rounds, enter games, close, drop, read.

Reads are public; every write needs the event's director token (``held.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Response, url_for
from flask.views import MethodView

from ..engine.diagonal.event import TIE_RULES
from ..engine.diagonal.held import RaceEvent, RaceLedger, Racer, RaceSettings
from ..store import Held
from .common import prefers
from .diagonal_schemas import (
    RaceEventCreatedOut,
    RaceEventIn,
    RaceEventOut,
    RaceGameOut,
    RaceResultIn,
    RaceRoundOut,
)
from .held import (
    TOURNAMENT,
    HeldBlueprint,
    add_log_routes,
    created_answer,
    director_token,
    held_row,
    held_store,
    ledger,
)

blp = HeldBlueprint(
    "diagonal_events",
    __name__,
    url_prefix="/v1/diagonal/events",
    description="Held Diagonal Race events, run round by round.",
)

ROUND = TOURNAMENT + "/rounds/<int(min=1, max=100000):number>"
TIEBREAKS = (
    "Two losses eliminate; the last player left wins. When everyone left goes out in the "
    f"same round: {', then '.join(TIE_RULES)}; still level, playoff rounds between the "
    "tied players."
)
PLAIN_TEXT = {
    "responses": {
        "200": {
            "description": "The round (JSON), or its board list as plain text.",
            "content": {"text/plain": {"schema": {"type": "string"}}},
        }
    }
}


def race() -> RaceLedger:
    return ledger(RaceLedger)


def shape_ending(event: RaceEvent) -> dict[str, Any] | None:
    ending = event.ending()
    if ending is None:
        return None
    return {
        "finished": ending.finished,
        "winners": list(ending.winners),
        "playoff": list(ending.playoff),
        "reason": ending.reason,
    }


def shape_event(held: Held[RaceEvent]) -> dict[str, Any]:
    event = held.state
    ending = shape_ending(event)
    return {
        **held_row(held),
        "first_round_opponents": event.settings.first_round_opponents,
        "opponents": event.settings.opponents,
        "status": event.status(),
        "current_round": event.latest.number if event.latest else None,
        "standings": [
            {
                "player": s.player,
                "name": s.name,
                "rating": s.rating,
                "wins": s.wins,
                "losses": s.losses,
                "games": s.games,
                "pieces_left": s.pieces_left,
                "opponents": list(s.opponents),
                "status": s.status,
                "eliminated_after_round": s.eliminated_after_round,
                "dropped_before_round": s.dropped_before_round,
            }
            for s in event.standings()
        ],
        "ending": ending,
        "winners": ending["winners"] if ending and ending["finished"] else [],
        "tiebreaks": TIEBREAKS,
    }


def shape_game(event: RaceEvent, number: int, game: int) -> dict[str, Any]:
    rnd = event.round(number)
    a, b = rnd.game(game)
    result = rnd.results.get(game)
    return {
        "game": game,
        "players": [a, b],
        "rematch": event.rematch(number, game),
        "result": None
        if result is None
        else {"winner": result.winner, "pieces_left": result.pieces_left},
    }


def shape_round(held: Held[RaceEvent], number: int) -> dict[str, Any]:
    event = held.state
    rnd = event.round(number)
    return {
        "event": held.id,
        "round": number,
        "playoff": rnd.playoff,
        "status": "closed" if rnd.closed else "open",
        "opponents": rnd.opponents,
        "step": rnd.step,
        "rematches": rnd.rematches,
        "games": [shape_game(event, number, g) for g in range(1, len(rnd.games) + 1)],
        "waiting": rnd.waiting(),
        "eliminated": event.eliminated_in(number),
        "ending": shape_ending(event) if rnd is event.latest and rnd.closed else None,
    }


def board_list(held: Held[RaceEvent], number: int) -> str:
    """The round as a director pins it up: one line a game."""
    event = held.state
    shaped = shape_round(held, number)

    def who(player: str) -> str:
        name = event.racers[player].name
        return f"{name} ({player})" if name else player

    kind = "playoff" if shaped["playoff"] else f"{shaped['opponents']} games each"
    title = f"{held.name or 'Diagonal Race'}: round {number} ({kind}), {shaped['status']}"
    lines = [title, ""]
    for game in shaped["games"]:
        a, b = game["players"]
        result = game["result"]
        played = f"{result['winner']} won, {result['pieces_left']} pieces left" if result else "-"
        rematch = "  (rematch)" if game["rematch"] else ""
        lines.append(f"Game {game['game']:>3}  {who(a)} v {who(b)}  {played}{rematch}")
    if shaped["eliminated"]:
        lines += ["", "Out after this round: " + ", ".join(shaped["eliminated"])]
    return "\n".join(lines) + "\n"


@blp.route("")
class Events(MethodView):
    @blp.arguments(RaceEventIn)
    @blp.response(201, RaceEventCreatedOut)
    def post(self, body: dict[str, Any]) -> Any:
        """Create an event from players with ratings (or in rating order); the answer
        carries the director token, once."""
        settings = RaceSettings(body["first_round_opponents"], body["opponents"])
        racers = [Racer(p["id"], p.get("name"), p.get("rating")) for p in body["players"]]
        created = race().created(settings, racers)
        held, token = held_store().create(race(), body.get("name"), created)
        return created_answer(held, token, shape_event, "diagonal_events.Event")


@blp.route(TOURNAMENT)
class Event(MethodView):
    @blp.response(200, RaceEventOut)
    @blp.documents(404)
    def get(self, tournament_id: str) -> Any:
        """The event: status, standings (losses, games, opponents), and the winner."""
        return shape_event(held_store().read(race(), tournament_id))


@blp.route(TOURNAMENT + "/rounds")
class Rounds(MethodView):
    @blp.response(201, RaceRoundOut)
    @blp.writes()
    def post(self, tournament_id: str) -> Any:
        """Generate the next round: four opponents each in the first, two after, in the
        diagonal pattern by rating, avoiding rematches; a playoff round when the seed
        asks for one."""
        held, _ = held_store().write(race(), tournament_id, director_token(), race().start_round)
        number = len(held.state.rounds)
        location = url_for("diagonal_events.RoundResource", tournament_id=held.id, number=number)
        return shape_round(held, number), 201, {"Location": location}


@blp.route(ROUND)
class RoundResource(MethodView):
    @blp.response(200, RaceRoundOut)
    @blp.doc(**PLAIN_TEXT)
    @blp.documents(404)
    def get(self, tournament_id: str, number: int) -> Any:
        """A round's games and results; `Accept: text/plain` gives the board list."""
        held = held_store().read(race(), tournament_id)
        if prefers("text/plain"):
            return Response(board_list(held, number), mimetype="text/plain")
        return shape_round(held, number)


@blp.route(ROUND + "/games/<int(min=1, max=100000):game>")
class Game(MethodView):
    @blp.arguments(RaceResultIn)
    @blp.response(200, RaceGameOut)
    @blp.writes()
    def put(self, body: dict[str, Any], tournament_id: str, number: int, game: int) -> Any:
        """Enter or correct a game's result (idempotent): the winner and the loser's
        pieces left. A correction keeps the entry it replaces in the history."""
        held, _ = held_store().write(
            race(),
            tournament_id,
            director_token(),
            lambda event: race().enter_result(
                event, number, game, body["winner"], body["pieces_left"]
            ),
        )
        return shape_game(held.state, number, game)


@blp.route(ROUND + "/close")
class CloseRound(MethodView):
    @blp.response(200, RaceRoundOut)
    @blp.writes()
    def post(self, tournament_id: str, number: int) -> Any:
        """Close a round once every game has a result: who is out, and the ending."""
        held, _ = held_store().write(
            race(), tournament_id, director_token(), lambda e: race().close_round(e, number)
        )
        return shape_round(held, number)


@blp.route(TOURNAMENT + "/players/<player_id:player>/drop")
class DropPlayer(MethodView):
    @blp.response(200, RaceEventOut)
    @blp.writes()
    def post(self, tournament_id: str, player: str) -> Any:
        """Drop a player between rounds; their games so far still count."""
        held, _ = held_store().write(
            race(), tournament_id, director_token(), lambda e: race().drop(e, player)
        )
        return shape_event(held)


def standings_table(held: Held[RaceEvent]) -> tuple[list[str], list[Sequence[Any]]]:
    rows = shape_event(held)["standings"]
    header = [
        "player",
        "name",
        "rating",
        "wins",
        "losses",
        "games",
        "pieces_left",
        "status",
        "eliminated_after_round",
        "dropped_before_round",
    ]
    return header, [[row[column] for column in header] for row in rows]


add_log_routes(blp, RaceLedger, RaceEventOut, shape_event, standings_table)
