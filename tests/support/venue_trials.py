"""Trials of what venue Wi-Fi and several scorekeepers do to writes: an answer lost and the
write sent again, two scorekeepers entering one table at once, an undo racing a result,
a write made on a stale revision. Each trial makes its own event through ``client`` (the
test client, or :class:`~tests.support.http_client.HttpClient` on a real gunicorn) and
raises AssertionError when an acknowledged result was lost, doubled or silently replaced,
or a write acted twice. ``tests/integration/test_venue_trials.py`` runs them on SQLite and
PostgreSQL; ``bench/venue_trials.py`` runs 80 of each and reports."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.support import auth
from tests.support.held_events import SLOTS, Slot, kinds, revision, strikes_event

Trial = Callable[[Any], None]


def key() -> dict[str, str]:
    return {"Idempotency-Key": str(uuid.uuid4())}


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls together, each on its own thread (and connection)."""
    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return [future.result() for future in [pool.submit(call) for call in calls]]


def stands(client, slot: Slot, body: dict, token: str) -> bool:
    """Whether ``body`` is the result that stands: sending it again changes nothing."""
    before = revision(client, slot.base)
    again = client.put(slot.url, json=body, headers=auth(token))
    return again.status_code == 200 and revision(client, slot.base) == before


def scorekeeper_token(client, slot: Slot) -> str:
    """A scorekeeper's token where the format has them; a league's director else."""
    issued = client.post(
        f"{slot.base}/scorekeepers", json={"name": "second desk"}, headers=auth(slot.token)
    )
    return issued.get_json()["token"] if issued.status_code == 201 else slot.token


def lost_result(client, fmt: str) -> None:
    slot = SLOTS[fmt](client)
    before = revision(client, slot.base)
    first = client.put(slot.url, json=slot.first, headers=auth(slot.token))
    retried = client.put(slot.url, json=slot.first, headers=auth(slot.token))
    assert first.status_code == retried.status_code == 200, (first.status_code, retried.status_code)
    assert revision(client, slot.base) == before + 1, "a retried result was logged twice"


def two_scorekeepers(client, fmt: str) -> None:
    slot = SLOTS[fmt](client)
    other = scorekeeper_token(client, slot)
    before = revision(client, slot.base)
    answers = at_once(
        lambda: client.put(slot.url, json=slot.first, headers=auth(slot.token)),
        lambda: client.put(slot.url, json=slot.second, headers=auth(other)),
    )
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [200, 409], f"two different results answered {statuses}"
    winner = slot.first if answers[0].status_code == 200 else slot.second
    assert revision(client, slot.base) == before + 1
    assert stands(client, slot, winner, slot.token), "the acknowledged result was replaced"


def stale_if_match(client, fmt: str) -> None:
    slot = SLOTS[fmt](client)
    seen = client.get(slot.base).headers["ETag"]
    assert client.put(slot.url, json=slot.first, headers=auth(slot.token)).status_code == 200
    after = revision(client, slot.base)
    stale = client.put(slot.url, json=slot.second, headers={**auth(slot.token), "If-Match": seen})
    assert stale.status_code == 412, stale.status_code
    assert revision(client, slot.base) == after, "a stale write was written"
    assert stands(client, slot, slot.first, slot.token)


def _strikes_round(client) -> tuple[str, str, list[dict]]:
    base, token = strikes_event(client, players=12)
    tables = client.post(f"{base}/rounds", headers=auth(token)).get_json()["tables"]
    return base, token, tables


def _sheet(table: dict) -> dict:
    return {"results": [{"player": p, "score": 50 - i} for i, p in enumerate(table["players"])]}


def undo_racing_a_result(client, _: str = "strikes") -> None:
    base, token, tables = _strikes_round(client)
    first, second = tables[0], tables[1]
    assert (
        client.put(f"{base}/rounds/1/tables/1", json=_sheet(first), headers=auth(token)).status_code
        == 200
    )
    latest = client.get(f"{base}/history").get_json()["actions"][-1]["seq"]
    slot = Slot(base, token, f"{base}/rounds/1/tables/{second['table']}", _sheet(second), {})
    undone, entered = at_once(
        lambda: client.post(f"{base}/undo?entry={latest}", headers=auth(token)),
        lambda: client.put(slot.url, json=slot.first, headers=auth(token)),
    )
    assert entered.status_code == 200 and undone.status_code in (200, 409)
    assert stands(client, slot, slot.first, token), "an undo took back an acknowledged result"


def lost_round_start(client, _: str = "strikes") -> None:
    base, token = strikes_event(client)
    headers = {**auth(token), **key()}
    first = client.post(f"{base}/rounds", headers=headers)
    retried = client.post(f"{base}/rounds", headers=headers)
    assert first.status_code == retried.status_code == 201
    assert first.get_json() == retried.get_json()
    assert kinds(client, base).count("round_started") == 1


def lost_create(client, _: str = "strikes") -> None:
    body = {"players": [{"id": f"P{i}"} for i in range(8)]}
    headers = key()
    first = client.post("/v1/strikes/tournaments", json=body, headers=headers)
    retried = client.post("/v1/strikes/tournaments", json=body, headers=headers)
    assert first.status_code == retried.status_code == 201
    assert first.get_json()["id"] == retried.get_json()["id"]


def lost_rotation(client, _: str = "strikes") -> None:
    base, token = strikes_event(client)
    headers = {**auth(token), **key()}
    first = client.post(f"{base}/token", headers=headers)
    retried = client.post(f"{base}/token", headers=headers)
    assert first.status_code == retried.status_code == 200
    new = first.get_json()["token"]
    assert retried.get_json()["token"] == new
    assert client.post(f"{base}/rounds", headers=auth(new)).status_code == 201
    assert client.post(f"{base}/undo", headers=auth(token)).status_code == 403


def lost_undo(client, _: str = "strikes") -> None:
    base, token, _tables = _strikes_round(client)
    latest = client.get(f"{base}/history").get_json()["actions"][-1]["seq"]
    first = client.post(f"{base}/undo?entry={latest}", headers=auth(token))
    retried = client.post(f"{base}/undo?entry={latest}", headers=auth(token))
    assert first.status_code == retried.status_code == 200
    assert kinds(client, base).count("undone") == 1


# (name, trial, the formats it runs on)
TRIALS: list[tuple[str, Callable[[Any, str], None], tuple[str, ...]]] = [
    ("result, answer lost and sent again", lost_result, tuple(SLOTS)),
    ("two scorekeepers, one table, at once", two_scorekeepers, tuple(SLOTS)),
    ("result on a stale If-Match", stale_if_match, tuple(SLOTS)),
    ("undo racing a result", undo_racing_a_result, ("strikes",)),
    ("round start, answer lost (Idempotency-Key)", lost_round_start, ("strikes",)),
    ("create, answer lost (Idempotency-Key)", lost_create, ("strikes",)),
    ("token rotation, answer lost (Idempotency-Key)", lost_rotation, ("strikes",)),
    ("undo, answer lost (?entry=)", lost_undo, ("strikes",)),
]


def run_trials(client, trials: int) -> dict[tuple[str, str], list[str]]:
    """Every trial ``trials`` times on each of its formats: the failures of each."""
    failures: dict[tuple[str, str], list[str]] = {}
    for name, trial, formats in TRIALS:
        for fmt in formats:
            failed = failures.setdefault((name, fmt), [])
            for _ in range(trials):
                try:
                    trial(client, fmt)
                except AssertionError as error:
                    failed.append(str(error))
    return failures
