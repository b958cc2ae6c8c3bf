"""The committed OpenAPI document is the one the service generates, and it is valid."""

from __future__ import annotations

import yaml
from openapi_spec_validator import validate

from pairing_service.openapi import generate
from tests.support import ROOT


def test_committed_openapi_is_up_to_date():
    committed = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    assert committed == generate(), "run: python -m pairing_service.openapi"


def test_openapi_is_valid():
    validate(yaml.safe_load(generate()))


def test_every_field_a_text_body_takes_from_the_query_is_documented(client):
    """A CSV or tsh body's other fields come from the query string: the document names
    each (tsh's `after` and `complete_rounds_only` as the query calls them), and the
    service refuses one it does not name."""
    from pairing_service.api.parsing import TSH_QUERY_NAMES
    from pairing_service.api.scrabble.tool_schemas import FinalRoundIn

    spec = client.get("/openapi.json").get_json()
    operation = spec["paths"]["/v1/scrabble/final-round"]["post"]
    documented = {p["name"] for p in operation["parameters"] if p["in"] == "query"}
    in_query = {
        TSH_QUERY_NAMES.get(name, name)
        for name in FinalRoundIn().fields
        if name not in ("players", "tsh")  # the body
    }
    assert documented == in_query
    assert set(operation["requestBody"]["content"]) == {
        "application/json",
        "text/csv",
        "text/plain",
    }
    csv = "A,3,100\nB,3,50\nC,2,10\nD,1,-160\n"
    answered = client.post(
        "/v1/scrabble/final-round?victors=1&rounds_left=1",
        data=csv,
        content_type="text/csv",
    )
    assert answered.status_code == 200, answered.get_json()
    refused = client.post("/v1/scrabble/final-round?bogus=1", data=csv, content_type="text/csv")
    assert refused.status_code == 422 and "bogus" in refused.get_data(as_text=True)
    # A JSON body may give them in the query too (a bad one is refused as in the body); in
    # both places, a 422 naming the rule.
    players = {
        "players": [
            {"id": p, "wins": w, "spread": 0} for p, w in zip("ABCD", (3, 3, 2, 1), strict=True)
        ]
    }
    beside = client.post("/v1/scrabble/final-round?victors=1", json=players)
    assert beside.status_code == 200 and beside.get_json()["victors"] == 1
    out_of_range = client.post("/v1/scrabble/final-round?victors=99", json=players)
    assert (
        out_of_range.status_code == 422
        and out_of_range.get_json()["errors"][0]["pointer"] == "/victors"
    )
    twice = client.post("/v1/scrabble/final-round?victors=1", json={**players, "victors": 1})
    assert twice.status_code == 422 and twice.get_json()["rule"] == "query-fields"
