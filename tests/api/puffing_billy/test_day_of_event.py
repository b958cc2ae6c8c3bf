"""The day of the event, Puffing Billy: what a director needs when something goes wrong,
through the HTTP API.

- a late entrant joins the preliminaries with no board;
- a preliminary board corrected during the final, unless it moves the cut.

Every refusal writes nothing (the revision stays), and each new action can be undone.
The same for every held format (a new token, the director's list, printing):
tests/api/test_day_of_event.py.
"""

from __future__ import annotations

from tests.support import auth
from tests.support.held_events import billy, board, refused, undo_latest


def test_billy_late_entrant_joins_the_preliminaries_with_no_board(client):
    base, token = billy(client)
    board(client, base, token, 1, [("A", 100), ("B", 90), ("C", 50)])
    late = client.post(f"{base}/players", json={"id": "F", "name": "Fay"}, headers=auth(token))
    assert late.status_code == 201
    assert "F" in late.get_json()["without_boards"]
    assert board(client, base, token, 2, [("F", 100), ("D", 95)]).status_code == 200
    refused(
        client,
        base,
        client.post(f"{base}/players", json={"id": "F"}, headers=auth(token)),
        422,
        "/id",
    )
    assert undo_latest(client, base, token).get_json()["undone"]["kind"] == ("board_entered")
    assert undo_latest(client, base, token).get_json()["undone"]["kind"] == ("player_entered")
    assert "F" not in client.get(base).get_json()["without_boards"]
    client.post(f"{base}/preliminaries/close", json={"finalists": 2}, headers=auth(token))
    after_cut = client.post(f"{base}/players", json={"id": "G"}, headers=auth(token))
    assert "preliminaries are closed" in refused(client, base, after_cut, 409)["detail"]


def test_billy_preliminary_board_corrected_in_the_final_unless_it_moves_the_cut(client):
    base, token = billy(client)
    board(client, base, token, 1, [("A", 100), ("B", 90), ("C", 50)])
    board(client, base, token, 2, [("D", 100), ("E", 95)])
    close = client.post(f"{base}/preliminaries/close", json={"finalists": 2}, headers=auth(token))
    assert close.get_json()["qualifiers"] == ["A", "D"]
    fixed = board(client, base, token, 1, [("A", 100), ("B", 80), ("C", 50)], correcting=True)
    assert fixed.status_code == 200 and fixed.get_json()["stage"] == "preliminary"
    changes = fixed.get_json()["changes"]
    assert "preliminary PB score of B: 2.450 → 2.400" in changes
    assert changes[-1].startswith("the cut made when the preliminaries closed stands")
    moved = board(client, base, token, 1, [("B", 100), ("A", 80), ("C", 50)])
    body = refused(client, base, moved, 409)
    assert "B would qualify" in body["detail"] and "A would no longer qualify" in body["detail"]
    assert undo_latest(client, base, token).get_json()["undone"]["kind"] == ("board_corrected")
    standings = {s["id"]: s["total"] for s in client.get(base).get_json()["standings"]}
    assert standings["B"] == 2.45
