"""A toy held format, made as ``docs/architecture.md`` ("Add a format") says a format is
added: a director (or a scorekeeper) counts points for players. Each numbered part is that
walk-through's step; ``tests/api/test_toy_format.py`` serves it from its registry entry
(:data:`TOY`) alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask.views import MethodView
from marshmallow import Schema, fields, post_load, validate

from pairing_service.api.common import player_id
from pairing_service.api.formats import Format
from pairing_service.api.held.backup import FormatBackup, Request, named_in
from pairing_service.api.held.blueprint import (
    TOURNAMENT,
    HeldBlueprint,
    HeldResource,
    created_answer,
    held_store,
    ledger,
    result_write,
)
from pairing_service.api.held.desk import DeskPage
from pairing_service.api.held.schemas import HeldOut, TokenOut, event_name, held_row
from pairing_service.engine.errors import NotFound
from pairing_service.engine.event_codec import LogEvent
from pairing_service.engine.event_log import Action, Creation, Entry, Ledger, format_events
from pairing_service.store import Held
from pairing_service.store.backup import Replayer

# --- 1. the rules: engine/<format>/ (log_events.py and ledger.py) ---------------------------


@dataclass
class Tally:
    points: dict[str, int]


@dataclass(frozen=True)
class ToyCreated(Creation):
    players: tuple[str, ...]


@dataclass(frozen=True)
class PointScored(LogEvent):
    logged_as = "point"
    player: str


class ToyLedger(Ledger[Tally]):
    format = "toy"
    events = format_events("a toy log", ToyCreated, PointScored)

    def created(self, players: list[str]) -> Action:
        return Action.of(ToyCreated(tuple(players)))

    def point(self, state: Tally, player: str) -> Action:
        if player not in state.points:
            raise NotFound(f"no player {player!r}")
        return Action.of(PointScored(player))

    def start(self, created: Entry) -> Tally:
        return Tally({player: 0 for player in created.data["players"]})

    def _apply_event(self, state: Tally, event: LogEvent, actor: str) -> None:
        assert isinstance(event, PointScored)
        state.points[event.player] += 1

    def clone(self, state: Tally) -> Tally:
        return Tally(dict(state.points))

    def _describe_event(self, event: LogEvent) -> str:
        return f"a point for {event.player}" if isinstance(event, PointScored) else "created"


# --- 2. the HTTP layer: api/<format>/ (schemas.py, events.py) -------------------------------

blp = HeldBlueprint("toy_events", __name__, url_prefix="/v1/toy/events")


@dataclass(frozen=True)
class NewToy:
    """What a create asks for, as the schema loads it (a format's ``requests.py``)."""

    name: str | None
    players: tuple[str, ...]


class ToyIn(Schema):
    name = event_name()
    players = fields.List(player_id(), required=True, validate=validate.Length(2, 20))

    @post_load
    def typed(self, data: dict[str, Any], **_: Any) -> NewToy:
        return NewToy(data.get("name"), tuple(data["players"]))


class ToyOut(HeldOut):
    points = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)


class ToyCreatedOut(ToyOut, TokenOut):
    pass


def shape(held: Held[Tally]) -> dict[str, Any]:
    return {**held_row(held), "points": held.state.points}


def standings(held: Held[Tally]) -> tuple[list[str], list[Any]]:
    return ["player", "points"], sorted(held.state.points.items())


@blp.route("")
class Events(MethodView):
    @blp.arguments(ToyIn)
    @blp.response(201, ToyCreatedOut)
    def post(self, body: NewToy) -> Any:
        toy = ledger(ToyLedger)
        made, token = held_store().create(toy, body.name, toy.created(list(body.players)))
        return created_answer(made, token, shape, "toy_events.Event")


@blp.route(TOURNAMENT)
class Event(MethodView):
    @blp.response(200, ToyOut)
    def get(self, tournament_id: str) -> Any:
        return shape(held_store().read(ledger(ToyLedger), tournament_id))


@blp.route(TOURNAMENT + "/points/<player_id:player>")
class Point(MethodView):
    @blp.response(200, ToyOut)
    @blp.writes(results=True)  # the director's token, or a scorekeeper's
    def post(self, tournament_id: str, player: str) -> Any:
        toy = ledger(ToyLedger)
        made, _ = result_write(toy, tournament_id, None, lambda state: toy.point(state, player))
        return shape(made)


HELD = HeldResource(blp, ToyOut, shape, standings, "toy_events.Event", lambda _: "counting")


# --- 3. its backup: api/<format>/backup.py ----------------------------------------------------


def replayer(toy: Ledger[Any]) -> Replayer:
    assert isinstance(toy, ToyLedger)

    def decide(state: Tally | None, event: LogEvent, _: str) -> Action | None:
        match event:
            case ToyCreated(players=players):
                return toy.created(list(players))
            case PointScored(player=player):
                assert state is not None
                return toy.point(state, player)
        raise ValueError(f"no action {event.logged_as!r} in a toy log")

    return Replayer(decide, by_scorekeepers=frozenset({PointScored.logged_as}))


def request_of(event: LogEvent, name: str | None) -> Request | None:
    if isinstance(event, ToyCreated):
        return ToyIn, {**named_in(name), "players": list(event.players)}
    return None  # a point's request has no body


# --- 4. its pages: api/<format>/pages.py (its event page shows its standings as it is) ------

DESK = DeskPage("boards")  # results entered as a board's are; no settings form


# --- 5. its entry in the registry: api/formats.py ----------------------------------------------

TOY = Format(
    "toy",
    (),
    lambda _: ToyLedger(),
    HELD,
    status_words="counting",
    scorekeeping="boards",
    backup=FormatBackup(replayer, request_of),
    desk=DESK,
)
