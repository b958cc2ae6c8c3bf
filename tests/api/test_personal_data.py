"""Nobody sees what isn't theirs: every GET route of every held format, read without a
token, answers no e-mail address (the one personal field players give); the director
reads them where they are kept (letters, history, export); a wrong token is refused."""

from __future__ import annotations

import re

import pytest

from pairing_service.api.formats import FORMATS as REGISTRY
from tests.support import auth
from tests.support.held_events import FORMATS

MAIL = "mailbox.example"  # every address given below is at this domain
VARIANTS = ({}, {"Accept": "text/plain"}, {"Accept": "text/csv"})


def _league_with_addresses(client) -> tuple[str, str]:
    created = client.post(
        "/v1/league/organisations", json={"code": "AGR", "name": "Agricola"}
    ).get_json()
    base, token = f"/v1/league/organisations/{created['id']}", created["token"]
    assert client.post(f"{base}/seasons", headers=auth(token)).status_code == 201
    players = [{"id": f"m{i}", "name": f"M {i}", "email": f"m{i}@{MAIL}"} for i in range(7)]
    signed = client.post(
        f"{base}/seasons/1/signups", json={"players": players}, headers=auth(token)
    )
    assert signed.status_code == 200, signed.get_json()
    assert client.post(f"{base}/seasons/1/form", headers=auth(token)).status_code == 200
    return base, token


def _get_paths(document: dict) -> list[str]:
    return [path for path, operations in document["paths"].items() if "get" in operations]


def _filled(path: str, ids: dict[str, str]) -> str | None:
    """``path`` with its parameters: the tournament of its format, and the first round,
    board, season and league."""
    prefix = next((p for p in ids if path.startswith(p)), None)
    if "{tournament_id}" in path and prefix is None:
        return None
    values = {"number": "1", "board": "1", "league": "1-A", "player": "m3"}
    if prefix is not None:
        values["tournament_id"] = ids[prefix]
    return re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], path)


def test_no_public_read_answers_an_email_address(client):
    base, _ = _league_with_addresses(client)
    ids = {"/v1/league/organisations": base.rsplit("/", 1)[1]}
    for made in FORMATS.values():
        held = made(client)
        prefix, _, tournament_id = held.base.rpartition("/")
        ids.setdefault(prefix, tournament_id)
    document = client.get("/openapi.json").get_json()
    read = 0
    for path in _get_paths(document):
        url = _filled(path, ids)
        if url is None:
            continue
        for headers in VARIANTS:
            answer = client.get(url, headers=headers)
            assert answer.status_code < 500, (url, headers)
            if answer.status_code == 200:
                read += 1
                assert MAIL not in answer.get_data(as_text=True), (url, headers)
    assert read >= 40  # every held read route, in its JSON and text forms where it has them


def test_the_director_reads_the_addresses_players_gave(client):
    base, token = _league_with_addresses(client)
    for route in ("/seasons/1/letters", "/history", "/export", "/players", "/players/m3"):
        public = client.get(base + route).get_data(as_text=True)
        director = client.get(base + route, headers=auth(token)).get_data(as_text=True)
        assert MAIL not in public
        assert "m3@" + MAIL in director, route
    letters = client.get(base + "/seasons/1/letters").get_json()["letters"]
    assert letters and all(letter["email"] is None for letter in letters)


@pytest.mark.parametrize(
    "route", ["/seasons/1/letters", "/history", "/export", "/players", "/players/m3"]
)
def test_a_read_with_another_tournaments_token_is_refused(client, route):
    base, _ = _league_with_addresses(client)
    _, other = _league_with_addresses(client)
    answer = client.get(base + route, headers=auth(other))
    assert answer.status_code == 403


def test_no_public_page_of_a_league_shows_an_email_address(client):
    """The server-rendered pages (not in the API document): the organisation's, each
    season's, and the report page a letter links to."""
    base, token = _league_with_addresses(client)
    edited = client.put(base + "/players/m2", json={"email": f"new@{MAIL}"}, headers=auth(token))
    assert edited.status_code == 200
    organisation = base.rsplit("/", 1)[1]
    pages = [
        f"/events/league/{organisation}",
        f"/events/league/{organisation}/sheet",
        f"/events/league/{organisation}/seasons/1",
        f"/events/league/{organisation}/seasons/1/report?league=1-A",
    ]
    for page in pages:
        answer = client.get(page)
        assert answer.status_code == 200, page
        assert MAIL not in answer.get_data(as_text=True), page
    history = client.get(base + "/history").get_data(as_text=True)
    assert "player_edited" in history and MAIL not in history
    assert f"new@{MAIL}" in client.get(base + "/history", headers=auth(token)).get_data(
        as_text=True
    )


def test_every_held_format_has_an_event_read():
    # The first test reads the routes of the formats it builds events of: a held format
    # added to the registry without an event builder there would go unread.
    assert set(FORMATS) == {f.name for f in REGISTRY if f.held is not None}
