"""Puffing Billy finals through the API: who may sit at a final board, in the calculator and
in held events alike, and the alternate in the document.

A final board takes qualifiers only, unless the director marks a player as an alternate
(docs/puffing-billy.md). The finals bonus and the seats in the rules alone:
tests/unit/engine/puffing_billy/test_finals.py.
"""

from __future__ import annotations

import yaml

from tests.support import ROOT, assert_problem, auth

EIGHT = [(f"P{i}", 1000 - 100 * i) for i in range(1, 9)]
# Two preliminary boards, P1-P4 and P5-P8: with four finalists P1, P5, P2 and P6 qualify.


# --- who sits at a final board: the calculator -------------------------------------------------


def sheet(rows, alternates=(), stage=None):
    players = [
        {"id": p, "score": s, **({"alternate": True} if p in alternates else {})} for p, s in rows
    ]
    return {"players": players, **({"stage": stage} if stage else {})}


def test_the_event_endpoint_refuses_a_non_qualifier_unless_marked_alternate(client):
    boards = [sheet(EIGHT[:4]), sheet(EIGHT[4:])]
    body = {"boards": [*boards, sheet([("P1", 10), ("P8", 5)], stage="final")], "finalists": 4}
    problem = assert_problem(
        client.post("/v1/puffing-billy/event", json=body), 422, "/boards/2/players/1/id"
    )
    assert "P8" in problem["detail"]
    body["boards"][2] = sheet([("P1", 10), ("P8", 5)], alternates={"P8"}, stage="final")
    answer = client.post("/v1/puffing-billy/event", json=body)
    assert answer.status_code == 200, answer.get_json()
    out = answer.get_json()
    assert out["boards"][2]["alternates"] == ["P8"] and out["boards"][0]["alternates"] == []
    assert out["champions"] == ["P1"]
    assert_problem(
        client.post("/v1/puffing-billy/board", json=sheet([("P1", 10)], alternates={"P1"})),
        422,
        "/players/0/alternate",
    )


# --- who sits at a final board: held events ------------------------------------------------------

BASE = "/v1/puffing-billy/events"


def held_event(client):
    created = client.post(BASE, json={"players": [{"id": p} for p, _ in EIGHT]}).get_json()
    tid, token = created["id"], created["token"]
    for number, rows in ((1, EIGHT[:4]), (2, EIGHT[4:])):
        answer = client.put(f"{BASE}/{tid}/boards/{number}", json=sheet(rows), headers=auth(token))
        assert answer.status_code == 200
    return tid, token


def test_a_held_final_takes_a_marked_alternate_and_says_so(client):
    tid, token = held_event(client)
    early = sheet([("P1", 10), ("P8", 5)], alternates={"P8"})
    assert_problem(
        client.put(f"{BASE}/{tid}/boards/3", json=early, headers=auth(token)),
        422,
        "/players/1/alternate",
    )
    closed = client.post(
        f"{BASE}/{tid}/preliminaries/close", json={"finalists": 4}, headers=auth(token)
    )
    assert "P8" not in closed.get_json()["qualifiers"]
    refused = client.put(
        f"{BASE}/{tid}/boards/3", json=sheet([("P1", 10), ("P8", 5)]), headers=auth(token)
    )
    assert "P8" in assert_problem(refused, 422, "/players/1/id")["detail"]
    not_alternate = sheet([("P1", 10), ("P2", 5)], alternates={"P2"})
    assert_problem(
        client.put(f"{BASE}/{tid}/boards/3", json=not_alternate, headers=auth(token)),
        422,
        "/players/1/alternate",
    )
    entered = client.put(f"{BASE}/{tid}/boards/3", json=early, headers=auth(token))
    assert entered.status_code == 200, entered.get_json()
    assert entered.get_json()["alternates"] == ["P8"]
    revision = client.get(f"{BASE}/{tid}").get_json()["revision"]
    again = client.put(f"{BASE}/{tid}/boards/3", json=early, headers=auth(token))
    assert again.status_code == 200
    assert client.get(f"{BASE}/{tid}").get_json()["revision"] == revision
    history = client.get(f"{BASE}/{tid}/history").get_json()["actions"]
    assert "alternate: P8" in history[-1]["summary"]
    done = client.post(f"{BASE}/{tid}/final/close", headers=auth(token)).get_json()
    assert done["champions"] == ["P1"]
    assert [r["id"] for r in done["ranking"][:2]] == ["P1", "P8"]


def test_the_openapi_document_shows_the_alternate_on_both_final_boards():
    document = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    schemas = document["components"]["schemas"]

    def player_schema(name):
        players = schemas[name]["properties"]["players"]["items"]
        return schemas[players["$ref"].rsplit("/", 1)[1]]

    for request in ("EventBoardIn", "BoardPlayersIn"):
        assert player_schema(request)["properties"]["alternate"]["type"] == "boolean"
    assert "alternate" not in player_schema("BoardIn")["properties"]
