"""Held Diagonal Race events: create, generate rounds, enter games, close, drop, read;
and the day of the event: late entrants, no-shows paired again, late corrections, a
round's pairings as CSV or a printable board list.

Reads are public; every write needs the event's director token
(``director_token.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Response, url_for
from flask.views import MethodView

from ...engine.diagonal.event import TIE_RULES
from ...engine.diagonal.ledger import RaceEvent, RaceLedger, Racer, RaceSettings
from ...store import Held
from ..director_token import director_token
from ..held_blueprint import (
    TOURNAMENT,
    HeldBlueprint,
    HeldResource,
    changes_of,
    created_answer,
    entered_answer,
    held_store,
    ledger,
)
from ..held_schemas import NoShowsIn, held_row
from ..printable_tables import Table, TableFormatIn, table_format, tabular, tabular_doc
from .schemas import (
    MAX_FIELD,
    RaceEventCreatedOut,
    RaceEventIn,
    RaceEventOut,
    RaceGameEnteredOut,
    RaceResultIn,
    RacerIn,
    RaceRoundOut,
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
    @blp.arguments(TableFormatIn, location="query")
    @blp.response(200, RaceRoundOut)
    @blp.doc(**tabular_doc("The round's games and results", RaceRoundOut))
    @blp.documents(404)
    def get(self, query: dict[str, Any], tournament_id: str, number: int) -> Any:
        """A round's games and results; the board list to pin up with `?format=text` or
        `Accept: text/plain`, and the games as CSV with `?format=csv` or `Accept: text/csv`."""
        held = held_store().read(race(), tournament_id)
        wanted = table_format(query)
        if wanted == "text":
            return Response(board_list(held, number), mimetype="text/plain")
        if wanted == "csv":
            name = f"diagonal-{held.id}-round-{number}"
            return tabular(pairing_table(held, number), wanted, name)
        return shape_round(held, number)


@blp.route(ROUND + "/reseat")
class Reseat(MethodView):
    @blp.arguments(NoShowsIn)
    @blp.response(200, RaceRoundOut)
    @blp.writes()
    def post(self, body: dict[str, Any], tournament_id: str, number: int) -> Any:
        """No-shows: drop players who did not come to the open round and pair the round
        again without them, as its start would have. Only before any result of the round
        is entered (409 after: enter their games as lost); undo puts the first pairing and
        the players back."""
        held, _ = held_store().write(
            race(),
            tournament_id,
            director_token(),
            lambda event: race().reseat(event, number, body["no_shows"]),
        )
        return shape_round(held, number)


@blp.route(ROUND + "/games/<int(min=1, max=100000):game>")
class Game(MethodView):
    @blp.arguments(RaceResultIn)
    @blp.response(200, RaceGameEnteredOut)
    @blp.writes()
    def put(self, body: dict[str, Any], tournament_id: str, number: int, game: int) -> Any:
        """Enter or correct a game's result (idempotent): the winner and the loser's
        pieces left. A correction keeps the entry it replaces in the history.

        A game of an earlier round may be corrected when that changes nobody's
        elimination and not the ending (else 409: undo back to it); the later rounds'
        pairings stand, and `changes` (and the history) say what changed."""
        held, entry = held_store().write(
            race(),
            tournament_id,
            director_token(),
            lambda event: race().enter_result(
                event, number, game, body["winner"], body["pieces_left"]
            ),
        )
        return {**shape_game(held.state, number, game), "changes": changes_of(entry)}


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


@blp.route(TOURNAMENT + "/players")
class Players(MethodView):
    @blp.arguments(RacerIn)
    @blp.response(201, RaceEventOut)
    @blp.writes()
    def post(self, body: dict[str, Any], tournament_id: str) -> Any:
        """A late entrant, between main rounds (409 while a round is open, once a playoff
        is due, or the event is over): with a rating when the event's players have one,
        else ranked last. They start with the most losses of any player still in (0 before
        the first round)."""
        racer = Racer(body["id"], body.get("name"), body.get("rating"))
        held, _ = held_store().write(
            race(),
            tournament_id,
            director_token(),
            lambda event: race().enter_late(event, racer, MAX_FIELD),
        )
        return entered_answer(held, shape_event, "diagonal_events.Event")


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


def pairing_table(held: Held[RaceEvent], number: int) -> Table:
    """A round's games to import: a line a game, with the result once entered."""
    shaped = shape_round(held, number)
    header = ["game", "player_a", "player_b", "rematch", "winner", "pieces_left"]
    rows: list[Sequence[Any]] = [
        [
            game["game"],
            *game["players"],
            game["rematch"],
            game["result"]["winner"] if game["result"] else None,
            game["result"]["pieces_left"] if game["result"] else None,
        ]
        for game in shaped["games"]
    ]
    title = f"{held.name or 'Diagonal Race'}: round {number}, {shaped['status']}"
    return Table(title, header, rows)


# What the log routes and the director's list use (the registry, ../formats.py, names it).
HELD = HeldResource(
    blp,
    RaceEventOut,
    shape_event,
    standings_table,
    read_endpoint="diagonal_events.Event",
    status=lambda held: held.state.status(),
)
