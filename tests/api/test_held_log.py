"""What every held format gives, the same way: history, undo, export, one token check.

Each scenario creates a tournament of its format, enters one result and corrects it. The
tests then read the history, undo step by step, and export, identically for every format.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

import pytest

from tests.support import assert_problem, auth, correcting
from tests.support.held_events import undo_latest


@dataclass
class Scenario:
    base: str  # the tournament's own path
    token: str
    shown: Any  # the entered result as the format reads it back (after the correction)
    original: Any  # ... before the correction


def strikes(client) -> Scenario:
    players = [{"id": f"S{i}", "name": f"Sam {i}"} for i in range(5)]
    body = client.post("/v1/strikes/tournaments", json={"players": players, "seed": 1}).get_json()
    base, token = f"/v1/strikes/tournaments/{body['id']}", body["token"]
    table = client.post(f"{base}/rounds", headers=auth(token)).get_json()["tables"][0]
    path = f"{base}/rounds/1/tables/{table['table']}"
    order = table["players"]
    for seated in (order, order[::-1]):
        results = [{"player": p, "score": 50 - i} for i, p in enumerate(seated)]
        headers = correcting(client, base, token)
        assert client.put(path, json={"results": results}, headers=headers).status_code == 200

    def shown() -> list[str]:
        result = client.get(path.rsplit("/tables", 1)[0]).get_json()["tables"][0]["result"]
        return result and [r["player"] for r in result]

    return Scenario(base, token, shown, order)


def diagonal(client) -> Scenario:
    players = [{"id": f"D{i}", "rating": 1500 - i} for i in range(4)]
    body = client.post("/v1/diagonal/events", json={"players": players}).get_json()
    base, token = f"/v1/diagonal/events/{body['id']}", body["token"]
    game = client.post(f"{base}/rounds", headers=auth(token)).get_json()["games"][0]
    path = f"{base}/rounds/1/games/1"
    for winner in game["players"]:
        body = {"winner": winner, "pieces_left": 2}
        assert (
            client.put(path, json=body, headers=correcting(client, base, token)).status_code == 200
        )

    def shown() -> str | None:
        result = client.get(f"{base}/rounds/1").get_json()["games"][0]["result"]
        return result and result["winner"]

    return Scenario(base, token, shown, game["players"][0])


def scrabble(client) -> Scenario:
    players = [{"id": f"W{i}", "rating": 1900 - 20 * i} for i in range(4)]
    body = client.post("/v1/scrabble/events", json={"players": players, "rounds": 3}).get_json()
    base, token = f"/v1/scrabble/events/{body['id']}", body["token"]
    client.post(f"{base}/rounds", headers=auth(token))
    path = f"{base}/rounds/1/games/1"
    for scores in ([420, 380], [380, 420]):
        headers = correcting(client, base, token)
        assert client.put(path, json={"scores": scores}, headers=headers).status_code == 200

    def shown() -> list[int] | None:
        result = client.get(f"{base}/rounds/1").get_json()["games"][0]["result"]
        return result and result["scores"]

    return Scenario(base, token, shown, [420, 380])


def puffing_billy(client) -> Scenario:
    players = [{"id": p} for p in ("Jenny", "Damien", "Ben")]
    body = client.post("/v1/puffing-billy/events", json={"players": players}).get_json()
    base, token = f"/v1/puffing-billy/events/{body['id']}", body["token"]
    first = [("Jenny", 300), ("Damien", 200), ("Ben", 100)]
    corrected = [("Ben", 300), ("Damien", 200), ("Jenny", 100)]
    for rows in (first, corrected):
        sheet = {"players": [{"id": p, "score": s} for p, s in rows]}
        headers = correcting(client, base, token)
        assert client.put(f"{base}/boards/1", json=sheet, headers=headers).status_code == 200

    def shown() -> str | None:
        standings = client.get(base).get_json()["standings"]
        return standings[0]["id"] if standings else None

    return Scenario(base, token, shown, "Jenny")


def league(client) -> Scenario:
    body = client.post("/v1/league/organisations", json={"code": "AGR"}).get_json()
    base, token = f"/v1/league/organisations/{body['id']}", body["token"]
    client.post(f"{base}/seasons", headers=auth(token))
    signups = {"players": [{"id": f"L{i}"} for i in range(7)]}
    client.post(f"{base}/seasons/1/signups", json=signups, headers=auth(token))
    formed = client.post(f"{base}/seasons/1/form", headers=auth(token)).get_json()
    tokens = {t["player"]: t["token"] for t in formed["reporting_tokens"]}
    path = f"{base}/seasons/1/leagues/1-A/games/1"
    seats = client.get(f"{base}/seasons/1/leagues/1-A").get_json()["games"][0]["seats"]
    for order, who in ((seats, tokens[seats[0]]), (seats[::-1], token)):  # report, correct
        results = [
            {"player": p, "score": 90 - 10 * i, "position": i + 1} for i, p in enumerate(order)
        ]
        headers = correcting(client, base, who)
        assert client.put(path, json={"results": results}, headers=headers).status_code == 200

    def shown() -> str | None:
        game = client.get(f"{base}/seasons/1/leagues/1-A").get_json()["games"][0]
        return game["results"] and next(r["player"] for r in game["results"] if r["position"] == 1)

    return Scenario(base, token, shown, seats[0])


SCENARIOS = {
    "strikes": strikes,
    "diagonal": diagonal,
    "puffing_billy": puffing_billy,
    "league": league,
    "scrabble": scrabble,
}
ENTERED = {
    "strikes": ("result_entered", "result_corrected"),
    "diagonal": ("result_entered", "result_corrected"),
    "puffing_billy": ("board_entered", "board_corrected"),
    "league": ("game_reported", "game_corrected"),
    "scrabble": ("result_entered", "result_corrected"),
}


@pytest.fixture(params=list(SCENARIOS))
def held(request, client) -> tuple[str, Scenario]:
    return request.param, SCENARIOS[request.param](client)


def history(client, scenario: Scenario) -> dict:
    answer = client.get(f"{scenario.base}/history")
    assert answer.status_code == 200
    return answer.get_json()


def test_history_shows_the_correction_beside_the_original(client, held):
    fmt, scenario = held
    entered, corrected = ENTERED[fmt]
    log = history(client, scenario)
    assert log["format"] == fmt
    kinds = [a["kind"] for a in log["actions"]]
    assert kinds[0] == "created" and kinds[-2:] == [entered, corrected]
    assert [a["seq"] for a in log["actions"]] == list(range(1, len(kinds) + 1))
    assert log["revision"] == len(kinds)
    assert all(a["summary"] and a["undone_by"] is None for a in log["actions"])
    assert "was" in log["actions"][-1]["data"]
    assert scenario.shown() != scenario.original


def test_undo_goes_back_one_action_at_a_time(client, held):
    fmt, scenario = held
    entered, corrected = ENTERED[fmt]
    before = len(history(client, scenario)["actions"])
    assert_problem(client.post(f"{scenario.base}/undo"), 401)
    assert_problem(client.post(f"{scenario.base}/undo", headers=auth(scenario.token + "x")), 403)
    answer = undo_latest(client, scenario.base, scenario.token)
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["undone"]["kind"] == corrected and body["undone"]["undone_by"] == before + 1
    assert scenario.shown() == scenario.original  # the original result is back
    assert body["tournament"]["revision"] == before + 1
    undo_latest(client, scenario.base, scenario.token)
    assert not scenario.shown()  # the result itself is taken back
    log = history(client, scenario)["actions"]
    assert [a["kind"] for a in log[-2:]] == ["undone", "undone"]
    assert log[-1]["summary"] == f"Undid action {before - 1} ({entered})"
    # Undo as far as the creation, then 409.
    while undo_latest(client, scenario.base, scenario.token).status_code == 200:
        pass
    last = undo_latest(client, scenario.base, scenario.token)
    assert_problem(last, 409)
    assert "nothing to undo" in last.get_json()["detail"]


def test_export_as_json_and_standings_as_csv(client, held):
    fmt, scenario = held
    exported = client.get(f"{scenario.base}/export").get_json()
    assert exported["format"] == fmt
    assert exported["tournament"] == client.get(scenario.base).get_json()
    assert exported["history"] == history(client, scenario)["actions"]
    for answer in (
        client.get(f"{scenario.base}/export?format=csv"),
        client.get(f"{scenario.base}/export", headers={"Accept": "text/csv"}),
    ):
        assert answer.mimetype == "text/csv"
        assert "attachment" in answer.headers["Content-Disposition"]
        rows = list(csv.reader(io.StringIO(answer.get_data(as_text=True))))
        column = rows[0].index("player")
        if fmt == "league":  # the lifetime table: no season closed yet
            assert rows == [["rank", "player", "name", "seasons"]]
            continue
        players = {p.get("id") or p.get("player") for p in exported["tournament"]["standings"]}
        assert {row[column] for row in rows[1:]} >= players and len(rows) > 1
    assert_problem(client.get(f"{scenario.base}/export?format=xml"), 422, "/query/format")


def test_unknown_tournaments_are_404_for_every_log_route(client):
    for base in (
        "/v1/strikes/tournaments",
        "/v1/diagonal/events",
        "/v1/puffing-billy/events",
        "/v1/league/organisations",
        "/v1/scrabble/events",
    ):
        for path in ("history", "export"):
            assert_problem(client.get(f"{base}/{'a' * 32}/{path}"), 404)
        assert_problem(client.post(f"{base}/{'a' * 32}/undo", headers=auth("x" * 43)), 404)
