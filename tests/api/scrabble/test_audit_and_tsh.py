"""The audit endpoint, tsh division files in, tsh commands out, and proven verdicts."""

from __future__ import annotations

import pytest

from pairing_service.engine.scrabble.tsh import TshError, read_division
from tests.support import assert_problem
from tests.support.tsh_files import (
    AFTER_7,
    DIVISION_A,
    PATEL_UNENTERED,
    ROUND_8_PARTLY,
    independent_records,
)

FINAL = "/v1/scrabble/final-round"
AUDIT = "/v1/scrabble/audit"


def test_the_division_file_pairs_the_final_round_with_tsh_commands(client):
    response = client.post(FINAL + "?tsh_commands=true", data=DIVISION_A, content_type="text/plain")
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    # After 7 rounds: Ito and Bergstrom 5.5, Hashemi and Okafor 5: row 0/0/0.5/0.5.
    assert body["configuration"] == "0/0/0.5/0.5"
    assert body["pairings"][0]["players"] == ["7", "2"]
    assert body["pairings"][1]["players"] == ["3", "6"]
    assert body["round"] == 8
    assert body["tsh_commands"][:2] == ["pair 7 2 8", "pair 3 6 8"]
    assert len(body["tsh_commands"]) == 5


def test_the_same_file_as_a_json_field_after_an_earlier_round(client):
    body = client.post(FINAL, json={"tsh": DIVISION_A, "tsh_round": 5}).get_json()
    expected = independent_records(DIVISION_A, 5)
    leader = body["pairings"][0]["players"][0]
    assert expected[leader][0] == max(w for w, _ in expected.values())
    assert body["round"] == 6


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Able, Ann 1800 2 ; 400\n", "no player 2"),
        (
            "Able, Ann 1800 2 ; 400\nBaker, Bob 1700 3 ; 390\nCole, Cat 1600 1 ; 380\n",
            "did not play",
        ),
        ("Able, Ann 1800 2 400\n", "expected 'name rating opponents ; scores'"),
        ("Able, Ann 1800 2 ; 4x0\nBaker, Bob 1700 1 ; 390\n", "whole numbers"),
        ("# only a comment\n", "no players"),
    ],
)
def test_bad_division_files_name_the_line(client, text, message):
    with pytest.raises(TshError) as caught:
        read_division(text)
    assert message in str(caught.value)
    problem = assert_problem(client.post(FINAL, data=text, content_type="text/plain"), 422, "/tsh")
    assert message in problem["detail"]


def test_asking_for_a_round_not_yet_played_is_refused(client):
    problem = assert_problem(
        client.post(FINAL, json={"tsh": DIVISION_A, "tsh_round": 9}), 422, "/tsh"
    )
    assert problem["detail"] == (
        "/tsh: the file has results for 7 rounds (the last complete one is round 7): there "
        "is no round 9 to pair after"
    )


LEADERS = [
    {"id": "A", "wins": 10, "spread": 300},
    {"id": "B", "wins": 10, "spread": 200},
    {"id": "C", "wins": 9, "spread": 100},
    {"id": "D", "wins": 8, "spread": 0},
    {"id": "E", "wins": 6, "spread": 0},
    {"id": "F", "wins": 5, "spread": 0},
]


def test_audit_of_cops_koth_pairing_shows_the_draw_it_allows(client):
    cop = [{"players": ["A", "B"]}, {"players": ["C", "D"]}, {"players": ["E", "F"]}]
    response = client.post(AUDIT, json={"players": LEADERS, "pairings": cop})
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    gp4 = next(p for p in body["principles"] if p["id"] == "GP4")
    assert gp4["status"] in ("violated", "overridden")
    assert gp4["outcome"]["text"] == "#1 A draws, #2 B draws, whatever else happens"
    assert [r["result"] for r in gp4["outcome"]["results"]] == ["draw", "draw"]
    assert body["matches_recommendation"] is False
    assert body["recommendation"]["pairings"][0]["players"] != ["A", "B"]
    assert any("GP" in d or "pairs" in d for d in body["differences"])
    assert {n["player"] for n in body["needs"]} >= {"A", "B", "C"}


def test_audit_of_the_recommendation_itself_matches(client):
    advice = client.post(FINAL, json={"players": LEADERS}).get_json()
    proposal = [{"players": p["players"]} for p in advice["pairings"]]
    body = client.post(AUDIT, json={"players": LEADERS, "pairings": proposal}).get_json()
    assert body["matches_recommendation"] is True and body["differences"] == []
    assert [p["status"] for p in body["principles"]] == [p["status"] for p in advice["principles"]]


@pytest.mark.parametrize(
    ("pairings", "pointer"),
    [
        (
            [{"players": ["A", "B"]}, {"players": ["C", "A"]}, {"players": ["E", "F"]}],
            "/pairings/1/players/1",
        ),
        (
            [{"players": ["A", "B"]}, {"players": ["C", "Z"]}, {"players": ["E", "F"]}],
            "/pairings/1/players/1",
        ),
        ([{"players": ["A", "B"]}, {"players": ["C", "D"]}], "/pairings"),
        (
            [
                {"players": ["A", "B"]},
                {"players": ["C", "D"]},
                {"players": ["E"]},
                {"players": ["E"]},
            ],
            "/pairings/3/players/0",
        ),
        (
            [
                {"players": ["A", "B"]},
                {"players": ["C", "D"]},
                {"players": ["E", "F"], "spread": 9},
            ],
            "/pairings/2/spread",
        ),
        ([{"players": []}], "/pairings/0/players"),
        ([{"players": ["A", "B", "C"]}], "/pairings/0/players"),
    ],
)
def test_a_proposal_that_is_not_a_pairing_of_the_field_is_422(client, pairings, pointer):
    response = client.post(AUDIT, json={"players": LEADERS, "pairings": pairings})
    assert_problem(response, 422, pointer)


def test_final_round_principles_carry_outcomes_and_the_seeds_notes(client):
    players = [
        {"id": "A", "wins": 10, "spread": 300},
        {"id": "B", "wins": 10, "spread": 200},
        {"id": "C", "wins": 9.5, "spread": 100},
        {"id": "D", "wins": 9.5, "spread": 0},
        {"id": "E", "wins": 5, "spread": 0},
        {"id": "F", "wins": 4, "spread": 0},
    ]
    body = client.post(FINAL, json={"players": players}).get_json()
    gp1 = next(p for p in body["principles"] if p["id"] == "GP1")
    assert gp1["status"] == "violated"
    assert gp1["seed"]["status"] == "satisfied"
    assert gp1["seed"]["reason"] == "One GB0 victor is guaranteed."
    # Beside the verdict, one line says why the engine's strict GP1 differs.
    assert gp1["seed"]["difference"].startswith("the seed counts a leader victor when the games")
    assert gp1["outcome"]["text"] == "#1 A loses, #2 B loses, #3 C wins, #4 D wins"
    assert gp1["outcome"]["complete"] is True
    # Where the engine agrees with the seed, nothing is said.
    agreed = [p["seed"] for p in body["principles"] if p["seed"] and p["id"] in ("GP3", "GP4")]
    assert agreed and all(seed["difference"] is None for seed in agreed)
    text = client.post(FINAL, json={"players": players}, headers={"Accept": "text/plain"})
    assert "      why they differ: the seed counts a leader victor" in text.get_data(as_text=True)


def test_rounds_left_and_victors_are_bounded(client):
    assert_problem(
        client.post(FINAL, json={"players": LEADERS, "rounds_left": 0}), 422, "/rounds_left"
    )
    assert_problem(client.post(FINAL, json={"players": LEADERS, "victors": 9}), 422, "/victors")
    assert_problem(client.post(FINAL, json={"victors": 2}), 422, "/players")
    assert_problem(
        client.post(FINAL, json={"players": LEADERS, "tsh": DIVISION_A}), 422, "/players"
    )
    body = client.post(FINAL, json={"players": LEADERS, "rounds_left": 3}).get_json()
    assert body["rounds_left"] == 3 and body["rule"]["source"] == "fallback"


def test_every_outcome_can_be_listed_with_its_victors(client):
    body = client.post(FINAL, json={"players": LEADERS, "list_outcomes": True}).get_json()
    outcomes = body["outcomes"]
    games = {tuple(p["players"]) for p in body["pairings"]}
    relevant_games = [g for g in games if set(g) & {"A", "B", "C"}]
    assert len(outcomes) == 3 ** len(relevant_games)
    for outcome in outcomes:
        assert outcome["complete"] is True
        assert len(outcome["victors"]) <= 2
        assert not set(outcome["victors"]) & set(outcome["decided_by_spread"])
    # A is a victor in every outcome where A wins.
    a_wins = [o for o in outcomes if {"player": "A", "rank": 1, "result": "win"} in o["results"]]
    assert a_wins and all("A" in o["victors"] for o in a_wins)
    audit_body = client.post(
        AUDIT,
        json={
            "players": LEADERS,
            "pairings": [{"players": p["players"]} for p in body["pairings"]],
            "list_outcomes": True,
        },
    ).get_json()
    assert audit_body["outcomes"] == outcomes


def test_the_advices_own_pairings_paste_back_into_the_audit(client):
    body = {
        "players": [
            {"id": p, "wins": w, "spread": s, "name": p.title()}
            for p, w, s in [
                ("ann", 8, 412),
                ("bob", 8, 120),
                ("cat", 7, 300),
                ("dan", 7, -40),
                ("eve", 5, 10),
                ("fay", 4, -80),
                ("gus", 3, 0),
            ]
        ]
    }
    advice = client.post("/v1/scrabble/final-round", json=body).get_json()
    assert any(p["bye"] for p in advice["pairings"])  # an odd field: the bye object too
    audit = client.post("/v1/scrabble/audit", json={**body, "pairings": advice["pairings"]})
    assert audit.status_code == 200, audit.get_json()
    assert audit.get_json()["matches_recommendation"] is True
    assert audit.get_json()["differences"] == []


def test_a_withdrawn_tsh_player_is_not_paired_and_the_director_is_told(client):
    answer = client.post("/v1/scrabble/final-round", data=AFTER_7, content_type="text/plain")
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    paired = {p for game in body["pairings"] for p in game["players"]}
    assert "3" not in paired  # Tanaka is off
    assert len(paired) == 13 and sum(g["bye"] for g in body["pairings"]) == 1
    assert any(w.startswith("withdrawn, not paired: ") and "Tanaka" in w for w in body["warnings"])
    assert any("is not marked off in tsh" in w for w in body["warnings"])  # Haddad forfeited
    # The advice's own pairings paste back into the audit, Tanaka left out.
    audit = client.post(
        "/v1/scrabble/audit",
        json={"tsh": AFTER_7, "pairings": body["pairings"]},
    )
    assert audit.status_code == 200 and audit.get_json()["matches_recommendation"] is True
    with_tanaka = [*body["pairings"][:-1], {"players": [body["pairings"][-1]["players"][0], "3"]}]
    assert_problem(
        client.post("/v1/scrabble/audit", json={"tsh": AFTER_7, "pairings": with_tanaka}), 422
    )


def test_a_partly_entered_round_can_be_left_out_when_asked(client):
    refused = client.post("/v1/scrabble/final-round", json={"tsh": ROUND_8_PARTLY})
    assert_problem(refused, 422, "/tsh")
    asked = client.post(
        "/v1/scrabble/final-round?complete_rounds_only=true",
        data=ROUND_8_PARTLY,
        content_type="text/plain",
    )
    assert asked.status_code == 200, asked.get_json()
    body = asked.get_json()
    assert body["round"] == 8
    assert "round 8 is partly entered and was not counted" in body["warnings"]
    same = client.post(
        "/v1/scrabble/final-round", json={"tsh": ROUND_8_PARTLY, "tsh_complete_rounds_only": True}
    ).get_json()
    assert same["pairings"] == body["pairings"]


def test_leaving_out_rounds_after_a_gap_says_every_round_it_left_out(client):
    """A score missing in round 3 of 7: pairing after the complete rounds counts 2, and
    says that rounds 3-7 were left out, not only round 3."""
    gap = AFTER_7.replace("4 5 3 1 12 7 10; 418 428 311", "4 5 3 1 12 7 10; 418 428 00")
    asked = client.post(
        "/v1/scrabble/final-round?complete_rounds_only=true", data=gap, content_type="text/plain"
    )
    assert asked.status_code == 200, asked.get_json()
    body = asked.get_json()
    assert body["round"] == 3
    assert (
        "rounds 3-7 were not counted: round 3 is the first with a result missing (the "
        "standings are those after round 2)"
    ) in body["warnings"]
    alone = {"players": [{"id": "a", "wins": 1, "spread": 0}], "tsh_complete_rounds_only": True}
    assert_problem(client.post("/v1/scrabble/final-round", json=alone), 422)


def test_withdrawn_players_in_json_standings(client):
    players = [
        {"id": "A", "wins": 8, "spread": 412},
        {"id": "B", "wins": 8, "spread": 120},
        {"id": "C", "wins": 7, "spread": 300},
        {"id": "D", "wins": 7, "spread": -40},
        {"id": "E", "wins": 5, "spread": 10},
        {"id": "F", "wins": 4, "spread": -80, "withdrawn": True},
        {"id": "G", "wins": 3, "spread": -90},
    ]
    body = client.post("/v1/scrabble/final-round", json={"players": players}).get_json()
    paired = [p for game in body["pairings"] for p in game["players"]]
    assert sorted(paired) == ["A", "B", "C", "D", "E", "G"]
    assert not any(game["bye"] for game in body["pairings"])  # six left: no bye
    leader = [dict(p, withdrawn=p["id"] == "A") for p in players]
    assert_problem(
        client.post("/v1/scrabble/final-round", json={"players": leader}),
        422,
        "/players/0/withdrawn",
    )


def _marked_off(surname: str, spread: int) -> str:
    """AFTER_7 with the player of that surname marked off (tsh's ``off`` section)."""
    line = next(line for line in AFTER_7.splitlines(keepends=True) if line.startswith(surname))
    return AFTER_7.replace(line, line.rstrip("\n") + f"; off {spread}\n")


def test_a_leader_marked_off_certain_of_a_place_sits_out(client):
    # Adeyemi (#1, id 8) withdrew with forfeit losses; two wins clear, still a victor.
    off = _marked_off("Adeyemi", -50)
    answer = client.post(FINAL, json={"tsh": off})
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    paired = [p for game in body["pairings"] for p in game["players"]]
    assert "8" not in paired and "3" not in paired  # Adeyemi and Tanaka
    assert sorted(paired) == sorted(str(i) for i in range(1, 15) if i not in (3, 8))
    assert any(w.startswith("#1 Tunde Adeyemi sits out certain") for w in body["warnings"])
    assert body["rule"]["reading"] == "1 victor" and body["rule"]["source"] == "fallback"
    # The race for the other place (#2 v #3) is played head to head.
    assert body["pairings"][0]["ranks"] == [2, 3]
    audit = client.post(AUDIT, json={"tsh": off, "pairings": body["pairings"]})
    assert audit.status_code == 200 and audit.get_json()["matches_recommendation"] is True


def test_a_contender_marked_off_who_may_finish_either_side_sits_out_judged(client):
    # Patel (#2, id 5) withdrew with forfeit losses and may still finish a victor or not:
    # not paired, counted at that record in every outcome, named.
    off = _marked_off("Patel", -50)
    answer = client.post(FINAL, json={"tsh": off})
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    paired = [p for game in body["pairings"] for p in game["players"]]
    assert sorted(paired) == sorted(str(i) for i in range(1, 15) if i not in (3, 5))
    assert (
        "#2 Priya Patel sits out (-50 a round): counted as finishing at 5 wins, +356"
        in (body["warnings"])
    )
    assert "5" in body["contenders"] and body["rule"]["source"] == "fallback"
    assert any(n["player"] == "5" for n in body["needs"])  # what Patel needs of the others
    playing = [str(i) for i in range(1, 15) if i not in (3, 5)]  # Tanaka and Patel off
    pairings = [{"players": playing[i : i + 2]} for i in range(0, len(playing), 2)]
    audit = client.post(AUDIT, json={"tsh": off, "pairings": pairings})
    assert audit.status_code == 200, audit.get_json()
    assert any(n["player"] == "5" for n in audit.get_json()["needs"])


def test_a_withdrawn_players_known_result_in_json(client):
    players = [
        {"id": "A", "wins": 12, "spread": 300, "withdrawn": True, "off_spread": -50},
        {"id": "B", "wins": 9, "spread": 100},
        {"id": "C", "wins": 8.5, "spread": 40},
        {"id": "D", "wins": 7, "spread": 0},
        {"id": "E", "wins": 5, "spread": 0},
    ]
    body = client.post(FINAL, json={"players": players}).get_json()
    assert any(w.startswith("#1 A sits out certain") for w in body["warnings"]), body
    assert body["pairings"][0]["players"] == ["B", "C"]
    without_flag = [dict(players[0], withdrawn=False), *players[1:]]
    assert_problem(client.post(FINAL, json={"players": without_flag}), 422, "/players/0/off_spread")


def test_the_audit_judges_a_round_with_finalists_resting_on_byes(client):
    # Victors 4: the top two rest on +100 byes (a two-player final awaits them); the race
    # for 3rd and 4th is judged among those who play, a no-show forfeiting at -50.
    players = [
        {"id": "A", "wins": 14, "spread": 900},
        {"id": "B", "wins": 13, "spread": 700},
        {"id": "C", "wins": 10, "spread": 300},
        {"id": "D", "wins": 9.5, "spread": 200},
        {"id": "E", "wins": 9.5, "spread": 100},
        {"id": "F", "wins": 9, "spread": 0},
        {"id": "G", "wins": 6, "spread": -100},
        {"id": "H", "wins": 5, "spread": -300},
        {"id": "I", "wins": 4, "spread": -500},
    ]
    proposal = [
        {"players": ["A"], "spread": 100},
        {"players": ["B"], "spread": 100},
        {"players": ["C", "D"]},
        {"players": ["E", "F"]},
        {"players": ["G", "H"]},
        {"players": ["I"], "spread": -50},
    ]
    answer = client.post(AUDIT, json={"players": players, "pairings": proposal, "victors": 4})
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    recommendation = body["recommendation"]
    assert any("#1 A, #2 B sit out certain" in w for w in recommendation["warnings"])
    # Judged for 3rd and 4th: E and F chase C and D, and the recommendation lets both
    # face one of them, the closest in rank (3-5, 4-6 moves nobody as far as 3-6 does);
    # the proposal's 3-4, 5-6 sends E away from the race.
    assert [g["ranks"] for g in recommendation["pairings"]] == [[3, 5], [4, 6], [7, 8]]
    gp2 = next(v for v in body["principles"] if v["id"] == "GP2")
    assert gp2["status"] == "violated" and "#5 E does not face" in gp2["reason"]
    assert [n["player"] for n in body["needs"]] == ["C", "D", "E", "F"]
    # A contender sitting out who is not certain of a place (C forfeits) is judged at C's
    # record, and named.
    resting_c = [
        {"players": ["C"], "spread": -50},
        *proposal[:2],
        {"players": ["D", "E"]},
        {"players": ["F", "G"]},
        {"players": ["H", "I"]},
    ]
    audit = client.post(AUDIT, json={"players": players, "pairings": resting_c, "victors": 4})
    assert audit.status_code == 200, audit.get_json()
    warnings = audit.get_json()["recommendation"]["warnings"]
    assert "#3 C sits out (-50 a round): counted as finishing at 10 wins, +250" in warnings
    assert [n["player"] for n in audit.get_json()["needs"]] == ["C", "D", "E", "F"]


def test_the_service_answers_a_partly_entered_file_with_a_422_naming_the_player(client):
    response = client.post(
        "/v1/scrabble/final-round", data=ROUND_8_PARTLY, content_type="text/plain"
    )
    problem = assert_problem(response, 422, "/tsh")
    # The answer names the parameter that pairs after the complete rounds, as sent.
    assert problem["errors"][0]["detail"] == (
        f"{PATEL_UNENTERED}: add ?complete_rounds_only=true to the URL (or ?after=7)"
    )
    as_json = client.post("/v1/scrabble/final-round", json={"tsh": ROUND_8_PARTLY})
    assert assert_problem(as_json, 422, "/tsh")["errors"][0]["detail"] == (
        f'{PATEL_UNENTERED}: send "tsh_complete_rounds_only": true (or "tsh_round": 7)'
    )
    paired = client.post(
        "/v1/scrabble/final-round?complete_rounds_only=true",
        data=ROUND_8_PARTLY,
        content_type="text/plain",
    )
    assert paired.status_code == 200, paired.get_json()


def test_the_audit_answers_text_to_read_in_a_terminal(client):
    body = client.post(FINAL, json={"players": LEADERS}).get_json()
    mine = [{"players": ["A", "C"]}, {"players": ["B", "D"]}, {"players": ["E", "F"]}]
    text = client.post(
        AUDIT, json={"players": LEADERS, "pairings": mine}, headers={"Accept": "text/plain"}
    )
    assert text.status_code == 200 and text.mimetype == "text/plain"
    lines = text.get_data(as_text=True)
    as_json = client.post(AUDIT, json={"players": LEADERS, "pairings": mine}).get_json()
    assert lines.startswith("Proposal:\nBoard ")
    assert "#1 A" in lines and "#3 C" in lines
    for verdict in as_json["principles"]:
        assert f"  {verdict['id']} {verdict['status']}: {verdict['reason']}" in lines
    if as_json["matches_recommendation"]:
        assert "The proposal is the advisor's own recommendation." in lines
    else:
        assert "Differences from the recommendation:" in lines
        assert all(f"  {d}" in lines for d in as_json["differences"])
    # The recommendation opens with what to post, as the advice's text answer does.
    headline = as_json["recommendation"]["headline"]
    assert headline.startswith("Post ")
    assert f"\nRecommendation:\n{headline}\nConfiguration " in lines
    own = client.post(
        AUDIT,
        json={"players": LEADERS, "pairings": body["pairings"]},
        headers={"Accept": "text/plain"},
    )
    assert "The proposal is the advisor's own recommendation." in own.get_data(as_text=True)


# A game won 600-100 (500, or 100 under a cap of 100): the leader is certain of first
# place uncapped, and not with the cap (Bob can still reach Ann on spread).
CAPPED = """\
Able, Ann 1800 3 2 ; 600 400
Baker, Bob 1700 4 1 ; 420 390
Cole, Cat 1600 1 4 ; 100 420
Dunn, Dan 1500 2 3 ; 400 300
"""


def test_a_files_scores_as_played_count_the_events_spread_cap_when_given(client):
    query = f"{FINAL}?victors=1&max_spread_per_game=50"
    uncapped = client.post(query, data=CAPPED, content_type="text/plain").get_json()
    assert uncapped["gibsonized"] == ["1"]
    capped = client.post(f"{query}&spread_cap=100", data=CAPPED, content_type="text/plain")
    assert capped.status_code == 200, capped.get_json()
    assert capped.get_json()["gibsonized"] == [] and capped.get_json()["contenders"] == ["1", "2"]
    as_json = client.post(
        FINAL, json={"tsh": CAPPED, "spread_cap": 100, "victors": 1, "max_spread_per_game": 50}
    )
    assert as_json.get_json()["contenders"] == ["1", "2"]


@pytest.mark.parametrize(
    "body",
    [
        {"tsh": CAPPED, "spread_cap": 0},
        {"tsh": CAPPED, "spread_cap": "100"},
        {"players": [{"id": "A", "wins": 1, "spread": 0}], "spread_cap": 100},  # needs tsh
    ],
)
def test_a_bad_or_misplaced_spread_cap_is_a_422_naming_it(client, body):
    assert_problem(client.post(FINAL, json=body), 422, "/spread_cap")
