"""Diagonal Race: a dropped player (or a no-show) reinstated between main rounds, their
losses caught up to what a late entrant would start with; and the late entrants' setting
changed until the first result. Every refusal writes nothing; both are undone."""

from __future__ import annotations

import pytest

from tests.api.diagonal.test_day_of_event import race_round
from tests.support import assert_problem, auth
from tests.support.held_events import kinds, race, refused, undo_latest


def standing(client, base: str, player: str) -> dict:
    return next(s for s in client.get(base).get_json()["standings"] if s["player"] == player)


def paired(rnd: dict) -> set[str]:
    return {p for g in rnd["games"] for p in g["players"]}


def play_and_close(client, base: str, token: str, rnd: dict) -> None:
    """The player with the smaller id wins each game (3 pieces left)."""
    for game in rnd["games"]:
        url = f"{base}/rounds/{rnd['round']}/games/{game['game']}"
        winner = {"winner": min(game["players"]), "pieces_left": 3}
        assert client.put(url, json=winner, headers=auth(token)).status_code == 200
    assert (
        client.post(f"{base}/rounds/{rnd['round']}/close", headers=auth(token)).status_code == 200
    )


def test_a_no_show_who_comes_for_round_two_is_reinstated_and_paired(client):
    base, token = race(client, first_round_opponents=2)
    client.post(f"{base}/rounds", headers=auth(token))
    again = client.post(f"{base}/rounds/1/reseat", json={"no_shows": ["R0"]}, headers=auth(token))
    assert again.status_code == 200
    play_and_close(client, base, token, again.get_json())
    entered = client.post(f"{base}/players", json={"id": "R0", "rating": 1700}, headers=auth(token))
    assert "already" in refused(client, base, entered, 422, "/id")["detail"]
    most = max(
        s["losses"] for s in client.get(base).get_json()["standings"] if s["status"] == "active"
    )
    assert most == 1
    back = client.post(f"{base}/players/R0/reinstate", headers=auth(token))
    assert back.status_code == 200, back.get_data(as_text=True)
    row = next(s for s in back.get_json()["standings"] if s["player"] == "R0")
    assert (row["status"], row["losses"], row["games"]) == ("active", 1, 0)
    assert row["dropped_before_round"] is None
    entry = client.get(f"{base}/history").get_json()["actions"][-1]
    assert entry["kind"] == "player_reinstated"
    assert entry["data"] == {"player": "R0", "before_round": 2, "losses": 1}
    assert entry["summary"] == "R0 reinstated before round 2, 1 loss(es) added to catch up"
    rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    assert "R0" in paired(rnd)
    page = client.get(f"/events/diagonal/{base.rsplit('/', 1)[1]}")
    assert page.status_code == 200 and "R0" in page.get_data(as_text=True)


@pytest.mark.parametrize(("rule", "losses"), [("most", 1), ("fewest", 0)])
def test_a_reinstated_player_is_caught_up_to_the_events_late_entry_setting(client, rule, losses):
    """R0 won both its games (no loss) and drops: back, it starts with the most losses of
    those still in (1), or the fewest (0: its own)."""
    base, token = race(client, first_round_opponents=2, late_entry_losses=rule)
    race_round(client, base, token)
    assert standing(client, base, "R0")["losses"] == 0
    client.post(f"{base}/players/R0/drop", headers=auth(token))
    back = client.post(f"{base}/players/R0/reinstate", headers=auth(token))
    assert back.status_code == 200
    assert standing(client, base, "R0")["losses"] == losses
    assert client.get(f"{base}/history").get_json()["actions"][-1]["data"]["losses"] == losses


def test_a_reinstated_player_with_a_loss_keeps_it(client):
    base, token = race(client, first_round_opponents=2, late_entry_losses="fewest")
    race_round(client, base, token)
    loser = next(s["player"] for s in client.get(base).get_json()["standings"] if s["losses"] == 1)
    client.post(f"{base}/players/{loser}/drop", headers=auth(token))
    client.post(f"{base}/players/{loser}/reinstate", headers=auth(token))
    assert standing(client, base, loser)["losses"] == 1
    entry = client.get(f"{base}/history").get_json()["actions"][-1]
    assert entry["data"]["losses"] == 0 and "with their own losses" in entry["summary"]


def test_reinstatement_refusals_write_nothing(client):
    base, token = race(client)
    url = f"{base}/players/R1/reinstate"
    assert_problem(client.post(url), 401)
    refused(client, base, client.post(url, headers=auth("not-the-token")), 403)
    refused(client, base, client.post(f"{base}/players/X9/reinstate", headers=auth(token)), 404)
    assert (
        "has not dropped"
        in refused(client, base, client.post(url, headers=auth(token)), 409)["detail"]
    )
    client.post(f"{base}/players/R1/drop", headers=auth(token))
    client.post(f"{base}/rounds", headers=auth(token))
    during = refused(client, base, client.post(url, headers=auth(token)), 409)
    assert "round 1 has started" in during["detail"]
    undo_latest(client, base, token)
    race_round(client, base, token)  # four games each: the highest ids lose them all
    out = next(s for s in client.get(base).get_json()["standings"] if s["status"] == "eliminated")
    body = refused(
        client,
        base,
        client.post(f"{base}/players/{out['player']}/reinstate", headers=auth(token)),
        409,
    )
    assert "was eliminated after round 1" in body["detail"] and "not reinstated" in body["detail"]


def test_no_reinstatement_once_the_event_is_over(client):
    base, token = race(client, players=2)
    client.post(f"{base}/players/R0/drop", headers=auth(token))  # R1 is the last left
    assert client.get(base).get_json()["status"] == "finished"
    over = client.post(f"{base}/players/R0/reinstate", headers=auth(token))
    assert "the event is over" in refused(client, base, over, 409)["detail"]


def test_a_reinstatement_is_undone(client):
    base, token = race(client, first_round_opponents=2)
    race_round(client, base, token)
    client.post(f"{base}/players/R0/drop", headers=auth(token))
    before = standing(client, base, "R0")
    client.post(f"{base}/players/R0/reinstate", headers=auth(token))
    undone = undo_latest(client, base, token).get_json()
    assert undone["undone"]["kind"] == "player_reinstated"
    assert standing(client, base, "R0") == before
    rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    assert "R0" not in paired(rnd)


# --- settings -------------------------------------------------------------------------------


def test_the_late_entry_setting_changes_until_the_first_result(client):
    base, token = race(client, first_round_opponents=2)
    changed = client.put(
        f"{base}/settings", json={"late_entry_losses": "fewest"}, headers=auth(token)
    )
    assert changed.status_code == 200, changed.get_data(as_text=True)
    assert client.get(base).get_json()["late_entry_losses"] == "fewest"
    entry = client.get(f"{base}/history").get_json()["actions"][-1]
    assert entry["kind"] == "settings_changed"
    assert entry["data"]["settings"] == {
        "first_round_opponents": 2,
        "opponents": 2,
        "late_entry": "fewest",
    }
    page = client.get(f"/events/diagonal/{base.rsplit('/', 1)[1]}").get_data(as_text=True)
    assert "A late entrant starts with the fewest losses of the players still in." in page
    entries = len(kinds(client, base))
    same = client.put(f"{base}/settings", json={"late_entry_losses": "fewest"}, headers=auth(token))
    assert same.status_code == 200 and len(kinds(client, base)) == entries
    rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    game = rnd["games"][1]
    client.put(
        f"{base}/rounds/1/games/{game['game']}",
        json={"winner": game["players"][0]},
        headers=auth(token),
    )
    late = client.put(f"{base}/settings", json={"late_entry_losses": "most"}, headers=auth(token))
    assert f"round 1, game {game['game']} has one" in refused(client, base, late, 409)["detail"]
    mean = client.put(f"{base}/settings", json={"late_entry_losses": "mean"}, headers=auth(token))
    refused(client, base, mean, 422, "/late_entry_losses")
    # A write that names no setting changes none, even after the first result.
    entries = len(kinds(client, base))
    assert client.put(f"{base}/settings", json={}, headers=auth(token)).status_code == 200
    assert len(kinds(client, base)) == entries


def test_the_default_setting_put_back_gives_todays_answers(client):
    plain, plain_token = race(client, first_round_opponents=2)
    changed, token = race(client, first_round_opponents=2)
    client.put(f"{changed}/settings", json={"late_entry_losses": "fewest"}, headers=auth(token))
    client.put(f"{changed}/settings", json={"late_entry_losses": "most"}, headers=auth(token))
    assert (
        "late_entry"
        not in client.get(f"{changed}/history").get_json()["actions"][-1]["data"]["settings"]
    )
    for base, t in ((plain, plain_token), (changed, token)):
        race_round(client, base, t)
        client.post(f"{base}/players", json={"id": "L1", "rating": 1600}, headers=auth(t))
    assert standing(client, plain, "L1")["losses"] == standing(client, changed, "L1")["losses"] == 1
    assert client.get(plain).get_json()["standings"] == client.get(changed).get_json()["standings"]
    undone = undo_latest(client, changed, token)  # the late entry
    assert undone.status_code == 200
