"""The day of the event, Meeple League: what a director needs when something goes wrong,
through the HTTP API.

- a game of a closed season corrected when the finishing order stands, refused when it
  moves a place;
- a late sign-up after formation, pointed to the next season.

Every refusal writes nothing (the revision stays), and each new action can be undone.
The same for every held format (a new token, the director's list, printing):
tests/api/test_day_of_event.py.
"""

from __future__ import annotations

from tests.support import auth, correcting
from tests.support.held_events import league_season, refused, undo_latest


def test_league_closed_season_game_corrected_when_the_order_stands(client):
    org = league_season(client)
    before = client.get(f"{org.base}/lifetime").get_json()
    order = sorted(org.seats[0], key=lambda p: int(p[1:]))
    # Same positions, a closer score: no point changes, the order stands.
    results = [
        {"player": p, "score": 100 - i + (50 if p == "L0" else 0), "position": i + 1}
        for i, p in enumerate(order)
    ]
    url = f"{org.base}/seasons/1/leagues/1-A/games/1"
    fixed = client.put(
        url, json={"results": results}, headers=correcting(client, org.base, org.token)
    )
    assert fixed.status_code == 200, fixed.get_data(as_text=True)
    assert fixed.get_json()["changes"][-1].startswith("season 1's finishing order stands")
    assert client.get(f"{org.base}/seasons/1").get_json()["status"] == "closed"
    assert client.get(f"{org.base}/lifetime").get_json() == before
    # The bottom two swap places in one game: points move, the finishing order does not.
    swapped = [dict(r) for r in results]
    swapped[-1]["position"], swapped[-2]["position"] = (
        swapped[-2]["position"],
        swapped[-1]["position"],
    )
    swapped[-1]["score"], swapped[-2]["score"] = swapped[-2]["score"], swapped[-1]["score"]
    answer = client.put(
        url, json={"results": swapped}, headers=correcting(client, org.base, org.token)
    )
    assert answer.status_code == 200, answer.get_data(as_text=True)
    changes = answer.get_json()["changes"]
    assert changes[:2] == [
        "season 1 league points of L2: 25 → 23",
        "season 1 league points of L3: 19 → 21",
    ]
    lifetime = {
        line["player"]: line for line in client.get(f"{org.base}/lifetime").get_json()["standings"]
    }
    was = {line["player"]: line for line in before["standings"]}
    assert lifetime["L3"] != was["L3"] and lifetime["L3"]["rank"] == 4  # 21 < 23: still 4th
    entry = client.get(f"{org.base}/history").get_json()["actions"][-1]
    assert entry["kind"] == "game_corrected" and "finishes" in entry["data"]
    assert changes[0] in entry["summary"]
    # Undo both corrections: the season's record is as it was closed.
    undo_latest(client, org.base, org.token)
    undo_latest(client, org.base, org.token)
    assert client.get(f"{org.base}/lifetime").get_json() == before


def test_league_closed_season_correction_that_moves_a_place_is_refused(client):
    org = league_season(client)
    # The middle of the table (L2 25 points, L3 19, L4 12, L5 8) turned round in their game.
    number, seats = next(
        (n, seats) for n, seats in enumerate(org.seats, 1) if set(seats) == {"L2", "L3", "L4", "L5"}
    )
    order = sorted(seats, key=lambda p: int(p[1:]))[::-1]
    results = [{"player": p, "score": 100 - 10 * i, "position": i + 1} for i, p in enumerate(order)]
    games = client.get(f"{org.base}/seasons/1/leagues/1-A").get_json()["games"]
    url = f"{org.base}/seasons/1/leagues/1-A/games/{number}"
    answer = client.put(url, json={"results": results}, headers=auth(org.token))
    body = refused(client, org.base, answer, 409)
    assert "finishing order" in body["detail"] and "undo back" in body["detail"]
    assert client.get(f"{org.base}/seasons/1/leagues/1-A").get_json()["games"] == games


def test_league_late_sign_up_after_formation_points_to_the_next_season(client):
    org = league_season(client, closed=False)
    late = client.post(
        f"{org.base}/seasons/1/signups", json={"players": [{"id": "X"}]}, headers=auth(org.token)
    )
    assert "signs up for the next season" in refused(client, org.base, late, 409)["detail"]
