"""Conflicting writes are told, never silently replaced, for every held format: every
read and write answers the tournament's revision as its ETag; a write sent with a stale
If-Match is refused 412 naming the current revision; a result entered over a different
one that stands is a 409 saying what stands unless the write names the revision it
corrects (If-Match); the same result again stays a no-op 200."""

from __future__ import annotations

import uuid

import pytest

from tests.support import assert_problem, auth
from tests.support.held_events import FORMATS, SLOTS, Slot, kinds, latest_entry, revision


@pytest.fixture(params=sorted(SLOTS))
def slot(request, client) -> Slot:
    return SLOTS[request.param](client)


def etag(client, base: str) -> str:
    return client.get(base).headers["ETag"]


def put(client, slot: Slot, body: dict, **headers: str):
    return client.put(slot.url, json=body, headers={**auth(slot.token), **headers})


def test_reads_and_writes_answer_the_revision_as_their_etag(client, slot):
    at = revision(client, slot.base)
    for path in (slot.base, f"{slot.base}/history", f"{slot.base}/export"):
        assert client.get(path).headers["ETag"] == f'"{at}"'
    entered = put(client, slot, slot.first)
    assert entered.status_code == 200
    assert entered.headers["ETag"] == f'"{at + 1}"' == etag(client, slot.base)
    assert "ETag" not in client.get(f"{slot.base}x").headers  # no such tournament


def test_a_different_result_is_refused_saying_what_stands(client, slot):
    assert put(client, slot, slot.first).status_code == 200
    at, log = revision(client, slot.base), kinds(client, slot.base)
    refused = put(client, slot, slot.second)
    body = assert_problem(refused, 409)
    assert body["revision"] == at and refused.headers["ETag"] == f'"{at}"'
    assert body["stands"] and "was" in body["detail"] and f'If-Match: "{at}"' in body["detail"]
    assert kinds(client, slot.base) == log  # nothing written
    # The same result again is a no-op 200.
    again = put(client, slot, slot.first)
    assert again.status_code == 200 and kinds(client, slot.base) == log
    # Said as a correction (the revision it corrects, or any): corrected.
    corrected = put(client, slot, slot.second, **{"If-Match": f'"{at}"'})
    assert corrected.status_code == 200, corrected.get_json()
    assert kinds(client, slot.base)[-1].endswith("_corrected")
    assert put(client, slot, slot.first, **{"If-Match": "*"}).status_code == 200
    assert kinds(client, slot.base)[-1].endswith("_corrected")


def test_two_scorekeepers_on_one_table_are_told(client, slot):
    seen = etag(client, slot.base)  # both read the tournament
    assert put(client, slot, slot.first, **{"If-Match": seen}).status_code == 200
    log = kinds(client, slot.base)
    stale = put(client, slot, slot.second, **{"If-Match": seen})
    body = assert_problem(stale, 412)
    now = revision(client, slot.base)
    assert body["revision"] == now and stale.headers["ETag"] == f'"{now}"'
    assert str(now) in body["detail"]
    assert_problem(put(client, slot, slot.second), 409)  # without If-Match: what stands
    assert kinds(client, slot.base) == log
    # The first keeper's retry with its stale ETag: already so, a no-op 200 (RFC 9110 13.1.1).
    assert put(client, slot, slot.first, **{"If-Match": seen}).status_code == 200
    assert kinds(client, slot.base) == log


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_every_write_honours_if_match(client, fmt):
    held = FORMATS[fmt](client)
    at = revision(client, held.base)
    stale = {**auth(held.token), "If-Match": f'"{at - 1}"'}
    log = kinds(client, held.base)
    undo = f"{held.base}/undo?entry={latest_entry(client, held.base)}"
    assert_problem(client.post(undo, headers=stale), 412)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    assert_problem(client.post(f"{held.base}/token", headers={**stale, **key}), 412)
    assert kinds(client, held.base) == log
    fresh = {**auth(held.token), "If-Match": f'W/"0", "{at}"'}  # a list: any of its strong tags
    undone = client.post(undo, headers=fresh)
    assert undone.status_code == 200 and undone.headers["ETag"] == f'"{at + 1}"'


@pytest.mark.parametrize(
    "header", ['"abc"', "12", '"' + "9" * 5000 + '"', '"²"', "", 'W/"3"', '""']
)
def test_an_if_match_that_names_no_revision_of_ours_is_a_412(client, header):
    held = FORMATS["strikes"](client)
    log = kinds(client, held.base)
    undo = f"{held.base}/undo?entry={latest_entry(client, held.base)}"
    answer = client.post(undo, headers={**auth(held.token), "If-Match": header})
    assert_problem(answer, 412)
    assert kinds(client, held.base) == log
