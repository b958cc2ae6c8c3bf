"""Strikes: drops that leave no way forward end the event, a drop can be undone,
and an ending with a bye says why there is no margin of victory.

Every test goes through the HTTP API of held tournaments, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import pytest

from tests.support import assert_problem

from .test_tournaments import BASE, create, play_round, results_by_order

FOUR = ["P0", "P1", "P2", "P3"]  # round 1 at one table of four: 0 / 8 / 16 / 24 strikes


@pytest.fixture()
def client(store_app):
    return store_app.test_client()


def drop(client, tid, auth, player):
    response = client.post(f"{BASE}/{tid}/players/{player}/drop", headers=auth)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def undo(client, tid, auth):
    """Undo the latest action: the tournament as the undo answers it (and as it reads)."""
    latest = client.get(f"{BASE}/{tid}/history").get_json()["actions"][-1]["seq"]
    response = client.post(f"{BASE}/{tid}/undo?entry={latest}", headers=auth)
    assert response.status_code == 200, response.get_data(as_text=True)
    answer = response.get_json()
    assert answer["undone"]["kind"] == "player_dropped"
    assert answer["tournament"] == client.get(f"{BASE}/{tid}").get_json()
    return answer["tournament"]


def status_of(read, player):
    return next(s["status"] for s in read["standings"] if s["player"] == player)


def test_drops_leaving_two_who_cannot_play_end_the_event_fewer_strikes_winning(client):
    """The issue's event: a, b, c, d at 5-4-3 with no 2-player games; after round 1 a and
    b drop. Before the fix: 'between_rounds' for ever, a round refused with a 409."""
    tid, auth, *_ = create(client, players=4)
    closed = play_round(client, tid, auth, FOUR)
    assert closed["ending"]["finished"] is False
    assert drop(client, tid, auth, "P0")["status"] == "between_rounds"  # three can still play
    read = drop(client, tid, auth, "P1")
    assert read["status"] == "finished"
    assert read["winners"] == ["P2"]  # 16 strikes against P3's 24
    # Places: the winner, the other still in, then those who dropped (by strikes).
    places = [(s["player"], s["place"], s["winner"]) for s in read["standings"]]
    assert places == [("P2", 1, True), ("P3", 2, False), ("P0", 3, False), ("P1", 4, False)]
    ending = read["ending"]
    assert ending["finished"] and ending["rule"] == "after-drops"
    assert ending["tiebreak_game"] is False
    assert "fewer strikes" in ending["reason"] and "2-player" in ending["reason"]
    over = assert_problem(client.post(f"{BASE}/{tid}/rounds", headers=auth), 409)
    assert "the event is over" in over["detail"] and "P2" in over["detail"]
    assert_problem(client.post(f"{BASE}/{tid}/players/P2/drop", headers=auth), 409)
    # The round's own ending is what that round decided; the drops came after it.
    assert client.get(f"{BASE}/{tid}/rounds/1").get_json()["ending"]["finished"] is False


def test_tied_strikes_after_drops_go_to_the_seeds_tiebreak(client):
    """Tied strikes: one-table round, so the seed's 'whoever won the final game' (placed
    higher in it); tied there too, they are dual winners."""
    tid, auth, *_ = create(client, players=4)
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    scores = {"P0": 90, "P1": 80, "P2": 70, "P3": 70}  # P2 and P3 share 3rd: 20 strikes each
    body = {"results": [{"player": p, "score": scores[p]} for p in rnd["tables"][0]["players"]]}
    assert client.put(f"{BASE}/{tid}/rounds/1/tables/1", json=body, headers=auth).status_code == 200
    assert client.post(f"{BASE}/{tid}/rounds/1/close", headers=auth).status_code == 200
    drop(client, tid, auth, "P0")
    read = drop(client, tid, auth, "P1")
    assert read["status"] == "finished" and sorted(read["winners"]) == ["P2", "P3"]
    places = {s["player"]: (s["place"], s["winner"]) for s in read["standings"]}
    assert places == {"P2": (1, True), "P3": (1, True), "P0": (3, False), "P1": (4, False)}
    assert "tied on strikes and in the final game" in read["ending"]["reason"]


def test_undoing_the_drop_that_ended_the_event_reopens_it(client):
    tid, auth, *_ = create(client, players=4)
    play_round(client, tid, auth, FOUR)
    drop(client, tid, auth, "P0")
    drop(client, tid, auth, "P1")
    read = undo(client, tid, auth)
    assert read["status"] == "between_rounds" and read["winners"] == []
    assert read["ending"]["finished"] is False and read["ending"]["reason"] == "3 players remain"
    assert status_of(read, "P1") == "active" and status_of(read, "P0") == "dropped"
    history = client.get(f"{BASE}/{tid}/history").get_json()
    assert [e["kind"] for e in history["actions"]][-2:] == ["player_dropped", "undone"]
    second = client.post(f"{BASE}/{tid}/rounds", headers=auth)
    assert second.status_code == 201
    assert sorted(second.get_json()["tables"][0]["players"]) == ["P1", "P2", "P3"]


def test_with_two_player_games_the_last_two_play_on_and_the_last_one_wins(client):
    tid, auth, *_ = create(client, players=4, two_player_games=True)
    play_round(client, tid, auth, FOUR)
    drop(client, tid, auth, "P0")
    read = drop(client, tid, auth, "P1")
    assert read["status"] == "between_rounds"  # two can play a 2-player game
    assert read["ending"]["reason"] == "2 players remain"
    read = drop(client, tid, auth, "P2")
    assert read["status"] == "finished" and read["winners"] == ["P3"]
    assert read["ending"]["rule"] == "last-survivor"
    assert "dropped" in read["ending"]["reason"]
    assert_problem(client.post(f"{BASE}/{tid}/rounds", headers=auth), 409)

    # Undo revives a second player: no longer finished, and the two play a 2-player game.
    read = undo(client, tid, auth)
    assert read["status"] == "between_rounds" and read["winners"] == []
    assert status_of(read, "P2") == "active"
    closed = play_round(client, tid, auth, FOUR)
    assert [len(t["players"]) for t in closed["tables"]] == [2]
    # P2 16 + 0, P3 24 + 24: P3 is out and P2 is the last survivor.
    final = client.get(f"{BASE}/{tid}").get_json()
    assert final["status"] == "finished" and final["winners"] == ["P2"]


def test_drops_before_the_first_round(client):
    tid, auth, *_ = create(client, players=3)
    read = drop(client, tid, auth, "P0")
    assert read["status"] == "finished"
    assert sorted(read["winners"]) == ["P1", "P2"]
    assert "no game" in read["ending"]["reason"]
    read = undo(client, tid, auth)
    assert read["status"] == "registered" and read["ending"] is None
    tid, auth, *_ = create(client, players=3, two_player_games=True)
    drop(client, tid, auth, "P0")
    read = drop(client, tid, auth, "P1")
    assert read["status"] == "finished" and read["winners"] == ["P2"]


def test_a_drop_while_a_round_is_in_play_is_refused_and_the_table_stands(client):
    tid, auth, *_ = create(client, players=10)
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    table = next(t for t in rnd["tables"] if "P3" in t["players"])
    refused = assert_problem(client.post(f"{BASE}/{tid}/players/P3/drop", headers=auth), 409)
    assert "drop players between rounds" in refused["detail"]
    read = client.get(f"{BASE}/{tid}").get_json()
    assert status_of(read, "P3") == "active" and read["status"] == "round_open"
    shown = client.get(f"{BASE}/{tid}/rounds/1").get_json()
    assert next(t for t in shown["tables"] if t["table"] == table["table"]) == table
    history = client.get(f"{BASE}/{tid}/history").get_json()
    assert "player_dropped" not in [e["kind"] for e in history["actions"]]
    # P3's table is played and entered as usual; once the round closes, the drop is taken.
    ranking = [f"P{i}" for i in range(10)]
    for each in rnd["tables"]:
        body = results_by_order(each["players"], ranking)
        url = f"{BASE}/{tid}/rounds/1/tables/{each['table']}"
        assert client.put(url, json=body, headers=auth).status_code == 200
    assert client.post(f"{BASE}/{tid}/rounds/1/close", headers=auth).status_code == 200
    assert drop(client, tid, auth, "P3")["status"] == "between_rounds"
    second = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    assert "P3" not in [p for t in second["tables"] for p in t["players"]]


def test_an_ending_with_a_bye_says_the_bye_is_why_there_is_no_margin(client):
    """4-3 game, five players, no 2-player games: one table of four and a bye. With an
    elimination at 8 strikes the bye and the table's winner survive, tied at 0."""
    tid, auth, *_ = create(client, players=5, game="4-3", threshold=8)
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    assert len(rnd["byes"]) == 1
    bye = rnd["byes"][0]
    seated = rnd["tables"][0]["players"]
    body = {"results": [{"player": p, "score": 60 - 10 * i} for i, p in enumerate(seated)]}
    client.put(f"{BASE}/{tid}/rounds/1/tables/1", json=body, headers=auth)
    ending = client.post(f"{BASE}/{tid}/rounds/1/close", headers=auth).get_json()["ending"]
    assert ending["finished"] and sorted(ending["winners"]) == sorted([bye, seated[0]])
    assert "no scores" not in ending["reason"]
    assert f"{bye} had a bye in the final round" in ending["reason"]
