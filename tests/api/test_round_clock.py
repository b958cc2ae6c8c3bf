"""A round's clock: started and stopped by the director while a round is played, its length
the director's (else the event's last clock's, else the format's usual one), answered in
every read, logged in the history, gone once the round closes."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

import pytest
from flask.testing import FlaskClient

from tests.support import assert_problem, auth

PLAYERS = [{"id": f"p{i}", "name": f"Player {i}", "rating": 2000 - i} for i in range(6)]
EVENTS = {
    "strikes": ("/v1/strikes/tournaments", {"players": [{"id": p["id"]} for p in PLAYERS]}, 90),
    "diagonal": ("/v1/diagonal/events", {"players": PLAYERS}, 30),
    "scrabble": ("/v1/scrabble/events", {"players": PLAYERS, "rounds": 3}, 50),
}


def _event(client: FlaskClient, fmt: str) -> tuple[str, str]:
    collection, body, _ = EVENTS[fmt]
    made = client.post(collection, json=body).get_json()
    return f"{collection}/{made['id']}", made["token"]


@pytest.mark.parametrize("fmt", sorted(EVENTS))
def test_the_clock_runs_the_usual_length_then_the_directors(client: FlaskClient, fmt: str) -> None:
    base, token = _event(client, fmt)
    refused = client.post(f"{base}/clock", headers=auth(token))
    assert "no round is being played" in assert_problem(refused, 409)["detail"]
    client.post(f"{base}/rounds", headers=auth(token))
    started = client.post(f"{base}/clock", headers=auth(token))
    assert started.status_code == 200, started.get_json()
    clock = started.get_json()["clock"]
    assert (clock["round"], clock["minutes"]) == (1, EVENTS[fmt][2])
    began, ends = (datetime.fromisoformat(clock[k]) for k in ("started_at", "ends_at"))
    assert abs(ends - began - timedelta(minutes=clock["minutes"])) < timedelta(seconds=5)
    again = client.post(f"{base}/clock", json={"minutes": 45}, headers=auth(token))
    assert again.get_json()["clock"]["minutes"] == 45
    assert client.get(base).get_json()["clock"]["minutes"] == 45  # every read answers it
    stopped = client.delete(f"{base}/clock", headers=auth(token))
    assert stopped.status_code == 200 and stopped.get_json()["clock"] is None
    history = client.get(f"{base}/history", headers=auth(token)).get_json()["actions"]
    assert [a["summary"] for a in history[-3:]][-1] == "Round 1's clock was stopped"
    assert "clock started: 45 minutes" in history[-2]["summary"]


def test_the_next_round_runs_as_long_as_the_last_clock_and_a_closed_round_has_none(
    client: FlaskClient,
) -> None:
    base, token = _event(client, "diagonal")
    rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    client.post(f"{base}/clock", json={"minutes": 20}, headers=auth(token))
    for game in rnd["games"]:
        url = f"{base}/rounds/1/games/{game['game']}"
        client.put(url, json={"winner": game["players"][0]}, headers=auth(token))
    closed = client.post(f"{base}/rounds/1/close", headers=auth(token))
    assert closed.status_code == 200
    assert client.get(base).get_json()["clock"] is None  # its round is over
    client.post(f"{base}/rounds", headers=auth(token))
    assert client.post(f"{base}/clock", headers=auth(token)).get_json()["clock"] == {
        **client.get(base).get_json()["clock"],
        "round": 2,
        "minutes": 20,
    }


def test_only_the_director_runs_the_clock_and_a_retry_logs_it_once(client: FlaskClient) -> None:
    base, token = _event(client, "strikes")
    client.post(f"{base}/rounds", headers=auth(token))
    keeper = client.post(f"{base}/scorekeepers", json={"name": "K"}, headers=auth(token))
    refused = client.post(f"{base}/clock", headers=auth(keeper.get_json()["token"]))
    assert refused.status_code == 403
    assert_problem(
        client.post(f"{base}/clock", json={"minutes": 0}, headers=auth(token)), 422, "/minutes"
    )
    headers = {**auth(token), "Idempotency-Key": str(uuid.uuid4())}
    first = client.post(f"{base}/clock", json={"minutes": 30}, headers=headers)
    retried = client.post(f"{base}/clock", json={"minutes": 30}, headers=headers)
    assert first.get_json()["clock"] == retried.get_json()["clock"]
    history = client.get(f"{base}/history", headers=auth(token)).get_json()["actions"]
    assert sum("clock started" in a["summary"] for a in history) == 1


def test_a_backup_with_a_clock_imports_as_a_copy(client: FlaskClient) -> None:
    base, token = _event(client, "scrabble")
    client.post(f"{base}/rounds", headers=auth(token))
    client.post(f"{base}/clock", json={"minutes": 40}, headers=auth(token))
    backup = client.get(f"{base}/backup", headers=auth(token))
    assert backup.status_code == 200
    copy = client.post("/v1/scrabble/events/import", json=backup.get_json())
    assert copy.status_code == 201, copy.get_json()
    read = client.get(f"/v1/scrabble/events/{copy.get_json()['id']}").get_json()
    assert read["clock"]["minutes"] == 40
