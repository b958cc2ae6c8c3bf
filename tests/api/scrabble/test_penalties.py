"""Penalties in held Scrabble events, as tsh keeps them: points taken off a player's spread
for a game (time, a challenge), which change spread only, never who won; entered,
corrected and undone with the result, shown with it, written to tsh's ``penalty`` section
in the exports and read back from it on import."""

from __future__ import annotations

import pytest

from bench.real_final_rounds import division_text, read_tourney_js
from pairing_service.engine.event_codec import decode_as, to_json
from pairing_service.engine.scrabble.held.log_events import ResultCorrected, ResultEntered, Score
from tests.api.scrabble.test_held_events import create, start
from tests.api.scrabble.test_tsh_interchange import (
    IMPORT,
    close,
    enter,
    event_standings,
    file_standings,
    imported,
)
from tests.support import auth, correcting
from tests.support.held_events import refused, undo_latest


def rows(client, base: str) -> dict[str, dict]:
    return {s["player"]: s for s in client.get(base).get_json()["standings"]}


def test_a_penalty_takes_spread_off_and_leaves_the_result(client):
    base, token = create(client, players=4, rounds=2)
    rnd = start(client, base, token)
    (a, b), (c, d) = (g["players"] for g in rnd["games"])
    url = f"{base}/rounds/1/games/1"
    entered = client.put(
        url, json={"scores": [420, 380], "penalties": [0, 10]}, headers=auth(token)
    )
    assert entered.status_code == 200, entered.get_json()
    assert entered.get_json()["result"] == {
        "scores": [420, 380],
        "penalties": [0, 10],
        "forfeit": None,
        "spread": 40,  # the game's, as played: the penalty is the standings'
    }
    # a penalty larger than the margin: the winner still wins, the spread goes below 0
    enter(client, base, token, 1, 2, scores=[400, 390], penalties=[30, 0])
    now = rows(client, base)
    assert (now[a]["wins"], now[a]["spread"]) == (1, 40)
    assert (now[b]["wins"], now[b]["spread"]) == (0, -50)
    assert (now[c]["wins"], now[c]["losses"], now[c]["spread"]) == (1, 0, -20)
    assert (now[d]["wins"], now[d]["spread"]) == (0, -10)
    # the round's page, its board and the history show them
    page = client.get(f"{base}/rounds/1").get_json()
    assert [g["result"]["penalties"] for g in page["games"]] == [[0, 10], [30, 0]]
    board = client.get(f"{base}/rounds/1?format=csv").get_data(as_text=True).splitlines()
    assert board[0].split(",")[4:9] == ["score_a", "score_b", "penalty_a", "penalty_b", "forfeit"]
    assert board[1].split(",")[4:8] == ["420", "380", "0", "10"]
    words = [a["summary"] for a in client.get(f"{base}/history").get_json()["actions"]]
    name = {p: s["name"] for p, s in rows(client, base).items()}  # the history names them
    assert any(f"{name[a]} 420, {name[b]} 380 (penalty: {name[b]} -10)" in w for w in words)
    # the same result with other penalties is a correction: If-Match, then it stands
    other = {"scores": [420, 380], "penalties": [5, 0]}
    refused(client, base, client.put(url, json=other, headers=auth(token)), 409)
    fixed = client.put(url, json=other, headers=correcting(client, base, token))
    assert fixed.status_code == 200, fixed.get_json()
    now = rows(client, base)
    assert (now[a]["wins"], now[a]["spread"], now[b]["spread"]) == (1, 35, -40)
    words = [a["summary"] for a in client.get(f"{base}/history").get_json()["actions"]]
    assert any(f"(penalty: {name[a]} -5)" in w and f"(penalty: {name[b]} -10)" in w for w in words)
    # without penalties again: a correction too
    plain = client.put(url, json={"scores": [420, 380]}, headers=correcting(client, base, token))
    assert plain.get_json()["result"]["penalties"] == [0, 0]
    assert (rows(client, base)[a]["spread"], rows(client, base)[b]["spread"]) == (40, -40)
    # undo takes each back in turn
    undo_latest(client, base, token)
    assert rows(client, base)[a]["spread"] == 35
    undo_latest(client, base, token)
    assert (rows(client, base)[a]["spread"], rows(client, base)[b]["spread"]) == (40, -50)


def test_a_penalty_comes_off_the_capped_spread(client):
    base, token = create(client, players=2, rounds=1, spread_cap=100)
    start(client, base, token)
    enter(client, base, token, 1, 1, scores=[520, 300], penalties=[20, 0])
    spreads = sorted(s["spread"] for s in client.get(base).get_json()["standings"])
    assert spreads == [-100, 80]


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"scores": [400, 300], "penalties": [-10, 0]}, "/penalties/0"),
        ({"scores": [400, 300], "penalties": [0, 1.5]}, "/penalties/1"),
        ({"scores": [400, 300], "penalties": [0, "10"]}, "/penalties/1"),
        ({"scores": [400, 300], "penalties": [10]}, "/penalties"),
        ({"scores": [400, 300], "penalties": [0, 0, 10]}, "/penalties"),
        ({"scores": [400, 300], "penalties": [501, 0]}, "/penalties/0"),
        ({"scores": [400, 300], "penalties": None}, "/penalties"),
        ({"forfeit": "S0", "penalties": [10, 0]}, "/penalties"),
    ],
)
def test_bad_penalties_are_422s_naming_the_field_and_nothing_is_written(client, body, pointer):
    base, token = create(client, players=2, rounds=1)
    start(client, base, token)
    answer = client.put(f"{base}/rounds/1/games/1", json=body, headers=auth(token))
    refused(client, base, answer, 422, pointer)
    assert client.get(f"{base}/rounds/1").get_json()["games"][0]["result"] is None


def test_the_exports_write_tsh_penalty_sections_that_read_back(client):
    base, token = create(client, players=5, rounds=3, spread_cap=150)
    first = start(client, base, token)
    enter(client, base, token, 1, 1, scores=[520, 300], penalties=[20, 0])
    enter(client, base, token, 1, 2, scores=[350, 410])
    close(client, base, token, 1)
    second = start(client, base, token)
    enter(client, base, token, 2, 1, scores=[400, 390], penalties=[15, 10])
    enter(client, base, token, 2, 2, scores=[380, 420], penalties=[0, 25])
    close(client, base, token, 2)
    text = client.get(f"{base}/tsh").get_data(as_text=True)
    # read back by the service's own reader with the event's cap: its standings exactly
    assert file_standings(text, spread_cap=150) == event_standings(client, base)
    names = {s["player"]: s["name"] for s in client.get(base).get_json()["standings"]}
    line = {p: next(x for x in text.splitlines() if x.startswith(names[p] + " ")) for p in names}
    winner = first["games"][0]["players"][0]
    assert line[winner].split(" ; ")[1].startswith("520 ")  # as played: the cap is read
    taken = {
        (1, winner): 20,
        (2, second["games"][0]["players"][0]): 15,
        (2, second["games"][0]["players"][1]): 10,
        (2, second["games"][1]["players"][1]): 25,
    }
    expected = {p: [-taken.get((1, p), 0), -taken.get((2, p), 0)] for _, p in taken}
    for player, penalties in expected.items():
        assert line[player].endswith(" ; penalty " + " ".join(map(str, penalties))), line[player]
    unpenalised = set(names) - set(expected)
    assert unpenalised and not any("penalty" in line[p] for p in unpenalised)
    # tourney.js: the same, in each player's ``etc``
    js = client.get(f"{base}/tourney.js").get_data(as_text=True)
    newt = read_tourney_js(js)
    players = {p["name"]: p for p in newt["divisions"][0]["players"][1:]}
    assert {p: players[names[p]]["etc"].get("penalty") for p in names} == {
        p: expected.get(p) for p in names
    }
    assert file_standings(division_text(newt, "A"), 150) == event_standings(client, base)


PENALISED = """\
Able, Ann 1800 2 3 ; 420 390 ; penalty 0 -10
Baker, Bob 1750 1 4 ; 380 400
Cole, Cat 1700 4 1 ; 350 401 ; penalty -30
Dunn, Dan 1650 3 2 ; 340 300 ; penalty 0 0
"""


def test_a_file_with_penalties_imports_and_exports_them_again(client):
    base, token, _ = imported(client, PENALISED)
    assert event_standings(client, base) == file_standings(PENALISED)
    now = rows(client, base)
    # Cat won round 1 by 10 and lost 30 to a penalty: still a win, spread -20 + 11
    assert (now["3"]["wins"], now["3"]["spread"]) == (2, -9)
    assert (now["1"]["wins"], now["1"]["spread"]) == (1, 40 - 11 - 10)
    first = client.get(f"{base}/rounds/1").get_json()
    by_pair = {tuple(g["players"]): g["result"]["penalties"] for g in first["games"]}
    assert by_pair == {("1", "2"): [0, 0], ("3", "4"): [30, 0]}
    second = client.get(f"{base}/rounds/2").get_json()
    assert {tuple(g["players"]): g["result"]["penalties"] for g in second["games"]} == {
        ("1", "3"): [10, 0],
        ("2", "4"): [0, 0],
    }
    # exported again: the same penalties, the same standings
    text = client.get(f"{base}/tsh").get_data(as_text=True)
    assert file_standings(text) == file_standings(PENALISED)
    lines = text.splitlines()
    assert lines[0].endswith("; penalty 0 -10") and lines[2].endswith("; penalty -30 0")
    assert "penalty" not in lines[1] and "penalty" not in lines[3]
    # the imported penalty is corrected like any other result
    url = f"{base}/rounds/1/games/2"
    fixed = client.put(url, json={"scores": [350, 340]}, headers=correcting(client, base, token))
    assert fixed.status_code == 200, fixed.get_json()
    assert rows(client, base)["3"]["spread"] == 21


def test_an_imported_penalty_on_a_bye_is_refused(client):
    text = "Able, Ann 1800 2 0 ; 420 50\nBaker, Bob 1750 1 0 ; 380 50 ; penalty 0 -10\n"
    answer = client.post(IMPORT, json={"tsh": text})
    assert answer.status_code == 422
    assert "round 2: a penalty without a game" in answer.get_data(as_text=True)


# --- the log -----------------------------------------------------------------------------


def test_a_result_logged_before_penalties_reads_as_none_and_is_written_the_same():
    old = {"round": 1, "game": 2, "players": ["A", "B"], "scores": [400, 380]}
    old |= {"forfeit": None, "spread": 0}
    event = decode_as(ResultEntered, old)
    assert event.penalties == (0, 0)
    assert to_json(event) == old  # none: the key is left out, as before
    penalised = ResultEntered(1, 2, ("A", "B"), (400, 380), None, 0, (0, 10))
    assert to_json(penalised) == {**old, "penalties": [0, 10]}
    assert decode_as(ResultEntered, to_json(penalised)) == penalised
    was = {"scores": [400, 380], "forfeit": None, "spread": 0}
    corrected = decode_as(ResultCorrected, {**old, "was": was})
    assert corrected.was == Score((400, 380)) and list(to_json(corrected)) == [*old, "was"]
