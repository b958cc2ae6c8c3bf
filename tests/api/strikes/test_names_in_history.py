"""The history and a correction's words name players by the names the organiser typed
("strikes of Ann Lee: 24 → 0"), not by their ids; namesakes with their id beside it, and
a player entered without a name by their id."""

from __future__ import annotations

import pytest

from tests.api.strikes.test_tournaments import BASE, play_round, results_by_order
from tests.support import if_match

NAMES = {"p0": "Ann Lee", "p1": "Bo", "p2": "Bo", "p3": None}


@pytest.fixture()
def client(store_app):
    return store_app.test_client()


def test_a_late_correction_and_the_history_name_players(client):
    players = [{"id": f"p{i}", "name": NAMES.get(f"p{i}", f"Player {i}")} for i in range(9)]
    made = client.post(BASE, json={"players": players, "seed": 1}).get_json()
    tid, auth = made["id"], {"Authorization": f"Bearer {made['token']}"}
    ranking = [f"p{i}" for i in range(9)]
    closed = play_round(client, tid, auth, ranking)
    table = next(t for t in closed["tables"] if "p0" in t["players"])
    dropped = client.post(f"{BASE}/{tid}/players/p3/drop", headers=auth)
    assert dropped.status_code == 200, dropped.get_json()
    client.post(f"{BASE}/{tid}/rounds", headers=auth)  # round 2: round 1's table is late
    late = client.put(
        f"{BASE}/{tid}/rounds/1/tables/{table['table']}",
        json=results_by_order(table["players"], ranking[::-1]),
        headers={**auth, **if_match(client, f"{BASE}/{tid}")},
    )
    assert late.status_code == 200, late.get_json()
    changes = late.get_json()["changes"]
    assert any(line.startswith("strikes of Ann Lee: 0 → ") for line in changes), changes
    assert not any("of p0:" in line for line in changes)
    order = next(line for line in changes if line.startswith("standings order: "))
    assert "Ann Lee 1st → " in order
    summaries = [a["summary"] for a in client.get(f"{BASE}/{tid}/history").get_json()["actions"]]
    # Results by name; the namesakes Bo told apart by their ids; p3 gave no name.
    entered = "\n".join(s for s in summaries if s.startswith("Round 1, table"))
    assert "Ann Lee 1 (0)" in entered and "Bo (p1) " in entered and "Bo (p2) " in entered
    assert "p3 dropped before round 2" in summaries
    corrected = next(s for s in summaries if s.startswith("Round 1, table") and "corrected" in s)
    last = len(table["players"])
    assert f"Ann Lee {last} (" in corrected and "(was Ann Lee 1 (0)" in corrected
