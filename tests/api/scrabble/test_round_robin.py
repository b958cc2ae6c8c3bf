"""Round robins through the API: an event created with `pairing_system: round_robin` pairs
every round from its circle until every pair has met once, a withdrawn player's opponents
have byes, nobody joins late, a bad setting is a 422 naming it, and a real round robin
(albany2024_B.t, from ../shared) played through the service."""

from __future__ import annotations

from collections import Counter

import pytest

from bench.real_divisions import real_text
from pairing_service import create_app
from pairing_service.engine.scrabble.tsh import parse_lines
from tests.api.scrabble.test_held_events import BASE, create, start
from tests.api.scrabble.test_tsh_interchange import event_standings, file_standings
from tests.support import assert_problem, auth

ALBANY_B = "albany2024_B.t"


def play(client, base: str, token: str, **body) -> dict:
    """Pair the next round, enter every game (the first listed wins by 40), close it."""
    rnd = start(client, base, token, **body)
    for game in rnd["games"]:
        url = f"{base}/rounds/{rnd['round']}/games/{game['game']}"
        answer = client.put(url, json={"scores": [420, 380]}, headers=auth(token))
        assert answer.status_code == 200, answer.get_json()
    closed = client.post(f"{base}/rounds/{rnd['round']}/close", headers=auth(token))
    assert closed.status_code == 200, closed.get_json()
    return closed.get_json()


def test_a_round_robin_event_pairs_every_pair_once_by_its_circle(client):
    base, token = create(client, players=7, rounds=7, pairing_system="round_robin")
    event = client.get(base).get_json()
    assert event["pairing_system"] == "round_robin"
    assert [r["method"] for r in event["schedule"]] == ["round_robin"] * 7
    rounds = [play(client, base, token) for _ in range(7)]
    assert [r["method"] for r in rounds] == ["round_robin"] * 7
    assert [r["rule"] for r in rounds] == [f"round robin: round {k} of 7" for k in range(1, 8)]
    met = Counter(frozenset(g["players"]) for r in rounds for g in r["games"])
    assert len(met) == 21 and set(met.values()) == {1}
    # seven players: the bye goes round the circle, the top seed's first
    assert rounds[0]["bye"] == "S0" and len({r["bye"] for r in rounds}) == 7
    assert client.get(base).get_json()["status"] == "finished"
    text = client.get(f"{base}/tsh").get_data(as_text=True)
    assert file_standings(text) == event_standings(client, base)


def test_a_withdrawn_players_opponents_have_byes_on_every_board_list(client):
    base, token = create(client, players=6, rounds=5, pairing_system="round_robin")
    play(client, base, token)
    assert client.post(f"{base}/players/S3/drop", headers=auth(token)).status_code == 200
    later = [play(client, base, token) for _ in range(4)]
    unopposed = [s["player"] for r in later for s in r["sat_out"]]
    assert len(unopposed) == len(set(unopposed)) == 4  # S3's four opponents left
    assert all(s["spread"] == 50 for r in later for s in r["sat_out"])
    assert all(r["bye"] is None and len(r["games"]) == 2 for r in later)
    assert all("their opponent withdrew" in r["rule"] for r in later)
    board = client.get(f"{base}/rounds/2?format=csv").get_data(as_text=True).splitlines()
    assert board[-1] == f"bye,{later[0]['sat_out'][0]['player']},,,50,,,,"
    standings = {s["player"]: s for s in client.get(base).get_json()["standings"]}
    assert all(standings[p]["byes"] == 1 for p in unopposed)
    history = [a["summary"] for a in client.get(f"{base}/history").get_json()["actions"]]
    assert any(
        w.startswith("Round 2 paired by round_robin") and ", bye Player " in w for w in history
    )
    text = client.get(f"{base}/tsh").get_data(as_text=True)
    assert file_standings(text) == event_standings(client, base)


def test_a_late_entrant_joins_before_the_round_robin_begins_and_not_after(client):
    base, token = create(client, players=4, rounds=4, pairing_system="round_robin")
    early = {"id": "E", "rating": 1500}
    assert client.post(f"{base}/players", json=early, headers=auth(token)).status_code == 201
    first = play(client, base, token)
    assert first["bye"] == "S0"  # five in the circle: the top seed sits out round 1
    late = client.post(f"{base}/players", json={"id": "L", "rating": 1500}, headers=auth(token))
    problem = assert_problem(late, 409)
    assert "the round robin began in round 1" in problem["detail"]
    assert "'L' cannot join it" in problem["detail"]
    assert "L" not in {s["player"] for s in client.get(base).get_json()["standings"]}


def test_a_swiss_event_may_pair_a_round_by_the_round_robin_and_refuse_an_outsider(client):
    base, token = create(client, players=4, rounds=4)
    first = play(client, base, token, method="round_robin")
    assert first["method"] == "round_robin" and first["games"][0]["players"] == ["S0", "S3"]
    late = client.post(f"{base}/players", json={"id": "L", "rating": 1500}, headers=auth(token))
    assert late.status_code == 201  # the Swiss schedule takes late entrants
    refused = client.post(f"{base}/rounds", json={"method": "round_robin"}, headers=auth(token))
    assert (
        "'L' is not in the round robin that began in round 1"
        in (assert_problem(refused, 409)["detail"])
    )
    assert client.get(base).get_json()["current_round"] == 1


@pytest.mark.parametrize("value", ["double", "", 1, None, ["round_robin"]])
def test_a_bad_pairing_system_is_a_422_naming_it_and_nothing_is_made(client, value):
    field = [{"id": f"S{i}", "rating": 1500} for i in range(4)]
    body = {"players": field, "rounds": 3, "pairing_system": value}
    assert_problem(client.post(BASE, json=body), 422, "/pairing_system")
    base, token = create(client, players=4, rounds=3)
    changed = client.put(f"{base}/settings", json={"pairing_system": value}, headers=auth(token))
    assert_problem(changed, 422, "/pairing_system")
    assert client.get(base).get_json()["pairing_system"] == "swiss"


def test_the_pairing_system_changes_with_the_settings_until_the_first_result(client):
    base, token = create(client, players=4, rounds=3)
    body = {"pairing_system": "round_robin"}
    changed = client.put(f"{base}/settings", json=body, headers=auth(token))
    assert changed.status_code == 200, changed.get_json()
    assert [r["method"] for r in changed.get_json()["schedule"]] == ["round_robin"] * 3
    history = [a["summary"] for a in client.get(f"{base}/history").get_json()["actions"]]
    assert history[-1].startswith("Settings changed, a round robin: 3 rounds planned")


@pytest.fixture()
def roomy(tmp_path):
    """A client whose director may write a whole 28-player round robin in a minute."""
    config = {"DATABASE_URL": f"sqlite:///{tmp_path}/rr.sqlite3", "WRITE_RATE_LIMIT": "1000/60"}
    app = create_app({"TESTING": True, **config})
    yield app.test_client()
    app.extensions["pairing_store"].engine.dispose()


def test_albany_2024_b_a_real_round_robin_played_through_the_service(roomy):
    """The real division: 28 players, 27 rounds, one player (line 26) gone after round
    23, whose four remaining opponents the director gave +50 byes. The director's order of
    rounds is not the service's circle (docs/scrabble.md, "Round robins"); what both hold
    is checked: every pair meets once, and a withdrawn player's opponents have a bye."""
    lines = parse_lines(real_text(ALBANY_B))  # skips where the real divisions are missing
    assert (len(lines), {len(p.opponents) for p in lines}) == (28, {27})
    gone = next(p for p in lines if p.scores[-1] == -50)
    # the file: every pair met once, but the gone player's four last opponents, who had
    # a +50 bye instead in the round they were to meet
    met = Counter(
        frozenset((p.number, o)) for p in lines for o in p.opponents if o and p.number < o
    )
    assert set(met.values()) == {1} and len(met) == 378 - 4
    never = {p.number for p in lines} - {gone.number} - set(gone.opponents)
    filed_byes = {
        p.number: r
        for p in lines
        for r, (o, s) in enumerate(zip(p.opponents, p.scores, strict=True), start=1)
        if o == 0 and s == 50
    }
    assert set(filed_byes) == never and sorted(filed_byes.values()) == [24, 25, 26, 27]

    # the service, on the same entry list (seeded by rating), the same player gone
    field = [{"id": str(p.number), "name": p.name, "rating": p.rating} for p in lines]
    client = roomy
    made = client.post(
        BASE, json={"players": field, "rounds": 27, "pairing_system": "round_robin"}
    ).get_json()
    base, token = f"{BASE}/{made['id']}", made["token"]
    rounds = [play(client, base, token) for _ in range(23)]
    drop = client.post(f"{base}/players/{gone.number}/drop", headers=auth(token))
    assert drop.status_code == 200, drop.get_json()
    rounds += [play(client, base, token) for _ in range(4)]
    ours = Counter(frozenset(g["players"]) for r in rounds for g in r["games"])
    assert set(ours.values()) == {1} and len(ours) == 378 - 4
    byes = {s["player"]: r["round"] for r in rounds for s in r["sat_out"]}
    assert len(byes) == 4 and sorted(byes.values()) == [24, 25, 26, 27]
    assert all(r["bye"] is None for r in rounds)  # 28 players: no empty place
    missed = {p for pair in set(map(frozenset, _all_pairs(lines))) - set(ours) for p in pair}
    assert missed == {str(gone.number), *byes}
    standings = {s["player"]: s for s in client.get(base).get_json()["standings"]}
    assert all(standings[p]["byes"] == 1 for p in byes)
    # the circle is the rating order, not the file's lines: round 1 sets the top seed
    # (line 1, 1498) against the bottom (line 27, 1152), the second (line 2) against line 28
    assert [g["players"] for g in rounds[0]["games"][:2]] == [["1", "27"], ["2", "28"]]


def _all_pairs(lines) -> list[tuple[str, str]]:
    ids = [str(p.number) for p in lines]
    return [(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]]
