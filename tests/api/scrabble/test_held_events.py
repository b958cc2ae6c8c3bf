"""Scrabble events held by the service, through the API: every round from the first to
the final (the advisor's), results by scores, scorekeepers, refusals, the tsh export."""

from __future__ import annotations

import random
import uuid
from collections import Counter

from pairing_service.engine.scrabble.tsh import read_division
from tests.support import assert_problem, auth, correcting
from tests.support.held_events import kinds, undo_latest

BASE = "/v1/scrabble/events"


def create(client, players: int = 12, rounds: int = 5, **settings) -> tuple[str, str]:
    field = [
        {"id": f"S{i}", "name": f"Player {chr(65 + i % 26)}{i}", "rating": 2000 - 25 * i}
        for i in range(players)
    ]
    answer = client.post(
        BASE, json={"name": "Club open", "players": field, "rounds": rounds, **settings}
    )
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    assert answer.headers["Location"].endswith(f"{BASE}/{body['id']}")
    return f"{BASE}/{body['id']}", body["token"]


def start(client, base, token, **body) -> dict:
    answer = client.post(f"{base}/rounds", json=body or None, headers=auth(token))
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def play_round(client, base, token, rng: random.Random) -> dict:
    """Pair the next round, enter every game (the better-rated wins more often), close."""
    rnd = start(client, base, token)
    ratings = {s["player"]: s["rating"] for s in client.get(base).get_json()["standings"]}
    for game in rnd["games"]:
        a, b = game["players"]
        chance = 1 / (1 + 10 ** ((ratings[b] - ratings[a]) / 400))
        margin = rng.randint(1, 150)
        scores = [400 + margin, 400] if rng.random() < chance else [380, 380 + margin]
        url = f"{base}/rounds/{rnd['round']}/games/{game['game']}"
        answer = client.put(url, json={"scores": scores}, headers=auth(token))
        assert answer.status_code == 200, answer.get_json()
    closed = client.post(f"{base}/rounds/{rnd['round']}/close", headers=auth(token))
    assert closed.status_code == 200, closed.get_json()
    return closed.get_json()


def test_an_event_runs_by_the_default_schedule_to_its_final_round(client):
    base, token = create(client, players=13, rounds=6)
    event = client.get(base).get_json()
    assert [r["method"] for r in event["schedule"]] == ["seeded"] + ["swiss"] * 4 + ["advisor"]
    assert event["status"] == "registered"
    rng = random.Random(3)
    rounds = [play_round(client, base, token, rng) for _ in range(6)]
    assert [r["method"] for r in rounds] == ["seeded"] + ["swiss"] * 4 + ["advisor"]
    assert rounds[-1]["rule"]  # the advisor says which rule it followed
    event = client.get(base).get_json()
    assert event["status"] == "finished"
    # 13 players: a bye every round, never twice to one player
    byes = Counter(r["bye"] for r in rounds)
    assert len(byes) == 6 and max(byes.values()) == 1
    # no back-to-back rematch, and no pair met more than twice (allowance 1)
    met: Counter[frozenset[str]] = Counter()
    last: dict[str, str] = {}
    for rnd in rounds:
        for game in rnd["games"]:
            a, b = game["players"]
            assert last.get(a) != b
            met[frozenset((a, b))] += 1
        last = {p: q for g in rnd["games"] for p, q in (g["players"], g["players"][::-1])}
    assert max(met.values()) <= 2
    # the middle rounds repeat nobody: 13 players have plenty of fresh opponents
    early: Counter[frozenset[str]] = Counter(
        frozenset(g["players"]) for rnd in rounds[:5] for g in rnd["games"]
    )
    assert max(early.values()) == 1
    standings = event["standings"]
    assert [s["rank"] for s in standings] == list(range(1, 14))
    keys = [(-s["wins"], -s["spread"]) for s in standings]
    assert keys == sorted(keys)
    assert client.post(f"{base}/rounds", headers=auth(token)).status_code == 409


def test_the_final_round_gives_no_second_bye_while_another_player_has_none(client):
    # Nine players, six rounds by the default schedule: the lowest-rated has round 1's bye
    # and wins every game after it, and otherwise the higher-rated player wins. The final
    # round finds them a lone Gibsonized leader who has had a bye, while four players
    # have had none, one of them out of contention: the advisor gave the leader a second
    # bye; now the leader plays and that non-contender takes it.
    base, token = create(client, players=9, rounds=6)
    leader = "S8"
    rounds = []
    for _ in range(6):
        rnd = start(client, base, token)
        for game in rnd["games"]:
            a, b = game["players"]
            winner = leader if leader in (a, b) else min(a, b, key=lambda p: int(p[1:]))
            url = f"{base}/rounds/{rnd['round']}/games/{game['game']}"
            scores = [420, 380] if winner == a else [380, 420]
            assert client.put(url, json={"scores": scores}, headers=auth(token)).status_code == 200
        assert (
            client.post(f"{base}/rounds/{rnd['round']}/close", headers=auth(token)).status_code
            == 200
        )
        rounds.append(rnd)
    assert [r["method"] for r in rounds] == ["seeded"] + ["swiss"] * 4 + ["advisor"]
    # The row's configuration; its pairing, or the principled one where the row's repeats
    # a game past the allowance.
    assert rounds[0]["bye"] == leader and rounds[-1]["rule"].startswith("0/1/1.5+:")
    assert any(leader in g["players"] for g in rounds[-1]["games"])
    byes = Counter(r["bye"] for r in rounds)
    assert len(byes) == 6 < 9  # six byes: three players have none
    assert max(byes.values()) == 1  # so nobody has two
    assert client.get(base).get_json()["standings"][0]["player"] == leader


def test_round_one_seeded_pairs_the_top_half_against_the_bottom_half(client):
    base, token = create(client, players=8)
    rnd = start(client, base, token)
    assert rnd["method"] == "seeded" and rnd["bye"] is None
    assert [g["players"] for g in rnd["games"]] == [
        ["S0", "S4"],
        ["S1", "S5"],
        ["S2", "S6"],
        ["S3", "S7"],
    ]


def test_the_director_chooses_a_method_per_round(client):
    base, token = create(client, players=8, rounds=4)
    first = start(client, base, token, method="random", seed=7)
    assert first["method"] == "random" and first["seed"] == 7
    again = create(client, players=8, rounds=4)
    same = start(client, again[0], again[1], method="random", seed=7)
    assert [g["players"] for g in same["games"]] == [g["players"] for g in first["games"]]
    for game in first["games"]:
        url = f"{base}/rounds/1/games/{game['game']}"
        client.put(url, json={"scores": [400, 300]}, headers=auth(token))
    client.post(f"{base}/rounds/1/close", headers=auth(token))
    koth = start(client, base, token, method="koth", repeats_allowed=0)
    assert koth["method"] == "koth" and koth["repeats_allowed"] == 0
    ranked = [s["player"] for s in client.get(base).get_json()["standings"]]
    for game in koth["games"]:
        a, b = (ranked.index(p) for p in game["players"])
        assert abs(a - b) <= 3 and game["repeat"] == 0


def test_results_forfeits_corrections_and_what_they_change(client):
    base, token = create(client, players=4, rounds=3, bye_spread=75)
    rnd = start(client, base, token)
    (a, b), (c, d) = (g["players"] for g in rnd["games"])
    entered = client.put(
        f"{base}/rounds/1/games/1", json={"scores": [420, 380]}, headers=auth(token)
    )
    assert entered.get_json()["result"] == {
        "scores": [420, 380],
        "penalties": [0, 0],
        "forfeit": None,
        "spread": 40,  # by how much the game was won
    }
    forfeit = client.put(f"{base}/rounds/1/games/2", json={"forfeit": d}, headers=auth(token))
    assert forfeit.get_json()["result"] == {
        "scores": None,
        "penalties": [0, 0],
        "forfeit": d,
        "spread": 75,
    }
    rows = {s["player"]: s for s in client.get(base).get_json()["standings"]}
    assert (rows[a]["wins"], rows[a]["spread"]) == (1, 40)
    assert (rows[c]["wins"], rows[c]["spread"], rows[d]["spread"]) == (1, 75, -75)
    # a different result without If-Match: 409, saying what stands
    url = f"{base}/rounds/1/games/1"
    assert_problem(client.put(url, json={"scores": [300, 380]}, headers=auth(token)), 409)
    client.post(f"{base}/rounds/1/close", headers=auth(token))
    start(client, base, token)
    fixed = client.put(
        url, json={"scores": [300, 380]}, headers=correcting(client, base, token)
    ).get_json()
    assert any("record of" in line for line in fixed["changes"])
    assert fixed["changes"][-1] == "round 2 was paired before this correction and is kept as it was"
    rows = {s["player"]: s for s in client.get(base).get_json()["standings"]}
    assert (rows[b]["wins"], rows[b]["spread"]) == (1, 80)
    # the same result again writes nothing
    revision = client.get(base).get_json()["revision"]
    client.put(url, json={"scores": [300, 380]}, headers=auth(token))
    assert client.get(base).get_json()["revision"] == revision
    # undo takes the correction back
    undo_latest(client, base, token)
    rows = {s["player"]: s for s in client.get(base).get_json()["standings"]}
    assert rows[a]["spread"] == 40


def test_a_game_answers_by_how_much_it_was_won_and_one_game_is_one(client):
    base, token = create(client, players=3, rounds=2)
    start(client, base, token)
    summary = client.get(f"{base}/history").get_json()["actions"][-1]["summary"]
    assert summary == "Round 1 paired by seeded: 1 game, bye Player C2"  # S2, by name
    entered = client.put(
        f"{base}/rounds/1/games/1", json={"scores": [350, 400]}, headers=auth(token)
    )
    assert entered.get_json()["result"]["spread"] == 50  # a 400-350 game, its loser first


def test_refusals_name_the_field(client):
    field = [{"id": "A", "rating": 1500}, {"id": "B", "rating": 1400}]
    assert_problem(client.post(BASE, json={"players": field}), 422, "/rounds")
    bad = [{"id": "A", "rating": 1500}, {"id": "A", "rating": 1400}]
    assert_problem(client.post(BASE, json={"players": bad, "rounds": 3}), 422, "/players/1/id")
    no_rating = [{"id": "A"}, {"id": "B", "rating": 1400}]
    assert_problem(
        client.post(BASE, json={"players": no_rating, "rounds": 3}), 422, "/players/0/rating"
    )
    base, token = create(client, players=4)
    assert_problem(
        client.post(f"{base}/rounds", json={"method": "dice"}, headers=auth(token)), 422, "/method"
    )
    start(client, base, token)
    url = f"{base}/rounds/1/games/1"
    assert_problem(client.put(url, json={"scores": [400]}, headers=auth(token)), 422, "/scores")
    assert_problem(client.put(url, json={}, headers=auth(token)), 422)
    assert_problem(
        client.put(url, json={"forfeit": "nobody"}, headers=auth(token)), 422, "/forfeit"
    )
    assert_problem(
        client.put(url, json={"scores": [1, 2], "spread": 10}, headers=auth(token)), 422, "/spread"
    )
    assert_problem(client.put(url, json={"scores": [400, 300]}), 401)
    _, other = create(client, players=4)
    assert_problem(client.put(url, json={"scores": [400, 300]}, headers=auth(other)), 403)
    assert_problem(
        client.put(f"{base}/rounds/1/games/9", json={"scores": [1, 2]}, headers=auth(token)), 404
    )
    assert_problem(client.post(f"{base}/rounds/1/close", headers=auth(token)), 409)


def test_a_scorekeeper_enters_results_and_nothing_else(client):
    base, token = create(client, players=4)
    start(client, base, token)
    keeper = client.post(f"{base}/scorekeepers", json={"name": "Desk"}, headers=auth(token))
    assert keeper.status_code == 201, keeper.get_json()
    kept = keeper.get_json()["token"]
    url = f"{base}/rounds/1/games/1"
    assert client.put(url, json={"scores": [400, 350]}, headers=auth(kept)).status_code == 200
    assert_problem(client.post(f"{base}/rounds/1/close", headers=auth(kept)), 403)
    actors = [a["actor"] for a in client.get(f"{base}/history").get_json()["actions"]]
    assert actors[-1].startswith("scorekeeper")


def test_withdrawals_late_entries_and_no_shows(client):
    base, token = create(client, players=6, rounds=4)
    rnd = start(client, base, token)
    no_show = rnd["games"][0]["players"][1]
    again = client.post(
        f"{base}/rounds/1/reseat", json={"no_shows": [no_show]}, headers=auth(token)
    )
    assert again.status_code == 200, again.get_json()
    paired = [p for g in again.get_json()["games"] for p in g["players"]]
    assert no_show not in paired and again.get_json()["bye"] is not None
    for game in again.get_json()["games"]:
        client.put(
            f"{base}/rounds/1/games/{game['game']}",
            json={"scores": [400, 300]},
            headers=auth(token),
        )
    client.post(f"{base}/rounds/1/close", headers=auth(token))
    late = client.post(f"{base}/players", json={"id": "L", "rating": 1700}, headers=auth(token))
    assert late.status_code == 201, late.get_json()
    dropped = client.post(f"{base}/players/S5/drop", headers=auth(token))
    assert dropped.status_code == 200
    rows = {s["player"]: s for s in dropped.get_json()["standings"]}
    assert rows["S5"]["status"] == "withdrawn" and rows["L"]["games"] == 0
    second = start(client, base, token)
    paired = {p for g in second["games"] for p in g["players"]} | {second["bye"]}
    assert "L" in paired and "S5" not in paired and no_show not in paired


def test_the_tsh_export_reads_back_to_the_same_standings(client):
    base, token = create(client, players=11, rounds=4)
    rng = random.Random(5)
    for _ in range(3):
        play_round(client, base, token, rng)
    last = client.get(base).get_json()["standings"][-1]["player"]
    assert client.post(f"{base}/players/{last}/drop", headers=auth(token)).status_code == 200
    play_round(client, base, token, rng)
    answer = client.get(f"{base}/tsh")
    assert answer.status_code == 200 and answer.mimetype == "text/plain"
    division = read_division(answer.get_data(as_text=True))
    assert division.rounds == 4 and list(division.withdrawn.values()) == [0]
    theirs = sorted(((p.half_wins, p.spread, p.name) for p in division.players), reverse=True)
    standings = client.get(base).get_json()["standings"]
    mine = [(int(s["wins"] * 2), s["spread"], s["name"]) for s in standings]
    assert [t[:2] for t in theirs] == [m[:2] for m in mine]
    assert {t[2] for t in theirs} == {m[2] for m in mine}
    # the service's own advisor reads the file
    advised = client.post(
        "/v1/scrabble/final-round?complete_rounds_only=true",
        data=answer.get_data(),
        content_type="text/plain",
    )
    assert advised.status_code == 200, advised.get_json()


def test_the_public_page_shows_the_round_and_its_slips_ask_for_scores(client):
    base, token = create(client, players=5)
    rnd = start(client, base, token)
    tid = base.rsplit("/", 1)[1]
    page = client.get(f"/events/scrabble/{tid}")
    assert page.status_code == 200
    first = rnd["games"][0]["players"][0]
    name = client.get(base).get_json()
    shown = next(s["name"] or s["player"] for s in name["standings"] if s["player"] == first)
    assert f"<td>{shown}</td>" in page.get_data(as_text=True)
    slips = client.get(f"/events/scrabble/{tid}/slips").get_data(as_text=True)
    assert slips.count('<section class="slip">') == len(rnd["games"])  # the bye has none
    assert "<th>score</th>" in slips and "pieces left" not in slips
    text = client.get(f"{base}/rounds/1?format=text").get_data(as_text=True)
    assert "bye" in text and rnd["bye"] in text


def test_a_retried_round_start_with_a_method_answers_the_round_it_started(client):
    base, token = create(client, players=6)
    headers = {**auth(token), "Idempotency-Key": str(uuid.uuid4())}
    body = {"method": "random", "seed": 3}
    first = client.post(f"{base}/rounds", json=body, headers=headers)
    again = client.post(f"{base}/rounds", json=body, headers=headers)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.get_json() == first.get_json()
    assert kinds(client, base).count("round_started") == 1
    other = client.post(f"{base}/rounds", json={"method": "koth"}, headers=headers)
    assert "Idempotency-Key" in assert_problem(other, 422)["detail"]


def test_the_document_shows_the_round_starts_optional_body(client):
    spec = client.get("/openapi.json").get_json()
    start = spec["paths"]["/v1/scrabble/events/{tournament_id}/rounds"]["post"]
    assert start["requestBody"]["required"] is False
    assert "requestBody" not in spec["paths"]["/v1/diagonal/events/{tournament_id}/rounds"]["post"]
    assert "/v1/scrabble/events/{tournament_id}/tsh" in spec["paths"]


def test_a_withdrawn_player_is_reinstated_between_rounds(client):
    """Back for round 3 after missing round 2: paired again, round 2 unplayed for them;
    refused while a round is open, for a player still in, once the event is over."""
    base, token = create(client, players=8, rounds=3)
    rng = random.Random(5)
    play_round(client, base, token, rng)
    assert client.post(f"{base}/players/S7/drop", headers=auth(token)).status_code == 200
    second = start(client, base, token)
    assert all("S7" not in g["players"] for g in second["games"])
    open_round = client.post(f"{base}/players/S7/reinstate", headers=auth(token))
    assert "has started" in assert_problem(open_round, 409)["detail"]
    for game in second["games"]:
        url = f"{base}/rounds/2/games/{game['game']}"
        assert client.put(url, json={"scores": [400, 300]}, headers=auth(token)).status_code == 200
    client.post(f"{base}/rounds/2/close", headers=auth(token))
    still_in = client.post(f"{base}/players/S1/reinstate", headers=auth(token))
    assert "has not dropped" in assert_problem(still_in, 409)["detail"]
    assert_problem(client.post(f"{base}/players/S99/reinstate", headers=auth(token)), 404)
    back = client.post(f"{base}/players/S7/reinstate", headers=auth(token))
    assert back.status_code == 200, back.get_json()
    row = next(s for s in back.get_json()["standings"] if s["player"] == "S7")
    assert row["status"] == "active" and row["games"] == 1  # round 2 unplayed
    summary = client.get(f"{base}/history").get_json()["actions"][-1]["summary"]
    assert summary == "Player H7 reinstated before round 3, the rounds missed stay unplayed"
    third = start(client, base, token)
    assert any("S7" in g["players"] for g in third["games"]) or third.get("bye") == "S7"


def test_settings_change_until_the_first_result(client):
    base, token = create(client, players=6, rounds=4)
    url = f"{base}/settings"
    changed = client.put(url, json={"victors": 1, "rounds": 5}, headers=auth(token))
    assert changed.status_code == 200, changed.get_json()
    event = changed.get_json()
    assert (event["rounds"], event["victors"]) == (5, 1)
    assert len(event["schedule"]) == 5
    summary = client.get(f"{base}/history").get_json()["actions"][-1]["summary"]
    assert summary.startswith("Settings changed: 5 rounds planned")
    assert_problem(client.put(url, json={"victors": 0}, headers=auth(token)), 422, "/victors")
    rnd = start(client, base, token)
    game = rnd["games"][0]
    client.put(
        f"{base}/rounds/1/games/{game['game']}", json={"scores": [400, 300]}, headers=auth(token)
    )
    late = client.put(url, json={"victors": 2}, headers=auth(token))
    assert "round 1, game" in assert_problem(late, 409)["detail"]


def test_the_director_sets_the_repeat_allowance_for_ranges_of_rounds(client):
    ranges = [
        {"first": 2, "last": 4, "repeats_allowed": 0},
        {"first": 6, "last": 6, "repeats_allowed": 3},
    ]
    base, token = create(client, players=8, rounds=6, repeats_by_round=ranges)
    event = client.get(base).get_json()
    assert event["repeats_allowed"] == 2 and event["repeats_by_round"] == ranges
    assert [r["repeats_allowed"] for r in event["schedule"]] == [2, 0, 0, 0, 2, 3]
    first = start(client, base, token)
    assert first["repeats_allowed"] == 2
    # Changed before the first result: the ranges are replaced whole.
    changed = client.put(
        f"{base}/settings",
        json={"repeats_by_round": [{"first": 3, "last": 6, "repeats_allowed": 1}]},
        headers=auth(token),
    )
    assert changed.status_code == 200, changed.get_json()
    schedule = client.get(base).get_json()["schedule"]
    assert [r["repeats_allowed"] for r in schedule] == [2, 2, 1, 1, 1, 1]
    # A backup restores them.
    backup = client.get(f"{base}/backup", headers=auth(token)).get_json()
    copy = client.post(f"{BASE}/import", json=backup)
    assert copy.status_code == 201, copy.get_json()
    restored = client.get(f"{BASE}/{copy.get_json()['id']}").get_json()
    assert restored["repeats_by_round"] == [{"first": 3, "last": 6, "repeats_allowed": 1}]


def test_ranges_of_rounds_that_overlap_or_pass_the_event_are_refused(client):
    players = [{"id": f"S{i}", "rating": 1500 - i} for i in range(4)]
    for ranges, pointer in (
        (
            [
                {"first": 2, "last": 4, "repeats_allowed": 0},
                {"first": 4, "last": 5, "repeats_allowed": 1},
            ],
            "/repeats_by_round/1/first",
        ),
        ([{"first": 2, "last": 9, "repeats_allowed": 0}], "/repeats_by_round/0/last"),
    ):
        answer = client.post(
            BASE, json={"players": players, "rounds": 5, "repeats_by_round": ranges}
        )
        problem = assert_problem(answer, 422, pointer)
        assert problem["rule"] == "round-ranges"
