"""Held Diagonal Race events (seed 002) through the API: rounds, results, the winner."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.support import assert_problem, auth, correcting

BASE = "/v1/diagonal/events"


def create(client, players, **settings) -> tuple[str, str]:
    answer = client.post(BASE, json={"name": "Spring Race", "players": players, **settings})
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    assert answer.headers["Location"].endswith(f"{BASE}/{body['id']}")
    return body["id"], body["token"]


def start(client, tid, token) -> dict:
    answer = client.post(f"{BASE}/{tid}/rounds", headers=auth(token))
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def enter(client, tid, token, number, game, winner, pieces=0, headers=None):
    return client.put(
        f"{BASE}/{tid}/rounds/{number}/games/{game}",
        json={"winner": winner, "pieces_left": pieces},
        headers=headers or auth(token),
    )


def close(client, tid, token, number) -> dict:
    answer = client.post(f"{BASE}/{tid}/rounds/{number}/close", headers=auth(token))
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def read(client, tid) -> dict:
    return client.get(f"{BASE}/{tid}").get_json()


def rated(count: int) -> list[dict]:
    return [
        {"id": f"P{i}", "name": f"Player {i}", "rating": 2000 - 10 * i} for i in range(1, count + 1)
    ]


def test_an_event_runs_to_its_winner_by_the_seeds_rules(client):
    tid, token = create(client, rated(8))
    assert read(client, tid)["status"] == "registered"
    first = start(client, tid, token)
    # Round 1: four opponents each, in the diagonal pattern by rating, no rematch.
    per_player = Counter(p for g in first["games"] for p in g["players"])
    assert set(per_player.values()) == {4} and len(per_player) == 8
    assert (
        first["opponents"] == 4 and not first["playoff"] and first["waiting"] == list(range(1, 17))
    )
    pairs = [frozenset(g["players"]) for g in first["games"]]
    assert len(set(pairs)) == len(pairs)
    number, rounds = 1, first
    while True:
        for game in rounds["games"]:  # the better rated always wins
            winner = min(game["players"], key=lambda p: int(p[1:]))
            assert enter(client, tid, token, number, game["game"], winner, 2).status_code == 200
        closed = close(client, tid, token, number)
        standings = read(client, tid)["standings"]
        for row in standings:  # two losses eliminate
            assert (row["status"] == "eliminated") == (row["losses"] >= 2)
        if closed["ending"] and closed["ending"]["finished"]:
            break
        number += 1
        rounds = start(client, tid, token)
        active = {r["player"] for r in standings if r["status"] == "active"}
        # Two opponents after the first round (one when only two are left).
        assert rounds["opponents"] == min(2, len(active) - 1)
        assert {p for g in rounds["games"] for p in g["players"]} == active
    event = read(client, tid)
    assert event["status"] == "finished" and event["winners"] == ["P1"]
    assert event["standings"][0]["player"] == "P1" and event["standings"][0]["status"] == "winner"
    assert event["ending"]["reason"] == "the last player left"
    again = client.post(f"{BASE}/{tid}/rounds", headers=auth(token))
    assert_problem(again, 409)


def play_cycle(client, tid, token, number, pieces):
    """Three players, everyone plays everyone: A beats B, B beats C, C beats A."""
    games = {
        frozenset(g["players"]): g["game"]
        for g in client.get(f"{BASE}/{tid}/rounds/{number}").get_json()["games"]
    }
    for (winner, loser), left in zip((("A", "B"), ("B", "C"), ("C", "A")), pieces, strict=True):
        game = games[frozenset((winner, loser))]
        assert enter(client, tid, token, number, game, winner, left).status_code == 200


def three_in_order(client) -> tuple[str, str]:
    players = [{"id": p} for p in "ABC"]  # no ratings: the order listed
    return create(client, players, first_round_opponents=2, opponents=2)


def test_all_eliminated_together_the_pieces_left_decide(client):
    tid, token = three_in_order(client)
    for number in (1, 2):
        rnd = start(client, tid, token)
        assert len(rnd["games"]) == 3
        play_cycle(client, tid, token, number, pieces=(5, 1, 1) if number == 2 else (1, 1, 1))
        closed = close(client, tid, token, number)
    # Everyone is out after round 2 with two losses; the direct games are 2-2-2 in wins.
    assert closed["eliminated"] == ["A", "B", "C"]
    event = read(client, tid)
    assert event["winners"] == ["A"]
    assert event["ending"]["reason"].endswith(
        "fewest losses, then direct comparison, then pieces left"
    )
    assert closed["games"][0]["rematch"] is True  # round 2 repeats round 1's meetings


def test_all_level_means_playoff_rounds_between_the_tied(client):
    tid, token = three_in_order(client)
    for number in (1, 2):
        start(client, tid, token)
        play_cycle(client, tid, token, number, pieces=(2, 2, 2))
        close(client, tid, token, number)
    event = read(client, tid)
    assert event["status"] == "between_rounds" and event["winners"] == []
    assert event["ending"]["playoff"] == ["A", "B", "C"] and not event["ending"]["finished"]
    assert {s["status"] for s in event["standings"]} == {"playoff"}
    playoff = start(client, tid, token)
    assert playoff["playoff"] is True and len(playoff["games"]) == 3
    # Still level after one playoff round: another one.
    play_cycle(client, tid, token, 3, pieces=(1, 1, 1))
    assert close(client, tid, token, 3)["ending"]["playoff"] == ["A", "B", "C"]
    start(client, tid, token)
    games = {
        frozenset(g["players"]): g["game"]
        for g in client.get(f"{BASE}/{tid}/rounds/4").get_json()["games"]
    }
    for winner, loser in (("B", "A"), ("B", "C"), ("A", "C")):
        enter(client, tid, token, 4, games[frozenset((winner, loser))], winner, 1)
    ending = close(client, tid, token, 4)["ending"]
    assert ending["finished"] and ending["winners"] == ["B"]
    assert ending["reason"].startswith("won the playoff: fewest losses")
    assert ending["runners_up"] == ["A", "C"]  # A beat C in the deciding playoff round
    event = read(client, tid)
    assert event["winners"] == ["B"]
    assert [(s["place"], s["player"]) for s in event["standings"]] == [(1, "B"), (2, "A"), (3, "C")]


def test_the_playoff_loser_is_runner_up_above_a_player_never_level_for_first(client):
    tid, token = three_in_order(client)
    for number in (1, 2):  # A and B level on pieces left, C behind them: A and B play off
        start(client, tid, token)
        play_cycle(client, tid, token, number, pieces=(3, 3, 1))
        close(client, tid, token, number)
    assert read(client, tid)["ending"]["playoff"] == ["A", "B"]
    playoff = start(client, tid, token)
    (game,) = playoff["games"]
    enter(client, tid, token, 3, game["game"], "B", 2)
    ending = close(client, tid, token, 3)["ending"]
    assert ending["winners"] == ["B"] and ending["runners_up"] == ["A"]
    standings = read(client, tid)["standings"]
    # A lost one more game than C (the playoff), yet the playoff placed A above C.
    assert [(s["place"], s["player"]) for s in standings] == [(1, "B"), (2, "A"), (3, "C")]
    assert standings[1]["losses"] > standings[2]["losses"]
    table = client.get(f"{BASE}/{tid}/export?format=csv").get_data(as_text=True).splitlines()
    assert table[0].startswith("place,player,")
    assert [line.split(",")[:2] for line in table[1:]] == [["1", "B"], ["2", "A"], ["3", "C"]]


def test_whole_ratings_read_as_whole_numbers_in_the_standings_table(client):
    players = [
        {"id": "A", "rating": 1990},
        {"id": "B", "rating": 1875.5},
        {"id": "C", "rating": 1500},
    ]
    tid, _ = create(client, players)
    table = client.get(f"{BASE}/{tid}/export?format=csv").get_data(as_text=True)
    assert ",1990," in table and ",1875.5," in table and "1990.0" not in table


def test_a_correction_keeps_the_original_and_an_identical_entry_adds_nothing(client):
    tid, token = create(client, rated(6))
    rnd = start(client, tid, token)
    game = rnd["games"][0]
    a, b = game["players"]
    assert enter(client, tid, token, 1, game["game"], a, 3).get_json()["result"] == {
        "winner": a,
        "pieces_left": 3,
    }
    revision = read(client, tid)["revision"]
    assert enter(client, tid, token, 1, game["game"], a, 3).status_code == 200
    assert read(client, tid)["revision"] == revision  # nothing appended
    # A different result is a correction only when it says which revision it corrects.
    stands = assert_problem(enter(client, tid, token, 1, game["game"], b, 1), 409)
    assert stands["stands"] == {"winner": a, "pieces_left": 3}
    assert read(client, tid)["revision"] == revision
    headers = correcting(client, f"{BASE}/{tid}", token)
    assert enter(client, tid, token, 1, game["game"], b, 1, headers).status_code == 200
    actions = client.get(f"{BASE}/{tid}/history").get_json()["actions"]
    assert [a["kind"] for a in actions[-2:]] == ["result_entered", "result_corrected"]
    assert actions[-2]["data"]["winner"] == a
    assert actions[-1]["data"]["was"] == {"winner": a, "pieces_left": 3}
    assert "corrected" in actions[-1]["summary"]
    row = {s["player"]: s for s in read(client, tid)["standings"]}
    assert row[a]["losses"] == 1 and row[b]["wins"] == 1 and row[b]["pieces_left"] == 1


def test_the_board_list_as_plain_text(client):
    tid, token = create(client, rated(4), first_round_opponents=2)
    rnd = start(client, tid, token)
    first = rnd["games"][0]
    enter(client, tid, token, 1, first["game"], first["players"][0], 4)
    answer = client.get(f"{BASE}/{tid}/rounds/1", headers={"Accept": "text/plain"})
    assert answer.mimetype == "text/plain"
    text = answer.get_data(as_text=True)
    assert text.startswith("Spring Race: round 1 (2 games each), open")
    lines = [line for line in text.splitlines() if line.startswith("Game")]
    assert len(lines) == len(rnd["games"])
    a, b = first["players"]
    assert f"Player {a[1:]} ({a}) v Player {b[1:]} ({b})" in lines[0]
    assert lines[0].endswith(f"{a} won, 4 pieces left") and lines[1].endswith("-")


def test_drops_between_rounds(client):
    tid, token = create(client, rated(10), first_round_opponents=2)
    rnd = start(client, tid, token)
    assert_problem(client.post(f"{BASE}/{tid}/players/P6/drop", headers=auth(token)), 409)
    for game in rnd["games"]:  # the wins alternate, so several players stay in
        enter(client, tid, token, 1, game["game"], game["players"][game["game"] % 2])
    close(client, tid, token, 1)
    active = [s["player"] for s in read(client, tid)["standings"] if s["status"] == "active"]
    assert len(active) >= 3
    dropped = client.post(f"{BASE}/{tid}/players/{active[0]}/drop", headers=auth(token))
    assert dropped.status_code == 200
    row = next(s for s in dropped.get_json()["standings"] if s["player"] == active[0])
    assert row["status"] == "dropped" and row["dropped_before_round"] == 2
    nxt = start(client, tid, token)
    assert {p for g in nxt["games"] for p in g["players"]} == set(active[1:])
    assert_problem(client.post(f"{BASE}/{tid}/players/nobody/drop", headers=auth(token)), 404)


def test_a_drop_that_leaves_one_player_ends_the_event(client):
    tid, token = create(client, rated(6))
    for game in start(client, tid, token)["games"]:
        enter(client, tid, token, 1, game["game"], min(game["players"]))
    close(client, tid, token, 1)
    active = [s["player"] for s in read(client, tid)["standings"] if s["status"] == "active"]
    assert active == ["P1", "P2"]
    event = client.post(f"{BASE}/{tid}/players/P1/drop", headers=auth(token)).get_json()
    assert event["status"] == "finished" and event["winners"] == ["P2"]


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"players": [{"id": "A"}]}, "/players"),
        ({"players": [{"id": "A"}, {"id": "A"}]}, "/players/1/id"),
        ({"players": [{"id": "A", "rating": 1}, {"id": "B"}]}, "/players/1/rating"),
        ({"players": [{"id": "A"}, {"id": "B"}], "opponents": 3}, "/opponents"),
        (
            {"players": [{"id": "A"}, {"id": "B"}], "first_round_opponents": 1},
            "/first_round_opponents",
        ),
        ({"players": [{"id": "A\u0000"}, {"id": "B"}]}, "/players/0/id"),
        ({"players": [{"id": "A"}, {"id": "B", "rating": "1"}]}, "/players/1/rating"),
    ],
)
def test_bad_events_are_refused_by_field(client, body, pointer):
    assert_problem(client.post(BASE, json=body), 422, pointer)


def test_bad_writes_name_the_field_and_write_nothing(client):
    tid, token = create(client, rated(6))
    rnd = start(client, tid, token)
    game = rnd["games"][0]
    outsider = next(p for p in ("P1", "P2", "P3", "P4", "P5", "P6") if p not in game["players"])
    revision = read(client, tid)["revision"]
    assert_problem(enter(client, tid, token, 1, game["game"], outsider), 422, "/winner")
    assert_problem(enter(client, tid, token, 1, 999, "P1"), 404)
    assert_problem(enter(client, tid, token, 2, 1, "P1"), 404)
    bad_pieces = client.put(
        f"{BASE}/{tid}/rounds/1/games/1",
        json={"winner": "P1", "pieces_left": -1},
        headers=auth(token),
    )
    assert_problem(bad_pieces, 422, "/pieces_left")
    assert_problem(client.post(f"{BASE}/{tid}/rounds/1/close", headers=auth(token)), 409)
    assert_problem(client.post(f"{BASE}/{tid}/rounds", headers=auth(token)), 409)
    assert_problem(client.put(f"{BASE}/{tid}/rounds/1/games/1", json={"winner": "P1"}), 401)
    assert_problem(enter(client, tid, token + "x", 1, game["game"], game["players"][0]), 403)
    assert_problem(client.get(f"{BASE}/{'f' * 32}"), 404)
    assert read(client, tid)["revision"] == revision
    # Once the next round has started, a closed round's game changes only when nobody's
    # elimination does (tests/api/diagonal/test_day_of_event.py has the corrections that
    # are allowed).
    for g in rnd["games"]:
        enter(client, tid, token, 1, g["game"], min(g["players"]))
    close(client, tid, token, 1)
    start(client, tid, token)
    before = read(client, tid)
    losses = {s["player"]: s["losses"] for s in before["standings"]}
    game = next(
        g for g in rnd["games"] if losses[min(g["players"])] >= 1 or losses[max(g["players"])] == 2
    )
    revision = before["revision"]
    refused = enter(client, tid, token, 1, game["game"], max(game["players"]))
    assert "would change who was eliminated" in assert_problem(refused, 409)["detail"]
    assert read(client, tid)["revision"] == revision


def test_a_strikes_tournament_is_not_a_diagonal_event(client):
    players = [{"id": f"S{i}"} for i in range(5)]
    created = client.post("/v1/strikes/tournaments", json={"players": players}).get_json()
    assert_problem(client.get(f"{BASE}/{created['id']}"), 404)
    assert_problem(
        client.post(f"{BASE}/{created['id']}/rounds", headers=auth(created["token"])), 404
    )


def test_result_slips_hold_a_game_each_asking_who_won_and_the_pieces_left(client):
    tid, token = create(client, rated(5), first_round_opponents=2)
    rnd = start(client, tid, token)
    slips = client.get(f"/events/diagonal/{tid}/slips").get_data(as_text=True)
    played = [g for g in rnd["games"] if len(g["players"]) == 2]
    assert slips.count('<section class="slip">') == len(played)  # a bye has no slip
    assert "won (tick)" in slips and "pieces left" in slips and "<th>place</th>" not in slips
