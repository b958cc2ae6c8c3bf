"""Writes that retry: a write to a held tournament sent with an Idempotency-Key acts once.
Its retry, after an answer lost on venue Wi-Fi, is answered with what the first did (the
round it started, the entry it undid) and writes nothing; the same key with another
request is refused 422; a write without a key behaves as it always has."""

from __future__ import annotations

import uuid

import pytest

from tests.support import assert_problem, auth
from tests.support.held_events import (
    FORMATS,
    SLOTS,
    kinds,
    latest_entry,
    race,
    scrabble_event,
    strikes_event,
)

ROUND_BY_ROUND = {"strikes": strikes_event, "diagonal": race, "scrabble": scrabble_event}


def key() -> dict[str, str]:
    return {"Idempotency-Key": str(uuid.uuid4())}


@pytest.mark.parametrize("fmt", sorted(ROUND_BY_ROUND))
def test_a_retried_round_start_answers_the_round_it_started(client, fmt):
    base, token = ROUND_BY_ROUND[fmt](client)
    headers = {**auth(token), **key()}
    first = client.post(f"{base}/rounds", headers=headers)
    assert first.status_code == 201, first.get_json()
    retried = client.post(f"{base}/rounds", headers=headers)
    assert retried.status_code == 201
    assert retried.get_json() == first.get_json()
    assert retried.headers["Location"] == first.headers["Location"]
    assert kinds(client, base).count("round_started") == 1
    # Without the key, the same request is a new one: round 1 is still open.
    assert client.post(f"{base}/rounds", headers=auth(token)).status_code == 409


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_retried_undo_with_a_key_takes_back_one_action(client, fmt):
    held = FORMATS[fmt](client)
    before = kinds(client, held.base)
    headers = {**auth(held.token), **key()}
    undo = f"{held.base}/undo?entry={latest_entry(client, held.base)}"
    first = client.post(undo, headers=headers)
    assert first.status_code == 200, first.get_json()
    retried = client.post(undo, headers=headers)
    assert retried.status_code == 200
    assert retried.get_json()["undone"] == first.get_json()["undone"]
    assert kinds(client, held.base) == [*before, "undone"]


@pytest.mark.parametrize("fmt", sorted(SLOTS))
def test_a_key_sent_again_with_another_request_is_refused(client, fmt):
    slot = SLOTS[fmt](client)
    headers = {**auth(slot.token), **key()}
    assert client.put(slot.url, json=slot.first, headers=headers).status_code == 200
    before = kinds(client, slot.base)
    refused = client.put(slot.url, json=slot.second, headers=headers)
    assert "Idempotency-Key" in assert_problem(refused, 422)["detail"]
    assert kinds(client, slot.base) == before


def test_a_key_belongs_to_its_tournament(client):
    headers = key()
    for _ in range(2):
        base, token = strikes_event(client)
        started = client.post(f"{base}/rounds", headers={**auth(token), **headers})
        assert started.status_code == 201
        assert started.headers["Location"].startswith(base)


def test_every_write_documents_the_key(app):
    spec = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    start = spec["paths"]["/v1/strikes/tournaments/{tournament_id}/rounds"]["post"]
    assert "Idempotency-Key" in [p["name"] for p in start["parameters"]]
