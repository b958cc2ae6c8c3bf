"""The HTTP contract of POST /v1/scrabble/final-round, and bad input of every kind."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from tests.api.scrabble.test_prizes import PLAYERS as RACE_FOR_SECOND
from tests.support import assert_problem, seed_text, xor_field

URL = "/v1/scrabble/final-round"
PLAYERS = [
    {"id": "A", "name": "Ann", "wins": 8, "spread": 412, "opponents": ["C", "D"]},
    {"id": "B", "name": "Bob", "wins": 8, "spread": 120, "opponents": ["D", "C"]},
    {"id": "C", "name": "Cat", "wins": 7, "spread": 300, "opponents": ["A", "B"]},
    {"id": "D", "name": "Dan", "wins": 6, "spread": -40, "opponents": ["B", "A"]},
]


def test_advice_shape(client):
    response = client.post(URL, json={"players": PLAYERS})
    assert response.status_code == 200
    body = response.get_json()
    assert body["configuration"] == "0/0/1/2"
    assert body["rule"]["id"] == "0/0/1" and body["rule"]["source"] == "table"
    assert [p["players"] for p in body["pairings"]] == [["A", "C"], ["B", "D"]]
    assert [p["id"] for p in body["principles"]] == ["GP1", "GP2", "GP3", "GP4"]
    assert {n["player"] for n in body["needs"]} >= {"A", "B", "C"}
    assert body["victors"] == 2 and body["max_spread_per_game"] is None
    assert "wins only" in body["clinching"]


def test_given_ranks_are_used(client):
    players = [dict(p, rank=r) for p, r in zip(PLAYERS, [2, 1, 3, 4], strict=True)]
    body = client.post(URL, json={"players": players}).get_json()
    # B ranks first. Row 0/0/1's 1-3, 2-4 (B-C, A-D) would repeat both games of the last
    # round; 1-2, 3-4 ranks above it on GP1 and repeats nothing, so it is recommended.
    assert body["pairings"][0]["players"] == ["B", "A"]
    assert body["rule"]["id"] == "0/0/1" and body["alternatives"][0]["source"] == "table"
    assert body["preferred"] == "principles"


def test_csv_in_text_out(client):
    csv = "id,wins,spread,name\nA,8,412,Ann\nB,8,120,Bob\nC,7,300,Cat\nD,6,-40,Dan\n"
    response = client.post(
        URL + "?max_spread_per_game=250",
        data=csv,
        content_type="text/csv",
        headers={"Accept": "text/plain"},
    )
    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    text = response.get_data(as_text=True)
    assert "#1 Ann (A)" in text and "#3 Cat (C)" in text
    assert "250 points" in text


def test_csv_json_answer_by_default(client):
    response = client.post(URL, data="A,8,1\nB,7,0\n", content_type="text/csv")
    assert response.status_code == 200
    assert response.get_json()["pairings"][0]["players"] == ["A", "B"]


def test_odd_field_gets_exactly_one_bye(client):
    players = [{"id": f"p{i}", "wins": 5 - i // 2, "spread": -i} for i in range(7)]
    body = client.post(URL, json={"players": players}).get_json()
    assert sum(p["bye"] for p in body["pairings"]) == 1
    assert sorted(x for p in body["pairings"] for x in p["players"]) == sorted(
        p["id"] for p in players
    )


def _ok_player(**changes):
    return dict({"id": "A", "wins": 1, "spread": 0}, **changes)


BAD_JSON = [
    ("truncated", b'{"players": ['),
    ("nan", b'{"players": [{"id": "A", "wins": NaN, "spread": 0}]}'),
    ("infinity", b'{"players": [{"id": "A", "wins": 1, "spread": Infinity}]}'),
    ("duplicate key", b'{"players": [], "players": []}'),
    (
        "huge integer literal",
        b'{"players": [{"id": "A", "wins": 1, "spread": ' + b"9" * 5000 + b"}]}",
    ),
    ("deep nesting", b"[" * 100 + b"]" * 100),
    ("not utf-8", b'{"players": "\xff\xfe"}'),
    ("empty body", b""),
]


@pytest.mark.parametrize(("name", "raw"), BAD_JSON, ids=[n for n, _ in BAD_JSON])
def test_malformed_bodies_are_400(client, name, raw):
    assert_problem(client.post(URL, data=raw, content_type="application/json"), 400)


BAD_FIELDS = [
    ("no players", {"players": []}, "/players"),
    ("players missing", {}, "/players"),
    ("players not a list", {"players": "A"}, "/players"),
    ("wins not a number", {"players": [_ok_player(wins="x")]}, "/players/0/wins"),
    ("wins not a half", {"players": [_ok_player(wins=1.25)]}, "/players/0/wins"),
    ("negative wins", {"players": [_ok_player(wins=-1)]}, "/players/0/wins"),
    ("bool wins", {"players": [_ok_player(wins=True)]}, "/players/0/wins"),
    ("spread float", {"players": [_ok_player(spread=1.5)]}, "/players/0/spread"),
    ("spread huge", {"players": [_ok_player(spread=10**12)]}, "/players/0/spread"),
    ("spread beyond 64 bits", {"players": [_ok_player(spread=2**70)]}, "/players/0/spread"),
    ("id missing", {"players": [{"wins": 1, "spread": 0}]}, "/players/0/id"),
    ("id empty", {"players": [_ok_player(id="")]}, "/players/0/id"),
    ("id too long", {"players": [_ok_player(id="x" * 65)]}, "/players/0/id"),
    ("unknown field", {"players": [_ok_player(colour="red")]}, "/players/0/colour"),
    ("victors zero", {"players": [_ok_player()], "victors": 0}, "/victors"),
    ("victors string", {"players": [_ok_player()], "victors": "2"}, "/victors"),
    (
        "cap negative",
        {"players": [_ok_player()], "max_spread_per_game": -5},
        "/max_spread_per_game",
    ),
    ("too many players", {"players": [_ok_player(id=str(i)) for i in range(2001)]}, "/players"),
    ("duplicate ids", {"players": [_ok_player(), _ok_player()]}, "/players/1/id"),
    ("unknown opponent", {"players": [_ok_player(opponents=["Z"])]}, "/players/0/opponents/0"),
    ("self opponent", {"players": [_ok_player(opponents=["A"])]}, "/players/0/opponents/0"),
    ("partial ranks", {"players": [_ok_player(rank=1), _ok_player(id="B")]}, "/players/1/rank"),
    (
        "ranks not a permutation",
        {"players": [_ok_player(rank=1), _ok_player(id="B", rank=3)]},
        "/players",
    ),
    (
        "ranks against wins",
        {"players": [_ok_player(rank=2, wins=5), _ok_player(id="B", rank=1, wins=1)]},
        "/players/0/rank",
    ),
    ("body is a list", [1, 2], ""),
]


@pytest.mark.parametrize(("name", "body", "where"), BAD_FIELDS, ids=[n for n, _, _ in BAD_FIELDS])
def test_invalid_fields_are_422_with_a_pointer(client, name, body, where):
    problem = assert_problem(
        client.post(URL, data=json.dumps(body), content_type="application/json"), 422
    )
    assert where in [e["pointer"] for e in problem["errors"]]


def test_wrong_content_type_is_415(client):
    assert_problem(client.post(URL, data="<players/>", content_type="application/xml"), 415)


def test_oversized_body_is_413(app):
    app.config["MAX_CONTENT_LENGTH"] = 2048
    client = app.test_client()
    body = {"players": [_ok_player(id=f"p{i}") for i in range(200)]}
    assert_problem(client.post(URL, json=body), 413)


def test_csv_with_too_many_columns_is_400(client):
    assert_problem(client.post(URL, data="A,1,2,Ann,extra\n", content_type="text/csv"), 400)


def test_csv_bad_number_is_422(client):
    problem = assert_problem(client.post(URL, data="A,one,2\n", content_type="text/csv"), 422)
    assert "/players/0/wins" in [e["pointer"] for e in problem["errors"]]


def test_csv_problems_count_the_files_lines(client):
    """The pointer counts players from 0; the file's lines (header and blank lines
    included) are named beside it, in each error and in the detail."""
    text = "id,wins,spread\n\nA,3,100\nB,x,2\nA,1,5\n"
    problem = assert_problem(client.post(URL, data=text, content_type="text/csv"), 422)
    assert problem["errors"] == [
        {"pointer": "/players/1/wins", "detail": "Not a valid number.", "line": 4}
    ]
    assert problem["detail"] == "/players/1/wins (CSV line 4): Not a valid number."
    duplicate = "id,wins,spread\nA,3,100\n\nA,1,5\n"
    problem = assert_problem(client.post(URL, data=duplicate, content_type="text/csv"), 422)
    assert problem["errors"][0]["line"] == 4 and "(CSV line 4)" in problem["detail"]
    as_json = client.post(URL, json={"players": [{"id": "A", "wins": "x", "spread": 1}]})
    assert "line" not in assert_problem(as_json, 422)["errors"][0]


def test_one_victor_is_one(client):
    players = [{"id": p, "wins": w, "spread": 0} for p, w in zip("ABCD", (3, 2, 1, 0), strict=True)]
    answer = client.post(URL, json={"players": players, "victors": 1}).get_json()
    assert "the seed's table is for two victors; 1 victor uses the fallback" in (answer["warnings"])


def test_unknown_route_and_method(client):
    nothing = assert_problem(client.get("/v1/nothing"), 404)
    assert nothing["type"] == "/problems/not-found"
    assert nothing["detail"] == (
        "no route GET /v1/nothing: the API reference (/docs, /openapi.json) lists every "
        "route, and the front door (/) what else is served"
    )
    answer = client.get(URL)
    problem = assert_problem(answer, 405)
    assert problem["type"] == "/problems/method-not-allowed"
    assert problem["detail"] == "GET is not a method of /v1/scrabble/final-round: it takes POST"
    assert set(answer.headers["Allow"].split(", ")) == {"OPTIONS", "POST"}
    board = "/v1/puffing-billy/events/" + "a" * 32 + "/boards/1"
    held = assert_problem(client.delete(board), 405)
    assert held["detail"] == f"DELETE is not a method of {board}: it takes GET or PUT"


def test_a_malformed_id_in_the_path_is_named_with_its_form(client):
    ids = assert_problem(client.get("/v1/strikes/tournaments/xyz"), 404)
    assert ids["detail"] == (
        "no route GET /v1/strikes/tournaments/xyz: 'xyz' is not a tournament id: 32 "
        "lowercase hex digits, as its create answered"
    )
    two = assert_problem(client.get("/v1/scrabble/events/12/rounds/abc"), 404)
    assert two["detail"] == (
        "no route GET /v1/scrabble/events/12/rounds/abc: '12' is not a tournament id: 32 "
        "lowercase hex digits, as its create answered; 'abc' is not a whole number from 1 "
        "to 100000"
    )
    league = "/v1/league/organisations/" + "a" * 32 + "/seasons/1/leagues/one"
    assert assert_problem(client.get(league), 404)["detail"] == (
        f"no route GET {league}: 'one' is not a league's name: its division and letters, as 2-A"
    )


def test_service_is_healthy_after_bad_input(client):
    client.post(URL, data=b"[" * 10000, content_type="application/json")
    assert client.get("/healthz").get_json() == {"status": "ok"}
    ready = client.get("/readyz").get_json()
    assert ready["status"] == "ready" and ready["rules"]["scrabble_final_round_rows"] == 16


def test_docs_are_served_offline(client):
    page = client.get("/docs")
    assert page.status_code == 200 and b"/docs/assets/swagger-ui-bundle.js" in page.data
    assert client.get("/docs/assets/swagger-ui-bundle.js").status_code == 200
    assert client.get("/openapi.json").get_json()["paths"][URL]["post"]


def test_csv_field_over_the_csv_limit_is_400(client):
    huge = '"' + "x" * 200_000 + '",1,0\n'
    assert_problem(client.post(URL, data=huge, content_type="text/csv"), 400)


@pytest.mark.parametrize(
    ("player", "where"),
    [({"id": "B\x00"}, "/players/0/id"), ({"name": "Ann\x1b[31m"}, "/players/0/name")],
    ids=["nul in id", "escape in name"],
)
def test_control_characters_in_ids_and_names_are_422(client, player, where):
    body = {"players": [{"id": "B", "wins": 1, "spread": 0, **player}]}
    problem = assert_problem(client.post(URL, json=body), 422)
    assert where in [e["pointer"] for e in problem["errors"]]


def test_brackets_inside_strings_do_not_count_as_nesting(client):
    name = "[" * 100
    body = {"players": [{"id": "A", "name": name, "wins": 1, "spread": 0}]}
    assert client.post(URL, json=body).status_code == 200


ZERO_ZERO_ONE = {
    "players": [
        {"id": i, "wins": w, "spread": s, "name": n}
        for i, w, s, n in [
            ("A", 8, 300, "Ann"),
            ("B", 8, 200, "Bob"),
            ("C", 7, 100, "Cat"),
            ("D", 7, 0, "Dan"),
            ("E", 5, 0, "Eve"),
            ("F", 4, 0, "Fay"),
        ]
    ]
}


def _games(answer: dict) -> list[list[int]]:
    return [p["ranks"] for p in answer["pairings"] if not p["bye"]]


def test_the_table_answer_comes_with_the_pairing_that_ranks_above_it(client):
    answer = client.post("/v1/scrabble/final-round", json=ZERO_ZERO_ONE).get_json()
    assert answer["rule"]["id"] == "0/0/1" and answer["preferred"] == "table"
    assert _games(answer)[:2] == [[1, 3], [2, 4]]  # the seed's table
    gp1 = next(v for v in answer["principles"] if v["id"] == "GP1")
    assert gp1["status"] == "violated"
    [alternative] = answer["alternatives"]
    assert alternative["source"] == "principles"
    assert _games(alternative)[:2] == [[1, 2], [3, 4]]
    statuses = {v["id"]: v["status"] for v in alternative["principles"]}
    assert statuses["GP1"] == "satisfied" and statuses["GP4"] != "satisfied"
    assert alternative["tradeoff"].startswith("1-2, 3-4 guarantees a victor from the leading")
    # KOTH's 3-4 sends #3 away from the leaders they must pass (GP2 read in full),
    # before its draw risk (GP4) counts.
    assert "breaks GP2" in alternative["tradeoff"] and "1-3, 2-4" in alternative["tradeoff"]
    assert {n["player"] for n in alternative["needs"]} == {"A", "B", "C", "D"}
    assert answer["pairings"][0]["names"] == ["Ann", "Cat"]


def test_prefer_principles_recommends_it_and_keeps_the_table_as_the_alternative(client):
    body = {**ZERO_ZERO_ONE, "prefer": "principles"}
    answer = client.post("/v1/scrabble/final-round", json=body).get_json()
    assert answer["preferred"] == "principles" and answer["rule"]["source"] == "fallback"
    assert _games(answer)[:2] == [[1, 2], [3, 4]]
    assert next(v for v in answer["principles"] if v["id"] == "GP1")["status"] == "satisfied"
    [alternative] = answer["alternatives"]
    assert alternative["source"] == "table" and _games(alternative)[:2] == [[1, 3], [2, 4]]
    text = client.post(
        "/v1/scrabble/final-round", json=body, headers={"Accept": "text/plain"}
    ).get_data(as_text=True)
    assert "Alternative (the seed's table): 1-2, 3-4 guarantees" in text
    # The audit of the table's pairing against a principles recommendation differs.
    audit = client.post(
        "/v1/scrabble/audit", json={**body, "pairings": alternative["pairings"]}
    ).get_json()
    assert audit["matches_recommendation"] is False


SPREAD_CAPPED_ZERO_ZERO_ONE = {
    "players": [
        {"id": i, "wins": w, "spread": s, "name": n}
        for i, w, s, n in [
            ("A", 8, 412, "Ann"),
            ("B", 8, 120, "Bob"),
            ("C", 7, 300, "Cat"),
            ("D", 7, -40, "Dan"),
            ("E", 5, 10, "Eve"),
            ("F", 4, -80, "Fay"),
            ("G", 4, -200, "Gus"),
            ("H", 3, -300, "Hal"),
        ]
    ],
    "max_spread_per_game": 250,
}


def test_the_violated_verdict_names_the_alternative_answered_beside_it(client):
    # GP1's reason named 1-2, 3-4 (the first better candidate its
    # comparison met) while the alternative answered was 1-5, 2-6, 3-4. Both do better on
    # GP1; the reason names the one shown, completed with the players it meets.
    answer = client.post(URL, json=SPREAD_CAPPED_ZERO_ZERO_ONE).get_json()
    [alternative] = answer["alternatives"]
    assert _games(alternative)[:3] == [[1, 5], [2, 6], [3, 4]]
    gp1 = next(v for v in answer["principles"] if v["id"] == "GP1")
    assert gp1["status"] == "violated"
    assert gp1["reason"].endswith(
        "; pairing 1-5, 2-6, 3-4 does better on GP1 without breaking a higher principle"
    )
    assert alternative["tradeoff"] == (
        "1-5, 2-6, 3-4 guarantees a victor from the leading win group (GP1) but breaks GP2: "
        "every contender keeps a way to become a victor, but #3 Cat does not face a player "
        "they need to pass (#1 Ann or #2 Bob), whom beating could carry them past; the "
        "seed's table (0/0/1: 1-3, 2-4, 5-6) keeps GP2."
    )
    # The alternative's needs: Dan needs to pass one of the two leaders, not both.
    dan = next(n["text"] for n in alternative["needs"] if n["player"] == "D")
    assert dan == "needs to win and finish ahead of #1 Ann or #2 Bob on spread"


def test_the_text_answer_shows_the_alternatives_principles_and_needs(client):
    text = client.post(
        URL, json=SPREAD_CAPPED_ZERO_ZERO_ONE, headers={"Accept": "text/plain"}
    ).get_data(as_text=True)
    alternative = text.split("\nAlternative (ranks above on the principles): ")[1]
    assert "\nPrinciples:\n  GP1 satisfied:" in alternative
    assert "\nNeeds:\n  #1 Ann (A): needs to win or draw" in alternative
    assert "#4 Dan (D): needs to win and finish ahead of #1 Ann or #2 Bob on spread" in alternative


def test_an_opponent_left_open_is_named_as_any_player_who_cannot_be_a_victor(client):
    # "pairing 1-an outsider, 2-an outsider, 3-4 does better".
    pairings = [{"players": [a, b]} for a, b in (("A", "B"), ("C", "D"), ("E", "F"), ("G", "H"))]
    audit = client.post(
        "/v1/scrabble/audit", json={**SPREAD_CAPPED_ZERO_ZERO_ONE, "pairings": pairings}
    ).get_json()
    reasons = " ".join(v["reason"] for v in audit["principles"])
    assert "an outsider" not in reasons
    assert "1-x, 2-x, 3-4 (x: any player who cannot be a victor)" in reasons


# Row 0/0.5/1.5+, whose pairing keeps every principle: nothing ranks above it.
PLAIN_ROW = {
    "players": [
        {"id": "A", "wins": 9, "spread": 300},
        {"id": "B", "wins": 8.5, "spread": 200},
        {"id": "C", "wins": 7.5, "spread": 100},
        {"id": "D", "wins": 6, "spread": 0},
    ]
}


def test_no_alternative_when_the_table_is_best_on_the_principles(client):
    body = PLAIN_ROW
    answer = client.post("/v1/scrabble/final-round", json=body).get_json()
    assert {v["status"] for v in answer["principles"]} == {"satisfied"}
    assert answer["alternatives"] == [] and answer["preferred"] == "table"
    for prefer in ("table", "principles", "seed"):
        reply = client.post("/v1/scrabble/final-round", json={**body, "prefer": prefer})
        assert reply.status_code == (422 if prefer == "seed" else 200)


@pytest.mark.parametrize("ahead", [1, 0], ids=["one a win ahead", "all level"])
def test_two_thousand_contenders_are_answered_whole(client, ahead):
    """Everyone a contender (one player a win ahead of 1,983 level ones, or all level):
    the fallback's matching over the whole field and GP1's search a thousand games deep
    are answered (the search ran deeper than Python's recursion; the matching over every
    pair of 1,984 players took minutes), every player paired once."""
    size = 1984
    body = xor_field([22 + 2 * ahead] + [22] * (size - 1), rounds=11)
    answer = client.post("/v1/scrabble/final-round", json=body)
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    advice = answer.get_json()
    assert len(advice["contenders"]) + len(advice["gibsonized"]) >= size - 1
    paired = [p for game in advice["pairings"] for p in game["players"]]
    assert sorted(paired) == sorted(p["id"] for p in body["players"])
    assert {v["id"] for v in advice["principles"]} == {"GP1", "GP2", "GP3", "GP4"}


def test_row_ids_are_the_seeds_headings_and_say_what_they_cover(rules, client):
    import re

    headings = {
        line.strip()
        for line in seed_text("003_14c768dda3f55ea8.txt").splitlines()
        if re.fullmatch(r"0(/[0-9.]+\+?)+", line.strip())
    }
    rows = {row.id: row for row in rules.scrabble.rows}
    assert set(rows) == headings
    assert rows["0/0.5/1.5+"].covers() == "0/0.5/1.5"  # 0/0.5/2 takes 2 and more
    assert rows["0/1/1.5+"].covers() == "0/1/1.5-2"
    assert rows["0/0/0/1.5+"].covers() == "0/0/0/1.5+"
    rule = client.post("/v1/scrabble/final-round", json=PLAIN_ROW).get_json()["rule"]
    assert rule["id"] == "0/0.5/1.5+" and rule["covers"] == "0/0.5/1.5"


def test_the_repeat_allowance_is_a_setting_answered_back(client):
    body = {
        "players": [
            {"id": "A", "wins": 5, "spread": 40, "opponents": ["C", "B"]},
            {"id": "B", "wins": 5, "spread": 30, "opponents": ["D", "A"]},
            {"id": "C", "wins": 5, "spread": 20, "opponents": ["A", "D"]},
            {"id": "D", "wins": 5, "spread": 10, "opponents": ["B", "C"]},
            {"id": "E", "wins": 1, "spread": -50},
            {"id": "F", "wins": 0, "spread": -90},
        ],
        "max_spread_per_game": 250,
    }
    default = client.post(URL, json=body).get_json()
    assert default["repeats_allowed"] == 2
    strict = client.post(URL, json=dict(body, repeats_allowed=0)).get_json()
    assert strict["repeats_allowed"] == 0
    assert sum(g["repeats"] for g in strict["pairings"]) <= sum(
        g["repeats"] for g in default["pairings"]
    )
    refused = client.post(URL, json=dict(body, repeats_allowed=16))
    assert refused.status_code == 422
    assert "repeats_allowed" in str(refused.get_json())


def first_line(client, body: dict) -> str:
    text = client.post(URL, json=body, headers={"Accept": "text/plain"}).get_data(as_text=True)
    return text.splitlines()[0]


def test_the_text_answer_opens_with_what_to_post_and_the_pairing_ranked_above_it(client):
    # Row 0/0/1's 1-3, 2-4 is posted; the engine proves 1-2, 3-4 ranks above it on GP1.
    # The first line says both, not the row's pairing alone with the other lines later.
    answer = client.post(URL, json=ZERO_ZERO_ONE).get_json()
    expected = (
        "Post 1-3, 2-4, 5-6 (row 0/0/1). The engine's 1-2, 3-4 ranks above it on GP1: it "
        "guarantees a victor from the leading win group but breaks GP2."
    )
    assert answer["headline"] == expected
    assert first_line(client, ZERO_ZERO_ONE) == expected
    # Preferred, the principles' pairing is posted and the row's named with why not.
    preferred = {**ZERO_ZERO_ONE, "prefer": "principles"}
    assert first_line(client, preferred) == (
        "Post 1-2, 3-4, 5-6 (the principles' pairing: row 0/0/1's 1-3, 2-4 does not "
        "guarantee a victor from the leading win group (GP1))."
    )
    # The alternative's games that differ, as many as there are: 1-5, 2-6, 3-4.
    assert first_line(client, SPREAD_CAPPED_ZERO_ZERO_ONE) == (
        "Post 1-3, 2-4, 5-6, 7-8 (row 0/0/1). The engine's 1-5, 2-6, 3-4 ranks above it on "
        "GP1: it guarantees a victor from the leading win group but breaks GP2."
    )


def test_the_first_line_of_a_plain_row_and_of_a_prize_race(client):
    answer = client.post(URL, json=PLAIN_ROW).get_json()
    games = ", ".join("-".join(map(str, g)) for g in _games(answer))
    assert answer["alternatives"] == []
    assert first_line(client, PLAIN_ROW) == f"Post {games} (row {answer['rule']['id']})."
    race = {"players": RACE_FOR_SECOND, "prizes": [300, 200, 100], "max_spread_per_game": 100}
    # A, certain of 1st, takes the bye; B and C race for 2nd; the rest Swiss.
    assert first_line(client, race) == (
        "Post 2-3, 4-5, 6-7, 1-bye (prize places: each place's race head to head)."
    )


def test_repeats_are_one_count_and_a_line_only_for_what_a_director_must_see(client):
    # Eight players who have each met the others once (a round robin, in rank order of
    # opponents), #2 and #3 twice: every game repeats. The warnings count the repeats
    # once; only a back-to-back rematch (#7-#8, unavoidable at the bottom) or a meeting
    # past the allowance (row 0/1/1.5+'s 2-3) has a line.
    ids = "ABCDEFGH"
    history = {p: [o for o in ids if o != p] for p in ids}
    history["B"].insert(0, "C")
    history["C"].insert(0, "B")
    players = [
        {"id": p, "wins": 8 - i, "spread": 100 - 10 * i, "opponents": history[p]}
        for i, p in enumerate(ids)
    ]
    body = {"players": players, "repeats_allowed": 1}
    answer = client.post(URL, json=body).get_json()
    games = [g for g in answer["pairings"] if not g["bye"]]
    assert all(g["repeats"] for g in games)  # each board says how often its pair met
    counts = Counter(g["repeats"] + 1 for g in games)
    shown = ", ".join(
        f"{n}{'nd' if n == 2 else 'rd'}{' meetings' if at == 0 else ''}: {counts[n]}"
        for at, n in enumerate(sorted(counts))
    )
    assert [w for w in answer["warnings"] if w.startswith("repeats: ")] == [
        f"repeats: {len(games)} games between players who have met ({shown})"
    ]
    assert not any(" time before" in w for w in answer["warnings"])
    for game in games:
        a, b = game["players"]
        back = history[a][-1] == b or history[b][-1] == a
        over = game["repeats"] > 1  # past the allowance of 1
        x, y = game["ranks"]
        own = [w for w in answer["warnings"] if w.startswith(f"#{x} and #{y}: ")]
        assert len(own) == (back or over), (game, own)
        if own:
            assert ("back to back" in own[0] or "back-to-back" in own[0]) == back, own
            assert ("past the allowance of 1" in own[0]) == over, own
    lines = [w for w in answer["warnings"] if w.startswith("#")]
    assert lines == [
        "#2 and #3: 3rd meeting, past the allowance of 1",
        "#7 and #8: back-to-back rematch",
    ]
    text = client.post(URL, json=body, headers={"Accept": "text/plain"}).get_data(as_text=True)
    header = next(line for line in text.splitlines() if line.startswith("Board "))
    assert header.split() == ["Board", "Player", "Opponent", "Met", "Why"]
    first = next(line for line in text.splitlines() if line.startswith("1 "))
    assert f" {games[0]['repeats']}    " in first  # the Met column
