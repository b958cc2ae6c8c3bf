"""Prize places over HTTP: the final round and the audit with `prizes`."""

from __future__ import annotations

import pytest

from tests.support import assert_problem

URL = "/v1/scrabble/final-round"
# A has 1st; B and C race for 2nd; seven players (one bye); spread capped at 100.
PLAYERS = [
    {"id": "A", "wins": 8, "spread": 500},
    {"id": "B", "wins": 6, "spread": 300},
    {"id": "C", "wins": 6, "spread": 250},
    {"id": "D", "wins": 5, "spread": 0},
    {"id": "E", "wins": 3, "spread": -200},
    {"id": "F", "wins": 2, "spread": -300},
    {"id": "G", "wins": 1, "spread": -500},
]


def ask(client, **options):
    response = client.post(URL, json={"players": PLAYERS, "max_spread_per_game": 100, **options})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def games(body):
    return [p["players"] for p in body["pairings"]]


def test_graded_prizes_race_each_place_head_to_head(client):
    body = ask(client, prizes=[300, 200, 100])
    assert body["prize_model"] == "graded"
    assert body["rule"]["source"] == "prizes"
    assert body["victors"] == 3 and body["prizes"] == [300, 200, 100]
    assert ["B", "C"] in games(body)
    assert ["A"] in games(body)  # settled in 1st: Gibsonized, alone, so the bye
    assert body["gibsonized"] == ["A"]
    assert body["places"] == [
        {
            "player": "A",
            "rank": 1,
            "best": 1,
            "worst": 1,
            "text": "certain of 1st",
            "holds": "1st · 300",
        },
        {
            "player": "B",
            "rank": 2,
            "best": 2,
            "worst": 3,
            "text": "will finish between 2nd and 3rd",
            "holds": "2nd · 200",
        },
        {
            "player": "C",
            "rank": 3,
            "best": 2,
            "worst": 3,
            "text": "will finish between 2nd and 3rd",
            "holds": "3rd · 100",
        },
    ]
    # Each racer's need line says the places they race for, then the money.
    needs = {n["player"]: n["text"] for n in body["needs"]}
    assert needs == {
        "A": "certain of 1st",
        "B": "races for 2nd or 3rd; certain of the money",
        "C": "races for 2nd or 3rd; certain of the money",
    }
    reasons = {tuple(p["players"]): p["reason"] for p in body["pairings"]}
    assert reasons[("B", "C")] == "#2 and #3 race for 2nd"
    assert reasons[("A",)] == "#1 is certain of 1st: takes the bye"


def test_players_level_on_wins_and_spread_hold_their_places_tied(client):
    # B and C are level on wins and spread: they hold 2nd and 3rd together, and many
    # events split that money (the order given decides nothing).
    level = [dict(p, spread=300) if p["id"] == "C" else p for p in PLAYERS]
    response = client.post(URL, json={"players": level, "prizes": [300, 200, 100]})
    holds = {p["player"]: p["holds"] for p in response.get_json()["places"]}
    assert holds["A"] == "1st · 300"
    assert holds["B"] == holds["C"] == "2nd–3rd (tied: 200 + 100 split)"


def test_victors_only_answers_the_seed_model(client):
    body = ask(client, victors=3)
    assert body["prize_model"] == "victors"
    assert body["prizes"] is None and body["places"] == []
    assert ["C"] in games(body)  # C, racing B for 2nd, is Gibsonized and takes the bye


def test_equal_prizes_answer_as_victors_do(client):
    by_victors = ask(client, victors=2)
    by_prizes = ask(client, prizes=[100, 100])
    assert games(by_prizes) == games(by_victors)
    assert by_prizes["rule"] == by_victors["rule"]
    assert by_prizes["principles"] == by_victors["principles"]


def test_prizes_in_the_query_string_of_a_csv_body(client):
    csv = "\n".join(f"{p['id']},{p['wins']},{p['spread']}" for p in PLAYERS) + "\n"
    response = client.post(
        URL + "?prizes=300,200,100&max_spread_per_game=100",
        data=csv,
        content_type="text/csv",
    )
    assert response.status_code == 200, response.get_json()
    assert ["B", "C"] in games(response.get_json())


@pytest.mark.parametrize(
    ("options", "pointer", "rule"),
    [
        ({"prizes": [100, 300]}, "/prizes", "points-fall"),
        ({"prizes": [100, None, 300]}, "/prizes", "points-fall"),
        ({"prizes": [300, 200], "victors": 2}, "/prizes", "victors-or-prizes"),
        ({"prizes": []}, "/prizes", None),
        ({"prizes": [100] * 9}, "/prizes", None),
        ({"prizes": [-5]}, "/prizes/0", None),
        ({"prizes": ["lots"]}, "/prizes/0", None),
    ],
)
def test_bad_prizes_are_refused_naming_the_field(client, options, pointer, rule):
    response = client.post(URL, json={"players": PLAYERS, **options})
    problem = assert_problem(response, 422)
    assert pointer in [e["pointer"] for e in problem["errors"]]
    assert problem.get("rule") == rule


def test_audit_does_not_call_a_racer_a_gibson_mistake(client):
    pairings = [
        {"players": ["A"]},
        {"players": ["B", "C"]},
        {"players": ["D", "E"]},
        {"players": ["F", "G"]},
    ]
    body = {"players": PLAYERS, "max_spread_per_game": 100, "pairings": pairings}
    graded = client.post("/v1/scrabble/audit", json={**body, "prizes": [300, 200, 100]})
    assert graded.status_code == 200, graded.get_json()
    audited = graded.get_json()
    assert audited["matches_recommendation"] is True
    assert audited["recommendation"]["prize_model"] == "graded"
    equal = client.post("/v1/scrabble/audit", json={**body, "victors": 3}).get_json()
    assert equal["matches_recommendation"] is False


def test_a_tsh_file_without_places_says_the_seeds_victors_were_assumed(client):
    tsh = "Able, Ann 1800 2 3 ; 420 390\nBaker, Bob 1700 1 4 ; 380 400\n"
    tsh += "Cole, Cat 1600 4 1 ; 400 300\nDunn, Dan 1500 3 2 ; 350 350\n"
    assumed = client.post(URL, data=tsh, content_type="text/plain").get_json()
    assert any("neither victors nor prizes given" in w for w in assumed["warnings"])
    assert assumed["victors"] == 2
    for query in ("victors=2", "prizes=100,50"):
        given = client.post(f"{URL}?{query}", data=tsh, content_type="text/plain").get_json()
        assert not any("neither victors nor prizes" in w for w in given["warnings"]), query
    listed = client.post(URL, json={"players": PLAYERS}).get_json()
    assert not any("neither victors nor prizes" in w for w in listed["warnings"])


@pytest.mark.parametrize("query", ["prizes=", "prizes=300&prizes=200", "prizes=%20"])
def test_a_list_in_the_query_string_is_given_once_and_not_empty(client, query):
    csv = "\n".join(f"{p['id']},{p['wins']},{p['spread']}" for p in PLAYERS) + "\n"
    response = client.post(f"{URL}?{query}", data=csv, content_type="text/csv")
    problem = assert_problem(response, 422)
    assert problem.get("rule") == "query-fields"
    assert "/prizes" in [e["pointer"] for e in problem["errors"]]


def test_prize_amounts_are_answered_as_the_numbers_sent(client):
    # Exact Decimals inside; the answer writes them as JSON numbers, as it always has.
    response = client.post(URL, json={"players": PLAYERS, "prizes": [1000, 12.5, 0.1]})
    assert b'"prizes":[1000.0,12.5,0.1]' in response.data
    holds = {p["player"]: p["holds"] for p in response.get_json()["places"]}
    assert holds["A"] == "1st · 1000" and holds["C"] == "3rd · 0.1"
