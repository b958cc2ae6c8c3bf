"""Undo names what it undoes (``?entry=N``, required): a retry is a no-op answering the
same undo, an undo racing another write takes back nothing and says what is now latest,
and an undo that names nothing undoes nothing, saying which entry to name, for every held
format (a plain undo sent again after a lost answer would take back a second action)."""

from __future__ import annotations

import pytest

from tests.support import assert_problem, auth
from tests.support.held_events import FORMATS


def _latest(client, base: str) -> dict:
    history = client.get(f"{base}/history").get_json()["actions"]
    live = [a for a in history if a["undone_by"] is None and a["kind"] != "undone"]
    return live[-1]


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_retried_undo_answers_the_same_undo_and_takes_back_nothing_more(client, fmt):
    held = FORMATS[fmt](client)
    latest = _latest(client, held.base)
    url = f"{held.base}/undo?entry={latest['seq']}"
    first = client.post(url, headers=auth(held.token))
    assert first.status_code == 200, first.get_json()
    revision = client.get(held.base + "/history").get_json()
    again = client.post(url, headers=auth(held.token))
    assert again.status_code == 200
    assert again.get_json()["undone"] == first.get_json()["undone"]
    assert client.get(held.base + "/history").get_json() == revision  # nothing written


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_an_undo_of_an_entry_no_longer_latest_is_refused_and_undoes_nothing(client, fmt):
    # Entry 1 (the creation) stands for any entry another write has come after.
    held = FORMATS[fmt](client)
    latest = _latest(client, held.base)
    assert latest["seq"] > 1
    refused = client.post(f"{held.base}/undo?entry=1", headers=auth(held.token))
    assert refused.status_code == 409
    assert f"the latest is entry {latest['seq']}" in refused.get_json()["detail"]
    assert _latest(client, held.base) == latest  # nothing undone


def test_an_unknown_entry_is_a_404_and_a_bad_one_a_422(client):
    held = FORMATS["strikes"](client)
    assert client.post(f"{held.base}/undo?entry=999", headers=auth(held.token)).status_code == 404
    assert client.post(f"{held.base}/undo?entry=x", headers=auth(held.token)).status_code == 422


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_an_undo_naming_no_entry_undoes_nothing_and_names_the_latest(client, fmt):
    held = FORMATS[fmt](client)
    latest = _latest(client, held.base)["seq"]
    history = client.get(f"{held.base}/history").get_json()
    for _ in range(2):  # sent, and sent again after a lost answer
        plain = client.post(f"{held.base}/undo", headers=auth(held.token))
        refused = assert_problem(plain, 422, "/query/entry")
        assert f"the latest still in effect is entry {latest}" in refused["detail"]
        assert f"?entry={latest}" in refused["detail"]
    assert client.get(f"{held.base}/history").get_json() == history  # nothing undone
    named = client.post(f"{held.base}/undo?entry={latest}", headers=auth(held.token))
    assert named.status_code == 200 and named.get_json()["undone"]["seq"] == latest


def test_an_undo_naming_no_entry_with_nothing_to_undo_says_so(client):
    made = client.post("/v1/diagonal/events", json={"players": [{"id": "a"}, {"id": "b"}]})
    base = f"/v1/diagonal/events/{made.get_json()['id']}"
    plain = client.post(f"{base}/undo", headers=auth(made.get_json()["token"]))
    assert "nothing to undo" in assert_problem(plain, 409)["detail"]


def test_the_document_says_every_undo_names_its_entry(client):
    paths = client.get("/openapi.json").get_json()["paths"]
    undos = [item["post"] for path, item in paths.items() if path.endswith("/undo")]
    assert len(undos) == len(FORMATS)
    for undo in undos:
        (entry,) = [p for p in undo["parameters"] if p["name"] == "entry"]
        assert entry["in"] == "query" and entry["required"] is True
