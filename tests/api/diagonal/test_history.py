"""Diagonal `/round` refuses a history no played rounds could produce, and the
simulator and planner bounds admit exactly the studies the docs report (bounded by work)."""

from __future__ import annotations

import importlib.util
import random
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing_service.api.diagonal.schemas import MAX_SIMULATION_WORK, SimulateIn
from pairing_service.api.strikes.tool_schemas import MAX_PLANNER_WORK, PlanIn
from pairing_service.engine.diagonal import Entrant, InvalidRound, check_history, plan_round
from tests.support import ROOT, assert_problem

ROUND = "/v1/diagonal/round"


def studies() -> ModuleType:
    """bench/studies.py (bench/ is not a package), imported from its file."""
    spec = importlib.util.spec_from_file_location("studies", ROOT / "bench" / "studies.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def played(ids: list[str], rounds: int, rng: random.Random) -> list[Entrant]:
    """A field after ``rounds`` rounds paired by the engine, each game won at random."""
    losses = dict.fromkeys(ids, 0)
    met: dict[str, list[str]] = {p: [] for p in ids}
    for _ in range(rounds):
        plan = plan_round([Entrant(p, 0.0, losses[p], tuple(met[p])) for p in ids])
        for a, b in plan.games:
            met[a].append(b)
            met[b].append(a)
            losses[rng.choice((a, b))] += 1
    return [Entrant(p, 0.0, losses[p], tuple(met[p])) for p in ids]


def as_body(entrants: list[Entrant]) -> list[dict[str, Any]]:
    return [
        {"id": e.id, "rating": 2000 - 10 * i, "losses": e.losses, "met": list(e.met)}
        for i, e in enumerate(entrants)
    ]


# --- the history of /round ---------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(size=st.integers(2, 16), rounds=st.integers(0, 3), seed=st.integers(0, 2**32))
def test_every_history_the_rounds_produce_is_accepted(size, rounds, seed):
    field = played([f"P{i}" for i in range(size)], rounds, random.Random(seed))
    check_history(field, rounds + 1)
    check_history(field)


@pytest.mark.parametrize(
    ("players", "extra", "pointer", "words"),
    [
        # an id nobody entered (a typo, or a player left out of the list)
        (
            [{"id": "A", "losses": 1, "met": ["Q"]}, {"id": "B"}],
            {},
            "/players/0/met/0",
            "'Q' is not a player",
        ),
        ([{"id": "A", "met": ["A"]}, {"id": "B"}], {}, "/players/0/met/0", "themselves"),
        # asymmetric: A met B, B does not list A
        (
            [{"id": "A", "met": ["B"]}, {"id": "B", "losses": 1}],
            {},
            "/players/0/met/0",
            "'A' lists 'B' once but 'B' lists 'A' never",
        ),
        # met twice by one account, once by the other: the second entry is the surplus
        (
            [{"id": "A", "losses": 1, "met": ["B", "B"]}, {"id": "B", "losses": 1, "met": ["A"]}],
            {},
            "/players/0/met/1",
            "'A' lists 'B' twice but 'B' lists 'A' once",
        ),
        # losses without the games they were lost in: no rematch could be avoided
        (
            [{"id": "A", "losses": 1}, {"id": "B"}, {"id": "C"}],
            {},
            "/players/0/losses",
            "1 loss but 0 games in met",
        ),
        (
            [{"id": "A", "losses": 3, "met": ["B", "B"]}, {"id": "B", "met": ["A", "A"]}],
            {},
            "/players/0/losses",
            "3 losses but 2 games",
        ),
        # a game nobody lost
        (
            [{"id": "A", "met": ["B"]}, {"id": "B", "met": ["A"]}],
            {},
            "/players",
            "losses add up to 0 but their met lists hold 1 game",
        ),
        # a later round with no history at all: round-1 rules would apply silently
        ([{"id": "A"}, {"id": "B"}, {"id": "C"}], {"round": 3}, "/round", "follows 2 rounds"),
        (
            [{"id": "A", "losses": 1, "met": ["B"]}, {"id": "B", "met": ["A"]}, {"id": "C"}],
            {"round": 1},
            "/players/0/met",
            "round 1 is the first round",
        ),
        ([{"id": "A"}, {"id": "B"}], {"round": 0}, "/round", "greater than or equal to 1"),
    ],
)
def test_an_impossible_history_is_a_422_naming_the_entry(client, players, extra, pointer, words):
    body = assert_problem(client.post(ROUND, json={"players": players, **extra}), 422, pointer)
    assert words in body["detail"]


def test_a_later_round_sent_without_history_was_paired_as_round_one(client):
    """The defect: 12 players said to be in round 3 got round 1's four opponents each."""
    players = [{"id": f"P{i}", "rating": 2000 - i} for i in range(12)]
    assert_problem(client.post(ROUND, json={"players": players, "round": 3}), 422, "/round")
    first = client.post(ROUND, json={"players": players}).get_json()
    assert first["opponents"] == 4 and "paired as the first round" in first["notes"][0]
    assert client.post(ROUND, json={"players": players, "round": 1}).get_json()["notes"] == []


def test_a_real_history_pairs_the_next_round_without_rematches(client):
    field = played([f"P{i}" for i in range(16)], 1, random.Random(4))
    answer = client.post(ROUND, json={"players": as_body(field), "round": 2})
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert body["opponents"] == 2 and body["rematches"] == 0 and body["notes"] == []
    assert body["eliminated"] == [e.id for e in field if e.losses >= 2]


def test_a_dropped_player_stays_listed_for_the_history_but_is_not_paired(client):
    field = played([f"P{i}" for i in range(12)], 1, random.Random(7))
    players = as_body(field)
    leaver = next(p for p in players if p["losses"] < 2)
    leaver["dropped"] = True
    body = client.post(ROUND, json={"players": players, "round": 2}).get_json()
    assert body["dropped"] == [leaver["id"]]
    assert leaver["id"] not in body["order"]
    assert all(leaver["id"] not in g["players"] for g in body["games"])
    # Left out of the list instead, their games name a player nobody entered.
    others = [p for p in players if p is not leaver]
    assert_problem(client.post(ROUND, json={"players": others, "round": 2}), 422)


def test_check_history_names_the_first_surplus_entry():
    with pytest.raises(InvalidRound) as caught:
        check_history(
            [Entrant("A", met=("C", "B", "B")), Entrant("B", met=("A",)), Entrant("C", met=("A",))]
        )
    assert caught.value.at == ("players", 0, "met", 2)


# --- the simulator's and the planner's bounds ---------------------------------------------


def test_the_documented_simulator_studies_are_admitted_and_one_event_more_is_not(client):
    documented = studies().DIAGONAL_STUDIES
    assert {(len(s["players"]), s["events"]) for s in documented} == {
        (12, 300),
        (24, 300),
        (48, 300),
    }
    for study in documented:
        SimulateIn().load(study)  # admitted: no ValidationError
    largest = max(documented, key=lambda s: len(s["players"]))
    assert MAX_SIMULATION_WORK == 300 * 48**2
    body = assert_problem(
        client.post("/v1/diagonal/simulate", json={**largest, "events": 301}), 422, "/events"
    )
    assert "at most 300 events for 48 players" in body["detail"]


def test_the_simulator_bound_is_by_work_not_events_times_players(client):
    players = [{"id": f"P{i}", "rating": 2000 - i} for i in range(64)]
    SimulateIn().load({"players": players, "events": MAX_SIMULATION_WORK // 64**2})
    too_many = {"players": players, "events": MAX_SIMULATION_WORK // 64**2 + 1}
    assert_problem(client.post("/v1/diagonal/simulate", json=too_many), 422, "/events")
    # Small fields get many events: 2,000 events of 12 players (once refused over 208).
    SimulateIn().load({"players": players[:12], "events": 2000})


def test_the_documented_planner_studies_are_admitted_and_one_event_more_is_not(client):
    documented = studies().PLANNER_STUDIES
    assert len(documented) == 36 and {s["events"] for s in documented} == {500}
    for study in documented:
        PlanIn().load(study)
    largest = {"players": 100, "threshold": 47, "events": 500}
    most = max(s["players"] * (s["threshold"] + 12) * s["events"] for s in documented)
    assert most == MAX_PLANNER_WORK
    body = assert_problem(
        client.post("/v1/strikes/plan", json={**largest, "events": 501}), 422, "/events"
    )
    assert "at most 500 events for 100 players at 47 strikes" in body["detail"]


def test_the_planner_bound_counts_the_threshold(client):
    # The same players x events costs more at a higher threshold (more games a player).
    PlanIn().load({"players": 100, "threshold": 23, "events": 840})
    assert_problem(
        client.post("/v1/strikes/plan", json={"players": 100, "threshold": 47, "events": 840}),
        422,
        "/events",
    )


@pytest.mark.parametrize(
    ("doc", "command"),
    [
        ("diagonal.md", "python bench/studies.py diagonal"),
        ("strikes.md", "python bench/studies.py planner"),
    ],
)
def test_the_docs_say_which_command_prints_each_study_table(doc, command):
    assert command in (ROOT / "docs" / doc).read_text(encoding="utf-8")
