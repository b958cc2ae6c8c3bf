"""Prometheus metrics at /metrics: requests by route and status with their latency, engine
time by format, store writes; in one process and under gunicorn with several workers."""

from __future__ import annotations

import os
import shutil
import signal
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from prometheus_client import CollectorRegistry
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.parser import text_string_to_metric_families

from pairing_service import create_app
from tests.support import assert_problem
from tests.support.servers import call, free_port, start_gunicorn, wait_ready

TABLES = "/v1/strikes/tables"
TOURNAMENTS = "/v1/strikes/tournaments"
TOURNAMENT_RULE = "/v1/strikes/tournaments/<hex32:tournament_id>"

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def samples(text: str) -> Samples:
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(found: Samples, name: str, **labels: str) -> float:
    return found.get((name, frozenset(labels.items())), 0.0)


def scrape(client) -> Samples:
    answer = client.get("/metrics")
    assert answer.status_code == 200
    assert answer.mimetype == "text/plain" and "version=" in answer.content_type
    return samples(answer.get_data(as_text=True))


def requests_of(found: Samples, method: str, route: str, status: str) -> float:
    return value(
        found,
        "pairing_http_request_duration_seconds_count",
        method=method,
        route=route,
        status=status,
    )


@pytest.fixture()
def limited_app(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": f"sqlite:///{tmp_path}/m.sqlite3",
            "WRITE_RATE_LIMIT": "2/60",
        }
    )
    yield app
    app.extensions["pairing_store"].engine.dispose()


def test_requests_are_counted_with_latency_buckets_by_route_and_status(client):
    # The registry is the process's: every figure is a difference from before.
    before = scrape(client)
    for players in (9, 12, 30):
        assert client.post(TABLES, json={"players": players}).status_code == 200
    assert_problem(client.post(TABLES, json={"players": "nine"}), 422, "/players")
    after = scrape(client)

    def grew(name: str, status: str, **more: str) -> float:
        labels = {"method": "POST", "route": TABLES, "status": status, **more}
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("pairing_http_request_duration_seconds_count", "200") == 3
    assert grew("pairing_http_request_duration_seconds_count", "422") == 1
    assert grew("pairing_http_request_duration_seconds_bucket", "200", le="+Inf") == 3
    assert grew("pairing_http_request_duration_seconds_bucket", "200", le="10.0") == 3
    assert grew("pairing_http_request_duration_seconds_sum", "200") > 0


def test_routes_are_url_rules_and_labels_stay_bounded(client):
    created = client.post(TOURNAMENTS, json={"players": [{"id": p} for p in "abc"]}).get_json()
    tid = created["id"]
    before = scrape(client)
    assert client.get(f"{TOURNAMENTS}/{tid}").status_code == 200
    assert client.get(f"/no/such/{tid}").status_code == 404
    assert client.open(f"{TOURNAMENTS}/{tid}", method="BREW").status_code == 405
    answer = client.get("/metrics")
    after = samples(answer.get_data(as_text=True))
    assert requests_of(after, "GET", TOURNAMENT_RULE, "200") == 1 + requests_of(
        before, "GET", TOURNAMENT_RULE, "200"
    )
    assert requests_of(after, "GET", "unmatched", "404") >= 1
    assert requests_of(after, "other", "unmatched", "405") >= 1  # no rule matched BREW
    text = answer.get_data(as_text=True)
    assert tid not in text and created["token"] not in text and "BREW" not in text


def test_engine_time_is_recorded_per_format_once_per_call(client):
    def engine_calls(fmt: str) -> float:
        return value(scrape(client), "pairing_engine_seconds_count", format=fmt)

    strikes, scrabble = engine_calls("strikes"), engine_calls("scrabble")
    assert client.post(TABLES, json={"players": 9}).status_code == 200
    assert engine_calls("strikes") == strikes + 1  # the handler, not each engine function
    body = {"players": [{"id": "A", "wins": 8, "spread": 40}, {"id": "B", "wins": 7, "spread": 9}]}
    assert client.post("/v1/scrabble/final-round", json=body).status_code == 200
    assert engine_calls("scrabble") == scrabble + 1

    # A held format: its ledger's fold, decisions and apply, each call counted once.
    races = engine_calls("diagonal")
    created = client.post(
        "/v1/diagonal/events", json={"players": [{"id": "a"}, {"id": "b"}]}
    ).get_json()
    assert engine_calls("diagonal") == races + 1  # the creation is folded once
    found = scrape(client)
    assert value(found, "pairing_engine_seconds_bucket", format="diagonal", le="+Inf") > races
    assert value(found, "pairing_engine_seconds_sum", format="diagonal") > 0
    auth = {"Authorization": f"Bearer {created['token']}"}
    assert client.post(f"/v1/diagonal/events/{created['id']}/rounds", headers=auth).status_code
    assert engine_calls("diagonal") > races + 1


def test_store_writes_are_counted_when_committed(client):
    def writes(action: str) -> float:
        return value(scrape(client), "pairing_store_writes_total", format="strikes", action=action)

    created_before, started_before, undone_before = (
        writes("created"),
        writes("round_started"),
        writes("undone"),
    )
    created = client.post(TOURNAMENTS, json={"players": [{"id": p} for p in "abcd"]}).get_json()
    rounds = f"{TOURNAMENTS}/{created['id']}/rounds"
    auth = {"Authorization": f"Bearer {created['token']}"}
    assert client.post(rounds, headers=auth).status_code == 201
    assert client.post(rounds, headers=auth).status_code == 409  # refused: nothing written
    assert client.post(rounds, headers={"Authorization": "Bearer wrong"}).status_code == 403
    undo = f"{TOURNAMENTS}/{created['id']}/undo?entry=2"  # the round's start
    assert client.post(undo, headers=auth).status_code == 200
    assert writes("created") == created_before + 1
    assert writes("round_started") == started_before + 1
    assert writes("undone") == undone_before + 1


def test_metrics_are_never_rate_limited_and_show_no_secret(limited_app):
    client = limited_app.test_client()
    body = {"players": [{"id": "secret-ann"}, {"id": "bob"}, {"id": "cat"}]}
    statuses = [client.post(TOURNAMENTS, json=body).status_code for _ in range(3)]
    assert statuses == [201, 201, 429]
    answers = [client.get("/metrics") for _ in range(30)]
    assert {answer.status_code for answer in answers} == {200}
    assert "X-RateLimit-Limit" not in answers[-1].headers
    assert answers[-1].headers["Cache-Control"] == "no-store"
    text = answers[-1].get_data(as_text=True)
    assert "secret-ann" not in text and "Bearer" not in text
    assert 'status="429"' in text  # the refusal itself is counted


def test_metrics_can_be_turned_off(tmp_path):
    app = create_app(
        {"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/o.sqlite3", "METRICS": False}
    )
    client = app.test_client()
    assert_problem(client.get("/metrics"), 404)
    app.extensions["pairing_store"].engine.dispose()


# --- under gunicorn -----------------------------------------------------------------------


def scrape_server(base: str) -> Samples:
    with urllib.request.urlopen(base + "/metrics", timeout=30) as answer:
        return samples(answer.read().decode())


MAX_BATCHES = 5


def counts_by_worker(folder: Path, tmp_path: Path, route: str) -> dict[int, float]:
    """Each worker's own count of 200s on ``route``: its file of the folder, read alone."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    found: dict[int, float] = {}
    for path in folder.glob("histogram_*.db"):
        alone = tmp_path / path.stem
        alone.mkdir()
        shutil.copy(path, alone)
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=str(alone))
        labels = {"method": "POST", "route": route, "status": "200"}
        count = registry.get_sample_value("pairing_http_request_duration_seconds_count", labels)
        if count:
            found[int(path.stem.split("_")[-1])] = count
    return found


@pytest.mark.slow
@pytest.mark.gunicorn
def test_every_request_is_counted_once_across_gunicorn_workers(tmp_path):
    folder = tmp_path / "metrics"
    folder.mkdir()
    (folder / "counter_1.db").write_bytes(b"left by an earlier server")
    port, log = free_port(), tmp_path / "gunicorn.log"
    process = start_gunicorn(
        f"sqlite:///{tmp_path}/w.sqlite3", port, log, PROMETHEUS_MULTIPROC_DIR=str(folder)
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, process, log)
        assert not (folder / "counter_1.db").exists()  # emptied at start
        batch, requests = 120, 0

        def tables(i: int) -> int:
            return call(base, "POST", TABLES, {"players": 8 + i % 40})[0]

        # An idle machine can let one worker drain a whole batch of quick requests: send
        # batches until at least two workers have answered some (the point is counting
        # across workers), and count every request sent.
        by_worker: dict[int, float] = {}
        for _ in range(MAX_BATCHES):
            with ThreadPoolExecutor(max_workers=16) as pool:
                assert set(pool.map(tables, range(batch))) == {200}
            requests += batch
            by_worker = counts_by_worker(folder, tmp_path / f"read{requests}", TABLES)
            if len(by_worker) >= 2:
                break
        assert len(by_worker) >= 2, f"the requests did not spread over workers: {by_worker}"
        assert sum(by_worker.values()) == requests

        # Whichever worker answers the scrape, each request is there once.
        for _ in range(6):
            found = scrape_server(base)
            assert requests_of(found, "POST", TABLES, "200") == requests
            assert value(found, "pairing_engine_seconds_count", format="strikes") == requests

        # A worker that exits (gunicorn starts another) leaves its counts behind.
        os.kill(max(by_worker, key=lambda pid: by_worker[pid]), signal.SIGTERM)
        time.sleep(2)
        wait_ready(base, process, log)
        assert requests_of(scrape_server(base), "POST", TABLES, "200") == requests
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert "Traceback" not in log.read_text()
