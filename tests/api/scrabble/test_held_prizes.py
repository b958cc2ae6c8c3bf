"""Held Scrabble events with prize places: the last rounds race each place head to head."""

from __future__ import annotations

import csv
import io
import random

from tests.api.scrabble.test_held_events import BASE, create, play_round
from tests.support import assert_problem, auth


def test_graded_prizes_pair_the_last_three_rounds_by_their_races(client):
    base, token = create(client, players=14, rounds=7, prizes=[300, 200, 100])
    event = client.get(base).get_json()
    assert event["prizes"] == [300, 200, 100] and event["victors"] == 3
    methods = [r["method"] for r in event["schedule"]]
    assert methods == ["seeded", "swiss", "swiss", "swiss", "advisor", "advisor", "advisor"]
    rng = random.Random(7)
    rounds = [play_round(client, base, token, rng) for _ in range(7)]
    assert [r["method"] for r in rounds][-3:] == ["advisor"] * 3
    assert all("prize places" in r["rule"] for r in rounds[-3:])


def test_the_final_round_is_the_stateless_advisors_on_the_events_tsh_file(client):
    base, token = create(client, players=10, rounds=4, prizes=[300, 200, 100], spread_cap=200)
    rng = random.Random(11)
    for _ in range(3):
        play_round(client, base, token, rng)
    tsh = client.get(f"{base}/tsh").get_data(as_text=True)
    query = "prizes=300,200,100&max_spread_per_game=200&spread_cap=200&repeats_allowed=1"
    stateless = client.post(
        f"/v1/scrabble/final-round?{query}", data=tsh, content_type="text/plain"
    )
    assert stateless.status_code == 200, stateless.get_json()
    advised = stateless.get_json()
    assert advised["prize_model"] == "graded"
    # Each racer's board says the race it keeps, or where the racer's rivals are.
    racers = set(advised["contenders"])
    raced = [p for p in advised["pairings"] if racers & set(p["players"])]
    assert raced and all(" race for " in p["reason"] or "rival" in p["reason"] for p in raced), (
        raced
    )
    final = client.post(f"{base}/rounds", headers=auth(token))
    assert final.status_code == 201, final.get_json()
    names = {s["player"]: s["name"] for s in client.get(base).get_json()["standings"]}
    held = {frozenset(names[p] for p in g["players"]) for g in final.get_json()["games"]}
    assert held == {frozenset(p["names"]) for p in advised["pairings"] if not p["bye"]}


def test_settings_switch_between_prizes_and_victors_until_the_first_result(client):
    base, token = create(client, players=8, rounds=5, prizes=[None, None])
    changed = client.put(f"{base}/settings", json={"victors": 3}, headers=auth(token))
    assert changed.status_code == 200, changed.get_json()
    event = client.get(base).get_json()
    assert event["prizes"] is None and event["victors"] == 3
    changed = client.put(f"{base}/settings", json={"prizes": [50, 20]}, headers=auth(token))
    assert changed.status_code == 200, changed.get_json()
    assert client.get(base).get_json()["prizes"] == [50, 20]
    both = client.put(
        f"{base}/settings", json={"prizes": [50, 20], "victors": 2}, headers=auth(token)
    )
    assert_problem(both, 422)
    rising = client.put(f"{base}/settings", json={"prizes": [20, 50]}, headers=auth(token))
    assert assert_problem(rising, 422).get("rule") == "points-fall"
    assert client.get(base).get_json()["prizes"] == [50, 20]


def test_bad_prizes_at_creation_are_refused(client):
    field = [{"id": f"P{i}", "rating": 1500} for i in range(4)]
    for prizes, rule in (([10, 20], "points-fall"), ([10] * 9, None)):
        answer = client.post(BASE, json={"players": field, "rounds": 3, "prizes": prizes})
        problem = assert_problem(answer, 422)
        assert "/prizes" in [e["pointer"] for e in problem["errors"]]
        assert problem.get("rule") == rule
    both = client.post(BASE, json={"players": field, "rounds": 3, "prizes": [1], "victors": 1})
    assert assert_problem(both, 422).get("rule") == "victors-or-prizes"


def test_an_event_continued_from_tsh_takes_its_prizes(client):
    tsh = "Able, Ann 1800 2 3 ; 420 390\nBaker, Bob 1700 1 4 ; 380 400\n"
    tsh += "Cole, Cat 1600 4 1 ; 400 300\nDunn, Dan 1500 3 2 ; 350 350\n"
    url = f"{BASE}/import-tsh?prizes=100,50,null&rounds=4"
    made = client.post(url, data=tsh, content_type="text/plain")
    assert made.status_code == 201, made.get_json()
    event = client.get(f"{BASE}/{made.get_json()['id']}").get_json()
    assert event["prizes"] == [100, 50, None] and event["victors"] == 3
    both = client.post(
        f"{BASE}/import-tsh?prizes=100&victors=1", data=tsh, content_type="text/plain"
    )
    assert "/prizes" in [e["pointer"] for e in assert_problem(both, 422)["errors"]]
    rising = client.post(f"{BASE}/import-tsh?prizes=5,10", data=tsh, content_type="text/plain")
    assert assert_problem(rising, 422).get("rule") == "points-fall"


def test_the_public_page_shows_who_holds_each_prize_place(client):
    base, token = create(client, players=8, rounds=3, prizes=[300, 200, None])
    play_round(client, base, token, random.Random(5))
    standings = client.get(base).get_json()["standings"]
    html = client.get(f"/events/scrabble/{base.rsplit('/', 1)[1]}").get_data(as_text=True)
    html = html[html.rindex(">Standings<") :]  # the standings table, after the rounds
    holders = [s["name"] for s in standings[:3]]
    for holder, label in zip(holders, ("1st · 300", "2nd · 200", "3rd"), strict=True):
        row = next(line for line in html.split("<tr") if holder in line)
        assert label in row, (holder, label)
    fourth = next(line for line in html.split("<tr") if standings[3]["name"] in line)
    assert "1st" not in fourth and "3rd" not in fourth


def test_players_level_on_wins_and_spread_are_shown_tied_for_their_places(client):
    # Round 1 seeded: S0-S2 and S1-S3, both won 400-300. S0 and S1 are level on wins and
    # spread (rating orders them, and decides nothing), as are S2 and S3: each pair is
    # shown tied for the places it holds, the money of those places split.
    base, token = create(client, players=4, rounds=2, prizes=[300, 200, 100])
    rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    for game in rnd["games"]:
        url = f"{base}/rounds/1/games/{game['game']}"
        answer = client.put(url, json={"scores": [400, 300]}, headers=auth(token))
        assert answer.status_code == 200, answer.get_json()
    assert sorted(tuple(g["players"]) for g in rnd["games"]) == [("S0", "S2"), ("S1", "S3")]
    exported = client.get(f"{base}/export", headers={"Accept": "text/csv"})
    rows = list(csv.DictReader(io.StringIO(exported.get_data(as_text=True))))
    assert [(r["player"], r["prize"]) for r in rows] == [
        ("S0", "1st–2nd (tied: 300 + 200 split)"),
        ("S1", "1st–2nd (tied: 300 + 200 split)"),
        ("S2", "3rd–4th (tied: 100 split)"),
        ("S3", "3rd–4th (tied: 100 split)"),
    ]
    html = client.get(f"/events/scrabble/{base.rsplit('/', 1)[1]}").get_data(as_text=True)
    html = html[html.rindex(">Standings<") :]
    assert html.count("1st–2nd (tied: 300 + 200 split)") == 2
    assert "1st · 300" not in html and "2nd · 200" not in html


def test_prize_amounts_are_stored_and_answered_as_the_numbers_sent(client):
    # Amounts are exact Decimals inside, written as JSON numbers as they always were.
    base, token = create(client, players=6, rounds=3, prizes=[300, 12.5, 0.1])
    assert b'"prizes":[300.0,12.5,0.1]' in client.get(base).data
    backup = client.get(f"{base}/backup", headers=auth(token))
    assert b'"prizes":[300.0,12.5,0.1]' in backup.data
    restored = client.post(f"{BASE}/import", json=backup.get_json())  # asks each request again
    assert restored.status_code == 201, restored.get_json()
    assert b'"prizes":[300.0,12.5,0.1]' in client.get(restored.headers["Location"]).data
