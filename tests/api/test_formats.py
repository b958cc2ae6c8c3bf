"""The registry of formats: a format is served from its one entry in ``FORMATS``.

A tally format, made up here (a director counts points for players), is added with one
``Format``: its ledger, the log routes, the director's list, the OpenAPI enum of the list
and the write rate limit all follow, with no other registration.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

import pytest
from flask.views import MethodView
from marshmallow import fields

from pairing_service import create_app
from pairing_service.api.formats import FORMATS, Format, blueprints, ledgers, status_description
from pairing_service.api.held.blueprint import (
    HeldBlueprint,
    HeldResource,
    created_answer,
    held_store,
    ledger,
)
from pairing_service.api.held.director_token import director_token
from pairing_service.api.held.schemas import HeldOut, TokenOut, held_row
from pairing_service.engine.event_codec import LogEvent
from pairing_service.engine.event_log import Action, Creation, Entry, Ledger, format_events
from pairing_service.store import Held
from tests.support import auth
from tests.support.held_events import new_token, undo_latest


@dataclass
class Tally:
    points: dict[str, int]


@dataclass(frozen=True)
class TallyCreated(Creation):
    players: tuple[str, ...]


@dataclass(frozen=True)
class PointScored(LogEvent):
    logged_as = "point"
    player: str


class TallyLedger(Ledger[Tally]):
    format = "tally"
    events = format_events("a tally log", TallyCreated, PointScored)

    def created(self, players: list[str]) -> Action:
        return Action.of(TallyCreated(tuple(players)))

    def point(self, state: Tally, player: str) -> Action:
        return Action.of(PointScored(player))

    def start(self, created: Entry) -> Tally:
        return Tally({player: 0 for player in created.data["players"]})

    def _apply_event(self, state: Tally, event: LogEvent, actor: str) -> None:
        assert isinstance(event, PointScored)
        state.points[event.player] += 1

    def clone(self, state: Tally) -> Tally:
        return Tally(dict(state.points))

    def _describe_event(self, event: LogEvent) -> str:
        return f"{event.logged_as} {event}"


blp = HeldBlueprint("tally_events", __name__, url_prefix="/v1/tally/events")


class TallyOut(HeldOut):
    points = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)


class TallyCreatedOut(TallyOut, TokenOut):
    pass


def shape(held: Held[Tally]) -> dict[str, Any]:
    return {**held_row(held), "points": held.state.points}


@blp.route("")
class Events(MethodView):
    @blp.response(201, TallyCreatedOut)
    def post(self) -> Any:
        tally = ledger(TallyLedger)
        stored, token = held_store().create(tally, "Club night", tally.created(["ann", "bob"]))
        return created_answer(stored, token, shape, "tally_events.Event")


@blp.route("/<hex32:tournament_id>")
class Event(MethodView):
    @blp.response(200, TallyOut)
    def get(self, tournament_id: str) -> Any:
        return shape(held_store().read(ledger(TallyLedger), tournament_id))


@blp.route("/<hex32:tournament_id>/points/<player_id:player>")
class Point(MethodView):
    @blp.response(200, TallyOut)
    @blp.writes()
    def post(self, tournament_id: str, player: str) -> Any:
        tally = ledger(TallyLedger)
        stored, _ = held_store().write(
            tally, tournament_id, director_token(), lambda state: tally.point(state, player)
        )
        return shape(stored)


def standings(held: Held[Tally]) -> tuple[list[str], list[Any]]:
    return ["player", "points"], sorted(held.state.points.items())


TALLY = Format(
    "tally",
    (),
    lambda _: TallyLedger(),
    HeldResource(blp, TallyOut, shape, standings, "tally_events.Event", lambda held: "counting"),
    status_words="counting",
)


def tally_app(tmp_path, **config: Any):
    settings = {"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/pairing.sqlite3"}
    return create_app({**settings, **config}, formats=(*FORMATS, TALLY))


def spec_of(app) -> dict[str, Any]:
    spec: dict[str, Any] = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    return spec


def listed_formats(app) -> list[str]:
    listed = spec_of(app)["components"]["schemas"]["HeldListedOut"]["properties"]["format"]
    return list(listed["enum"])


def listed_status(app) -> str:
    status = spec_of(app)["components"]["schemas"]["HeldListedOut"]["properties"]["status"]
    return str(status["description"])


def test_the_registry_names_every_held_format_once(app):
    held = [fmt.name for fmt in FORMATS if fmt.held is not None]
    assert held == ["scrabble", "strikes", "diagonal", "puffing_billy", "league"]
    assert list(app.extensions["pairing_ledgers"]) == held
    assert listed_formats(app) == held
    assert "scrabble" in [fmt.name for fmt in FORMATS]


def test_the_document_lists_the_blueprints_in_registry_order(app):
    tags = [tag["name"] for tag in spec_of(app)["tags"]]
    assert tags == ["health", *(blueprint.name for blueprint in blueprints()), "held"]


def test_the_lists_status_words_come_from_the_registry(app):
    assert listed_status(app) == (
        "Scrabble, strikes and Diagonal Race: registered, round_open, between_rounds or finished; "
        "Puffing Billy: its stage (preliminary, final, finished); a league organisation: its "
        "latest season's (signup, running, closed), or no_season."
    )
    assert listed_status(app) == status_description()


def test_one_entry_serves_a_new_held_format(tmp_path):
    app = tally_app(tmp_path)
    client = app.test_client()
    assert isinstance(app.extensions["pairing_ledgers"]["tally"], TallyLedger)
    assert listed_formats(app) == [
        "scrabble",
        "strikes",
        "diagonal",
        "puffing_billy",
        "league",
        "tally",
    ]
    assert listed_status(app).endswith("; tally: counting.")
    assert "/v1/tally/events/{tournament_id}/history" in spec_of(app)["paths"]

    created = client.post("/v1/tally/events")
    assert created.status_code == 201
    body = created.get_json()
    base, token = f"/v1/tally/events/{body['id']}", body["token"]
    assert created.headers["Location"] == base
    assert client.post(f"{base}/points/ann", headers=auth(token)).status_code == 200
    assert client.post(f"{base}/points/bob", headers=auth(token)).status_code == 200

    history = client.get(f"{base}/history").get_json()
    assert [a["kind"] for a in history["actions"]] == ["created", "point", "point"]
    undone = undo_latest(client, base, token).get_json()
    assert undone["undone"]["seq"] == 3 and undone["tournament"]["points"] == {"ann": 1, "bob": 0}
    exported = client.get(f"{base}/export?format=csv")
    assert list(csv.reader(io.StringIO(exported.get_data(as_text=True)))) == [
        ["player", "points"],
        ["ann", "1"],
        ["bob", "0"],
    ]

    listed = client.get("/v1/held", headers=auth(token)).get_json()["tournaments"]
    assert [(item["format"], item["status"]) for item in listed] == [("tally", "counting")]
    assert listed[0]["links"] == {
        "self": base,
        "history": f"{base}/history",
        "export": f"{base}/export",
    }
    new = new_token(client, base, token).get_json()["token"]
    assert client.post(f"{base}/points/ann", headers=auth(token)).status_code == 403
    assert client.post(f"{base}/points/ann", headers=auth(new)).status_code == 200
    app.extensions["pairing_store"].engine.dispose()


def test_a_new_held_formats_writes_and_creates_are_rate_limited(tmp_path):
    app = tally_app(tmp_path, WRITE_RATE_LIMIT="2/60")
    client = app.test_client()
    made = client.post("/v1/tally/events").get_json()
    base, token = f"/v1/tally/events/{made['id']}", made["token"]
    assert client.post("/v1/held/lookup", json={"tokens": [token]}).status_code == 200
    assert client.post("/v1/tally/events").status_code == 201  # creates: per address
    assert client.post("/v1/tally/events").status_code == 429
    statuses = [client.post(f"{base}/points/ann", headers=auth(token)).status_code for _ in "abc"]
    assert statuses == [200, 200, 429]  # writes: per token
    app.extensions["pairing_store"].engine.dispose()


def test_a_format_is_held_with_both_a_ledger_and_a_resource():
    with pytest.raises(ValueError, match="a held format has a ledger and a resource"):
        Format("tally", (), lambda _: TallyLedger())


def test_a_held_format_and_only_one_has_status_words():
    with pytest.raises(ValueError, match="a held format, and only one, has status words"):
        Format("tally", (), TALLY.ledger, TALLY.held)
    with pytest.raises(ValueError, match="a held format, and only one, has status words"):
        Format("tool", (), status_words="counting")


class CountLedger(TallyLedger):
    format = "count"


def test_a_formats_ledger_must_be_of_that_format(rules):
    wrong = Format("tally", (), lambda _: CountLedger(), TALLY.held, status_words="counting")
    with pytest.raises(ValueError, match="format 'tally' has the ledger of 'count'"):
        ledgers(rules, [wrong])
