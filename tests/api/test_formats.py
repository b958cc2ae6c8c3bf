"""The registry of formats: a format is served from its one entry in ``FORMATS``.

The toy format of ``tests/support/toy_format.py`` (a director counts points for players)
is added with one ``Format``: its ledger, the log routes, the director's list, the OpenAPI
enum of the list and the write rate limit all follow, with no other registration.
"""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from pairing_service import create_app
from pairing_service.api.formats import FORMATS, Format, blueprints, ledgers, status_description
from tests.support import auth
from tests.support.held_events import new_token, undo_latest
from tests.support.toy_format import TOY, ToyLedger

CLUB_NIGHT = {"name": "Club night", "players": ["ann", "bob"]}


def toy_app(tmp_path, **config: Any):
    settings = {"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/pairing.sqlite3"}
    return create_app({**settings, **config}, formats=(*FORMATS, TOY))


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
    app = toy_app(tmp_path)
    client = app.test_client()
    assert isinstance(app.extensions["pairing_ledgers"]["toy"], ToyLedger)
    assert listed_formats(app) == [
        "scrabble",
        "strikes",
        "diagonal",
        "puffing_billy",
        "league",
        "toy",
    ]
    assert listed_status(app).endswith("; toy: counting.")
    assert "/v1/toy/events/{tournament_id}/history" in spec_of(app)["paths"]

    created = client.post("/v1/toy/events", json=CLUB_NIGHT)
    assert created.status_code == 201
    body = created.get_json()
    base, token = f"/v1/toy/events/{body['id']}", body["token"]
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
    assert [(item["format"], item["status"]) for item in listed] == [("toy", "counting")]
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
    app = toy_app(tmp_path, WRITE_RATE_LIMIT="2/60")
    client = app.test_client()
    made = client.post("/v1/toy/events", json=CLUB_NIGHT).get_json()
    base, token = f"/v1/toy/events/{made['id']}", made["token"]
    assert client.post("/v1/held/lookup", json={"tokens": [token]}).status_code == 200
    assert client.post("/v1/toy/events", json=CLUB_NIGHT).status_code == 201  # creates: per address
    assert client.post("/v1/toy/events", json=CLUB_NIGHT).status_code == 429
    statuses = [client.post(f"{base}/points/ann", headers=auth(token)).status_code for _ in "abc"]
    assert statuses == [200, 200, 429]  # writes: per token
    app.extensions["pairing_store"].engine.dispose()


def test_a_format_is_held_with_both_a_ledger_and_a_resource():
    with pytest.raises(ValueError, match="a held format has a ledger and a resource"):
        Format("toy", (), lambda _: ToyLedger())


def test_a_held_format_and_only_one_has_status_words():
    with pytest.raises(ValueError, match="a held format, and only one, has status words"):
        Format("toy", (), TOY.ledger, TOY.held)
    with pytest.raises(ValueError, match="a held format, and only one, has status words"):
        Format("tool", (), status_words="counting")


class CountLedger(ToyLedger):
    format = "count"


def test_a_formats_ledger_must_be_of_that_format(rules):
    wrong = Format("toy", (), lambda _: CountLedger(), TOY.held, status_words="counting")
    with pytest.raises(ValueError, match="format 'toy' has the ledger of 'count'"):
        ledgers(rules, [wrong])
