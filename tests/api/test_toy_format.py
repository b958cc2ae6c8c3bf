"""A held format is served from its registry entry alone: the toy format of
``tests/support/toy_format.py``, made step by step as ``docs/architecture.md`` ("Add a
format") says, gets from its ``Format(...)`` its create, read and write, the log routes
(history, undo, a new token, export), backup and import (its log decided again), its event
page and sheet, the director's list, scorekeepers and the director's desk, with nothing
registered anywhere else."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pairing_service import create_app
from pairing_service.api.formats import FORMATS, Format
from tests.support import assert_problem, auth
from tests.support.held_events import kinds, new_token, undo_latest
from tests.support.toy_format import DESK, TOY, ToyLedger

TOYS = "/v1/toy/events"


def toy_app(folder: Path, name: str) -> Flask:
    database = folder / f"{name}.sqlite3"
    settings = {
        "TESTING": True,
        "DATABASE_URL": f"sqlite:///{database}",
        "COSTLY_SLOTS_DIR": str(folder / f"{name}-slots"),
    }
    return create_app(settings, formats=(*FORMATS, TOY))


@pytest.fixture()
def toy(tmp_path: Path) -> Iterator[Flask]:
    app = toy_app(tmp_path, "toy")
    yield app
    app.extensions["pairing_store"].engine.dispose()


@pytest.fixture()
def client(toy: Flask) -> FlaskClient:
    return toy.test_client()


def made(client: FlaskClient) -> tuple[str, str]:
    """A toy event of ann and bob, scored ann 2, bob 1: its address and director token."""
    created = client.post(TOYS, json={"name": "Club night", "players": ["ann", "bob"]})
    assert created.status_code == 201
    body = created.get_json()
    base, token = f"{TOYS}/{body['id']}", body["token"]
    assert created.headers["Location"] == base
    for player in ("ann", "bob", "ann"):
        assert client.post(f"{base}/points/{player}", headers=auth(token)).status_code == 200
    return base, token


def test_the_registry_entry_serves_create_read_and_its_write(
    toy: Flask, client: FlaskClient
) -> None:
    assert isinstance(toy.extensions["pairing_ledgers"]["toy"], ToyLedger)
    base, token = made(client)
    assert client.get(base).get_json()["points"] == {"ann": 2, "bob": 1}
    assert_problem(client.post(f"{base}/points/cat", headers=auth(token)), 404)
    assert_problem(client.post(f"{base}/points/ann"), 401)
    assert_problem(client.post(TOYS, json={"players": ["ann"]}), 422, "/players")


def test_the_log_routes_come_with_it(client: FlaskClient) -> None:
    base, token = made(client)
    assert kinds(client, base) == ["created", "point", "point", "point"]
    undone = undo_latest(client, base, token).get_json()
    assert undone["tournament"]["points"] == {"ann": 1, "bob": 1}
    exported = client.get(f"{base}/export?format=csv").get_data(as_text=True)
    assert list(csv.reader(io.StringIO(exported))) == [
        ["player", "points"],
        ["ann", "1"],
        ["bob", "1"],
    ]
    new = new_token(client, base, token).get_json()["token"]
    assert client.post(f"{base}/points/bob", headers=auth(token)).status_code == 403
    assert client.post(f"{base}/points/bob", headers=auth(new)).status_code == 200


def test_a_backup_imports_with_its_log_decided_again(tmp_path: Path, client: FlaskClient) -> None:
    base, token = made(client)
    document = client.get(f"{base}/backup", headers=auth(token)).get_json()
    other = toy_app(tmp_path, "other")
    try:
        copy = other.test_client().post(f"{TOYS}/import", json=document)
        assert copy.status_code == 201
        assert copy.get_json()["tournament"]["points"] == {"ann": 2, "bob": 1}
        assert kinds(other.test_client(), copy.headers["Location"]) == kinds(client, base)

        document["log"][2]["data"]["player"] = "cat"  # a point the rules refuse
        refused = other.test_client().post(f"{TOYS}/import", json=document)
        assert_problem(refused, 422, "/log/2")
        document["log"][2]["data"]["player"] = "bob"
        document["log"][0]["data"]["players"] = ["ann"]  # a create its schema refuses
        assert_problem(
            other.test_client().post(f"{TOYS}/import", json=document), 422, "/log/0/data"
        )
    finally:
        other.extensions["pairing_store"].engine.dispose()


def test_its_event_page_and_sheet(client: FlaskClient) -> None:
    base, _ = made(client)
    tournament = base.rsplit("/", 1)[1]
    page = client.get(f"/events/toy/{tournament}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "<h1>Club night</h1>" in html and "ann" in html and "Standings" in html
    sheet = client.get(f"/events/toy/{tournament}/sheet")
    assert sheet.status_code == 200 and "data:image/svg+xml" in sheet.get_data(as_text=True)
    assert client.get(f"/events/toy/{tournament}/slips").status_code == 404  # no rounds


def test_the_created_answer_links_its_pages(client: FlaskClient) -> None:
    created = client.post(TOYS, json={"players": ["ann", "bob"]})
    links = created.get_json()["links"]
    assert links["desk"].endswith(f"/events/toy/{created.get_json()['id']}/desk")
    assert 'rel="edit"' in created.headers["Link"]


def test_the_directors_list_names_it(toy: Flask, client: FlaskClient) -> None:
    base, token = made(client)
    listed = client.get("/v1/held", headers=auth(token)).get_json()["tournaments"]
    assert [(item["format"], item["status"]) for item in listed] == [("toy", "counting")]
    assert listed[0]["links"]["history"] == f"{base}/history"
    spec: dict[str, Any] = toy.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    listed_as = spec["components"]["schemas"]["HeldListedOut"]["properties"]["format"]["enum"]
    assert listed_as[-1] == "toy"


def test_its_scorekeepers_enter_points(client: FlaskClient) -> None:
    base, token = made(client)
    issued = client.post(f"{base}/scorekeepers", json={"name": "Sam"}, headers=auth(token))
    assert issued.status_code == 201
    keeper = issued.get_json()
    tournament = base.rsplit("/", 1)[1]
    assert keeper["link"].endswith(f"/events/toy/{tournament}/scorekeeper#token={keeper['token']}")
    assert client.post(f"{base}/points/bob", headers=auth(keeper["token"])).status_code == 200
    actions = client.get(f"{base}/history", headers=auth(token)).get_json()["actions"]
    assert actions[-1]["actor"] == "scorekeeper 1"
    assert client.post(f"{base}/undo?entry=1", headers=auth(keeper["token"])).status_code == 403


def test_its_desk_and_scorekeepers_page(client: FlaskClient) -> None:
    base, _ = made(client)
    tournament = base.rsplit("/", 1)[1]
    desk = client.get(f"/events/toy/{tournament}/desk")
    assert desk.status_code == 200
    assert f"{TOYS}/{tournament}" in desk.get_data(as_text=True)
    assert client.get(f"/events/toy/{tournament}/scorekeeper").status_code == 200


def test_an_app_without_it_serves_none_of_it(app: Flask) -> None:
    client = app.test_client()
    assert client.post(TOYS, json={"players": ["ann", "bob"]}).status_code == 404
    assert client.get(f"/events/toy/{'0' * 32}").status_code == 404


def test_only_a_held_format_has_a_desk_a_backup_or_scorekeepers() -> None:
    for held_only in ({"desk": DESK}, {"backup": TOY.backup}, {"scorekeeping": "boards"}):
        with pytest.raises(ValueError, match="only a held format has held pages or routes"):
            Format("tool", (), **held_only)
