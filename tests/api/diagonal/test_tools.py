"""Diagonal Race's stateless tools over HTTP: a round paired, results tallied, simulations."""

from __future__ import annotations

import pytest

from tests.support import assert_problem


def test_round_endpoint_pinned_shape(client):
    players = [{"id": chr(65 + i), "rating": 2000 - 10 * i} for i in range(12)]
    body = client.post("/v1/diagonal/round", json={"players": players, "opponents": 2}).get_json()
    assert body["eliminated"] == [] and body["step"] == 4
    assert {"players": ["A", "E"], "rematch": False} in body["games"]
    first = client.post("/v1/diagonal/round", json={"players": players}).get_json()
    assert first["opponents"] == 4
    # Round 1 as paired, every game won by the better rated player except A's: A is out.
    later = [dict(p, losses=0, met=[]) for p in players]
    by_id = {p["id"]: p for p in later}
    for g in first["games"]:
        a, b = (by_id[pid] for pid in g["players"])
        a["met"].append(b["id"])
        b["met"].append(a["id"])
        loser = a if a["id"] == "A" or (b["id"] != "A" and a["rating"] < b["rating"]) else b
        loser["losses"] += 1
    body = client.post("/v1/diagonal/round", json={"players": later, "round": 2}).get_json()
    out = [p["id"] for p in later if p["losses"] >= 2]
    assert "A" in out and body["eliminated"] == out and body["opponents"] == 2
    assert not {pid for g in body["games"] for pid in g["players"]} & set(out)
    assert body["rematches"] == 0 and body["dropped"] == []


def test_results_and_simulate_endpoints(client):
    body = client.post(
        "/v1/diagonal/results",
        json={
            "players": ["A", "B", "C"],
            "rounds": [
                {
                    "games": [
                        {"players": ["A", "B"], "winner": "A"},
                        {"players": ["B", "C"], "winner": "C"},
                    ]
                },
                {
                    "games": [
                        {"players": ["A", "C"], "winner": "A", "pieces_left": 3},
                        {"players": ["C", "A"], "winner": "A"},
                    ]
                },
            ],
        },
    ).get_json()
    assert body["finished"] is True and body["winners"] == ["A"]
    sim = client.post(
        "/v1/diagonal/simulate",
        json={
            "players": [{"id": f"P{i}", "rating": 1800 - 50 * i} for i in range(8)],
            "events": 30,
        },
    ).get_json()
    assert sim["events"] == 30 and len(sim["players"]) == 8


@pytest.mark.parametrize(
    ("url", "body", "pointer"),
    [
        ("/v1/diagonal/round", {"players": []}, "/players"),
        ("/v1/diagonal/round", {"players": [{"id": "A"}, {"id": "A"}]}, "/players/1/id"),
        ("/v1/diagonal/round", {"players": [{"id": "A"}], "opponents": 3}, "/opponents"),
        ("/v1/diagonal/round", {"players": [{"id": "A", "losses": -1}]}, "/players/0/losses"),
        ("/v1/diagonal/round", {"players": [{"id": "A", "rating": 1e30}]}, "/players/0/rating"),
        (
            "/v1/diagonal/results",
            {"players": ["A", "B"], "rounds": [{"games": [{"players": ["A"], "winner": "A"}]}]},
            "/rounds/0/games/0/players",
        ),
        (
            "/v1/diagonal/results",
            {
                "players": ["A", "B"],
                "rounds": [{"games": [{"players": ["A", "B"], "winner": "Z"}]}],
            },
            "/rounds/0/games/0/winner",
        ),
        ("/v1/diagonal/results", {"players": ["A", "A"], "rounds": []}, "/players/1"),
        ("/v1/diagonal/simulate", {"players": [{"id": "A", "rating": 1}]}, "/players"),
        (
            "/v1/diagonal/simulate",
            {"players": [{"id": "A", "rating": 1}, {"id": "B", "rating": 1}], "luck": 2},
            "/luck",
        ),
    ],
)
def test_bad_input_is_422(client, url, body, pointer):
    assert_problem(client.post(url, json=body), 422, pointer)


def test_rematches_counts_games_not_earlier_meetings(client):
    """Two players who met twice, paired again: one rematch (the game), not two."""
    body = {
        "players": [
            {"id": "A", "rating": 1600, "losses": 1, "met": ["B", "B"]},
            {"id": "B", "rating": 1500, "losses": 1, "met": ["A", "A"]},
        ],
        "opponents": 2,
    }
    answer = client.post("/v1/diagonal/round", json=body).get_json()
    assert answer["games"] == [{"players": ["A", "B"], "rematch": True}]
    assert answer["rematches"] == 1
    assert answer["notes"][0].startswith("no pairing without rematches exists; 1 rematch ")
