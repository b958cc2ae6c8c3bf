"""The HTTP contract of the stateless strikes endpoints, and bad input."""

from __future__ import annotations

import pytest

from tests.support import assert_problem


def test_score_pinned_shape(client):
    response = client.post(
        "/v1/strikes/score",
        json={
            "results": [
                {"player": "A", "score": 90},
                {"player": "B", "score": 70},
                {"player": "C", "score": 70},
                {"player": "D", "score": 70},
                {"player": "E", "score": 10},
            ]
        },
    )
    assert response.status_code == 200
    rows = response.get_json()["strikes"]
    assert [(r["player"], r["place"], r["strikes"]) for r in rows] == [
        ("A", 1, 0),
        ("B", 2, 12),
        ("C", 2, 12),
        ("D", 2, 12),
        ("E", 5, 24),
    ]
    assert rows[1]["strikes_exact"] == "12"


def test_score_by_place_and_two_player_game(client):
    rows = client.post(
        "/v1/strikes/score",
        json={"results": [{"player": "A", "place": 2}, {"player": "B", "place": 1}]},
    ).get_json()["strikes"]
    assert [(r["player"], r["strikes"]) for r in rows] == [("B", 0), ("A", 24)]


def test_tables_pinned_shape(client):
    body = client.post(
        "/v1/strikes/tables", json={"players": 26, "round_type": "random", "game": "5-4-3"}
    ).get_json()
    assert body == {"groups": [[5, 5, 4, 4, 4, 4]], "byes": 0, "source": "seed"}
    split = client.post(
        "/v1/strikes/tables", json={"players": 31, "round_type": "split"}
    ).get_json()
    assert split["groups"] == [[5, 4, 4], [5, 4], [5, 4]]
    five = client.post(
        "/v1/strikes/tables", json={"players": 5, "game": "4-3", "two_player_games": False}
    ).get_json()
    assert five == {"groups": [[4]], "byes": 1, "source": "rule"}


def test_seating_pinned_shape(client):
    players = [
        {"id": p, "strikes": s}
        for p, s in zip("ABCDEFGH", [0, 0, 8, 8, 16, 16, 24, 24], strict=True)
    ]
    history = [["A", "B", "C", "D"], ["E", "F", "G", "H"]]
    response = client.post(
        "/v1/strikes/seating",
        json={
            "players": players,
            "history": history,
            "round_type": "split",
            "game": "5-4-3",
            "strategy": "optimize",
            "plans": 30,
            "seed": 7,
        },
    )
    assert response.status_code == 200
    body = response.get_json()
    assert [t["group"] for t in body["tables"]] == [1, 2]
    assert set(body["tables"][0]["players"]) == {"A", "B", "C", "D"}  # G1: fewest strikes
    # A, B, C, D met once: 6 pairs, 1 point each; the same in G2.
    assert body["detrimental_points"] == 12 and body["repeat_pairs"] == 12
    assert body["byes"] == []
    again = client.post(
        "/v1/strikes/seating",
        json={"players": players, "history": history, "round_type": "split", "seed": 7},
    ).get_json()
    assert again["tables"] == body["tables"]


def test_seating_random_round_avoids_repeats(client):
    # Twelve players who met in threes: tables of four can take one from each old table.
    players = [{"id": f"P{i}"} for i in range(12)]
    history = [[f"P{i}", f"P{i + 1}", f"P{i + 2}"] for i in range(0, 12, 3)]
    body = client.post("/v1/strikes/seating", json={"players": players, "history": history})
    assert body.get_json()["detrimental_points"] == 0


def test_planner(client):
    body = client.post(
        "/v1/strikes/plan", json={"players": 40, "threshold": 35, "events": 30, "seed": 2}
    ).get_json()
    assert body["events"] == 30
    assert sum(r["count"] for r in body["rounds"]) == 30
    assert body["rounds_p10"] <= body["rounds_p50"] <= body["rounds_p90"]
    assert 5 <= body["mean_rounds"] <= 7


@pytest.mark.parametrize(
    ("url", "body", "status", "pointer"),
    [
        ("/v1/strikes/score", {"results": []}, 422, "/results"),
        ("/v1/strikes/score", {"results": [{"player": "A", "score": 1}]}, 422, "/results"),
        (
            "/v1/strikes/score",
            {"results": [{"player": f"P{i}", "score": i} for i in range(6)]},
            422,
            "/results",
        ),
        (
            "/v1/strikes/score",
            {"results": [{"player": "A", "score": 1}, {"player": "A", "score": 2}]},
            422,
            "/results/1/player",
        ),
        (
            "/v1/strikes/score",
            {"results": [{"player": "A", "score": 1}, {"player": "B", "place": 1}]},
            422,
            "/results",
        ),
        (
            "/v1/strikes/score",
            {"results": [{"player": "A", "score": 1.5}, {"player": "B", "score": 1}]},
            422,
            "/results/0/score",
        ),
        (
            "/v1/strikes/score",
            {"results": [{"player": "A", "place": 9}, {"player": "B", "place": 1}]},
            422,
            "/results/0/place",
        ),
        (
            "/v1/strikes/score",
            {"results": [{"player": "A\n", "score": 1}, {"player": "B", "score": 1}]},
            422,
            "/results/0/player",
        ),
        ("/v1/strikes/tables", {"players": 0}, 422, "/players"),
        ("/v1/strikes/tables", {"players": 2}, 422, "/players"),
        ("/v1/strikes/tables", {"players": 10**30}, 422, "/players"),
        ("/v1/strikes/tables", {"players": 10, "game": "6-5"}, 422, "/game"),
        ("/v1/strikes/tables", {"players": 10, "round_type": "swiss"}, 422, "/round_type"),
        ("/v1/strikes/tables", {"players": 10, "extra": 1}, 422, "/extra"),
        ("/v1/strikes/seating", {"players": [{"id": "A"}, {"id": "B"}]}, 422, "/players"),
        (
            "/v1/strikes/seating",
            {"players": [{"id": "A"}, {"id": "A"}, {"id": "B"}]},
            422,
            "/players/1/id",
        ),
        (
            "/v1/strikes/seating",
            {"players": [{"id": "A", "strikes": -1}, {"id": "B"}, {"id": "C"}]},
            422,
            "/players/0/strikes",
        ),
        (
            "/v1/strikes/seating",
            {"players": [{"id": p} for p in "ABC"], "history": [["A"]]},
            422,
            "/history/0",
        ),
        (
            "/v1/strikes/seating",
            {"players": [{"id": p} for p in "ABC"], "plans": 0},
            422,
            "/plans",
        ),
        (
            "/v1/strikes/seating",
            {"players": [{"id": p} for p in "ABC"], "strategy": "annealing"},
            422,
            "/strategy",
        ),
        (
            "/v1/strikes/seating",
            {"players": [{"id": f"P{i}"} for i in range(1001)]},
            422,
            "/players",
        ),
        (
            "/v1/strikes/seating",
            {"players": [{"id": f"P{i}"} for i in range(1000)], "plans": 61},
            422,
            "/plans",
        ),
        ("/v1/strikes/plan", {"players": 500, "events": 126}, 422, "/events"),
        ("/v1/strikes/plan", {"players": 2}, 422, "/players"),
        ("/v1/strikes/plan", {"players": 20, "threshold": 0}, 422, "/threshold"),
    ],
)
def test_bad_input_is_a_problem_naming_the_field(client, url, body, status, pointer):
    response = client.post(url, json=body)
    assert_problem(response, status, pointer)


@pytest.mark.parametrize(
    "url", ["/v1/strikes/score", "/v1/strikes/tables", "/v1/strikes/seating", "/v1/strikes/plan"]
)
def test_csv_is_not_accepted_where_only_json_is(client, url):
    response = client.post(url, data="A,1,2\n", content_type="text/csv")
    assert_problem(response, 415, None)
