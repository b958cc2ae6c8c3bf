"""The day of the event, strikes: what a director needs when something goes wrong,
through the HTTP API.

- a late entrant, refused once a round started, who starts with the most strikes of anyone
  still in;
- a no-show dropped and the round seated again, refused once a result of the round is
  entered;
- a result fixed after the next round started: allowed when it changes no elimination the
  later rounds were built on.

Every refusal writes nothing (the revision stays), and each new action can be undone.
The same for every held format (a new token, the director's list, printing):
tests/api/test_day_of_event.py.
"""

from __future__ import annotations

from tests.support import assert_problem, auth, correcting
from tests.support.held_events import STRIKES, refused, strikes_event, undo_latest


def by_order(players: list[str], ranking: list[str]) -> dict:
    ordered = sorted(players, key=ranking.index)
    return {"results": [{"player": p, "score": 100 - 10 * i} for i, p in enumerate(ordered)]}


def strikes_round(client, base: str, token: str, ranking: list[str], close: bool = True) -> dict:
    rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    for table in rnd["tables"]:
        url = f"{base}/rounds/{rnd['round']}/tables/{table['table']}"
        answer = client.put(url, json=by_order(table["players"], ranking), headers=auth(token))
        assert answer.status_code == 200, answer.get_data(as_text=True)
    if close:
        closed = client.post(f"{base}/rounds/{rnd['round']}/close", headers=auth(token))
        assert closed.status_code == 200
    return rnd


def strikes_of(client, base: str) -> dict[str, float]:
    return {s["player"]: s["strikes"] for s in client.get(base).get_json()["standings"]}


def test_strikes_late_entrant_starts_with_the_most_strikes_of_anyone_still_in(client):
    base, token = strikes_event(client, threshold=23)
    early = client.post(f"{base}/players", json={"id": "E1", "name": "Early"}, headers=auth(token))
    assert early.status_code == 201 and early.headers["Location"].endswith(base)
    assert strikes_of(client, base)["E1"] == 0  # before round 1: like everyone
    ranking = ["E1", *(f"P{i}" for i in range(9))]
    strikes_round(client, base, token, ranking)
    standings = client.get(base).get_json()["standings"]
    worst_in = max(s["strikes"] for s in standings if s["status"] == "active")
    assert any(s["status"] == "eliminated" for s in standings)  # 24 strikes at 23: out
    late = client.post(f"{base}/players", json={"id": "L1", "name": "Late"}, headers=auth(token))
    assert late.status_code == 201
    row = next(s for s in late.get_json()["standings"] if s["player"] == "L1")
    assert row["strikes"] == worst_in and row["games"] == 0 and row["status"] == "active"
    entry = client.get(f"{base}/history").get_json()["actions"][-1]
    assert entry["kind"] == "player_entered" and entry["data"]["before_round"] == 2
    assert f"starting with {entry['data']['strikes']} strikes" in entry["summary"]
    # The next round seats them like anyone still in.
    rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    assert "L1" in [p for t in rnd["tables"] for p in t["players"]] + rnd["byes"]


def test_strikes_late_entry_refusals_write_nothing(client):
    base, token = strikes_event(client)
    assert_problem(client.post(f"{base}/players", json={"id": "X"}), 401)
    refused(client, base, client.post(f"{base}/players", json={"id": "X"}, headers=auth("x")), 403)
    duplicate = client.post(f"{base}/players", json={"id": "P3"}, headers=auth(token))
    refused(client, base, duplicate, 422, "/id")
    refused(client, base, client.post(f"{base}/players", json={}, headers=auth(token)), 422, "/id")
    client.post(f"{base}/rounds", headers=auth(token))
    during = client.post(f"{base}/players", json={"id": "X"}, headers=auth(token))
    assert "round 1 has started" in refused(client, base, during, 409)["detail"]


def test_strikes_late_entry_is_undone(client):
    base, token = strikes_event(client)
    client.post(f"{base}/players", json={"id": "X"}, headers=auth(token))
    undone = undo_latest(client, base, token).get_json()
    assert undone["undone"]["kind"] == "player_entered"
    assert "X" not in strikes_of(client, base)


def test_strikes_no_show_is_dropped_and_the_round_seated_again(client):
    base, token = strikes_event(client, players=10)
    first = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    no_show = first["tables"][0]["players"][0]
    answer = client.post(
        f"{base}/rounds/1/reseat", json={"no_shows": [no_show]}, headers=auth(token)
    )
    assert answer.status_code == 200, answer.get_data(as_text=True)
    seated = [p for t in answer.get_json()["tables"] for p in t["players"]]
    seated += answer.get_json()["byes"]
    assert no_show not in seated and len(seated) == 9
    assert [len(t["players"]) for t in answer.get_json()["tables"]] == [5, 4]  # 9 players
    row = next(s for s in client.get(base).get_json()["standings"] if s["player"] == no_show)
    assert row["status"] == "dropped" and row["dropped_before_round"] == 1
    entry = client.get(f"{base}/history").get_json()["actions"][-1]
    assert entry["kind"] == "round_reseated" and entry["data"]["no_shows"] == [no_show]
    assert no_show in entry["summary"]
    # Undo: the first seating and the player are back.
    assert undo_latest(client, base, token).status_code == 200
    assert client.get(f"{base}/rounds/1").get_json()["tables"] == first["tables"]
    assert no_show in {s["player"] for s in client.get(base).get_json()["standings"]}
    assert client.get(base).get_json()["standings"][0]["status"] == "active"


def test_strikes_reseat_refusals_write_nothing(client):
    base, token = strikes_event(client)
    rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    seated = rnd["tables"][0]["players"]
    url = f"{base}/rounds/1/reseat"
    refused(client, base, client.post(url, json={"no_shows": ["P99"]}, headers=auth(token)), 422)
    twice = {"no_shows": [seated[0], seated[0]]}
    refused(client, base, client.post(url, json=twice, headers=auth(token)), 422, "/no_shows/1")
    refused(client, base, client.post(url, json={"no_shows": []}, headers=auth(token)), 422)
    once = {"no_shows": [seated[0]]}
    refused(
        client, base, client.post(f"{base}/rounds/2/reseat", json=once, headers=auth(token)), 404
    )
    # Once a result of the round is entered: 409.
    table = f"{base}/rounds/1/tables/{rnd['tables'][0]['table']}"
    client.put(table, json=by_order(seated, seated), headers=auth(token))
    late = client.post(url, json={"no_shows": [seated[1]]}, headers=auth(token))
    assert "has results" in refused(client, base, late, 409)["detail"]


def test_strikes_no_show_that_leaves_too_few_players_is_refused(client):
    base, token = strikes_event(client, players=3)
    client.post(f"{base}/rounds", headers=auth(token))
    gone = client.post(f"{base}/rounds/1/reseat", json={"no_shows": ["P0"]}, headers=auth(token))
    assert "drop them instead" in refused(client, base, gone, 409)["detail"]


def test_strikes_late_correction_that_changes_an_elimination_is_refused(client):
    base, token = strikes_event(client, threshold=23)
    ranking = [f"P{i}" for i in range(9)]
    rnd = strikes_round(client, base, token, ranking)
    client.post(f"{base}/rounds", headers=auth(token))
    table = rnd["tables"][0]
    reverse = client.put(
        f"{base}/rounds/1/tables/{table['table']}",
        json=by_order(table["players"], ranking[::-1]),
        headers=auth(token),
    )
    body = refused(client, base, reverse, 409)
    assert "would change who was eliminated" in body["detail"] and "undo back" in body["detail"]


def test_strikes_late_correction_is_undone(client):
    base, token = strikes_event(client)
    ranking = [f"P{i}" for i in range(9)]
    rnd = strikes_round(client, base, token, ranking)
    client.post(f"{base}/rounds", headers=auth(token))
    before = strikes_of(client, base)
    table = rnd["tables"][0]
    url = f"{base}/rounds/1/tables/{table['table']}"
    headers = correcting(client, base, token)
    fixed = client.put(url, json=by_order(table["players"], ranking[::-1]), headers=headers)
    assert fixed.status_code == 200 and fixed.get_json()["changes"]
    assert strikes_of(client, base) != before
    assert undo_latest(client, base, token).status_code == 200
    assert strikes_of(client, base) == before


def test_a_late_entrants_starting_strikes_follow_the_events_setting(client, app):
    """The director's setting: the most (the default above), the mean or the fewest
    strikes of the players still in; the default stays out of the log, so logs from before
    the setting read the same."""
    from fractions import Fraction

    from sqlalchemy import select

    from pairing_service.store import schema

    started: dict[str, object] = {}
    for rule in ("most", "mean", "fewest"):
        base, token = strikes_event(client, threshold=23, late_entry_strikes=rule)
        assert client.get(base).get_json()["late_entry_strikes"] == rule
        strikes_round(client, base, token, [f"P{i}" for i in range(9)])
        still_in = [
            Fraction(s["strikes_exact"])
            for s in client.get(base).get_json()["standings"]
            if s["status"] == "active"
        ]
        late = client.post(f"{base}/players", json={"id": "L1"}, headers=auth(token))
        row = next(s for s in late.get_json()["standings"] if s["player"] == "L1")
        started[rule] = Fraction(row["strikes_exact"])
        expected = {
            "most": max(still_in),
            "mean": sum(still_in, Fraction(0)) / len(still_in),
            "fewest": min(still_in),
        }[rule]
        assert started[rule] == expected, rule
    assert started["fewest"] < started["mean"] < started["most"]
    page = client.get(f"/events/strikes/{base.rsplit('/', 1)[1]}").get_data(as_text=True)
    assert "A late entrant starts with the fewest strikes of the players still in." in page
    three = {"players": [{"id": "a"}, {"id": "b"}, {"id": "c"}], "late_entry_strikes": "median"}
    assert_problem(client.post(STRIKES, json=three), 422, "/late_entry_strikes")
    default, _ = strikes_event(client)
    with app.app_context():
        store = app.extensions["pairing_store"]
        with store.engine.connect() as connection:
            logged = connection.execute(
                select(schema.log.c.data)
                .where(schema.log.c.seq == 1)
                .where(schema.log.c.tournament_id == default.rsplit("/", 1)[1])
            ).scalar_one()
    assert "late_entry" not in str(logged)


def test_seeds_stay_within_javascripts_safe_integers(client):
    """A drawn seed, and the largest a director may give, read back exactly in a browser."""
    safe = 2**53 - 1
    base, _ = strikes_event(client)
    drawn = client.post(STRIKES, json={"players": [{"id": p} for p in "abc"]}).get_json()
    assert 0 <= drawn["seed"] <= safe
    given = client.post(STRIKES, json={"players": [{"id": p} for p in "abc"], "seed": safe})
    assert given.status_code == 201 and given.get_json()["seed"] == safe
    too_big = {"players": [{"id": p} for p in "abc"], "seed": safe + 1}
    assert_problem(client.post(STRIKES, json=too_big), 422, "/seed")
    assert client.get(base).get_json()["seed"] <= safe


def test_one_table_is_one_in_the_history(client):
    base, token = strikes_event(client, players=5)
    client.post(f"{base}/rounds", headers=auth(token))
    summary = client.get(f"{base}/history").get_json()["actions"][-1]["summary"]
    assert summary.endswith(": 1 table"), summary
