"""Creates are safe to retry with an Idempotency-Key, for every held format: the retry
answers the first create's 201 (the same tournament, token and Location) and makes
nothing; the same key with another request is a 422; on SQLite and PostgreSQL, with
requests racing."""

from __future__ import annotations

import threading
import uuid

import pytest
from sqlalchemy import func, select, update

from pairing_service.store import schema
from pairing_service.store.write_keys import KEY_LIFETIME
from tests.support import assert_problem
from tests.support.held_events import BILLY, DIAGONAL, LEAGUE, SCRABBLE, STRIKES, new_token

CREATES = {
    "strikes": (STRIKES, {"players": [{"id": f"P{i}"} for i in range(7)], "seed": 1}),
    "diagonal": (DIAGONAL, {"players": [{"id": "a"}, {"id": "b"}]}),
    "puffing_billy": (BILLY, {"players": [{"id": "A"}, {"id": "B"}, {"id": "C"}]}),
    "league": (LEAGUE, {"code": "AGR", "name": "Agricola"}),
    "scrabble": (
        SCRABBLE,
        {"players": [{"id": f"W{i}", "rating": 1900 - 20 * i} for i in range(4)], "rounds": 3},
    ),
}


def tournaments(app) -> int:
    with app.extensions["pairing_store"].engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(schema.tournaments)).scalar_one()


def key() -> dict[str, str]:
    return {"Idempotency-Key": str(uuid.uuid4())}


@pytest.mark.parametrize("fmt", sorted(CREATES))
def test_a_retried_create_answers_the_first_and_makes_nothing(app, client, fmt):
    path, body = CREATES[fmt]
    headers = key()
    first = client.post(path, json=body, headers=headers)
    assert first.status_code == 201, first.get_json()
    for _ in range(2):
        again = client.post(path, json=body, headers=headers)
        assert again.status_code == 201
        assert again.get_json() == first.get_json()
        assert again.headers["Location"] == first.headers["Location"]
    assert tournaments(app) == 1
    # The token answered is the director's.
    made = first.get_json()
    assert new_token(client, f"{path}/{made['id']}", made["token"]).status_code == 200
    # Without a key, or with another, a create makes a tournament as always.
    assert client.post(path, json=body).status_code == 201
    assert client.post(path, json=body, headers=key()).status_code == 201
    assert tournaments(app) == 3


@pytest.mark.parametrize("fmt", sorted(CREATES))
def test_the_same_key_with_another_request_is_refused(app, client, fmt):
    path, body = CREATES[fmt]
    headers = key()
    assert client.post(path, json=body, headers=headers).status_code == 201
    other = {**body, "name": "Another night"}
    problem = assert_problem(client.post(path, json=other, headers=headers), 422)
    assert "Idempotency-Key" in problem["detail"]
    other_path = CREATES["diagonal" if fmt != "diagonal" else "strikes"]
    assert_problem(client.post(other_path[0], json=other_path[1], headers=headers), 422)
    assert tournaments(app) == 1


@pytest.mark.parametrize("bad", ["short", "x" * 201, "spaces are not allowed here", "é" * 20])
def test_a_malformed_key_is_a_400_naming_it(app, client, bad):
    path, body = CREATES["strikes"]
    headers = {"Idempotency-Key": bad.encode("utf-8").decode("latin-1")}
    problem = assert_problem(client.post(path, json=body, headers=headers), 400)
    assert problem["detail"].startswith("Idempotency-Key")
    assert tournaments(app) == 0


def test_a_retry_after_the_token_was_replaced_says_so(client):
    path, body = CREATES["strikes"]
    headers = key()
    made = client.post(path, json=body, headers=headers).get_json()
    new_token(client, f"{path}/{made['id']}", made["token"])
    problem = assert_problem(client.post(path, json=body, headers=headers), 409)
    assert made["id"] in problem["detail"] and "replaced" in problem["detail"]


def test_a_key_is_answered_for_a_day_then_forgotten(app, client):
    path, body = CREATES["league"]
    headers = key()
    first = client.post(path, json=body, headers=headers).get_json()
    table = schema.idempotency_keys
    with app.extensions["pairing_store"].engine.begin() as conn:
        conn.execute(update(table).values(created_at=table.c.created_at - KEY_LIFETIME))
    later = client.post(path, json=body, headers=headers)
    assert later.status_code == 201 and later.get_json()["id"] != first["id"]
    assert tournaments(app) == 2


@pytest.mark.parametrize("fmt", ["strikes", "league"])
def test_racing_retries_make_one_tournament(store_app, fmt):
    path, body = CREATES[fmt]
    headers = key()
    answers: list = []

    def create() -> None:
        answer = store_app.test_client().post(path, json=body, headers=headers)
        answers.append((answer.status_code, answer.get_json()))

    threads = [threading.Thread(target=create) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {status for status, _ in answers} == {201}
    assert len({(made["id"], made["token"]) for _, made in answers}) == 1
    assert tournaments(store_app) == 1
