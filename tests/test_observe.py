"""Request ids in answers, problems and logs; request logs as JSON lines without secrets."""

from __future__ import annotations

import json
import logging

from pythonjsonlogger.json import JsonFormatter

from .conftest import assert_problem


def test_every_answer_carries_a_request_id_and_a_well_formed_one_is_kept(client):
    made = client.get("/healthz")
    assert len(made.headers["X-Request-ID"]) == 32
    kept = client.get("/healthz", headers={"X-Request-ID": "director-laptop.42"})
    assert kept.headers["X-Request-ID"] == "director-laptop.42"
    for bad in ("has space", "x" * 65, "semi;colon", ""):
        answer = client.get("/healthz", headers={"X-Request-ID": bad})
        assert answer.headers["X-Request-ID"] != bad and len(answer.headers["X-Request-ID"]) == 32


def test_problems_name_the_request_as_their_instance(client):
    answer = client.post(
        "/v1/strikes/tournaments", json={"players": []}, headers={"X-Request-ID": "abc-123"}
    )
    problem = assert_problem(answer, 422, "/players")
    assert problem["instance"] == "urn:pairing-advisor:request:abc-123"
    answer = client.get("/v1/strikes/tournaments/" + "0" * 32)
    missing = assert_problem(answer, 404)
    assert missing["instance"] == f"urn:pairing-advisor:request:{answer.headers['X-Request-ID']}"


def test_request_logs_are_json_lines_with_the_id_and_no_token_or_body(client, caplog):
    caplog.set_level(logging.INFO, logger="pairing_service.requests")
    created = client.post(
        "/v1/strikes/tournaments",
        json={"players": [{"id": "secret-ann"}, {"id": "bob"}, {"id": "cat"}]},
        headers={"X-Request-ID": "req-1"},
    ).get_json()
    client.post(
        f"/v1/strikes/tournaments/{created['id']}/rounds?x=1",
        headers={"Authorization": f"Bearer {created['token']}", "X-Request-ID": "req-2"},
    )
    records = [r for r in caplog.records if r.name == "pairing_service.requests"]
    assert [r.request_id for r in records] == ["req-1", "req-2"]
    second = records[1]
    assert (second.method, second.status) == ("POST", 201)
    assert second.path == f"/v1/strikes/tournaments/{created['id']}/rounds"  # no query
    line = JsonFormatter("%(levelname)s %(name)s %(message)s").format(second)
    parsed = json.loads(line)
    assert parsed["request_id"] == "req-2" and parsed["status"] == 201
    assert parsed["duration_ms"] >= 0
    everything = "\n".join(JsonFormatter("%(message)s").format(r) for r in caplog.records)
    assert created["token"] not in everything and "secret-ann" not in everything
