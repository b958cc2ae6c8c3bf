"""Hostile input across every endpoint: a 4xx problem+json each time, and still healthy.

Also: writes are rate-limited (429 with Retry-After), and tokens never appear in logs or
answers after creation.
"""

from __future__ import annotations

import io
import logging
import uuid

import pytest

from pairing_service import create_app
from tests.support import assert_problem

TOURNAMENTS = "/v1/strikes/tournaments"
DEEP = "[" * 40 + "]" * 40
HUGE_ARRAY = '{"players": [' + ",".join(['{"id": "p", "wins": 1, "spread": 0}'] * 2500) + "]}"

# (name, method, url, body bytes or None, content type, expected status). A write to a
# held tournament sent without a token is refused 401 before its body is read
# (test_auth_before_validation.py), whatever the body holds.
CATALOGUE = [
    ("deep nesting", "post", "/v1/scrabble/final-round", DEEP.encode(), "application/json", 400),
    (
        "deep nesting (strikes)",
        "post",
        "/v1/strikes/seating",
        ('{"players": ' + DEEP + "}").encode(),
        "application/json",
        400,
    ),
    (
        "huge array",
        "post",
        "/v1/scrabble/final-round",
        HUGE_ARRAY.encode(),
        "application/json",
        422,
    ),
    (
        "huge list of boards",
        "post",
        "/v1/puffing-billy/event",
        (
            '{"boards": [' + ",".join(['{"players": [{"id": "a", "score": 1}]}'] * 2001) + "]}"
        ).encode(),
        "application/json",
        422,
    ),
    (
        "long id",
        "post",
        "/v1/strikes/score",
        (
            '{"results": [{"player": "'
            + "x" * 5000
            + '", "score": 1}, {"player": "b", "score": 2}]}'
        ).encode(),
        "application/json",
        422,
    ),
    (
        "long name",
        "post",
        TOURNAMENTS,
        (
            '{"name": "' + "n" * 300 + '", "players": [{"id": "a"}, {"id": "b"}, {"id": "c"}]}'
        ).encode(),
        "application/json",
        422,
    ),
    (
        "control character in id",
        "post",
        "/v1/diagonal/round",
        b'{"players": [{"id": "a\\u0000b"}]}',
        "application/json",
        422,
    ),
    (
        "newline in id",
        "post",
        "/v1/league/schedule",
        b'{"players": ["a\\nb", "c", "d", "e"], "game": "X", "season": 1, "league": "1-A"}',
        "application/json",
        422,
    ),
    (
        "bidi override in name",
        "post",
        TOURNAMENTS,
        b'{"name": "\\u202e", "players": [{"id": "a"}]}',
        "application/json",
        422,
    ),
    (
        "lone surrogate",
        "post",
        "/v1/strikes/score",
        b'{"results": [{"player": "\\ud800", "score": 1}]}',
        "application/json",
        422,
    ),
    (
        "NaN",
        "post",
        "/v1/puffing-billy/board",
        b'{"players": [{"id": "a", "score": NaN}]}',
        "application/json",
        400,
    ),
    (
        "Infinity",
        "post",
        "/v1/diagonal/simulate",
        b'{"players": [{"id": "a", "rating": Infinity}, {"id": "b", "rating": 1}]}',
        "application/json",
        400,
    ),
    (
        "-Infinity",
        "post",
        "/v1/league/lifetime",
        b'{"leagues": [{"season": 1, "league": "1-A", "standings": '
        b'[{"player": "a", "league_points": -Infinity}]}]}',
        "application/json",
        400,
    ),
    (
        "integer beyond 64 bits",
        "post",
        "/v1/strikes/tables",
        b'{"players": 123456789012345678901234567890}',
        "application/json",
        422,
    ),
    (
        "integer beyond the digit limit",
        "post",
        "/v1/strikes/tables",
        b'{"players": ' + b"9" * 5000 + b"}",
        "application/json",
        400,
    ),
    (
        "float for an integer",
        "post",
        "/v1/strikes/tables",
        b'{"players": 26.5}',
        "application/json",
        422,
    ),
    (
        "string for a number",
        "post",
        "/v1/diagonal/round",
        b'{"players": [{"id": "a", "rating": "1500"}]}',
        "application/json",
        422,
    ),
    (
        "boolean for an integer",
        "post",
        "/v1/strikes/plan",
        b'{"players": true}',
        "application/json",
        422,
    ),
    (
        "number for a boolean",
        "post",
        "/v1/strikes/tables",
        b'{"players": 26, "two_player_games": 1}',
        "application/json",
        422,
    ),
    (
        "duplicated keys",
        "post",
        "/v1/puffing-billy/board",
        b'{"players": [], "players": [{"id": "a", "score": 1}]}',
        "application/json",
        400,
    ),
    ("empty body", "post", "/v1/league/table", b"", "application/json", 400),
    ("whitespace body", "post", "/v1/diagonal/results", b"   \n ", "application/json", 400),
    ("truncated JSON", "post", "/v1/strikes/seating", b'{"players": [', "application/json", 400),
    (
        "not UTF-8",
        "post",
        "/v1/scrabble/audit",
        b'{"players": "\xff\xfe"}',
        "application/json",
        400,
    ),
    ("array at the top", "post", "/v1/league/formation", b"[]", "application/json", 422),
    (
        "wrong content type",
        "post",
        "/v1/strikes/score",
        b"results=1",
        "application/x-www-form-urlencoded",
        415,
    ),
    ("XML", "post", "/v1/league/table", b"<games/>", "application/xml", 415),
    ("CSV where only JSON is read", "post", "/v1/puffing-billy/board", b"a,1\n", "text/csv", 415),
    ("no content type", "post", "/v1/diagonal/round", b'{"players": []}', None, 415),
    (
        "unknown field",
        "post",
        "/v1/strikes/tables",
        b'{"players": 26, "drop_table": true}',
        "application/json",
        422,
    ),
    ("unknown tournament", "get", TOURNAMENTS + "/" + "0" * 32, None, None, 404),
    ("path injection", "get", TOURNAMENTS + "/..%2F..%2Fetc%2Fpasswd", None, None, 404),
    (
        "huge round number",
        "get",
        TOURNAMENTS + "/" + "a" * 32 + "/rounds/99999999999999999999999",
        None,
        None,
        404,
    ),
    (
        "NUL in a path",
        "post",
        TOURNAMENTS + "/" + "a" * 32 + "/players/a%00b/drop",
        None,
        None,
        404,
    ),
    ("method not allowed", "delete", "/v1/scrabble/final-round", None, None, 405),
    ("write without a token", "post", TOURNAMENTS + "/" + "a" * 32 + "/rounds", None, None, 401),
    (
        "401 race entrants",
        "post",
        "/v1/diagonal/events",
        ('{"players": [' + ",".join(f'{{"id": "r{i}"}}' for i in range(401)) + "]}").encode(),
        "application/json",
        422,
    ),
    (
        "rating beyond bounds in a race",
        "post",
        "/v1/diagonal/events",
        b'{"players": [{"id": "a", "rating": 1e308}, {"id": "b", "rating": 1}]}',
        "application/json",
        422,
    ),
    (
        "game number beyond the route's bound",
        "put",
        "/v1/diagonal/events/" + "a" * 32 + "/rounds/1/games/99999999999",
        b'{"winner": "a"}',
        "application/json",
        404,
    ),
    (
        "undo without a token",
        "post",
        "/v1/diagonal/events/" + "a" * 32 + "/undo",
        None,
        None,
        401,
    ),
    (
        "seven players on a board",
        "put",
        "/v1/puffing-billy/events/" + "a" * 32 + "/boards/1",
        (
            '{"players": [' + ",".join(f'{{"id": "p{i}", "score": 1}}' for i in range(7)) + "]}"
        ).encode(),
        "application/json",
        401,
    ),
    (
        "finalists as a string",
        "post",
        "/v1/puffing-billy/events/" + "a" * 32 + "/preliminaries/close",
        b'{"finalists": "4"}',
        "application/json",
        401,
    ),
    (
        "history of a malformed id",
        "get",
        "/v1/puffing-billy/events/not-an-id/history",
        None,
        None,
        404,
    ),
    (
        "league code in lower case",
        "post",
        "/v1/league/organisations",
        b'{"code": "agr; drop table"}',
        "application/json",
        422,
    ),
    (
        "a league name that is no league",
        "put",
        "/v1/league/organisations/" + "a" * 32 + "/seasons/1/leagues/..%2Fx/games/1",
        b'{"results": []}',
        "application/json",
        404,
    ),
    (
        "a thousand and one sign-ups",
        "post",
        "/v1/league/organisations/" + "a" * 32 + "/seasons/1/signups",
        ('{"players": [' + ",".join(f'{{"id": "s{i}"}}' for i in range(1001)) + "]}").encode(),
        "application/json",
        401,
    ),
    (
        "a game report without a token",
        "put",
        "/v1/league/organisations/" + "a" * 32 + "/seasons/1/leagues/1-A/games/1",
        b'{"results": [{"player": "a", "score": 1, "position": 1}, '
        b'{"player": "b", "score": 0, "position": 2}]}',
        "application/json",
        401,
    ),
    ("export as XML", "get", TOURNAMENTS + "/" + "a" * 32 + "/export?format=xml", None, None, 422),
    (
        "fifty-one tokens to look up",
        "post",
        "/v1/held/lookup",
        ('{"tokens": [' + ",".join(['"t"'] * 51) + "]}").encode(),
        "application/json",
        422,
    ),
    (
        "tokens as one string",
        "post",
        "/v1/held/lookup",
        b'{"tokens": "t"}',
        "application/json",
        422,
    ),
    (
        "a token of 10,000 characters",
        "post",
        "/v1/held/lookup",
        b'{"tokens": ["' + b"t" * 10_000 + b'"]}',
        "application/json",
        422,
    ),
    ("the director's list without a token", "get", "/v1/held", None, None, 401),
    (
        "a new token without the old one",
        "post",
        TOURNAMENTS + "/" + "a" * 32 + "/token",
        None,
        None,
        401,
    ),
    (
        "a late entrant with a control character",
        "post",
        "/v1/puffing-billy/events/" + "a" * 32 + "/players",
        b'{"id": "a\\u0007b"}',
        "application/json",
        401,
    ),
    (
        "a late entrant's rating as a string",
        "post",
        "/v1/diagonal/events/" + "a" * 32 + "/players",
        b'{"id": "x", "rating": "1500"}',
        "application/json",
        401,
    ),
    (
        "no-shows as a string",
        "post",
        TOURNAMENTS + "/" + "a" * 32 + "/rounds/1/reseat",
        b'{"no_shows": "ann"}',
        "application/json",
        401,
    ),
    (
        "a hundred and one no-shows",
        "post",
        "/v1/diagonal/events/" + "a" * 32 + "/rounds/1/reseat",
        ('{"no_shows": [' + ",".join(f'"p{i}"' for i in range(101)) + "]}").encode(),
        "application/json",
        401,
    ),
    (
        "a round printed as PDF",
        "get",
        TOURNAMENTS + "/" + "a" * 32 + "/rounds/1?format=pdf",
        None,
        None,
        422,
    ),
    (
        "a league's games printed as XML",
        "get",
        "/v1/league/organisations/" + "a" * 32 + "/seasons/1/leagues/1-A?format=xml",
        None,
        None,
        422,
    ),
    (
        "tsh file with no players",
        "post",
        "/v1/scrabble/final-round",
        b"# nothing\n",
        "text/plain",
        422,
    ),
]


@pytest.mark.parametrize(
    ("name", "method", "url", "body", "content_type", "status"),
    CATALOGUE,
    ids=[entry[0] for entry in CATALOGUE],
)
def test_hostile_input_is_a_clean_4xx(client, name, method, url, body, content_type, status):
    kwargs = {}
    if body is not None:
        kwargs["data"] = body
    if content_type is not None:
        kwargs["content_type"] = content_type
    response = getattr(client, method)(url, **kwargs)
    assert_problem(response, status)
    assert client.get("/healthz").status_code == 200


def test_the_catalogue_is_large_and_covers_every_format():
    assert len(CATALOGUE) >= 30
    prefixes = {"/v1/scrabble", "/v1/strikes", "/v1/puffing-billy", "/v1/diagonal", "/v1/league"}
    assert all(any(entry[2].startswith(p) for entry in CATALOGUE) for p in prefixes)


def test_a_body_over_the_limit_is_413(app):
    app.config["MAX_CONTENT_LENGTH"] = 4096
    response = app.test_client().post(
        "/v1/league/table",
        data=b'{"games": [' + b" " * 5000 + b"]}",
        content_type="application/json",
    )
    assert_problem(response, 413)


@pytest.mark.parametrize("size", [4096, 4097])
def test_a_chunked_body_is_held_to_the_limit(app, size):
    """A chunked body has no Content-Length: one past the limit is a 413 (not a truncated
    document answered "invalid JSON"), one at the limit is read whole (here: parsed, then
    refused for its empty list)."""
    app.config["MAX_CONTENT_LENGTH"] = 4096
    body = b'{"games": [' + b" " * (size - 13) + b"]}"
    assert len(body) == size
    response = app.test_client().post(
        "/v1/league/table",
        input_stream=io.BytesIO(body),
        content_type="application/json",
        environ_overrides={"wsgi.input_terminated": True, "CONTENT_LENGTH": ""},
    )
    if size > 4096:
        assert_problem(response, 413)
        assert "4096 bytes" in response.get_json()["detail"]
    else:
        assert_problem(response, 422)
        assert response.get_json()["detail"].startswith("/games")


def test_writes_are_rate_limited(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": f"sqlite:///{tmp_path}/r.sqlite3",
            "WRITE_RATE_LIMIT": "3/60",
        }
    )
    client = app.test_client()
    body = {"players": [{"id": p} for p in "abc"]}
    statuses = [client.post(TOURNAMENTS, json=body).status_code for _ in range(4)]
    assert statuses == [201, 201, 201, 429]
    limited = client.post(TOURNAMENTS, json=body)
    assert_problem(limited, 429)
    assert int(limited.headers["Retry-After"]) >= 1
    assert client.post("/v1/strikes/tables", json={"players": 9}).status_code == 200  # not a write
    app.extensions["pairing_store"].engine.dispose()


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/diagonal/events", {"players": [{"id": "a"}, {"id": "b"}]}),
        ("/v1/puffing-billy/events", {"players": [{"id": "a"}]}),
    ],
)
def test_a_tokens_writes_share_one_count_in_every_held_format(tmp_path, path, body):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": f"sqlite:///{tmp_path}/r.sqlite3",
            "WRITE_RATE_LIMIT": "2/60",
        }
    )
    client = app.test_client()
    created = client.post(path, json=body).get_json()  # a create: counted per address
    auth = {"Authorization": f"Bearer {created['token']}"}
    assert client.post(f"{path}/{created['id']}/undo", headers=auth).status_code == 409
    rotation = {**auth, "Idempotency-Key": str(uuid.uuid4())}
    assert client.post(f"{path}/{created['id']}/token", headers=rotation).status_code == 200
    assert_problem(client.post(f"{path}/{created['id']}/undo", headers=auth), 429)
    assert client.get(f"{path}/{created['id']}/history").status_code == 200  # reads are free
    app.extensions["pairing_store"].engine.dispose()


def test_tokens_are_never_logged_or_shown_again(client, caplog):
    caplog.set_level(logging.DEBUG)
    created = client.post(TOURNAMENTS, json={"players": [{"id": p} for p in "abc"]}).get_json()
    token = created["token"]
    auth = {"Authorization": f"Bearer {token}"}
    client.post(f"{TOURNAMENTS}/{created['id']}/rounds", headers=auth)
    client.post(f"{TOURNAMENTS}/{created['id']}/rounds", headers={"Authorization": "Bearer wrong"})
    read = client.get(f"{TOURNAMENTS}/{created['id']}").get_data(as_text=True)
    round_ = client.get(f"{TOURNAMENTS}/{created['id']}/rounds/1").get_data(as_text=True)
    assert token not in read and token not in round_
    assert all(token not in record.getMessage() for record in caplog.records)


def test_the_write_limit_holds_across_instances_sharing_redis(tmp_path, redis_url):
    """Two instances (as two gunicorn workers or hosts would be) count one client's writes
    together when their limiter's storage is the same Redis."""
    import uuid

    config = {
        "TESTING": True,
        "DATABASE_URL": f"sqlite:///{tmp_path}/shared.sqlite3",
        "WRITE_RATE_LIMIT": "3/60",
        "RATE_LIMIT_STORAGE": redis_url,
    }
    first, second = create_app(config).test_client(), create_app(config).test_client()
    address = {"REMOTE_ADDR": f"10.{uuid.uuid4().int % 250}.0.{uuid.uuid4().int % 250}"}
    body = {"players": [{"id": p} for p in "abc"]}

    def create(client):
        return client.post(TOURNAMENTS, json=body, environ_base=address)

    assert [create(first).status_code, create(second).status_code] == [201, 201]
    assert create(first).status_code == 201
    limited = create(second)  # the fourth write of this address, on the other instance
    assert_problem(limited, 429)
    assert int(limited.headers["Retry-After"]) >= 1
    # A write limit per instance (memory) would have let the second instance go on.
    alone = create_app({**config, "RATE_LIMIT_STORAGE": "memory://"}).test_client()
    assert create(alone).status_code == 201
