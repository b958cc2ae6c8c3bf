"""Puffing Billy's history and a correction's words name players by the names the
organiser typed, not by their ids."""

from __future__ import annotations

from tests.support import auth
from tests.support.held_events import BILLY, board, refused

NAMES = {"A": "Ada", "B": "Bea", "C": "Cy", "D": "Dee", "E": "Eve"}


def test_a_correction_its_refusal_and_the_history_name_players(client):
    players = [{"id": p, "name": name} for p, name in NAMES.items()]
    made = client.post(BILLY, json={"players": players}).get_json()
    base, token = f"{BILLY}/{made['id']}", made["token"]
    board(client, base, token, 1, [("A", 100), ("B", 90), ("C", 50)])
    board(client, base, token, 2, [("D", 100), ("E", 95)])
    client.post(f"{base}/preliminaries/close", json={"finalists": 2}, headers=auth(token))
    fixed = board(client, base, token, 1, [("A", 100), ("B", 80), ("C", 50)], correcting=True)
    assert fixed.status_code == 200, fixed.get_json()
    assert "preliminary PB score of Bea: 2.450 → 2.400" in fixed.get_json()["changes"]
    moved = board(client, base, token, 1, [("B", 100), ("A", 80), ("C", 50)], correcting=True)
    detail = refused(client, base, moved, 409)["detail"]
    assert "Bea would qualify" in detail and "Ada would no longer qualify" in detail
    summaries = [a["summary"] for a in client.get(f"{base}/history").get_json()["actions"]]
    assert summaries[1].startswith("Board 1 (preliminary): Ada ")
    assert "Preliminaries closed, 2 to qualify: Ada, Dee" in summaries
    assert summaries[-1].startswith("Board 1 (preliminary) corrected: Ada ")
    assert "preliminary PB score of Bea: 2.450 → 2.400" in summaries[-1]
