"""A new director token retires the old one at once, for every held format: whoever holds
a leaked token can do nothing after the rotation, neither fetch the new token nor rotate
again. A rotation is retried by its Idempotency-Key: the same key with the old token,
within minutes and until the new token is first used, answers the same new token and
writes nothing. A rotation without a key is refused, saying to send one (its lost answer
could never be asked for again)."""

from __future__ import annotations

import hashlib
import uuid
from datetime import timedelta

import pytest
from sqlalchemy import select

from pairing_service.store import schema, tokens
from pairing_service.store.write_keys import ROTATION_RETRY_WINDOW
from tests.support import assert_problem, auth
from tests.support.held_events import FORMATS, Held, held_strikes, kinds


@pytest.fixture(params=sorted(FORMATS))
def held(request, client) -> Held:
    return FORMATS[request.param](client)


def key() -> dict[str, str]:
    return {"Idempotency-Key": str(uuid.uuid4())}


def rotate(client, held: Held, token: str, headers: dict[str, str] | None = None):
    return client.post(f"{held.base}/token", headers={**auth(token), **(headers or {})})


def listed(client, token: str) -> list[str]:
    found = client.post("/v1/held/lookup", json={"tokens": [token]})
    assert found.status_code == 200
    return [t["id"] for t in found.get_json()["tournaments"]]


def test_a_leaked_token_can_do_nothing_once_the_director_rotates(client, held):
    new = rotate(client, held, held.token, key()).get_json()["token"]
    history = kinds(client, held.base)
    # Whoever holds the old token: no new token by rotating again, with or without a key
    # of their own, and no rotation of the director's new token out of their hands.
    assert_problem(rotate(client, held, held.token), 403)
    assert_problem(rotate(client, held, held.token, key()), 403)
    assert_problem(client.post(f"{held.base}/undo?entry=1", headers=auth(held.token)), 403)
    assert held.base.rsplit("/", 1)[1] not in listed(client, held.token)
    assert kinds(client, held.base) == history
    # The director's token still works, and rotates.
    assert held.base.rsplit("/", 1)[1] in listed(client, new)
    assert rotate(client, held, new, key()).status_code == 200


def test_a_retried_rotation_with_its_key_answers_the_same_new_token(client, held):
    sent = key()
    first = rotate(client, held, held.token, sent)
    assert first.status_code == 200, first.get_json()
    history = kinds(client, held.base)
    for _ in range(2):  # the answer was lost, and lost again
        again = rotate(client, held, held.token, sent)
        assert again.status_code == 200, again.get_json()
        assert again.get_json() == first.get_json()
    assert kinds(client, held.base) == history  # nothing written by the retries
    assert history.count("token_replaced") == 1
    # The old token does nothing else meanwhile.
    assert_problem(rotate(client, held, held.token), 403)
    assert_problem(client.post(f"{held.base}/undo?entry=1", headers=auth(held.token)), 403)


def test_the_same_key_with_the_new_token_answers_it_and_rotates_nothing(client, held):
    sent = key()
    new = rotate(client, held, held.token, sent).get_json()["token"]
    history = kinds(client, held.base)
    again = rotate(client, held, new, sent)
    assert again.status_code == 200 and again.get_json()["token"] == new
    assert kinds(client, held.base) == history


def test_a_rotation_without_a_key_is_refused_saying_to_send_one(client, held):
    history = kinds(client, held.base)
    refused = assert_problem(rotate(client, held, held.token), 400)
    assert "Idempotency-Key" in refused["detail"]
    assert kinds(client, held.base) == history
    assert rotate(client, held, held.token, key()).status_code == 200  # the token still works


def test_the_retry_lasts_minutes_only(client, monkeypatch):
    held = held_strikes(client)
    sent = key()
    rotate(client, held, held.token, sent)
    later = tokens.now() + ROTATION_RETRY_WINDOW + timedelta(seconds=1)
    monkeypatch.setattr("pairing_service.store.director_tokens.now", lambda: later)
    assert_problem(rotate(client, held, held.token, sent), 403)


@pytest.mark.parametrize(
    "use",
    [
        lambda client, held, new: client.get("/v1/held", headers=auth(new)),
        lambda client, held, new: client.post("/v1/held/lookup", json={"tokens": [new]}),
        lambda client, held, new: rotate(client, held, new, key()),
        # refused by the rules (nothing to undo twice over is not the point): still a use
        lambda client, held, new: client.post(f"{held.base}/undo?entry=1", headers=auth(new)),
    ],
    ids=["list", "lookup", "rotate-again", "refused-write"],
)
def test_any_use_of_the_new_token_ends_the_retry(client, use):
    held = held_strikes(client)
    sent = key()
    new = rotate(client, held, held.token, sent).get_json()["token"]
    assert use(client, held, new).status_code in (200, 409)
    assert_problem(rotate(client, held, held.token, sent), 403)


def test_a_third_partys_token_is_still_refused(client, held):
    stranger = held_strikes(client)
    sent = key()
    assert_problem(rotate(client, held, stranger.token, sent), 403)
    new = rotate(client, held, held.token, sent).get_json()["token"]
    assert_problem(rotate(client, held, stranger.token, sent), 403)
    assert_problem(rotate(client, held, held.token + "x", sent), 403)
    # The retry of one tournament's rotation is no key to another's.
    assert_problem(rotate(client, stranger, held.token, sent), 403)
    assert rotate(client, held, held.token, sent).get_json()["token"] == new


def test_a_second_rotation_retries_from_its_own_old_token(client, held):
    first, second = key(), key()
    made = rotate(client, held, held.token, first).get_json()["token"]
    then = rotate(client, held, made, second).get_json()["token"]
    assert len({held.token, made, then}) == 3
    assert rotate(client, held, made, second).get_json()["token"] == then
    assert_problem(rotate(client, held, held.token, first), 403)


def test_a_scorekeepers_token_does_not_rotate(client):
    held = held_strikes(client)
    issued = client.post(
        f"{held.base}/scorekeepers", json={"name": "Desk"}, headers=auth(held.token)
    ).get_json()
    refused = assert_problem(rotate(client, held, issued["token"], key()), 403)
    assert "director token" in refused["detail"]


def test_what_the_store_keeps_does_not_give_the_new_token(client, app):
    # A copy of the database (a backup file, a dump, a replica) holds the old token's hash,
    # the rotation key's hash and the salt: the new token must need the secrets as sent.
    held = held_strikes(client)
    tournament = held.base.rsplit("/", 1)[1]
    new = rotate(client, held, held.token, key()).get_json()["token"]
    engine = app.extensions["pairing_store"].engine
    with engine.connect() as connection:
        row = connection.execute(
            select(schema.tournaments).where(schema.tournaments.c.id == tournament)
        ).one()
        key_hashes = connection.execute(
            select(schema.write_keys.c.key_hash).where(
                schema.write_keys.c.tournament_id == tournament
            )
        ).scalars()
        stored = [v for v in (*row, *key_hashes) if isinstance(v, str)]
    assert row.rotation_salt in stored and row.previous_token_hash in stored
    salt = row.rotation_salt
    guesses = {tokens.derived_token(value, tournament, salt) for value in stored}
    guesses |= {
        tokens.derived_token(hashlib.sha256(f"{a}:{b}".encode()).hexdigest(), tournament, salt)
        for a in stored
        for b in stored
    }
    guesses |= {tokens.rotated_token(a, b, tournament, salt) for a in stored for b in stored}
    assert new not in guesses
