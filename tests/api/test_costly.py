"""A budget for costly computations: while every slot is taken, a simulation answers 503
``busy`` at once with Retry-After, a stateless planner after waiting a moment for a slot,
and everything else is answered as usual; each instance of the service has its own
slots."""

from __future__ import annotations

import threading
import time

from pairing_service import create_app
from pairing_service.api import costly
from pairing_service.api.costly import slot
from tests.support import assert_problem

PLAN = {"players": 12, "game": "4-3", "threshold": 3, "events": 5, "seed": 1}
SIMULATE = {"players": [{"id": f"R{i}", "rating": 1500 + i} for i in range(6)], "events": 3}


def test_a_simulation_waits_for_no_slot_and_answers_busy(app, client, tmp_path):
    app.config.update(COSTLY_CONCURRENCY=1, COSTLY_SLOTS_DIR=str(tmp_path / "slots"))
    assert client.post("/v1/strikes/plan", json=PLAN).status_code == 200
    with slot(str(tmp_path / "slots"), 1):  # another worker's simulation runs
        for path, body in (("/v1/strikes/plan", PLAN), ("/v1/diagonal/simulate", SIMULATE)):
            busy = client.post(path, json=body)
            problem = assert_problem(busy, 503)
            assert problem["type"] == "/problems/busy"
            assert int(busy.headers["Retry-After"]) >= 1
        assert client.post("/v1/strikes/tables", json={"players": 9}).status_code == 200
        assert client.get("/problems/busy").status_code == 200
    assert client.post("/v1/strikes/plan", json=PLAN).status_code == 200  # released


def test_two_slots_run_two_at_once(app, client, tmp_path):
    folder = str(tmp_path / "slots")
    app.config.update(COSTLY_CONCURRENCY=2, COSTLY_SLOTS_DIR=folder)
    with slot(folder, 2):
        assert client.post("/v1/strikes/plan", json=PLAN).status_code == 200
        with slot(folder, 2):
            assert_problem(client.post("/v1/strikes/plan", json=PLAN), 503)


def test_two_instances_on_one_machine_never_share_a_budget(tmp_path):
    """A practice server and the live one on one machine, by the same user: every slot of
    the practice one taken, the live one still plans (a per-user folder made it 503)."""
    practice, live = (
        create_app(
            {
                "TESTING": True,
                "DATABASE_URL": f"sqlite:///{tmp_path}/{name}.sqlite3",
                "COSTLY_CONCURRENCY": 1,
            }
        )
        for name in ("practice", "live")
    )
    folders = {practice.config["COSTLY_SLOTS_DIR"], live.config["COSTLY_SLOTS_DIR"]}
    assert len(folders) == 2
    with slot(practice.config["COSTLY_SLOTS_DIR"], 1):  # the practice server's simulation
        assert_problem(practice.test_client().post("/v1/strikes/plan", json=PLAN), 503)
        assert live.test_client().post("/v1/strikes/plan", json=PLAN).status_code == 200
    for app in (practice, live):
        app.extensions["pairing_store"].engine.dispose()


PLANNERS = (
    (
        "/v1/strikes/seating",
        {
            "players": [{"id": f"s{i}", "strikes": i % 3} for i in range(12)],
            "history": [["s0", "s1", "s2", "s3"]],
            "seed": 1,
        },
    ),
    (
        "/v1/diagonal/round",
        {"players": [{"id": chr(65 + i), "rating": 2000 - i} for i in range(8)]},
    ),
    (
        "/v1/league/schedule",
        {"players": list("ABCDEFG"), "game": "AGR", "season": 2, "league": "3-B"},
    ),
    (
        "/v1/scrabble/final-round",
        {"players": [{"id": f"p{i}", "wins": 8 - i // 2, "spread": 100 - i} for i in range(8)]},
    ),
)


def test_the_stateless_planners_count_in_the_costly_budget(app, client, tmp_path, monkeypatch):
    monkeypatch.setattr(costly, "SLOT_WAIT_SECONDS", 0.2)
    folder = str(tmp_path / "slots")
    app.config.update(COSTLY_CONCURRENCY=1, COSTLY_SLOTS_DIR=folder)
    final_round = dict(PLANNERS)["/v1/scrabble/final-round"]
    advice = client.post("/v1/scrabble/final-round", json=final_round).get_json()
    audit = {**final_round, "pairings": advice["pairings"]}
    for path, body in (*PLANNERS, ("/v1/scrabble/audit", audit)):
        assert client.post(path, json=body).status_code == 200, path
        with slot(folder, 1):  # another worker's costly work holds the one slot
            began = time.monotonic()
            busy = client.post(path, json=body)
            assert assert_problem(busy, 503)["type"] == "/problems/busy", path
            assert int(busy.headers["Retry-After"]) >= 1
            assert time.monotonic() - began >= 0.2  # it waited for a slot first


def test_a_planner_waits_a_moment_for_a_slot_to_free(app, client, tmp_path):
    folder = str(tmp_path / "slots")
    app.config.update(COSTLY_CONCURRENCY=1, COSTLY_SLOTS_DIR=folder)
    path, body = PLANNERS[0]
    held, freed = threading.Event(), threading.Event()

    def another_planner() -> None:
        with slot(folder, 1):
            held.set()
            time.sleep(0.3)
        freed.set()

    other = threading.Thread(target=another_planner)
    other.start()
    held.wait(5)
    assert client.post(path, json=body).status_code == 200  # after the other one's
    assert freed.is_set()
    other.join()
