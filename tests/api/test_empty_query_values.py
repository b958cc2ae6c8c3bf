"""An empty query value is refused where the OpenAPI document's schema cannot hold it
(``?max_spread_per_game=``: not an integer, nor null), a 422 naming the parameter; null
is written ``null``, and a string that may be empty stays accepted."""

from __future__ import annotations

from tests.support import assert_problem, auth
from tests.support.held_events import STRIKES, strikes_event

STANDINGS = "id,wins,spread\nA,8,412\nB,8,120\nC,7,300\nD,7,-40\n"
TSH = (
    "Able, Ann 1800 2 3 ; 420 380\nBaker, Bob 1750 1 4 ; 350 410\n"
    "Cole, Cat 1700 4 1 ; 400 390\nDunn, Dan 1650 3 2 ; 300 370\n"
)
EMPTY_REFUSED = ("integer", "number", "boolean")


def assert_names(response, name: str) -> dict:
    problem = assert_problem(response, 422)
    assert [e["pointer"] for e in problem["errors"]] == [f"/{name}"], problem
    return problem


def documented_scalars(client) -> list[tuple[str, str, str]]:
    """(method, path, parameter) of every tokenless operation's number, integer or
    boolean query parameter, as /openapi.json documents them."""
    document = client.get("/openapi.json").get_json()
    found = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or operation.get("security") or "{" in path:
                continue
            for parameter in operation.get("parameters", []):
                kind = parameter.get("schema", {}).get("type")
                if parameter.get("in") == "query" and kind in EMPTY_REFUSED:
                    found.append((method, path, parameter["name"]))
    return found


def test_every_documented_number_or_boolean_refuses_an_empty_value(client):
    scalars = documented_scalars(client)
    assert ("post", "/v1/scrabble/final-round", "max_spread_per_game") in scalars
    assert ("post", "/v1/scrabble/events/import-tsh", "spread_cap") in scalars
    for method, path, name in scalars:
        answer = client.open(f"{path}?{name}=", method=method.upper(), json={})
        problem = assert_names(answer, name)
        assert "empty" in problem["detail"] and "leave the parameter out" in problem["detail"]


def test_an_empty_nullable_integer_is_not_null(client):
    """The fuzz's case: the document says integer (or null), and "" is neither."""
    for body in ({"data": STANDINGS, "content_type": "text/csv"}, {"json": {"players": []}}):
        empty = client.post("/v1/scrabble/final-round?max_spread_per_game=", **body)
        assert ", null," in assert_names(empty, "max_spread_per_game")["detail"]
    null = client.post(
        "/v1/scrabble/final-round?max_spread_per_game=null",
        data=STANDINGS,
        content_type="text/csv",
    )
    assert null.status_code == 200


def test_an_empty_item_of_a_list_is_named(client):
    answer = client.post(
        "/v1/scrabble/final-round?prizes=100,,50", data=STANDINGS, content_type="text/csv"
    )
    assert "item 2 is empty" in assert_names(answer, "prizes")["detail"]


def test_a_string_is_refused_empty_only_where_its_schema_refuses_it(client):
    division = client.post(
        "/v1/scrabble/final-round?division=", data=STANDINGS, content_type="text/csv"
    )
    assert_names(division, "division")  # a pattern of 1-16 letters and digits
    imported = client.post(
        "/v1/scrabble/events/import-tsh?rounds=5&name=", data=TSH, content_type="text/plain"
    )
    assert imported.status_code == 201  # a name may be empty


def test_a_held_write_refuses_an_empty_entry_too(client):
    """A query string read by a marshmallow schema refuses it by itself (its pointer
    names the query)."""
    base, token = strikes_event(client)
    assert base.startswith(STRIKES)
    undo = client.post(f"{base}/undo?entry=", headers=auth(token))
    assert_problem(undo, 422, "/query/entry")
