"""The request schemas load typed requests (their ``post_load``), and a settings write's
partial body keeps a field it leaves out apart from a null it sends."""

from __future__ import annotations

import uuid
from fractions import Fraction

import pytest
from flask.testing import FlaskClient
from marshmallow import ValidationError

from pairing_service.api.diagonal.schemas import RaceSettingsIn, RoundIn
from pairing_service.api.held.requests import UNSENT, ClockStart, Entered, NoShows, sent_or
from pairing_service.api.held.round_clock import ClockIn
from pairing_service.api.held.schemas import LateEntrantIn, NoShowsIn
from pairing_service.api.puffing_billy.requests import BoardSettingsChange
from pairing_service.api.puffing_billy.schemas import BoardPlayersIn, SettingsIn
from pairing_service.api.strikes.requests import SettingsChange, TableResult
from pairing_service.api.strikes.schemas import TournamentIn, TournamentSettingsIn
from pairing_service.api.strikes.tool_schemas import SeatingIn, TableResultIn
from pairing_service.engine.diagonal import Entrant as RoundEntrant
from pairing_service.engine.puffing_billy import BoardEntry, FinalsScoring
from pairing_service.engine.strikes import Contestant, Finish
from pairing_service.engine.strikes.records import Entrant
from tests.support import auth

BILLY = "/v1/puffing-billy/events"


def test_a_settings_field_left_out_is_unsent_and_a_null_is_sent() -> None:
    assert SettingsIn().load({}) == BoardSettingsChange(UNSENT, UNSENT)
    assert SettingsIn().load({"preliminary_boards_counted": None}) == BoardSettingsChange(
        None, UNSENT
    )
    assert SettingsIn().load({"finals_scoring": "close_play"}) == BoardSettingsChange(
        UNSENT, FinalsScoring.CLOSE_PLAY
    )
    assert TournamentSettingsIn().load({"threshold": 40}) == SettingsChange(40, UNSENT)
    assert RaceSettingsIn().load({}).late_entry is UNSENT
    assert sent_or(UNSENT, 3) == 3
    assert sent_or(None, 3) is None  # a null sent is a value


@pytest.mark.parametrize("schema", [TournamentSettingsIn, RaceSettingsIn])
def test_a_null_where_no_null_is_a_value_is_refused(schema: type) -> None:
    with pytest.raises(ValidationError):
        schema().load(dict.fromkeys(schema().fields))


def test_a_puffing_billy_settings_write_keeps_what_it_leaves_out(client: FlaskClient) -> None:
    players = [{"id": p} for p in ["Ada", "Bo", "Cy"]]
    made = client.post(BILLY, json={"players": players, "preliminary_boards_counted": 2})
    tid, token = made.get_json()["id"], made.get_json()["token"]
    url = f"{BILLY}/{tid}/settings"

    def written(body: dict[str, object]) -> dict[str, object]:
        answer = client.put(url, json=body, headers=auth(token))
        assert answer.status_code == 200, answer.get_json()
        read = client.get(f"{BILLY}/{tid}").get_json()
        return {k: read[k] for k in ("preliminary_boards_counted", "finals_scoring")}

    kept = written({"finals_scoring": "close_play"})
    assert kept == {"preliminary_boards_counted": 2, "finals_scoring": "close_play"}
    assert written({}) == kept
    every = written({"preliminary_boards_counted": None})  # sent: every board counts
    assert every == {"preliminary_boards_counted": None, "finals_scoring": "close_play"}


def test_request_schemas_load_the_engines_own_types() -> None:
    result = TableResultIn().load(
        {"results": [{"player": "a", "place": 1}, {"player": "b", "place": 1}]}
    )
    assert result == TableResult((Finish("a", place=1), Finish("b", place=1)))
    seating = SeatingIn().load({"players": [{"id": "a", "strikes": 1.5}, {"id": "b"}] * 2})
    assert seating.players[0] == Contestant("a", Fraction(3, 2))
    made = TournamentIn().load({"players": [{"id": "a", "name": "Ann"}, {"id": "b"}, {"id": "c"}]})
    assert made.entrants[:2] == (Entrant("a", "Ann"), Entrant("b")) and made.seed is None
    asked = RoundIn().load({"players": [{"id": "a", "met": ["b"]}, {"id": "b", "met": ["a"]}]})
    assert asked.players[0] == RoundEntrant("a", 0, 0, ("b",)) and asked.round is None
    sheet = BoardPlayersIn().load({"players": [{"id": "a", "score": 5, "alternate": True}]})
    assert sheet.entries == (BoardEntry("a", 5, None, True),) and sheet.name is None
    assert LateEntrantIn().load({"id": "late"}) == Entered("late")
    assert NoShowsIn().load({"no_shows": ["a", "b"]}) == NoShows(("a", "b"))
    assert ClockIn().load({}) == ClockStart(None)  # no body: the empty one


def test_an_answer_warns_of_the_players_its_route_entered_never_of_its_body(
    client: FlaskClient,
) -> None:
    """The warnings are the route's to give: a write that enters nobody warns of nobody,
    whatever its body holds."""
    players = [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bo"}, {"id": "c"}]
    made = client.post("/v1/strikes/tournaments", json={"players": players}).get_json()
    base = f"/v1/strikes/tournaments/{made['id']}"
    namesakes = {"players": [{"id": "x", "name": "Ann"}, {"id": "y", "name": "ann"}]}
    dropped = client.post(f"{base}/players/c/drop", json=namesakes, headers=auth(made["token"]))
    assert dropped.status_code == 200, dropped.get_json()
    assert dropped.get_json()["warnings"] == []


@pytest.mark.parametrize("collection", ["/v1/strikes/tournaments", BILLY])
def test_a_retried_create_warns_of_the_players_it_created_the_event_with(
    client: FlaskClient, collection: str
) -> None:
    """A retry answers the tournament as it is now: a late entrant who shares a name since
    is not the create's to warn of."""
    body = {"players": [{"id": "a", "name": "Ann"}, {"id": "b"}, {"id": "c"}]}
    key = {"Idempotency-Key": str(uuid.uuid4())}
    made = client.post(collection, json=body, headers=key).get_json()
    assert made["warnings"] == []
    late = {"id": "ann2", "name": "ANN"}
    entered = client.post(
        f"{collection}/{made['id']}/players", json=late, headers=auth(made["token"])
    )
    assert len(entered.get_json()["warnings"]) == 1
    retried = client.post(collection, json=body, headers=key)
    assert retried.get_json()["id"] == made["id"]
    assert retried.get_json()["warnings"] == []
