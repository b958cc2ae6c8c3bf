"""The embeddable widget served by the service, and CORS: which origins may load it and call
the API (requests through the Flask test client). In a real browser:
tests/integration/test_widget_*.py."""

from __future__ import annotations

import pytest

from tests.support import assert_problem
from tests.support.widget import CSV, app_with_origins


@pytest.fixture()
def cors_client(tmp_path):
    app = app_with_origins(tmp_path, ["http://allowed.example"])
    yield app.test_client()
    app.extensions["pairing_store"].engine.dispose()


def test_the_script_and_the_demo_are_served(client):
    script = client.get("/widget/v1/pairing-advisor.js")
    assert script.status_code == 200 and script.mimetype == "text/javascript"
    text = script.get_data(as_text=True)
    assert 'customElements.define("pairing-advisor"' in text
    assert 'customElements.define("strikes-standings"' in text
    assert 'attachShadow({ mode: "open" })' in text
    demo = client.get("/widget/demo")
    assert demo.status_code == 200 and demo.mimetype == "text/html"
    assert "<pairing-advisor" in demo.get_data(as_text=True)
    assert "script-src 'self'" in demo.headers["Content-Security-Policy"]
    assert demo.headers["X-Content-Type-Options"] == "nosniff"


def test_allowed_origins_get_cors_headers_without_credentials(cors_client):
    headers = {"Origin": "http://allowed.example"}
    answer = cors_client.get("/widget/v1/pairing-advisor.js", headers=headers)
    assert answer.headers["Access-Control-Allow-Origin"] == "http://allowed.example"
    assert "Access-Control-Allow-Credentials" not in answer.headers
    preflight = cors_client.options(
        "/v1/scrabble/final-round",
        headers={
            **headers,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert preflight.status_code == 200
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    assert "Content-Type" in preflight.headers["Access-Control-Allow-Headers"]
    api = cors_client.post(
        "/v1/scrabble/final-round", data=CSV, content_type="text/csv", headers=headers
    )
    assert (
        api.status_code == 200
        and api.headers["Access-Control-Allow-Origin"] == "http://allowed.example"
    )


def test_other_origins_are_refused_and_same_origin_is_fine(cors_client, client):
    refused = cors_client.post(
        "/v1/scrabble/final-round",
        data=CSV,
        content_type="text/csv",
        headers={"Origin": "http://evil.example"},
    )
    assert_problem(refused, 403)
    assert "Access-Control-Allow-Origin" not in refused.headers
    script = client.get("/widget/v1/pairing-advisor.js", headers={"Origin": "http://other.example"})
    assert script.status_code == 403  # no origins are allowed by default
    same = client.post(
        "/v1/scrabble/final-round",
        data=CSV,
        content_type="text/csv",
        headers={"Origin": "http://localhost"},
    )
    assert same.status_code == 200
