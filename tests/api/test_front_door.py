"""The front door: ``/`` as HTML and JSON, ``/docs/`` sent to ``/docs``, and a page for
every problem type the service answers (RFC 9457: a type resolves to its explanation)."""

from __future__ import annotations

import pytest

from pairing_service.api.errors import PROBLEM_TYPES
from pairing_service.api.front_door import LINKS, PROBLEMS, problem_names


def test_the_front_door_links_what_a_newcomer_looks_for(client):
    page = client.get("/")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    for href in ("/docs", "/openapi.json", "/widget/demo", "/problems/", "/healthz"):
        assert f'href="{href}"' in html
    as_json = client.get("/", headers={"Accept": "application/json"}).get_json()
    assert as_json["service"] == "Pairing Advisor"
    assert [link["href"] for link in as_json["links"]] == [link.href for link in LINKS]


def test_every_link_of_the_front_door_answers(client):
    for link in LINKS:
        answer = client.get(link.href)
        assert answer.status_code == 200, link.href


def test_docs_with_a_slash_goes_to_docs(client):
    answer = client.get("/docs/")
    assert answer.status_code == 308 and answer.headers["Location"] == "/docs"


def test_every_problem_type_the_service_answers_has_its_page(client):
    assert problem_names() == {page.name for page in PROBLEMS}
    assert {page.status for page in PROBLEMS} >= set(PROBLEM_TYPES)
    index = client.get("/problems/").get_data(as_text=True)
    for name in problem_names():
        page = client.get(f"/problems/{name}")
        assert page.status_code == 200 and page.mimetype == "text/html", name
        text = page.get_data(as_text=True)
        assert "What it means" in text and "How to fix it" in text
        assert f'href="/problems/{name}"' in index


@pytest.mark.parametrize(
    ("request_args", "status"),
    [
        ({"method": "POST", "path": "/v1/scrabble/final-round", "json": {}}, 422),
        ({"method": "GET", "path": "/v1/strikes/tournaments/nope"}, 404),
        (
            {
                "method": "POST",
                "path": "/v1/strikes/tournaments",
                "data": "{",
                "content_type": "application/json",
            },
            400,
        ),
        ({"method": "POST", "path": "/v1/strikes/tournaments", "data": "x"}, 415),
    ],
)
def test_a_problem_answered_links_to_a_page_that_exists(client, request_args, status):
    args = dict(request_args)
    answer = client.open(args.pop("path"), **args)
    assert answer.status_code == status
    assert client.get(answer.get_json()["type"]).status_code == 200


def test_a_refused_origin_gets_its_own_type_naming_the_setting(client):
    answer = client.post(
        "/v1/scrabble/final-round", json={}, headers={"Origin": "https://elsewhere.example"}
    )
    body = answer.get_json()
    assert answer.status_code == 403 and body["type"] == "/problems/cors-origin-refused"
    assert "PAIRING_CORS_ORIGINS" in body["detail"]
    page = client.get(body["type"]).get_data(as_text=True)
    assert "PAIRING_CORS_ORIGINS" in page


def test_an_unknown_problem_page_is_a_404_problem(client):
    answer = client.get("/problems/nothing-like-it")
    assert answer.status_code == 404 and answer.mimetype == "application/problem+json"
