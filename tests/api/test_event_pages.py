"""The public page of a held event (``/events/<format>/<id>``) and the director's sheet
with its QR code: names, the current round with "find your table", standings, every
round, a reload while a round is open, and nothing a public read does not show."""

from __future__ import annotations

import re

import pytest
import segno

from tests.api.test_personal_data import MAIL, _league_with_addresses
from tests.support import auth
from tests.support.held_events import FORMATS

STRIKES = "/v1/strikes/tournaments"


def _named_strikes(client) -> tuple[str, str]:
    players = [{"id": f"P{i}", "name": f"Player Number {i}"} for i in range(9)]
    made = client.post(STRIKES, json={"name": "Club night", "players": players, "seed": 1})
    body = made.get_json()
    return body["id"], body["token"]


def _rows(html: str, found: bool = False) -> list[str]:
    marker = r'<tr class="found"[^>]*>' if found else r"<tr[^>]*>"
    return [re.sub(r"<[^>]+>", "|", row) for row in re.findall(marker + r"(.*?)</tr>", html)]


def test_a_strikes_night_page_finds_a_players_table_by_name(client):
    tournament, token = _named_strikes(client)
    base = f"{STRIKES}/{tournament}"
    assert client.post(f"{base}/rounds", headers=auth(token)).status_code == 201
    seated = client.get(f"{base}/rounds/1").get_json()
    table_of = {p: t["table"] for t in seated["tables"] for p in t["players"]}
    page = client.get(f"/events/strikes/{tournament}?name=number 3")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "<h1>Club night</h1>" in html and "A round is being played" in html
    assert '<meta http-equiv="refresh" content="60">' in html  # a round is open
    found = _rows(html, found=True)
    # The player's seat in the round, and their line of the standings.
    assert len(found) == 2 and all("Player Number 3" in row for row in found)
    assert found[0].startswith(f"|{table_of['P3']}|")
    assert "Player Number 0" in html  # everyone is shown by name
    nobody = client.get(f"/events/strikes/{tournament}?name=zed").get_data(as_text=True)
    assert _rows(nobody, found=True) == [] and "Nobody called" in nobody


def test_the_page_shows_every_round_and_stops_reloading_between_rounds(client):
    tournament, token = _named_strikes(client)
    base = f"{STRIKES}/{tournament}"
    client.post(f"{base}/rounds", headers=auth(token))
    seated = client.get(f"{base}/rounds/1").get_json()
    for table in seated["tables"]:
        results = [{"player": p, "score": 100 - 10 * i} for i, p in enumerate(table["players"])]
        entered = client.put(
            f"{base}/rounds/1/tables/{table['table']}",
            json={"results": results},
            headers=auth(token),
        )
        assert entered.status_code == 200, entered.get_json()
    assert client.post(f"{base}/rounds/1/close", headers=auth(token)).status_code == 200
    client.post(f"{base}/rounds", headers=auth(token))
    html = client.get(f"/events/strikes/{tournament}").get_data(as_text=True)
    assert "<h2>Round 2</h2>" in html and 'href="?round=1"' in html
    first = client.get(f"/events/strikes/{tournament}?round=1").get_data(as_text=True)
    assert "<h2>Round 1</h2>" in first and "<td>100</td>" in first  # round 1's scores
    assert client.post(f"{base}/rounds/2/close", headers=auth(token)).status_code in (200, 409)
    status = client.get(base).get_json()["status"]
    after = client.get(f"/events/strikes/{tournament}").get_data(as_text=True)
    assert ('http-equiv="refresh"' in after) == (status == "round_open")


def test_the_sheet_carries_the_pages_qr_code(client):
    tournament, token = _named_strikes(client)
    client.post(f"{STRIKES}/{tournament}/rounds", headers=auth(token))
    sheet = client.get(f"/events/strikes/{tournament}/sheet").get_data(as_text=True)
    url = f"http://localhost/events/strikes/{tournament}"
    assert f'href="{url}"' in sheet
    expected = segno.make(url, error="m").svg_data_uri(scale=6, border=2)
    assert f'src="{expected}"' in sheet
    assert "<h2>Round 1</h2>" in sheet and "Player Number 5" in sheet


def test_every_held_format_has_a_page_without_personal_data(client):
    organisation, _ = _league_with_addresses(client)
    pages = [f"/events/league/{organisation.rsplit('/', 1)[1]}"]
    for made in FORMATS.values():
        held = made(client)
        path = held.fmt.replace("_", "-")
        pages.append(f"/events/{path}/{held.base.rsplit('/', 1)[1]}")
    for url in pages:
        for shown in (url, url + "/sheet"):
            page = client.get(shown)
            assert page.status_code == 200, shown
            assert MAIL not in page.get_data(as_text=True), shown


def test_an_unknown_event_or_format_is_a_404_problem(client):
    tournament, _ = _named_strikes(client)
    for url in ("/events/strikes/nope", f"/events/chess/{tournament}", "/events/scrabble/x"):
        answer = client.get(url)
        assert answer.status_code == 404 and answer.mimetype == "application/problem+json"


def test_a_finished_event_names_its_winner(client):
    # Four at one table (0 / 8 / 16 / 24 strikes); the top two drop: Player Number 2,
    # with fewer strikes than Player Number 3, wins.
    players = [{"id": f"P{i}", "name": f"Player Number {i}"} for i in range(4)]
    made = client.post(STRIKES, json={"name": "Four", "players": players, "seed": 1})
    tournament, token = made.get_json()["id"], made.get_json()["token"]
    base = f"{STRIKES}/{tournament}"
    started = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    order = ["P0", "P1", "P2", "P3"]
    for table in started["tables"]:
        ranked = sorted(table["players"], key=order.index)
        results = [{"player": p, "score": 100 - 10 * i} for i, p in enumerate(ranked)]
        url = f"{base}/rounds/1/tables/{table['table']}"
        assert client.put(url, json={"results": results}, headers=auth(token)).status_code == 200
    client.post(f"{base}/rounds/1/close", headers=auth(token))
    for player in ("P0", "P1"):
        client.post(f"{base}/players/{player}/drop", headers=auth(token))
    assert client.get(base).get_json()["status"] == "finished"
    for url in (f"/events/strikes/{tournament}", f"/events/strikes/{tournament}/sheet"):
        html = client.get(url).get_data(as_text=True)
        assert "Winner: <strong>Player Number 2</strong>" in html, url
    assert 'http-equiv="refresh"' not in client.get(f"/events/strikes/{tournament}").get_data(
        as_text=True
    )


def test_result_slips_hold_each_table_of_the_round_with_boxes_to_fill(client):
    tournament, token = _named_strikes(client)
    base = f"{STRIKES}/{tournament}"
    client.post(f"{base}/rounds", headers=auth(token))
    seated = client.get(f"{base}/rounds/1").get_json()
    html = client.get(f"/events/strikes/{tournament}/slips?round=1").get_data(as_text=True)
    slips = re.findall(r'<section class="slip">(.*?)</section>', html, re.S)
    assert len(slips) == len(seated["tables"])
    for slip, table in zip(slips, seated["tables"], strict=True):
        assert f"Table {table['table']}</h2>" in slip
        assert slip.count('<td class="box">') == 2 * len(table["players"])
        for player in table["players"]:
            assert f"<td>Player Number {player[1:]}</td>" in slip
    page = client.get(f"/events/strikes/{tournament}").get_data(as_text=True)
    assert "/slips?round=1" in page
    race_id = client.post(
        "/v1/diagonal/events", json={"players": [{"id": f"R{i}"} for i in range(6)]}
    ).get_json()
    client.post(f"/v1/diagonal/events/{race_id['id']}/rounds", headers=auth(race_id["token"]))
    games = client.get(f"/v1/diagonal/events/{race_id['id']}/rounds/1").get_json()["games"]
    race_slips = client.get(f"/events/diagonal/{race_id['id']}/slips").get_data(as_text=True)
    assert race_slips.count('<section class="slip">') == len(games)
    assert "Game 1</h2>" in race_slips and "<th>pieces left</th>" in race_slips
    unstarted, _ = _named_strikes(client)
    assert client.get(f"/events/strikes/{unstarted}/slips").status_code == 404


def test_a_scrabble_page_lists_the_round_by_board_and_by_name(client):
    names = ["Zoe Zed", "Ann Ash", "Max Moss", "Bob Birch", "Dan Dale"]
    players = [{"id": f"S{i}", "name": n, "rating": 1900 - 20 * i} for i, n in enumerate(names)]
    made = client.post(
        "/v1/scrabble/events", json={"name": "Club open", "players": players, "rounds": 3}
    ).get_json()
    base, token = f"/v1/scrabble/events/{made['id']}", made["token"]
    paired = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    assert [g["players"] for g in paired["games"]] == [["S0", "S2"], ["S1", "S3"]]
    assert paired["bye"] == "S4"
    entered = client.put(
        f"{base}/rounds/1/games/1", json={"scores": [420, 380]}, headers=auth(token)
    )
    assert entered.status_code == 200
    html = client.get(f"/events/scrabble/{made['id']}").get_data(as_text=True)
    board, by_name, standings = re.findall(r"<tbody>(.*?)</tbody>", html, re.S)
    assert "<h3>By board</h3>" in html and "<h3>By name</h3>" in html
    # The forfeit column, empty in every game, takes no room on a phone; nor do repeats
    # and penalties, zero in every game.
    for quiet in ("forfeit", "repeat", "penalty a", "penalty b"):
        assert f"<th>{quiet}</th>" not in html, quiet
    assert _rows(board) == [
        "|1||Zoe Zed||Max Moss||420||380|",
        "|2||Ann Ash||Bob Birch|||||",
        "|bye||Dan Dale||||50|||",
    ]
    assert _rows(by_name) == [
        "|Ann Ash||2||Bob Birch|",
        "|Bob Birch||2||Ann Ash|",
        "|Dan Dale||bye|||",
        "|Max Moss||1||Zoe Zed|",
        "|Zoe Zed||1||Max Moss|",
    ]
    assert "<th>player</th><th>game</th><th>opponent</th>" in html
    assert [row.split("||")[:2] for row in _rows(standings)][:2] == [
        ["|1", "Dan Dale"],  # the bye's 50 above a win by 40
        ["|2", "Zoe Zed"],
    ]
    # "Find your table" marks the player's game, their line by name (not their opponent's)
    # and their standing.
    found = _rows(
        client.get(f"/events/scrabble/{made['id']}?name=bob").get_data(as_text=True), True
    )
    assert len(found) == 3 and "Bob Birch" in found[2]
    # The sheet to pin up carries both lists too.
    sheet = client.get(f"/events/scrabble/{made['id']}/sheet").get_data(as_text=True)
    sheet_board, sheet_names = re.findall(r"<tbody>(.*?)</tbody>", sheet, re.S)
    assert (_rows(sheet_board), _rows(sheet_names)) == (_rows(board), _rows(by_name))
    assert found[:2] == [
        "|2||Ann Ash||Bob Birch|||||",
        "|Bob Birch||2||Ann Ash|",
    ]
    # A penalty given shows its column (the other penalty with it, as a zero).
    penalised = client.put(
        f"{base}/rounds/1/games/2",
        json={"scores": [300, 350], "penalties": [0, 10]},
        headers=auth(token),
    )
    assert penalised.status_code == 200, penalised.get_json()
    html = client.get(f"/events/scrabble/{made['id']}").get_data(as_text=True)
    assert "<th>penalty a</th>" not in html and "<th>penalty b</th>" in html
    assert "<th>repeat</th>" not in html


def test_other_formats_pages_and_sheets_have_no_list_by_name(client):
    tournament, token = _named_strikes(client)
    client.post(f"{STRIKES}/{tournament}/rounds", headers=auth(token))
    race_id = client.post(
        "/v1/diagonal/events", json={"players": [{"id": f"R{i}"} for i in range(6)]}
    ).get_json()
    client.post(f"/v1/diagonal/events/{race_id['id']}/rounds", headers=auth(race_id["token"]))
    for url in (f"/events/strikes/{tournament}", f"/events/diagonal/{race_id['id']}"):
        html = client.get(url).get_data(as_text=True)
        assert "<h2>Round 1</h2>" in html, url
        assert "By name" not in html and "By board" not in html, url
        assert html.count("<table>") == 2, url  # the round and the standings
        sheet = client.get(url + "/sheet").get_data(as_text=True)
        assert "By name" not in sheet and sheet.count("<table>") == 1, url


ACCENTED = ["José Díaz", "Zoé Lee", "Ann Ash", "Bob Birch", "Cy Cole", "Dee Dunn"]


def test_find_your_table_folds_case_and_accents_and_jumps_to_the_match(client):
    players = [{"id": f"P{i}", "name": name} for i, name in enumerate(ACCENTED)]
    made = client.post(STRIKES, json={"name": "Club night", "players": players}).get_json()
    client.post(f"{STRIKES}/{made['id']}/rounds", headers=auth(made["token"]))
    for typed, name in (("jose", "José Díaz"), ("ZOE", "Zoé Lee"), ("díaz", "José Díaz")):
        html = client.get(f"/events/strikes/{made['id']}?name={typed}").get_data(as_text=True)
        found = _rows(html, found=True)
        assert found and all(name in row for row in found), typed
        # The first match carries the anchor the form's action jumps to.
        assert html.count('id="found"') == 1 and '<tr class="found" id="found">' in html
    assert 'action="#found"' in html
    assert "(P0)" not in html  # a name alone tells a player their line


def test_namesakes_are_told_apart_by_rating_or_by_the_id_they_were_entered_under(client):
    rated = [
        {"id": "ann1", "name": "Ann", "rating": 1850},
        {"id": "ann2", "name": "Ann", "rating": 1720},
        {"id": "bob", "name": "Bob", "rating": 1600},
        {"id": "cy", "name": "Cy", "rating": 1500},
    ]
    race = client.post("/v1/diagonal/events", json={"players": rated}).get_json()
    html = client.get(f"/events/diagonal/{race['id']}").get_data(as_text=True)
    assert "<td>Ann (1850)</td>" in html and "<td>Ann (1720)</td>" in html
    assert "<td>Bob</td>" in html
    unrated = [{"id": "ann1", "name": "Ann"}, {"id": "ann2", "name": "ann"}] + [
        {"id": f"p{i}", "name": f"P {i}"} for i in range(4)
    ]
    night = client.post(STRIKES, json={"players": unrated}).get_json()
    html = client.get(f"/events/strikes/{night['id']}").get_data(as_text=True)
    assert "<td>Ann (ann1)</td>" in html and "<td>ann (ann2)</td>" in html
    # Namesakes with one rating are told apart by their ids, not by a rating they share.
    level = [dict(player, rating=1800) if player["name"] == "Ann" else player for player in rated]
    twins = client.post("/v1/diagonal/events", json={"players": level}).get_json()
    html = client.get(f"/events/diagonal/{twins['id']}").get_data(as_text=True)
    assert "<td>Ann (ann1)</td>" in html and "<td>Ann (ann2)</td>" in html
    assert "Ann (1800)" not in html


def test_a_finished_event_leads_with_its_result(client):
    players = [{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bob"}, {"id": "C", "name": "Cy"}]
    race = client.post(
        "/v1/diagonal/events",
        json={"players": players, "first_round_opponents": 2, "opponents": 2},
    ).get_json()
    base, token = f"/v1/diagonal/events/{race['id']}", race["token"]
    for number in (1, 2):  # Ann wins every game, Bob beats Cy: Cy out, then Bob
        rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
        for game in rnd["games"]:
            winner = "A" if "A" in game["players"] else "B"
            url = f"{base}/rounds/{number}/games/{game['game']}"
            assert client.put(url, json={"winner": winner}, headers=auth(token)).status_code == 200
        client.post(f"{base}/rounds/{number}/close", headers=auth(token))
    html = client.get(f"/events/diagonal/{race['id']}").get_data(as_text=True)
    assert "Finished" in html and "Winner: <strong>Ann</strong>" in html
    assert "Find your table" not in html
    assert html.index("<h2>Final standings</h2>") < html.index("<h2>Round 2</h2>")


def test_a_puffing_billy_page_lists_its_players_before_the_first_board(client):
    players = [{"id": f"p{i}", "name": name} for i, name in enumerate(ACCENTED)]
    made = client.post("/v1/puffing-billy/events", json={"players": players}).get_json()
    html = client.get(f"/events/puffing-billy/{made['id']}").get_data(as_text=True)
    for name in ACCENTED:
        assert f"<td>{name}</td>" in html
    assert "no board yet" in html


REGISTERED = [{"id": f"p{i}", "name": name} for i, name in enumerate(ACCENTED)]
RATED = [dict(player, rating=1900 - 10 * i) for i, player in enumerate(REGISTERED)]
CREATED = {
    "strikes": (STRIKES, {"players": REGISTERED}),
    "diagonal": ("/v1/diagonal/events", {"players": RATED}),
    "puffing-billy": ("/v1/puffing-billy/events", {"players": REGISTERED}),
    "scrabble": ("/v1/scrabble/events", {"players": RATED, "rounds": 3}),
}


@pytest.mark.parametrize("path", sorted(CREATED))
def test_every_formats_page_and_sheet_list_the_players_entered_before_any_result(client, path):
    collection, body = CREATED[path]
    made = client.post(collection, json=body).get_json()
    page = client.get(f"/events/{path}/{made['id']}").get_data(as_text=True)
    for name in ACCENTED:
        assert page.count(f"<td>{name}</td>") == 1, (path, name)  # once, in the standings
    assert "<h2>Standings</h2>" in page and "Find your table" not in page  # no round yet


BROWSER = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


def test_an_unknown_event_is_a_page_for_a_browser_and_a_problem_for_a_client(client):
    unstarted, _ = _named_strikes(client)
    missing = "/events/strikes/0123456789abcdef0123456789abcdef"
    for url in (
        missing,
        missing + "/sheet",
        missing + "/desk",
        f"/events/strikes/{unstarted}/slips",  # no round yet: no slips
        f"/events/chess/{unstarted}",
        f"/events/strikes/{unstarted}/nothing",
        "/events/league/0123456789abcdef0123456789abcdef/seasons/1",
    ):
        browser = client.get(url, headers=BROWSER)
        assert browser.status_code == 404 and browser.mimetype == "text/html", url
        html = browser.get_data(as_text=True)
        assert "This page is not here" in html and '"status"' not in html, url
        # A page's own headers: its policy, and a cache told the answer depends on Accept.
        assert "script-src 'self'" in browser.headers["Content-Security-Policy"], url
        assert "Accept" in browser.headers["Vary"], url
        for accept in ("*/*", "application/json", "application/problem+json"):
            api = client.get(url, headers={"Accept": accept})
            assert api.status_code == 404, (url, accept)
            assert api.mimetype == "application/problem+json", (url, accept)
            assert "Accept" in api.headers["Vary"], url
    # Beyond the pages, a browser still gets the API's problem.
    elsewhere = client.get(
        "/v1/strikes/tournaments/0123456789abcdef0123456789abcdef", headers=BROWSER
    )
    assert elsewhere.status_code == 404 and elsewhere.mimetype == "application/problem+json"


def test_a_leagues_page_lists_who_signed_up_before_the_leagues_are_formed(client):
    made = client.post("/v1/league/organisations", json={"code": "AGR"}).get_json()
    base, token = f"/v1/league/organisations/{made['id']}", made["token"]
    client.post(f"{base}/seasons", headers=auth(token))
    signups = [
        {"id": f"L{i}", "name": name, "email": f"l{i}@{MAIL}"} for i, name in enumerate(ACCENTED)
    ]
    signups.append({"id": "L9", "name": "Gus Gray"})
    signed = client.post(
        f"{base}/seasons/1/signups", json={"players": signups}, headers=auth(token)
    )
    assert signed.status_code == 200, signed.get_json()
    page = f"/events/league/{made['id']}"
    html = client.get(page + "?name=jose").get_data(as_text=True)
    assert "<h2>Signed up for season 1</h2>" in html and MAIL not in html
    listed = html.split("<h2>Signed up for season 1</h2>")[1].split("</section>")[0]
    assert [row.strip("|") for row in _rows(listed)[1:]] == [*ACCENTED, "Gus Gray"]
    assert _rows(html, found=True) == ["|José Díaz|"] and 'id="found"' in html
    assert client.post(f"{base}/seasons/1/form", headers=auth(token)).status_code == 200
    assert "Signed up for" not in client.get(page).get_data(as_text=True)
