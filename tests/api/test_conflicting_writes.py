"""Conflicting writes are told, never silently replaced, for every held format: every
read and write answers the tournament's revision as its ETag; a write sent with a stale
If-Match is refused 412 naming the current revision; a result entered over a different
one that stands is a 409 saying what stands unless the write names the revision it
corrects (If-Match); the same result again stays a no-op 200."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from tests.support import assert_problem, auth
from tests.support.held_events import (
    FORMATS,
    billy,
    kinds,
    league_season,
    race,
    revision,
    strikes_event,
)


@dataclass
class Slot:
    """Somewhere a result is entered, empty, and two different results for it."""

    base: str
    token: str
    url: str
    first: dict
    second: dict


def strikes_slot(client) -> Slot:
    base, token = strikes_event(client)
    players = client.post(f"{base}/rounds", headers=auth(token)).get_json()["tables"][0]["players"]

    def sheet(order: list[str]) -> dict:
        return {"results": [{"player": p, "score": 50 - i} for i, p in enumerate(order)]}

    url = f"{base}/rounds/1/tables/1"
    return Slot(base, token, url, sheet(players), sheet(players[::-1]))


def diagonal_slot(client) -> Slot:
    base, token = race(client)
    game = client.post(f"{base}/rounds", headers=auth(token)).get_json()["games"][0]
    a, b = game["players"]
    url = f"{base}/rounds/1/games/{game['game']}"
    return Slot(base, token, url, {"winner": a, "pieces_left": 2}, {"winner": b, "pieces_left": 1})


def billy_slot(client) -> Slot:
    base, token = billy(client)

    def sheet(rows: list[tuple[str, int]]) -> dict:
        return {"players": [{"id": p, "score": s} for p, s in rows]}

    first, second = sheet([("A", 100), ("B", 90)]), sheet([("B", 100), ("A", 90)])
    return Slot(base, token, f"{base}/boards/1", first, second)


def league_slot(client) -> Slot:
    org = league_season(client, reported=False)
    seats = org.seats[0]

    def sheet(order: list[str]) -> dict:
        return {
            "results": [
                {"player": p, "score": 90 - 10 * i, "position": i + 1} for i, p in enumerate(order)
            ]
        }

    url = f"{org.base}/seasons/1/leagues/1-A/games/1"
    return Slot(org.base, org.token, url, sheet(seats), sheet(seats[::-1]))


SLOTS: dict[str, Callable[..., Slot]] = {
    "strikes": strikes_slot,
    "diagonal": diagonal_slot,
    "puffing_billy": billy_slot,
    "league": league_slot,
}


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
    assert_problem(client.post(f"{held.base}/undo", headers=stale), 412)
    assert_problem(client.post(f"{held.base}/token", headers=stale), 412)
    assert kinds(client, held.base) == log
    fresh = {**auth(held.token), "If-Match": f'W/"0", "{at}"'}  # a list: any of its strong tags
    undone = client.post(f"{held.base}/undo", headers=fresh)
    assert undone.status_code == 200 and undone.headers["ETag"] == f'"{at + 1}"'


@pytest.mark.parametrize("header", ['"abc"', "12", '"' + "9" * 5000 + '"', '"²"', "", 'W/"3"'])
def test_an_if_match_that_names_no_revision_of_ours_is_a_412(client, header):
    held = FORMATS["strikes"](client)
    log = kinds(client, held.base)
    answer = client.post(f"{held.base}/undo", headers={**auth(held.token), "If-Match": header})
    assert_problem(answer, 412)
    assert kinds(client, held.base) == log
