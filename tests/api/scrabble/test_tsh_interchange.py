"""tsh interchange of held Scrabble events: the `.t` and `tourney.js` exports read back to
the event's standings (byes, forfeits, withdrawals, late entries; a spread cap, the file
keeping the scores as played), and a `.t` file imported to continue in the service an
event started in tsh."""

from __future__ import annotations

import random

import pytest

from bench.real_divisions import DIVISIONS, real_text
from bench.real_final_rounds import division_text, read_tourney_js
from pairing_service.engine.scrabble.tsh import _display_name, read_division
from tests.api.scrabble.test_held_events import BASE, create, play_round, start
from tests.support import DATA, assert_problem, auth, correcting

IMPORT = f"{BASE}/import-tsh"

# Six players, three rounds: a bye (+50), a forfeit lost (-50), a late entrant's two
# unplayed rounds (0), and a player marked off after playing round 3.
SMALL = """\
Able, Ann 1800 2 3 4 ; 420 390 410
Baker, Bob 1750 1 6 5 ; 380 400 450
Cole, Cat 1700 4 1 6 ; 350 401 380
Dunn, Dan 1650 3 0 1 ; 300 -50 330
Eve, Emma 1600 0 0 2 ; 0 0 360
Fay, Finn 1550 0 2 3 ; 50 370 390 ; off 0
"""


def _name(name: str) -> str:
    """A name as the reader shows it ("Surname, Given" as "Given Surname"), spaces as one."""
    return " ".join(_display_name(name).split())


def file_standings(text: str, spread_cap: int | None = None) -> tuple[list[tuple], set[str]]:
    """What the service's reader reads of a division file (with the event's spread cap,
    which tsh keeps in its configuration, not the file): per player (by name) wins, spread
    and the opponents met, in round order, by name; and the withdrawn players' names. (A
    round without an opponent, which the reader lists and the event lists only when it has
    a result, is left out.)"""
    division = read_division(text, spread_cap=spread_cap)
    names = {p.id: _name(p.name or p.id) for p in division.players}
    rows = sorted(
        (
            names[p.id],
            p.half_wins,
            p.spread,
            tuple(names[o] for o in p.opponents if o is not None),
        )
        for p in division.players
    )
    return rows, {names[p] for p in division.withdrawn}


def event_standings(client, base: str) -> tuple[list[tuple], set[str]]:
    """The same, of the event's own standings (``GET …``)."""
    standings = client.get(base).get_json()["standings"]
    names = {s["player"]: _name(s["name"] or s["player"]) for s in standings}
    rows = sorted(
        (
            names[s["player"]],
            int(s["wins"] * 2),
            s["spread"],
            tuple(names[o] for o in s["opponents"] if o is not None),
        )
        for s in standings
    )
    return rows, {names[s["player"]] for s in standings if s["status"] == "withdrawn"}


def enter(client, base, token, number: int, game: int, **result) -> None:
    url = f"{base}/rounds/{number}/games/{game}"
    answer = client.put(url, json=result, headers=auth(token))
    assert answer.status_code == 200, answer.get_json()


def close(client, base, token, number: int) -> None:
    closed = client.post(f"{base}/rounds/{number}/close", headers=auth(token))
    assert closed.status_code == 200, closed.get_json()


def eventful(client) -> tuple[str, str]:
    """Seven players (a bye each round), four rounds: a forfeit, a late entrant, a
    withdrawal."""
    base, token = create(client, players=7, rounds=5)
    rng = random.Random(11)
    play_round(client, base, token, rng)
    second = start(client, base, token)
    enter(client, base, token, 2, 1, forfeit=second["games"][0]["players"][1], spread=75)
    for game in second["games"][1:]:
        enter(client, base, token, 2, game["game"], scores=[401, 377])
    close(client, base, token, 2)
    late = client.post(f"{base}/players", json={"id": "L", "rating": 1500}, headers=auth(token))
    assert late.status_code == 201, late.get_json()
    dropped = client.post(f"{base}/players/S3/drop", headers=auth(token))
    assert dropped.status_code == 200, dropped.get_json()
    play_round(client, base, token, rng)
    play_round(client, base, token, rng)
    return base, token


def test_tourney_js_reads_back_to_the_event_standings(client):
    base, token = eventful(client)
    answer = client.get(f"{base}/tourney.js")
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    text = answer.get_data(as_text=True)
    assert text.startswith("newt={") and text.rstrip().endswith("};")
    newt = read_tourney_js(text)
    assert newt["config"]["event_name"] == "Club open" and newt["config"]["max_rounds"] == 5
    (division,) = newt["divisions"]
    players = division["players"]
    assert players[0] is None and [p["id"] for p in players[1:]] == list(range(1, 9))
    assert all(len(p["pairings"]) == len(p["scores"]) == 4 for p in players[1:])
    off = [p for p in players[1:] if p["etc"].get("off") == [0]]
    assert len(off) == 1
    # the converter writes the same division file as the .t export
    converted = division_text(newt, "A")
    assert file_standings(converted) == event_standings(client, base)
    assert file_standings(converted) == file_standings(client.get(f"{base}/tsh").get_data(True))
    # the late entrant's two missed rounds are unplayed (0 scoring 0), the forfeit -75
    late = next(p for p in players[1:] if p["name"] == "L")
    assert late["pairings"][:2] == [0, 0] and late["scores"][:2] == [0, 0]
    assert any(p["pairings"][1] == 0 and p["scores"][1] == -75 for p in players[1:])
    # an open round: its games have their opponents, no scores yet (tsh writes pairings
    # first)
    fifth = start(client, base, token)
    players = read_tourney_js(_js(client, base))["divisions"][0]["players"][1:]
    in_games = [p for p in players if len(p["pairings"]) == 5 and len(p["scores"]) == 4]
    assert len(in_games) == 2 * len(fifth["games"])


SCRIPT = "</script><script>alert(1)</script><!--"


def test_tourney_js_writes_no_script_end_from_the_events_names(client):
    """A site inlines tourney.js in a <script> element: a player's or the event's name
    holding </script> must not end it. Every < is written as \\u003c, which any reader
    reads back as the name."""
    players = [
        {"id": "A", "name": SCRIPT, "rating": 1800},
        {"id": "B", "name": "Bob <b>", "rating": 1700},
    ]
    made = client.post(BASE, json={"name": SCRIPT, "players": players, "rounds": 3})
    assert made.status_code == 201, made.get_json()
    text = client.get(f"{BASE}/{made.get_json()['id']}/tourney.js").get_data(as_text=True)
    assert "<" not in text and "\\u003c/script>" in text
    newt = read_tourney_js(text)
    assert newt["config"]["event_name"] == SCRIPT
    assert {p["name"] for p in newt["divisions"][0]["players"][1:]} == {SCRIPT, "Bob <b>"}


def test_tourney_js_of_an_unknown_event_is_a_404(client):
    assert_problem(client.get(f"{BASE}/{'0' * 32}/tourney.js"), 404)


def test_the_tsh_export_keeps_the_scores_as_played(client):
    base, token = create(client, players=4, rounds=2, spread_cap=100)
    first = start(client, base, token)
    enter(client, base, token, 1, 1, scores=[520, 300])  # 220 beyond the cap: counts 100
    enter(client, base, token, 1, 2, scores=[350, 410])  # within the cap
    close(client, base, token, 1)
    text = client.get(f"{base}/tsh").get_data(as_text=True)
    spreads = sorted(s["spread"] for s in client.get(base).get_json()["standings"])
    assert spreads == [-100, -60, 60, 100]
    # read with the event's cap, the file gives the event's standings; without it, the
    # game past the cap counts its whole margin
    assert file_standings(text, spread_cap=100) == event_standings(client, base)
    assert file_standings(text) != event_standings(client, base)
    # both scores as played
    winner, loser = first["games"][0]["players"]
    names = {s["player"]: s["name"] for s in client.get(base).get_json()["standings"]}
    line = {p: next(x for x in text.splitlines() if x.startswith(names[p] + " ")) for p in names}
    assert line[winner].endswith("; 520") and line[loser].endswith("; 300")
    # tourney.js carries the same scores, and the cap in its config
    newt = read_tourney_js(_js(client, base))
    assert newt["config"]["spread_cap"] == 100
    assert file_standings(division_text(newt, "A"), spread_cap=100) == (
        event_standings(client, base)
    )


def test_a_game_past_a_cap_of_250_exports_as_played_and_reads_back_to_the_standings(client):
    base, token = create(client, players=6, rounds=3, spread_cap=250)
    rng = random.Random(5)
    first = start(client, base, token)
    enter(client, base, token, 1, 1, scores=[500, 200])  # won by 300: counts 250
    for game in first["games"][1:]:
        enter(client, base, token, 1, game["game"], scores=[400 + rng.randint(1, 90), 400])
    close(client, base, token, 1)
    play_round(client, base, token, rng)
    text = client.get(f"{base}/tsh").get_data(as_text=True)
    winner, loser = first["games"][0]["players"]
    names = {s["player"]: s["name"] for s in client.get(base).get_json()["standings"]}
    line = {p: next(x for x in text.splitlines() if x.startswith(names[p] + " ")) for p in names}
    assert line[winner].split(" ; ")[1].split()[0] == "500"
    assert line[loser].split(" ; ")[1].split()[0] == "200"
    # every player's wins, spread and opponents, read back with the cap
    assert file_standings(text, spread_cap=250) == event_standings(client, base)
    standings = {s["player"]: s for s in client.get(base).get_json()["standings"]}
    read = {p.name: p for p in read_division(text, spread_cap=250).players}
    for player, row in standings.items():
        mine = read[_name(names[player])]
        assert (mine.half_wins, mine.spread) == (int(row["wins"] * 2), row["spread"])
    # imported with the same cap, the file is the same event again
    again, _, _ = imported(client, text, spread_cap=250, rounds=3)
    assert event_standings(client, again) == event_standings(client, base)


def _js(client, base: str) -> str:
    return client.get(f"{base}/tourney.js").get_data(as_text=True)


# --- import ---------------------------------------------------------------------------------


def imported(client, text: str, **options) -> tuple[str, str, dict]:
    answer = client.post(IMPORT, json={"tsh": text, **options})
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    assert body["token"] and answer.headers["Location"].endswith(f"{BASE}/{body['id']}")
    return f"{BASE}/{body['id']}", body["token"], body


def test_a_small_file_imports_with_byes_forfeits_late_entry_and_withdrawal(client):
    base, token, body = imported(client, SMALL, name="Spring open", spread_cap=200)
    assert body["name"] == "Spring open" and body["rounds"] == 4  # one more than played
    assert body["status"] == "between_rounds" and body["current_round"] == 3
    assert event_standings(client, base) == file_standings(SMALL)
    rows = {s["player"]: s for s in body["standings"]}
    assert rows["6"]["status"] == "withdrawn" and rows["6"]["withdrawn_before_round"] == 4
    assert rows["5"]["games"] == 1  # the late entrant: two unplayed rounds, no result
    assert rows["4"]["games"] == 3 and rows["4"]["losses"] == 3  # the forfeit is a loss
    first = client.get(f"{base}/rounds/1").get_json()
    assert first["method"] == "tsh" and first["status"] == "closed"
    assert [g["players"] for g in first["games"]] == [["1", "2"], ["3", "4"]]
    assert [g["result"]["scores"] for g in first["games"]] == [[420, 380], [350, 300]]
    assert first["bye"] is None and first["sat_out"] == [
        {"player": "5", "spread": 0},
        {"player": "6", "spread": 50},
    ]
    board = client.get(f"{base}/rounds/2?format=csv").get_data(as_text=True).splitlines()
    assert board[-2:] == ["forfeit,4,,,-50,,,,", "unplayed,5,,,0,,,,"]
    # the export gives the file's standings back
    assert file_standings(client.get(f"{base}/tsh").get_data(as_text=True)) == file_standings(SMALL)
    # the history says what was imported
    words = [a["summary"] for a in client.get(f"{base}/history").get_json()["actions"]]
    assert any("Round 1 imported as tsh paired it" in w and "(6) a bye (+50)" in w for w in words)
    # continued by the service: round 4 (the last planned: the advisor), without the
    # withdrawn player, five players and a bye
    fourth = start(client, base, token)
    assert fourth["round"] == 4 and fourth["method"] == "advisor"
    paired = [p for g in fourth["games"] for p in g["players"]] + [fourth["bye"]]
    assert sorted(paired) == ["1", "2", "3", "4", "5"]
    for game in fourth["games"]:
        enter(client, base, token, 4, game["game"], scores=[400, 350])
    close(client, base, token, 4)
    assert client.get(base).get_json()["status"] == "finished"


def test_a_text_plain_file_imports_with_options_in_the_query(client):
    text = (DATA / "division_a.t").read_text(encoding="utf-8")
    answer = client.post(
        f"{IMPORT}?rounds=9&repeats_allowed=0", data=text, content_type="text/plain"
    )
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    assert body["rounds"] == 9 and body["repeats_allowed"] == 0 and body["current_round"] == 7
    base, token = f"{BASE}/{body['id']}", body["token"]
    assert event_standings(client, base) == file_standings(text)
    assert file_standings(client.get(f"{base}/tsh").get_data(as_text=True)) == file_standings(text)
    eighth = start(client, base, token)
    assert eighth["round"] == 8 and eighth["method"] == "swiss" and eighth["bye"] is None
    assert sorted(p for g in eighth["games"] for p in g["players"]) == sorted(
        str(n) for n in range(1, 11)
    )
    seventh = {frozenset(g["players"]) for g in client.get(f"{base}/rounds/7").get_json()["games"]}
    assert not seventh & {frozenset(g["players"]) for g in eighth["games"]}


@pytest.mark.parametrize("name", sorted(DIVISIONS))
def test_a_real_division_imports_and_continues(client, name):
    text = real_text(name)  # skipped where the file is not here
    rounds = read_division(text).rounds
    base, token, body = imported(client, text, rounds=rounds + 1, spread_cap=None)
    assert body["current_round"] == rounds
    assert event_standings(client, base) == file_standings(text)
    exported = client.get(f"{base}/tsh").get_data(as_text=True)
    assert file_standings(exported) == file_standings(text)
    assert file_standings(division_text(read_tourney_js(_js(client, base)), "A")) == (
        file_standings(text)
    )
    last = start(client, base, token)
    withdrawn = {s["player"] for s in body["standings"] if s["status"] == "withdrawn"}
    paired = {p for g in last["games"] for p in g["players"]} | {last["bye"]} - {None}
    assert not paired & withdrawn
    assert withdrawn == {p for p in read_division(text).withdrawn}
    assert paired | withdrawn == {s["player"] for s in body["standings"]}


@pytest.mark.parametrize(
    ("text", "pointer", "words"),
    [
        (
            "Able, Ann 1800 2 ; 420\nBaker, Bob 1750 3 ; 380\nCole, Cat 1700 2 ; 400\n",
            "/tsh",
            "line 1",
        ),
        ("Able, Ann 1800 2 ; 420 ; penalty 10\nBaker, Bob 1750 1 ; 380\n", "/tsh", "above 0"),
        ("Able, Ann 1800 0 ; 50 ; penalty -10\nBaker, Bob 1750 0 ; 50\n", "/tsh", "without a game"),
        ("Able, Ann 1800 2 ; 420 ; penalty -900\nBaker, Bob 1750 1 ; 380\n", "/tsh", "beyond 500"),
        ("Able, Ann 1800 2 ; 420 ; initrec 3 1 200\nBaker, Bob 1750 1 ; 380\n", "/tsh", "initrec"),
        ("Able, Ann 1800 2 ; 4200\nBaker, Bob 1750 1 ; 380\n", "/tsh", "beyond 2000"),
        ("Able, Ann 9800 2 ; 420\nBaker, Bob 1750 1 ; 380\n", "/tsh", "rating"),
        ("Able, Ann 1800 ;\n", "/tsh", "two players"),
        ("not a tsh line\n", "/tsh", "line 1"),
    ],
)
def test_a_bad_file_is_a_422_naming_the_field_and_line(client, text, pointer, words):
    answer = client.post(IMPORT, json={"tsh": text})
    problem = assert_problem(answer, 422)
    assert any(e["pointer"] == pointer and words in e["detail"] for e in problem["errors"]), problem


def test_bad_options_are_422s_naming_the_field_and_nothing_is_written(app, client):
    before = _tournaments(app)
    assert_problem(client.post(IMPORT, json={"rounds": 3}), 422)
    too_few = client.post(IMPORT, json={"tsh": SMALL, "rounds": 2})
    problem = assert_problem(too_few, 422)
    assert problem["errors"][0]["pointer"] == "/rounds"
    assert_problem(client.post(IMPORT, json={"tsh": SMALL, "spread_cap": 0}), 422)
    assert_problem(client.post(f"{IMPORT}?bogus=1", data=SMALL, content_type="text/plain"), 422)
    assert _tournaments(app) == before


def test_an_imported_round_is_not_paired_again(client):
    base, token, _ = imported(client, SMALL)
    answer = client.post(f"{base}/rounds/3/reseat", json={"no_shows": ["1"]}, headers=auth(token))
    assert_problem(answer, 409)


def test_an_imported_result_is_corrected_like_any_other(client):
    base, token, _ = imported(client, SMALL)
    url = f"{base}/rounds/3/games/1"
    stands = client.put(url, json={"scores": [300, 410]}, headers=auth(token))
    assert_problem(stands, 409)
    fixed = client.put(url, json={"scores": [300, 410]}, headers=correcting(client, base, token))
    assert fixed.status_code == 200, fixed.get_json()
    rows = {s["player"]: s for s in client.get(base).get_json()["standings"]}
    assert rows["1"]["wins"] == 1 and rows["4"]["wins"] == 1


def _tournaments(app) -> int:
    from sqlalchemy import func, select

    from pairing_service.store import schema

    with app.extensions["pairing_store"].engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(schema.tournaments)).scalar_one()


# SMALL's first two rounds: in round 2, #4 lost a forfeit and #5 had no result.
TWO_ROUNDS = """\
Able, Ann 1800 2 3 ; 420 390
Baker, Bob 1750 1 6 ; 380 400
Cole, Cat 1700 4 1 ; 350 401
Dunn, Dan 1650 3 0 ; 300 -50
Eve, Emma 1600 0 0 ; 0 0
Fay, Finn 1550 0 2 ; 50 370
"""


def test_the_page_lists_an_imported_rounds_players_without_an_opponent_by_name(client):
    _, _, body = imported(client, TWO_ROUNDS)
    html = client.get(f"/events/scrabble/{body['id']}").get_data(as_text=True)
    by_name = html[html.index("By name") :]
    rows = {row.split("</td>")[0].split(">")[-1]: row for row in by_name.split("<tr")[2:]}
    dunn = next(row for key, row in rows.items() if "Dunn" in key)
    eve = next(row for key, row in rows.items() if "Eve" in key)
    assert "forfeit" in dunn and "unplayed" in eve


def test_numbered_players_leave_the_pages_numbers_as_numbers(client):
    # A tsh import numbers its players 1, 2, ...: ranks, games and counts stay numbers.
    _, _, body = imported(client, TWO_ROUNDS)
    html = client.get(f"/events/scrabble/{body['id']}").get_data(as_text=True)
    standings = html[html.rindex(">Standings<") :]
    first = standings.split("<tr")[2]
    assert first.startswith("><td>1</td><td>Cole, Cat (3)</td><td>1700</td><td>2.0</td>"), first
    by_name = html[html.index("By name") :]
    assert "<td>Able, Ann (1)</td><td>1</td><td>Cole, Cat (3)</td>" in by_name
