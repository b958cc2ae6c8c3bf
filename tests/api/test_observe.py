"""Request ids in answers, problems and logs; request logs as JSON lines without secrets."""

from __future__ import annotations

import json
import logging

from pairing_service import create_app
from pairing_service.api.observe import JsonLines
from tests.support import assert_problem


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
    assert [r.fields["request_id"] for r in records] == ["req-1", "req-2"]
    second = records[1]
    assert (second.fields["method"], second.fields["status"]) == ("POST", 201)
    assert second.fields["path"] == f"/v1/strikes/tournaments/{created['id']}/rounds"  # no query
    line = JsonLines().format(second)
    parsed = json.loads(line)
    assert parsed["request_id"] == "req-2" and parsed["status"] == 201
    assert parsed["duration_ms"] >= 0
    assert parsed["levelname"] == "INFO" and parsed["timestamp"].endswith("+00:00")
    everything = "\n".join(JsonLines().format(r) for r in caplog.records)
    assert created["token"] not in everything and "secret-ann" not in everything


def test_an_unhandled_error_is_logged_as_one_json_line_with_its_request_id(tmp_path):
    service_log = logging.getLogger("pairing_service")
    before = list(service_log.handlers)
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/db.sqlite3", "TESTING": False})

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("the engine tripped")

    # The service's own JSON lines (added by this app, or by an earlier one in this process).
    (handler,) = [h for h in service_log.handlers if getattr(h, "pairing_json", False)]
    assert isinstance(handler.formatter, JsonLines)
    lines: list[str] = []
    handler.emit = lambda record: lines.append(handler.format(record))  # type: ignore[method-assign]
    try:
        answer = app.test_client().get("/boom", headers={"X-Request-ID": "crash-7"})
    finally:
        del handler.emit
        if handler not in before:
            service_log.removeHandler(handler)
    assert_problem(answer, 500)
    parsed = [json.loads(line) for line in lines]
    error = next(line for line in parsed if line["levelname"] == "ERROR")
    assert error["request_id"] == "crash-7" and error["name"] == "pairing_service.api.errors"
    assert "RuntimeError: the engine tripped" in error["exc_info"]
    request_line = next(line for line in parsed if line["name"] == "pairing_service.requests")
    assert request_line["request_id"] == "crash-7" and request_line["status"] == 500
