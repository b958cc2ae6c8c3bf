"""Puffing Billy's stateless tools over HTTP: a board and an event scored."""

from __future__ import annotations

import pytest

from tests.support import BILLY_EXAMPLE, assert_problem


def test_board_endpoint_pinned_shape(client):
    body = client.post(
        "/v1/puffing-billy/board",
        json={"players": [{"id": name, "score": score} for name, score in BILLY_EXAMPLE]},
    ).get_json()
    assert body["players"][0] == {
        "id": "Jenny",
        "place": 1,
        "placement": 3,
        "bonus": 0.028,
        "total": 3.028,
        "score": 252000,
        "total_exact": "3.028",
    }
    assert [p["bonus"] for p in body["players"][1:4]] == [0.492, 0.24, 0.194]
    assert body["players"][4]["total"] == 0


def test_event_endpoint_and_bad_input(client):
    body = client.post(
        "/v1/puffing-billy/event",
        json={
            "boards": [
                {"players": [{"id": n, "score": s} for n, s in BILLY_EXAMPLE]},
                {"players": [{"id": "Ben", "score": 300}, {"id": "Jenny", "score": 100}]},
                {
                    "stage": "final",
                    "players": [{"id": "Ben", "score": 9}, {"id": "Jenny", "score": 1}],
                },
            ],
            "finalists": 2,
        },
    ).get_json()
    assert body["standings"][0]["id"] == "Jenny"
    # 3.028, then second to Ben: 2 + 0.5 x 100 / 300 = 2.167.
    assert body["standings"][0]["total_exact"] == "5.195"
    assert body["standings"][0]["total"] == 5.195
    assert body["champions"] == ["Ben"]
    bad = client.post(
        "/v1/puffing-billy/event",
        json={"boards": [{"players": [{"id": f"P{i}", "score": 1} for i in range(7)]}]},
    )
    assert_problem(bad, 422, "/boards/0/players")


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"players": []}, "/players"),
        ({"players": [{"id": "A", "score": -1}]}, "/players/0/score"),
        ({"players": [{"id": f"P{i}", "score": 1} for i in range(7)]}, "/players"),
        ({"players": [{"id": "A", "score": 1.5}]}, "/players/0/score"),
        ({"players": [{"id": "A", "score": 1}, {"id": "A", "score": 0}]}, "/players/1/id"),
        ({"players": [{"id": "A", "score": 1}], "method": "blowout"}, "/method"),
        ({"players": [{"id": "A", "score": 1, "place": 7}]}, "/players/0/place"),
    ],
)
def test_bad_boards_are_422(client, body, pointer):
    assert_problem(client.post("/v1/puffing-billy/board", json=body), 422, pointer)
