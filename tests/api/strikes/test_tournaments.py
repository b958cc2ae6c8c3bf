"""Persistent strikes tournaments over HTTP, on SQLite and on PostgreSQL."""

from __future__ import annotations

import csv
import io

import pytest
from sqlalchemy import func, select

from pairing_service.store import schema
from tests.support import assert_problem, if_match

BASE = "/v1/strikes/tournaments"


@pytest.fixture()
def client(store_app):
    return store_app.test_client()


def create(client, players=9, **settings):
    body = {"name": "Spring Open", "players": [{"id": f"P{i}"} for i in range(players)]}
    body.update({"seed": 1, **settings})
    response = client.post(BASE, json=body)
    assert response.status_code == 201, response.get_data(as_text=True)
    created = response.get_json()
    return created["id"], {"Authorization": f"Bearer {created['token']}"}, created, response


def results_by_order(players, first_to_last):
    """A result with places following ``first_to_last`` (ids), scores falling by 10."""
    ordered = sorted(players, key=first_to_last.index)
    return {"results": [{"player": p, "score": 100 - 10 * i} for i, p in enumerate(ordered)]}


def play_round(client, tid, auth, ranking):
    started = client.post(f"{BASE}/{tid}/rounds", headers=auth)
    assert started.status_code == 201, started.get_data(as_text=True)
    rnd = started.get_json()
    for table in rnd["tables"]:
        url = f"{BASE}/{tid}/rounds/{rnd['round']}/tables/{table['table']}"
        response = client.put(url, json=results_by_order(table["players"], ranking), headers=auth)
        assert response.status_code == 200, response.get_data(as_text=True)
    closed = client.post(f"{BASE}/{tid}/rounds/{rnd['round']}/close", headers=auth)
    assert closed.status_code == 200, closed.get_data(as_text=True)
    return closed.get_json()


def test_create_then_read(client):
    tid, _auth, created, response = create(client)
    assert response.headers["Location"].endswith(f"{BASE}/{tid}")
    assert created["status"] == "registered" and created["current_round"] is None
    assert created["threshold"] == 35 and created["game"] == "5-4-3"
    assert len(created["token"]) >= 40
    read = client.get(f"{BASE}/{tid}").get_json()
    assert "token" not in read
    assert [s["strikes"] for s in read["standings"]] == [0] * 9
    assert {s["status"] for s in read["standings"]} == {"active"}


def test_the_token_is_stored_only_as_a_hash(client, store_app):
    _tid, _auth, created, _ = create(client)
    engine = store_app.extensions["pairing_store"].engine
    with engine.connect() as conn:
        stored = conn.execute(select(schema.tournaments.c.token_hash)).scalar_one()
    assert created["token"] not in stored and len(stored) == 64


def test_a_whole_round(client):
    tid, auth, *_ = create(client)
    started = client.post(f"{BASE}/{tid}/rounds", headers=auth)
    assert started.status_code == 201
    rnd = started.get_json()
    assert rnd["round"] == 1 and rnd["kind"] == "random" and rnd["status"] == "open"
    assert sorted(len(t["players"]) for t in rnd["tables"]) == [4, 5]
    assert started.headers["Location"].endswith(f"{BASE}/{tid}/rounds/1")

    assert_problem(client.post(f"{BASE}/{tid}/rounds", headers=auth), 409)
    refused = assert_problem(client.post(f"{BASE}/{tid}/rounds/1/close", headers=auth), 409)
    assert "no result yet for table(s) 1, 2" in refused["detail"]

    first = rnd["tables"][0]
    ranking = [f"P{i}" for i in range(9)]
    url = f"{BASE}/{tid}/rounds/1/tables/1"
    entered = client.put(url, json=results_by_order(first["players"], ranking), headers=auth)
    assert entered.status_code == 200
    result = entered.get_json()["result"]
    size = len(first["players"])
    assert [r["strikes"] for r in result] == ([0, 6, 12, 18, 24] if size == 5 else [0, 8, 16, 24])
    again = client.put(url, json=results_by_order(first["players"], ranking), headers=auth)
    assert again.get_json() == entered.get_json()

    second = rnd["tables"][1]
    client.put(
        f"{BASE}/{tid}/rounds/1/tables/2",
        json=results_by_order(second["players"], ranking),
        headers=auth,
    )
    closed = client.post(f"{BASE}/{tid}/rounds/1/close", headers=auth)
    assert closed.status_code == 200
    assert closed.get_json()["status"] == "closed"
    assert closed.get_json()["ending"]["finished"] is False
    read = client.get(f"{BASE}/{tid}").get_json()
    assert read["status"] == "between_rounds"
    strikes = {s["player"]: s["strikes"] for s in read["standings"]}
    assert sum(strikes.values()) == 60 + 48
    assert all(s["games"] == 1 for s in read["standings"])


def test_one_result_per_table_after_repeated_puts(client, store_app):
    tid, auth, *_ = create(client)
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    table = rnd["tables"][0]
    forward, backward = [f"P{i}" for i in range(9)], [f"P{i}" for i in reversed(range(9))]
    for ranking in (forward, forward, backward, backward):
        answer = client.put(
            f"{BASE}/{tid}/rounds/1/tables/1",
            json=results_by_order(table["players"], ranking),
            headers={**auth, **if_match(client, f"{BASE}/{tid}")},  # the correction says so
        )
        assert answer.status_code == 200
    # The repeats were no-ops; the correction is logged beside the entry it replaces.
    log = (
        store_app.extensions["pairing_store"]
        .read(store_app.extensions["pairing_ledgers"]["strikes"], tid)
        .log
    )
    assert [e.kind for e in log] == [
        "created",
        "round_started",
        "result_entered",
        "result_corrected",
    ]
    assert [r["player"] for r in log[3].data["was"]] == [
        r["player"] for r in log[2].data["results"]
    ]
    shown = client.get(f"{BASE}/{tid}/rounds/1").get_json()["tables"][0]["result"]
    assert len(shown) == len(table["players"])
    assert shown[0]["player"] == max(table["players"], key=lambda p: int(p[1:]))


def test_corrections_after_the_next_round_starts_say_what_they_change(client):
    tid, auth, *_ = create(client)
    ranking = [f"P{i}" for i in range(9)]
    closed = play_round(client, tid, auth, ranking)
    table = closed["tables"][0]
    url = f"{BASE}/{tid}/rounds/1/tables/1"
    correcting = {**auth, **if_match(client, f"{BASE}/{tid}")}
    corrected = client.put(
        url, json=results_by_order(table["players"], ranking[::-1]), headers=correcting
    )
    assert corrected.status_code == 200 and corrected.get_json()["changes"] == []
    seating = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()["tables"]
    # Round 2 has started: the correction is allowed (nobody's elimination changes at
    # 35 strikes), says what it changed, and round 2's seating stands.
    correcting = {**auth, **if_match(client, f"{BASE}/{tid}")}
    late = client.put(url, json=results_by_order(table["players"], ranking), headers=correcting)
    assert late.status_code == 200, late.get_data(as_text=True)
    changes = late.get_json()["changes"]
    first, last = sorted(table["players"], key=ranking.index)[:: len(table["players"]) - 1]
    assert f"strikes of {first}: 24 → 0" in changes and f"strikes of {last}: 0 → 24" in changes
    assert changes[-1] == "round 2 was seated before this correction and is kept as it was"
    assert client.get(f"{BASE}/{tid}/rounds/2").get_json()["tables"] == seating
    entry = client.get(f"{BASE}/{tid}/history").get_json()["actions"][-1]
    assert entry["data"]["changes"] == changes and changes[-1] in entry["summary"]


@pytest.mark.parametrize(
    ("change", "status", "pointer"),
    [
        (lambda players: players[:-1], 422, "/results"),
        (lambda players: [*players[:-1], "P99"], 422, "/results/{last}/player"),
        (lambda players: [*players[:-1], players[0]], 422, "/results/{last}/player"),
    ],
)
def test_results_must_list_exactly_the_tables_players(client, change, status, pointer):
    tid, auth, *_ = create(client)
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    players = change(rnd["tables"][0]["players"])
    body = {"results": [{"player": p, "score": 10 + i} for i, p in enumerate(players)]}
    response = client.put(f"{BASE}/{tid}/rounds/1/tables/1", json=body, headers=auth)
    assert_problem(response, status, pointer.format(last=len(players) - 1))
    shown = client.get(f"{BASE}/{tid}/rounds/1").get_json()
    assert shown["tables"][0]["result"] is None


def test_a_player_from_another_table_is_refused(client):
    tid, auth, *_ = create(client)
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    players = list(rnd["tables"][0]["players"])
    players[0] = rnd["tables"][1]["players"][0]
    body = {"results": [{"player": p, "score": 10 + i} for i, p in enumerate(players)]}
    problem = assert_problem(
        client.put(f"{BASE}/{tid}/rounds/1/tables/1", json=body, headers=auth),
        422,
        "/results/0/player",
    )
    assert "is not at table 1" in problem["detail"]


def test_unknown_rounds_tables_and_tournaments_are_404(client):
    tid, auth, *_ = create(client)
    client.post(f"{BASE}/{tid}/rounds", headers=auth)
    body = {"results": [{"player": "P1", "score": 1}, {"player": "P2", "score": 2}]}
    assert_problem(client.put(f"{BASE}/{tid}/rounds/1/tables/9", json=body, headers=auth), 404)
    assert_problem(client.put(f"{BASE}/{tid}/rounds/4/tables/1", json=body, headers=auth), 404)
    assert_problem(client.get(f"{BASE}/{tid}/rounds/4"), 404)
    assert_problem(client.get(f"{BASE}/{'0' * 32}"), 404)
    assert_problem(client.get(f"{BASE}/not-an-id"), 404)
    assert_problem(client.get(f"{BASE}/{tid}/rounds/99999999999999999999"), 404)
    assert_problem(client.post(f"{BASE}/{'0' * 32}/rounds", headers=auth), 404)


def every_write(tid, table_players):
    body = {"results": [{"player": p, "score": i} for i, p in enumerate(table_players)]}
    return [
        ("post", f"{BASE}/{tid}/rounds", None),
        ("put", f"{BASE}/{tid}/rounds/1/tables/1", body),
        ("post", f"{BASE}/{tid}/rounds/1/close", None),
        ("post", f"{BASE}/{tid}/players/P1/drop", None),
    ]


@pytest.mark.parametrize("index", range(4))
def test_writes_without_the_right_token_change_nothing(client, index):
    tid, auth, *_ = create(client)
    _other_tid, other_auth, *_ = create(client)
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    before = client.get(f"{BASE}/{tid}").get_json()
    method, url, body = every_write(tid, rnd["tables"][0]["players"])[index]
    call = getattr(client, method)
    kwargs = {"json": body} if body is not None else {}
    missing = call(url, **kwargs)
    assert_problem(missing, 401)
    assert missing.headers["WWW-Authenticate"].startswith("Bearer")
    assert_problem(call(url, headers={"Authorization": "Basic abc"}, **kwargs), 401)
    assert_problem(call(url, headers=other_auth, **kwargs), 403)
    assert_problem(call(url, headers={"Authorization": "Bearer " + "x" * 5000}, **kwargs), 403)
    assert client.get(f"{BASE}/{tid}").get_json() == before


def test_drop_between_rounds_only(client):
    tid, auth, *_ = create(client, players=10)
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    assert_problem(client.post(f"{BASE}/{tid}/players/P3/drop", headers=auth), 409)
    ranking = [f"P{i}" for i in range(10)]
    for table in rnd["tables"]:
        client.put(
            f"{BASE}/{tid}/rounds/1/tables/{table['table']}",
            json=results_by_order(table["players"], ranking),
            headers=auth,
        )
    client.post(f"{BASE}/{tid}/rounds/1/close", headers=auth)
    dropped = client.post(f"{BASE}/{tid}/players/P3/drop", headers=auth)
    assert dropped.status_code == 200
    row = next(s for s in dropped.get_json()["standings"] if s["player"] == "P3")
    assert row["status"] == "dropped" and row["dropped_before_round"] == 2
    assert_problem(client.post(f"{BASE}/{tid}/players/P3/drop", headers=auth), 409)
    assert_problem(client.post(f"{BASE}/{tid}/players/P77/drop", headers=auth), 404)
    second = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    seated = [p for t in second["tables"] for p in t["players"]]
    assert "P3" not in seated and len(seated) == 9
    assert second["kind"] == "split"


def test_a_whole_event_to_its_winner(client):
    tid, auth, *_ = create(client, players=14, threshold=23)
    ranking = [f"P{i}" for i in range(14)]  # P0 always beats everyone
    for _ in range(20):
        closed = play_round(client, tid, auth, ranking)
        if closed["ending"]["finished"]:
            break
    read = client.get(f"{BASE}/{tid}").get_json()
    assert read["status"] == "finished"
    assert read["winners"] == ["P0"]
    assert next(s for s in read["standings"] if s["player"] == "P0")["strikes"] == 0
    out = [s for s in read["standings"] if s["status"] == "eliminated"]
    assert all(s["strikes"] >= 23 for s in out)
    assert_problem(client.post(f"{BASE}/{tid}/rounds", headers=auth), 409)
    # Eliminated players are refused by name when a result lists them.
    last = closed["round"]
    table = closed["tables"][0]
    gone = next(s["player"] for s in out if s["eliminated_after_round"] < last)
    body = {"results": [{"player": p, "score": 1} for p in [*table["players"][:-1], gone]]}
    problem = assert_problem(
        client.put(f"{BASE}/{tid}/rounds/{last}/tables/1", json=body, headers=auth), 422
    )
    assert "was eliminated after round" in problem["detail"]


def test_final_standings_place_everyone_and_name_the_winner(client):
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
    players = [{"id": f"P{i}", "name": name} for i, name in enumerate(names)]
    body = {"name": "Club night", "players": players, "seed": 1, "threshold": 23}
    created = client.post(BASE, json=body).get_json()
    tid, auth = created["id"], {"Authorization": f"Bearer {created['token']}"}
    ranking = [p["id"] for p in players]  # P0 beats everyone, P1 everyone else, ...
    assert client.get(f"{BASE}/{tid}").get_json()["winner_names"] == []
    while not play_round(client, tid, auth, ranking)["ending"]["finished"]:
        pass
    read = client.get(f"{BASE}/{tid}").get_json()
    assert read["winners"] == ["P0"] and read["winner_names"] == ["Ann"]
    # Round 1: a table of 4 and one of 3 (seed 1): Fay 4th and Gus 3rd, 24 strikes each,
    # out level; round 2 (5 left, one table) puts out Dan and Eve; round 3, Bob and Cat.
    expected = [
        (1, "Ann", True, None),
        (2, "Bob", False, 3),
        (3, "Cat", False, 3),
        (4, "Dan", False, 2),
        (5, "Eve", False, 2),
        (6, "Fay", False, 1),
        (6, "Gus", False, 1),
    ]
    shown = [
        (s["place"], s["name"], s["winner"], s["eliminated_after_round"]) for s in read["standings"]
    ]
    assert shown == expected
    csv_text = client.get(f"{BASE}/{tid}/export?format=csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(csv_text)))
    assert list(rows[0])[:3] == ["place", "player", "name"]
    assert [
        (int(r["place"]), r["name"], r["winner"] == "True", r["eliminated_after_round"])
        for r in rows
    ] == [(p, n, w, "" if r is None else str(r)) for p, n, w, r in expected]
    text = client.get(f"{BASE}/{tid}/export?format=text").get_data(as_text=True)
    assert text.splitlines()[4].split()[:4] == ["1", "P0", "Ann", "0"]


def test_dual_winners_play_the_tiebreak_game(client):
    tid, auth, *_ = create(client, players=3, two_player_games=True)
    # Round 1: P0 0, P1 12, P2 24. Round 2: P2 wins (24), P0 2nd (12), P1 3rd (36, out).
    play_round(client, tid, auth, ["P0", "P1", "P2"])
    closed = play_round(client, tid, auth, ["P2", "P0", "P1"])
    ending = closed["ending"]
    assert ending["finished"] and set(ending["winners"]) == {"P0", "P2"}
    dual = client.get(f"{BASE}/{tid}").get_json()["standings"]
    assert [(s["player"], s["place"], s["winner"]) for s in dual] == [
        ("P0", 1, True),  # dual winners share 1st, whatever their strikes
        ("P2", 1, True),
        ("P1", 3, False),
    ]
    assert ending["tiebreak_game"] and ending["rule"] == "one-table"
    assert client.get(f"{BASE}/{tid}").get_json()["status"] == "between_rounds"
    tiebreak = play_round(client, tid, auth, ["P2", "P0"])
    assert tiebreak["kind"] == "tiebreak"
    assert tiebreak["ending"]["winners"] == ["P2"]
    read = client.get(f"{BASE}/{tid}").get_json()
    assert read["status"] == "finished" and read["winners"] == ["P2"]
    assert [(s["player"], s["place"]) for s in read["standings"]] == [
        ("P2", 1),  # won the tiebreak game
        ("P0", 2),
        ("P1", 3),
    ]
    assert_problem(client.post(f"{BASE}/{tid}/rounds", headers=auth), 409)


def test_without_two_player_games_dual_winners_stand(client):
    tid, auth, *_ = create(client, players=3)
    play_round(client, tid, auth, ["P0", "P1", "P2"])
    closed = play_round(client, tid, auth, ["P2", "P0", "P1"])
    assert closed["ending"]["tiebreak_game"] is False
    read = client.get(f"{BASE}/{tid}").get_json()
    assert read["status"] == "finished" and set(read["winners"]) == {"P0", "P2"}


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"players": [{"id": "A"}, {"id": "B"}]}, "/players"),
        ({"players": [{"id": "A"}, {"id": "B"}, {"id": "A"}]}, "/players/2/id"),
        ({"players": [{"id": p} for p in "ABC"], "threshold": 0}, "/threshold"),
        ({"players": [{"id": p} for p in "ABC"], "game": "7-6"}, "/game"),
        ({"players": [{"id": p} for p in "ABC"], "seed": -1}, "/seed"),
        ({"players": [{"id": p} for p in "ABC"], "name": "x" * 201}, "/name"),
        ({"players": [{"id": f"P{i}"} for i in range(1000)], "plans": 100}, "/plans"),
        ({"players": [{"id": "A\u0000"}, {"id": "B"}, {"id": "C"}]}, "/players/0/id"),
    ],
)
def test_bad_tournaments_are_refused_and_nothing_is_stored(client, store_app, body, pointer):
    assert_problem(client.post(BASE, json=body), 422, pointer)
    engine = store_app.extensions["pairing_store"].engine
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(schema.tournaments)).scalar_one() == 0


def test_mid_round_standings_count_only_entered_results(client):
    """games and opponents_met move with strikes: a table still being played counts for
    neither until its result is entered."""
    created = client.post(BASE, json={"players": [{"id": f"p{i}"} for i in range(8)]}).get_json()
    tid, headers = created["id"], {"Authorization": f"Bearer {created['token']}"}
    tables = client.post(f"{BASE}/{tid}/rounds", headers=headers).get_json()["tables"]
    rows = client.get(f"{BASE}/{tid}").get_json()["standings"]
    assert {(r["games"], r["opponents_met"], r["strikes"]) for r in rows} == {(0, 0, 0)}
    first = tables[0]
    results = [{"player": p, "score": 90 - 10 * i} for i, p in enumerate(first["players"])]
    client.put(
        f"{BASE}/{tid}/rounds/1/tables/{first['table']}", json={"results": results}, headers=headers
    )
    rows = {r["player"]: r for r in client.get(f"{BASE}/{tid}").get_json()["standings"]}
    for player in first["players"]:
        assert rows[player]["games"] == 1
        assert rows[player]["opponents_met"] == len(first["players"]) - 1
    waiting = [p for t in tables[1:] for p in t["players"]]
    assert all(rows[p]["games"] == 0 and rows[p]["opponents_met"] == 0 for p in waiting)
