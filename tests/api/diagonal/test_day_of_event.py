"""The day of the event, Diagonal Race: what a director needs when something goes wrong,
through the HTTP API.

- a late entrant, refused once a round started, who starts with the most losses of anyone
  still in;
- a no-show dropped and the round paired again, refused once a result of the round is
  entered;
- a result fixed after the next round started, the answer and the history saying what it
  changed.

Every refusal writes nothing (the revision stays), and each new action can be undone.
The same for every held format (a new token, the director's list, printing):
tests/api/test_day_of_event.py.
"""

from __future__ import annotations

from tests.support import auth, correcting
from tests.support.held_events import race, refused, undo_latest


def race_round(client, base: str, token: str, close: bool = True) -> dict:
    """A round where the player listed first in each game wins (3 pieces left)."""
    rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    for game in rnd["games"]:
        winner = {"winner": min(game["players"]), "pieces_left": 3}
        url = f"{base}/rounds/{rnd['round']}/games/{game['game']}"
        assert client.put(url, json=winner, headers=auth(token)).status_code == 200
    if close:
        assert client.post(f"{base}/rounds/{rnd['round']}/close", headers=auth(token)).status_code
    return rnd


def test_diagonal_late_entrant_starts_with_the_most_losses_of_anyone_still_in(client):
    base, token = race(client, first_round_opponents=2)
    race_round(client, base, token)
    standings = client.get(base).get_json()["standings"]
    most = max(s["losses"] for s in standings if s["status"] == "active")
    assert most == 1
    late = client.post(
        f"{base}/players", json={"id": "L1", "name": "Late", "rating": 1650}, headers=auth(token)
    )
    assert late.status_code == 201, late.get_data(as_text=True)
    row = next(s for s in late.get_json()["standings"] if s["player"] == "L1")
    assert (row["losses"], row["games"], row["status"]) == (1, 0, "active")
    rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    assert any("L1" in g["players"] for g in rnd["games"])
    # One more loss and they are out, like the others with one.
    game = next(g for g in rnd["games"] if "L1" in g["players"])
    other = next(p for p in game["players"] if p != "L1")
    client.put(f"{base}/rounds/2/games/{game['game']}", json={"winner": other}, headers=auth(token))
    log = client.get(f"{base}/history").get_json()["actions"]
    entry = next(a for a in log if a["kind"] == "player_entered")
    assert "starting with 1 loss" in entry["summary"] and entry["data"]["before_round"] == 2
    out = next(s for s in client.get(base).get_json()["standings"] if s["player"] == "L1")
    assert out["losses"] == 2


def test_diagonal_late_entry_refusals_write_nothing(client):
    base, token = race(client)
    url = f"{base}/players"
    refused(client, base, client.post(url, json={"id": "X"}, headers=auth(token)), 422, "/rating")
    refused(
        client,
        base,
        client.post(url, json={"id": "R1", "rating": 1}, headers=auth(token)),
        422,
        "/id",
    )
    unrated, unrated_token = race(client, rated=False)
    with_rating = client.post(
        f"{unrated}/players", json={"id": "X", "rating": 1500}, headers=auth(unrated_token)
    )
    refused(client, unrated, with_rating, 422, "/rating")
    listed_last = client.post(f"{unrated}/players", json={"id": "X"}, headers=auth(unrated_token))
    assert listed_last.status_code == 201
    client.post(f"{base}/rounds", headers=auth(token))
    during = client.post(url, json={"id": "X", "rating": 1}, headers=auth(token))
    assert "round 1 has started" in refused(client, base, during, 409)["detail"]


def test_diagonal_no_show_is_dropped_and_the_round_paired_again(client):
    base, token = race(client, players=8)
    first = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    answer = client.post(f"{base}/rounds/1/reseat", json={"no_shows": ["R3"]}, headers=auth(token))
    assert answer.status_code == 200, answer.get_data(as_text=True)
    games = answer.get_json()["games"]
    assert all("R3" not in g["players"] for g in games) and games != first["games"]
    row = next(s for s in client.get(base).get_json()["standings"] if s["player"] == "R3")
    assert row["status"] == "dropped" and row["dropped_before_round"] == 1
    assert "without R3" in client.get(f"{base}/history").get_json()["actions"][-1]["summary"]
    assert undo_latest(client, base, token).get_json()["undone"]["kind"] == ("round_reseated")
    assert client.get(f"{base}/rounds/1").get_json()["games"] == first["games"]


def test_diagonal_reseat_refusals_write_nothing(client):
    base, token = race(client)
    rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    url = f"{base}/rounds/1/reseat"
    refused(
        client,
        base,
        client.post(url, json={"no_shows": ["Z"]}, headers=auth(token)),
        422,
        "/no_shows/0",
    )
    game = rnd["games"][0]
    client.put(f"{base}/rounds/1/games/1", json={"winner": game["players"][0]}, headers=auth(token))
    late = client.post(url, json={"no_shows": [game["players"][1]]}, headers=auth(token))
    assert "has results" in refused(client, base, late, 409)["detail"]


def test_diagonal_late_correction_says_what_it_changed_and_is_undone(client):
    base, token = race(client, players=8, first_round_opponents=2)
    rnd = race_round(client, base, token)
    paired = client.post(f"{base}/rounds", headers=auth(token)).get_json()["games"]
    losses = {s["player"]: s["losses"] for s in client.get(base).get_json()["standings"]}
    # A game whose players each end with fewer than two losses after it is turned round.
    game = next(
        g for g in rnd["games"] if losses[min(g["players"])] == 0 and losses[max(g["players"])] == 1
    )
    a, b = sorted(game["players"])
    fixed = client.put(
        f"{base}/rounds/1/games/{game['game']}",
        json={"winner": b},
        headers=correcting(client, base, token),
    )
    assert fixed.status_code == 200, fixed.get_data(as_text=True)
    changes = fixed.get_json()["changes"]
    assert any(line.startswith(f"record of {b}: ") for line in changes)
    assert changes[-1] == "round 2 was paired before this correction and is kept as it was"
    assert client.get(f"{base}/rounds/2").get_json()["games"] == paired
    assert changes[-1] in client.get(f"{base}/history").get_json()["actions"][-1]["summary"]
    assert undo_latest(client, base, token).status_code == 200
    result = client.get(f"{base}/rounds/1").get_json()["games"][game["game"] - 1]["result"]
    assert result["winner"] == a


def test_a_late_entrants_starting_losses_follow_the_events_setting(client):
    """The fewest losses of the players still in, when the director says so (the most, by
    default, above); the event's page says which."""
    base, token = race(client, first_round_opponents=2, late_entry_losses="fewest")
    assert client.get(base).get_json()["late_entry_losses"] == "fewest"
    race_round(client, base, token)
    standings = client.get(base).get_json()["standings"]
    assert min(s["losses"] for s in standings if s["status"] == "active") == 0
    late = client.post(
        f"{base}/players", json={"id": "L1", "name": "Late", "rating": 1650}, headers=auth(token)
    )
    row = next(s for s in late.get_json()["standings"] if s["player"] == "L1")
    assert (row["losses"], row["games"]) == (0, 0)
    assert client.get(race(client)[0]).get_json()["late_entry_losses"] == "most"
    page = client.get(f"/events/diagonal/{base.rsplit('/', 1)[1]}").get_data(as_text=True)
    assert "A late entrant starts with the fewest losses of the players still in." in page


def test_a_late_correction_that_would_put_out_a_player_who_played_on_is_a_409(client):
    """Turned round, a game of round 1 would have put out a player who then played in
    round 2: a 409 naming them, not a 422 pointing inside the engine's rounds."""
    base, token = race(client, players=8, first_round_opponents=2)
    first = race_round(client, base, token)
    second = race_round(client, base, token)
    losses_after_1 = {p: 0 for g in first["games"] for p in g["players"]}
    for g in first["games"]:
        losses_after_1[max(g["players"])] += 1
    in_round_2 = {p for g in second["games"] for p in g["players"]}
    game = next(
        g
        for g in first["games"]
        if losses_after_1[min(g["players"])] == 1 and min(g["players"]) in in_round_2
    )
    winner, loser = min(game["players"]), max(game["players"])
    turned = client.put(
        f"{base}/rounds/1/games/{game['game']}",
        json={"winner": loser, "pieces_left": 1},
        headers=correcting(client, base, token),
    )
    problem = refused(client, base, turned, 409)
    assert f"'{winner}' was eliminated after round 1" in problem["detail"]
    assert "undo back to round 1" in problem["detail"]
