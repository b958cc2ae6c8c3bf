"""The Meeple League's stateless tools over HTTP: tables, schedules, formation, lifetime."""

from __future__ import annotations

import pytest

from tests.support import assert_problem


def test_table_endpoint_pinned_shape(client):
    body = client.post(
        "/v1/league/table",
        json={
            "games": [
                {
                    "name": "G1",
                    "results": [
                        {"player": "A", "score": 120, "position": 1},
                        {"player": "B", "score": 100, "position": 2},
                        {"player": "C", "score": 100, "position": 2},
                        {"player": "D", "score": 50, "position": 4},
                    ],
                },
                {
                    "name": "G2",
                    "results": [
                        {"player": "B", "score": 90, "position": 1},
                        {"player": "A", "score": 80, "position": 2},
                        {"player": "C", "score": 70, "position": 3},
                        {"player": "D", "score": 60, "position": 4},
                    ],
                },
            ],
            "previous_ranking": ["D", "C", "B", "A"],
        },
    ).get_json()
    top = body["standings"][0]
    assert (top["player"], top["rank"], top["league_points"]) == ("A", 1, 16)
    assert body["standings"][1]["league_points"] == 14.5
    assert top["decided_by"] == "league_points"
    assert top["ahead_on"] == "league points 16 v 14.5" and top["name"] is None
    assert set(top["values"]) >= {"wins", "margin", "head_to_head", "previous_rank"}


# --- formation ---------------------------------------------------------------------------


def test_schedule_endpoint_pinned_shape(client):
    body = client.post(
        "/v1/league/schedule",
        json={"players": list("ABCDEFG"), "game": "AGR", "season": 2, "league": "3-B"},
    ).get_json()
    assert body["games"][0] == {"name": "AGR S2 L3-B G1", "seats": ["A", "B", "C", "D"]}
    assert body["games"][-1]["name"] == "AGR S2 L3-B G7"
    assert body["optimal"] == "every pair meets 2 times"


# --- lifetime ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "body", "pointer"),
    [
        (
            "/v1/league/table",
            {"games": [{"results": [{"player": p, "score": 1, "position": 1} for p in "ABC"]}]},
            "/games/0/results",
        ),
        (
            "/v1/league/table",
            {
                "games": [
                    {
                        "results": [
                            {"player": p, "score": 1, "position": i + 1}
                            for i, p in enumerate("AABC")
                        ]
                    }
                ]
            },
            "/games/0/results/1/player",
        ),
        (
            "/v1/league/table",
            {"games": [{"results": [{"player": p, "score": 1, "position": 3} for p in "ABCD"]}]},
            "/games/0/results",
        ),
        ("/v1/league/table", {"games": []}, "/games"),
        ("/v1/league/table", {"games": [{"results": []}], "points": [1, 2]}, "/points"),
        (
            "/v1/league/schedule",
            {"players": list("ABCDEFA"), "game": "AGR", "season": 1, "league": "1-A"},
            "/players/6",
        ),
        (
            "/v1/league/schedule",
            {"players": list("ABC"), "game": "AGR", "season": 1, "league": "1-A"},
            "/players",
        ),
        (
            "/v1/league/schedule",
            {"players": list("ABCD"), "game": "AGR", "season": 1, "league": "A1"},
            "/league",
        ),
        (
            "/v1/league/formation",
            {"signups": list("ABCDZ"), "new_players": [{"player": p} for p in "ABCD"]},
            "/signups",
        ),
        (
            "/v1/league/lifetime",
            {"leagues": [{"season": 1, "league": "x", "standings": []}]},
            "/leagues/0/league",
        ),
    ],
)
def test_bad_input_is_a_problem(client, url, body, pointer):
    assert_problem(client.post(url, json=body), 422, pointer)


def test_formation_endpoint_pinned_shape(client):
    last = [{"player": f"A{i}", "league": "1-A", "place": i} for i in range(1, 8)]
    body = client.post(
        "/v1/league/formation",
        json={
            "signups": [f"A{i}" for i in range(1, 8)] + ["N1"],
            "last_season": last,
            "new_players": [{"player": "N1", "laurels": 2}],
        },
    ).get_json()
    assert body["divisions"][0]["division"] == 1
    assert body["divisions"][0]["leagues"][0]["league"] == "1-A"
    assert len(body["divisions"][0]["leagues"][0]["players"]) == 8


def test_positions_follow_the_scores_as_a_report_form_offers_them(client):
    """A tie spans positions (its own the best); a player who left comes after those who
    finished, ranked among the leavers by score; positions the service gives pass a
    report's check."""
    scores = [(50, False), (90, False), (50, False), (70, True), (10, True)]
    answer = client.post(
        "/v1/league/positions",
        json={"results": [{"score": s, "dropped_out": left} for s, left in scores]},
    )
    assert answer.status_code == 200
    assert answer.get_json() == {
        "positions": [
            {"position": 2, "allowed": [2, 3]},
            {"position": 1, "allowed": [1]},
            {"position": 2, "allowed": [2, 3]},
            {"position": 4, "allowed": [4]},
            {"position": 5, "allowed": [5]},
        ]
    }
    four = [(50, False), (90, False), (50, False), (10, True)]
    places = client.post(
        "/v1/league/positions",
        json={"results": [{"score": s, "dropped_out": left} for s, left in four]},
    ).get_json()["positions"]
    reported = [
        {"player": p, "score": s, "position": place["position"], "dropped_out": left}
        for p, (s, left), place in zip("ABCD", four, places, strict=True)
    ]
    table = client.post("/v1/league/table", json={"games": [{"results": reported}]})
    assert table.status_code == 200, table.get_data(as_text=True)


def test_positions_need_every_score(client):
    answer = client.post("/v1/league/positions", json={"results": [{"score": 5}]})
    assert_problem(answer, 422, "/results")
