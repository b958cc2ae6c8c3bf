"""The held formats' widgets on a host site, in a real browser (Debian's chromium): strikes,
Diagonal Race, Puffing Billy and Scrabble standings, a Meeple League game reported by a
player, a division and the lifetime table.

Browser tests run a service on one loopback port and host pages on others, so the widget
really is cross-origin (the ``sites`` fixture, tests/integration/conftest.py). Screenshots
go to test-output/widget/.
"""

from __future__ import annotations

import contextlib
import json

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.support.widget import SHOTS, call_api, host_page, strikes_tournament, watch_errors


def test_a_strikes_tournament_shows_its_seating_and_standings(sites):
    tournament, leader = strikes_tournament(sites["api"])
    sites["pages"]["/standings.html"] = host_page(
        sites["api"],
        f"<strikes-standings api='{sites['api']}' tournament='{tournament}'></strikes-standings>",
    )
    page = sites["browser"].new_page(viewport={"width": 360, "height": 1000})
    page.goto(sites["host"] + "/standings.html")
    widget = page.locator("strikes-standings")
    rows = widget.locator("table.standings tbody tr")
    rows.first.wait_for(timeout=15_000)
    assert rows.count() == 7
    assert widget.locator("h2").inner_text() == "Club night"
    assert widget.locator("table.seating tbody tr").count() == 2  # 7 players: a 4 and a 3
    assert leader in widget.locator("table.seating").inner_text()
    widget.get_by_role("button", name="Refresh").click()
    rows.first.wait_for(timeout=15_000)
    page.screenshot(path=str(SHOTS / "strikes.png"), full_page=True)


@pytest.mark.parametrize("width", [1280, 360])
def test_a_finished_strikes_tournament_shows_places_and_the_winner_by_name(sites, width):
    api = sites["api"]
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
    players = [{"id": f"P{i}", "name": name} for i, name in enumerate(names)]
    body = {"name": "Club night", "players": players, "seed": 1, "threshold": 23}
    created = call_api(api, "POST", "/v1/strikes/tournaments", body)
    base, token = f"/v1/strikes/tournaments/{created['id']}", created["token"]
    ranking = [p["id"] for p in players]
    ending = {"finished": False}
    while not ending["finished"]:
        started = call_api(api, "POST", base + "/rounds", token=token)
        for table in started["tables"]:
            seated = sorted(table["players"], key=ranking.index)
            result = {"results": [{"player": p, "score": 90 - i} for i, p in enumerate(seated)]}
            path = f"{base}/rounds/{started['round']}/tables/{table['table']}"
            call_api(api, "PUT", path, result, token)
        ending = call_api(api, "POST", f"{base}/rounds/{started['round']}/close", token=token)[
            "ending"
        ]
    sites["pages"]["/final.html"] = host_page(
        api, f"<strikes-standings api='{api}' tournament='{created['id']}'></strikes-standings>"
    )
    page = sites["browser"].new_page(viewport={"width": width, "height": 1000})
    errors = watch_errors(page)
    page.goto(sites["host"] + "/final.html")
    widget = page.locator("strikes-standings")
    rows = widget.locator("table.standings tbody tr")
    rows.first.wait_for(timeout=15_000)
    assert widget.locator("p.winner").inner_text() == "Winner: Ann"
    assert widget.get_by_role("heading", name="Final standings").count() == 1
    cells = [row.split("\t") for row in rows.all_inner_texts()]
    assert [c[:2] for c in cells] == [
        ["1st", "Ann"],
        ["2nd", "Bob"],
        ["3rd", "Cat"],
        ["4th", "Dan"],
        ["5th", "Eve"],
        ["6th", "Fay"],
        ["6th", "Gus"],  # out in the same round with the same strikes: level
    ]
    assert cells[0][-1] == "winner"
    assert cells[1][-1] == "out in round 3" and cells[6][-1] == "out in round 1"
    shown = page.evaluate("document.querySelector('strikes-standings').shadowRoot.textContent")
    assert "Gus" in shown and "P0" not in shown  # names, not ids, in every table
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(SHOTS / f"strikes-final-{width}.png"), full_page=True)
    assert errors == []


def test_a_diagonal_event_shows_its_round_and_standings(sites):
    api = sites["api"]
    players = [{"id": f"r{i}", "name": f"Racer {i}", "rating": 1800 - 20 * i} for i in range(6)]
    created = call_api(
        api, "POST", "/v1/diagonal/events", {"name": "Spring Race", "players": players}
    )
    base, token = f"/v1/diagonal/events/{created['id']}", created["token"]
    games = call_api(api, "POST", base + "/rounds", token=token)["games"]
    first = games[0]
    call_api(
        api,
        "PUT",
        f"{base}/rounds/1/games/1",
        {"winner": first["players"][0], "pieces_left": 3},
        token,
    )
    sites["pages"]["/race.html"] = host_page(
        api, f"<diagonal-standings api='{api}' event='{created['id']}'></diagonal-standings>"
    )
    page = sites["browser"].new_page(viewport={"width": 360, "height": 1200})
    errors = watch_errors(page)
    page.goto(sites["host"] + "/race.html")
    widget = page.locator("diagonal-standings")
    rows = widget.locator("table.standings tbody tr")
    rows.first.wait_for(timeout=15_000)
    assert rows.count() == 6
    assert widget.locator("h2").inner_text() == "Spring Race"
    assert widget.locator("h3").first.inner_text() == "Round 1 (4 games each, open)"
    game_rows = widget.locator("table.games tbody tr")
    assert game_rows.count() == len(games)
    winner = f"Racer {first['players'][0][1:]}"
    assert game_rows.nth(0).inner_text().endswith(f"{winner} won, 3 pieces left")
    assert game_rows.nth(1).inner_text().endswith("—")
    # A result entered elsewhere appears on Refresh.
    second = games[1]
    call_api(
        api,
        "PUT",
        f"{base}/rounds/1/games/2",
        {"winner": second["players"][1], "pieces_left": 1},
        token,
    )
    widget.get_by_role("button", name="Refresh").click()
    page.wait_for_function(
        "() => !document.querySelector('diagonal-standings').shadowRoot"
        ".querySelectorAll('table.games tbody tr')[1].innerText.endsWith('—')",
        timeout=15_000,
    )
    assert "1 pieces left" in game_rows.nth(1).inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(SHOTS / "diagonal.png"), full_page=True)
    assert errors == []


def test_a_puffing_billy_event_shows_its_boards_standings_and_champion(sites):
    api = sites["api"]
    ids = ["Jenny", "Damien", "Stephen", "Sybil", "Ben"]
    created = call_api(
        api,
        "POST",
        "/v1/puffing-billy/events",
        {"name": "Billy Cup", "players": [{"id": p} for p in ids]},
    )
    base, token = f"/v1/puffing-billy/events/{created['id']}", created["token"]
    scores = [252_000, 248_000, 121_000, 98_000, 60_000]
    sheet = {"players": [{"id": p, "score": s} for p, s in zip(ids, scores, strict=True)]}
    call_api(api, "PUT", base + "/boards/1", {**sheet, "name": "Heat 1"}, token)
    sites["pages"]["/billy.html"] = host_page(
        api,
        f"<puffing-billy-standings api='{api}' event='{created['id']}'></puffing-billy-standings>",
    )
    page = sites["browser"].new_page(viewport={"width": 360, "height": 1200})
    errors = watch_errors(page)
    page.goto(sites["host"] + "/billy.html")
    widget = page.locator("puffing-billy-standings")
    rows = widget.locator("table.standings tbody tr")
    rows.first.wait_for(timeout=15_000)
    assert rows.count() == 5
    assert rows.nth(0).inner_text().split("\t")[:3] == ["1", "Jenny", "3.028"]
    assert rows.nth(1).inner_text().split("\t")[:3] == ["2", "Damien", "2.492"]
    assert "Heat 1" in widget.locator("table.boards").inner_text()
    # The final: the preliminaries close with two qualifiers, Damien wins the final board.
    call_api(api, "POST", base + "/preliminaries/close", {"finalists": 2}, token)
    final = {"players": [{"id": "Damien", "score": 900}, {"id": "Jenny", "score": 100}]}
    call_api(api, "PUT", base + "/boards/2", final, token)
    call_api(api, "POST", base + "/final/close", token=token)
    widget.get_by_role("button", name="Refresh").click()
    widget.locator("p.winner").wait_for(timeout=15_000)
    assert widget.locator("p.winner").inner_text() == "Winner: Damien"
    assert widget.locator("table.final tbody tr").count() == 2
    assert widget.locator("h3").first.inner_text() == "Final boards"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(SHOTS / "puffing-billy.png"), full_page=True)
    assert errors == []


def test_a_player_reports_a_league_game_and_the_table_updates(sites):
    api = sites["api"]
    org = call_api(
        api, "POST", "/v1/league/organisations", {"name": "Agricola League", "code": "AGR"}
    )
    base, token = f"/v1/league/organisations/{org['id']}", org["token"]
    call_api(api, "POST", base + "/seasons", token=token)
    signups = {"players": [{"id": f"p{i}", "name": f"Player {i}"} for i in range(7)]}
    call_api(api, "POST", base + "/seasons/1/signups", signups, token)
    formed = call_api(api, "POST", base + "/seasons/1/form", token=token)
    tokens = {t["player"]: t["token"] for t in formed["reporting_tokens"]}
    seats = call_api(api, "GET", base + "/seasons/1/leagues/1-A")["games"][0]["seats"]
    reporter = seats[0]
    sites["pages"]["/league.html"] = host_page(
        api,
        f"<league-standings api='{api}' organisation='{org['id']}' league='1-A'></league-standings>"
        f"<league-report api='{api}' organisation='{org['id']}' season='1'></league-report>",
    )
    page = sites["browser"].new_page(viewport={"width": 360, "height": 1400})
    errors = watch_errors(page)
    page.goto(sites["host"] + "/league.html")
    standings = page.locator("league-standings")
    standings.locator("table.standings").wait_for(timeout=15_000)
    assert "0 of 7 games reported" in standings.locator("h3").inner_text()
    assert standings.locator("table.standings tbody tr").count() == 7  # everyone, at 0
    form = page.locator("league-report")
    form.locator("#token").fill(tokens[reporter])
    form.locator("#league").fill("1-A")
    form.get_by_role("button", name="Show my league's games").click()
    form.locator("table.report tbody tr").first.wait_for(timeout=15_000)
    assert form.locator("#game option").count() == 7
    for index, score in enumerate((120, 90, 80, 40)):
        form.locator(f"[name=score-{index}]").fill(str(score))
    form.get_by_role("button", name="Report this game").click()
    form.get_by_role("status").wait_for(timeout=15_000)
    assert "AGR S1 L1-A G1 is reported" in form.get_by_role("status").inner_text()
    rows = standings.locator("table.standings tbody tr")
    standings.get_by_text("1 of 7 games reported").wait_for(timeout=15_000)  # no reload
    assert rows.count() == 7
    assert rows.nth(0).inner_text().split("\t")[1:3] == [f"Player {reporter[1:]}", "10"]
    # Another player's token cannot report it differently: the problem is shown.
    form.locator("#token").fill(tokens[seats[1]])
    for index, score in enumerate((1, 90, 80, 40)):
        form.locator(f"[name=score-{index}]").fill(str(score))
    form.get_by_role("button", name="Report this game").click()
    alert = form.get_by_role("alert")
    alert.wait_for(timeout=15_000)
    assert "Conflict" in alert.inner_text() and "reported already" in alert.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(SHOTS / "league.png"), full_page=True)
    assert [e for e in errors if "409" not in e] == []  # the refused PUT is logged by Chromium


def test_league_standings_show_a_division_and_the_lifetime_table(sites):
    api = sites["api"]
    org = call_api(api, "POST", "/v1/league/organisations", {"code": "TM"})
    base, token = f"/v1/league/organisations/{org['id']}", org["token"]
    call_api(api, "POST", base + "/seasons", token=token)
    signups = {"players": [{"id": f"p{i:02d}"} for i in range(14)]}
    call_api(api, "POST", base + "/seasons/1/signups", signups, token)
    call_api(api, "POST", base + "/seasons/1/form", token=token)
    for league in ("1-A", "2-A"):
        for game in call_api(api, "GET", f"{base}/seasons/1/leagues/{league}")["games"]:
            results = [
                {"player": p, "score": 100 - 10 * i, "position": i + 1}
                for i, p in enumerate(game["seats"])
            ]
            path = f"{base}/seasons/1/leagues/{league}/games/{game['game']}"
            call_api(api, "PUT", path, {"results": results}, token)
    closed = call_api(api, "POST", base + "/seasons/1/close", token=token)
    sites["pages"]["/lifetime.html"] = host_page(
        api,
        f"<league-standings api='{api}' organisation='{org['id']}' division='2'></league-standings>"
        f"<league-standings api='{api}' organisation='{org['id']}' view='lifetime'>"
        "</league-standings>",
    )
    page = sites["browser"].new_page(viewport={"width": 360, "height": 1600})
    errors = watch_errors(page)
    page.goto(sites["host"] + "/lifetime.html")
    division, lifetime = (
        page.locator("league-standings").nth(0),
        page.locator("league-standings").nth(1),
    )
    division.locator("table.standings tbody tr").first.wait_for(timeout=15_000)
    assert division.locator("h3").inner_text() == "Season 1, league 2-A (7 of 7 games reported)"
    lifetime.locator("table.lifetime tbody tr").first.wait_for(timeout=15_000)
    assert lifetime.locator("table.lifetime tbody tr").count() == 14
    assert lifetime.locator("table.winners tbody tr").inner_text().split("\t") == [
        "1",
        closed["winner"],
    ]
    assert (
        lifetime.locator("table.lifetime tbody tr")
        .first.inner_text()
        .startswith(f"1\t{closed['winner']}")
    )
    page.screenshot(path=str(SHOTS / "league-lifetime.png"), full_page=True)
    assert errors == []


def _league_for_reports(
    api: str, names: list[str] | None = None
) -> tuple[dict, str, dict[str, str], list[dict]]:
    """A formed 7-player league: (organisation, its base, reporting tokens, games)."""
    org = call_api(api, "POST", "/v1/league/organisations", {"code": "AGR"})
    base, token = f"/v1/league/organisations/{org['id']}", org["token"]
    call_api(api, "POST", base + "/seasons", token=token)
    named = names or [None] * 7
    signups = {"players": [{"id": f"p{i}", "name": named[i]} for i in range(7)]}
    call_api(api, "POST", base + "/seasons/1/signups", signups, token)
    formed = call_api(api, "POST", base + "/seasons/1/form", token=token)
    tokens = {t["player"]: t["token"] for t in formed["reporting_tokens"]}
    return org, base, tokens, call_api(api, "GET", base + "/seasons/1/leagues/1-A")["games"]


def _open_league_page(sites, organisation: str, width: int):
    """A host page with league 1-A's table and the report form, opened ``width`` wide:
    (the page, the errors it logs)."""
    api = sites["api"]
    sites["pages"]["/league.html"] = host_page(
        api,
        f"<league-standings api='{api}' organisation='{organisation}' league='1-A'>"
        "</league-standings>"
        f"<league-report api='{api}' organisation='{organisation}' season='1' league='1-A'>"
        "</league-report>",
    )
    page = sites["browser"].new_page(viewport={"width": width, "height": 1400})
    errors = watch_errors(page)
    page.goto(sites["host"] + "/league.html")
    return page, errors


@pytest.mark.parametrize("width", [1280, 360])
def test_the_report_form_takes_positions_from_the_scores(sites, width):
    api = sites["api"]
    org, base, tokens, games = _league_for_reports(api)
    page, errors = _open_league_page(sites, org["id"], width)
    form = page.locator("league-report")
    form.locator("table.report tbody tr").first.wait_for(timeout=15_000)
    seats = games[0]["seats"]

    def positions() -> list[str]:
        return [form.locator(f"[name=position-{i}]").input_value() for i in range(4)]

    def settle(expected: list[str]) -> list[str]:
        """The positions once the service's answer for the scores typed is shown (asked
        once typing pauses): ``expected``, or what they are after the wait."""
        with contextlib.suppress(PlaywrightTimeout):  # the assertion says what they are
            page.wait_for_function(
                "([form, expected]) => expected.every((v, i) =>"
                " form.shadowRoot.querySelector(`[name=position-${i}]`).value === v)",
                arg=[form.element_handle(), expected],
                timeout=15_000,
            )
        return positions()

    def choices(index: int) -> list[str]:
        return form.locator(f"[name=position-{index}] option").all_inner_texts()

    # Only scores typed, seat 2 the best: seat 2 wins, not seat 1.
    form.locator("#token").fill(tokens[seats[1]])
    for index, score in enumerate((80, 120, 90, 40)):
        assert positions()[index] == ""  # nothing to derive before every score is in
        form.locator(f"[name=score-{index}]").fill(str(score))
    assert settle(["3", "1", "2", "4"]) == ["3", "1", "2", "4"]
    assert [choices(i) for i in range(4)] == [["3rd"], ["1st"], ["2nd"], ["4th"]]
    form.get_by_role("button", name="Report this game").click()
    form.get_by_role("status").wait_for(timeout=15_000)
    reported = call_api(api, "GET", base + "/seasons/1/leagues/1-A")
    assert [r["position"] for r in reported["games"][0]["results"]] == [3, 1, 2, 4]
    standings = page.locator("league-standings")
    standings.get_by_text("1 of 7 games reported").wait_for(timeout=15_000)
    top = standings.locator("table.standings tbody tr").first.inner_text().split("\t")
    assert top[1:3] == [seats[1], "10"]

    # Equal scores share a position; a tie may be split, and only within the tie.
    second = games[1]["seats"]
    form.locator("#game").select_option("2")
    form.locator("[name=score-3]").wait_for(timeout=15_000)
    form.locator("#token").fill(tokens[second[0]])
    for index, score in enumerate((100, 100, 50, 20)):
        form.locator(f"[name=score-{index}]").fill(str(score))
    assert settle(["1", "1", "3", "4"]) == ["1", "1", "3", "4"]
    assert choices(0) == choices(1) == ["1st", "2nd"] and choices(2) == ["3rd"]
    form.locator("[name=position-0]").select_option("2")
    form.locator("[name=position-1]").select_option("2")  # no 1st: not a ranking
    refused = form.locator("[name=position-1]").evaluate("e => e.validationMessage")
    assert "not a ranking" in refused
    form.get_by_role("button", name="Report this game").click()  # the form refuses to send
    assert call_api(api, "GET", base + "/seasons/1/leagues/1-A")["games"][1]["results"] is None
    form.locator("[name=position-1]").select_option("1")
    # One left the game: placed last, whatever the score.
    form.locator("[name=left-2]").check()
    assert settle(["1", "1", "4", "3"]) == ["1", "1", "4", "3"]
    form.locator("[name=position-0]").select_option("2")
    form.get_by_role("button", name="Report this game").click()
    form.get_by_text("AGR S1 L1-A G2 is reported").wait_for(timeout=15_000)
    results = call_api(api, "GET", base + "/seasons/1/leagues/1-A")["games"][1]["results"]
    assert [(r["position"], r["dropped_out"]) for r in results] == [
        (2, False),
        (1, False),
        (4, True),
        (3, False),
    ]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(SHOTS / f"league-report-{width}.png"), full_page=True)
    assert errors == []


@pytest.mark.parametrize("width", [1280, 360])
def test_a_league_table_shows_names_decimals_and_what_decided(sites, width):
    api = sites["api"]
    names = ["Ann Ash", "Bob Birch", "Cat Cedar", "Dan Dogwood", "Eve Elm", "Fay Fir", "Gus Gum"]
    org, base, tokens, games = _league_for_reports(api, names)
    seats = games[0]["seats"]
    results = [
        {"player": p, "score": s, "position": n}
        for p, s, n in zip(seats, (100, 80, 80, 50), (1, 2, 2, 4), strict=True)
    ]
    call_api(
        api, "PUT", base + "/seasons/1/leagues/1-A/games/1", {"results": results}, tokens[seats[0]]
    )
    page, errors = _open_league_page(sites, org["id"], width)
    standings = page.locator("league-standings")
    rows = standings.locator("table.standings tbody tr")
    rows.first.wait_for(timeout=15_000)
    cells = [row.split("\t") for row in rows.all_inner_texts()]
    name = dict(zip((f"p{i}" for i in range(7)), names, strict=True))
    assert [c[1:3] for c in cells[:4]] == [
        [name[seats[0]], "10"],
        [cells[1][1], "4.5"],
        [cells[2][1], "4.5"],
        [name[seats[3]], "1"],
    ]
    assert {cells[1][1], cells[2][1]} == {name[seats[1]], name[seats[2]]}
    assert cells[0][-1] == "league points 10 v 4.5"
    assert cells[1][-1].startswith("rank coming into the season ")
    shown = page.evaluate("document.querySelector('league-standings').shadowRoot.textContent")
    assert "9/2" not in shown and "p0" not in shown
    # The report form names the players too; games still to report come first (no
    # player named on this page: the league's, in order), so game 2 is drawn.
    form = page.locator("league-report")
    form.locator("table.report tbody tr").first.wait_for(timeout=15_000)
    listed = form.locator("select#game option").first.get_attribute("value")
    assert listed == str(games[1]["game"])
    first_seat = name[games[1]["seats"][0]]
    assert form.locator("table.report tbody tr").first.inner_text().startswith(first_seat)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(SHOTS / f"league-table-{width}.png"), full_page=True)
    assert errors == []


def test_standings_refresh_by_themselves_when_asked(sites):
    """refresh="20": the widget reads the event again every 20 seconds (the page's clock
    is Playwright's, run forward) and shows a result entered meanwhile; not before."""
    api = sites["api"]
    players = [{"id": p} for p in ["ann", "bob", "cat", "dan", "eve", "fay", "gus"]]
    created = call_api(api, "POST", "/v1/strikes/tournaments", {"players": players, "seed": 4})
    base, token = f"/v1/strikes/tournaments/{created['id']}", created["token"]
    tables = call_api(api, "POST", f"{base}/rounds", token=token)["tables"]
    sites["pages"]["/live.html"] = host_page(
        api,
        f"<strikes-standings api='{api}' tournament='{created['id']}' refresh='20'>"
        "</strikes-standings>",
    )
    page = sites["browser"].new_page(viewport={"width": 360, "height": 1000})
    errors = watch_errors(page)
    page.clock.install()
    page.goto(sites["host"] + "/live.html")
    widget = page.locator("strikes-standings")
    widget.locator("table.standings tbody tr").first.wait_for(timeout=15_000)
    strikes = (
        "document.querySelector('strikes-standings').shadowRoot"
        ".querySelector('table.standings').innerText"
    )
    shown = page.evaluate(strikes)
    table = tables[0]
    result = {"results": [{"player": p, "score": 90 - i} for i, p in enumerate(table["players"])]}
    call_api(api, "PUT", f"{base}/rounds/1/tables/{table['table']}", result, token)
    page.clock.run_for(15_000)
    page.wait_for_timeout(500)
    assert page.evaluate(strikes) == shown  # not yet read again
    page.clock.run_for(6_000)
    page.wait_for_function(f"() => {strikes} !== {json.dumps(shown)}", timeout=10_000)
    assert errors == []


def _scrabble_event(api: str) -> tuple[str, str, str]:
    """A seven-player Scrabble event (a bye) with round 1 paired and two games entered:
    (its id, its base path, its director token)."""
    names = ["Zoe Zed", "Ann Ash", "Max Moss", "Bob Birch", "Eve Elm", "Cat Cedar", "Dan Dale"]
    players = [
        {"id": f"S{i}", "name": name, "rating": 1900 - 20 * i} for i, name in enumerate(names)
    ]
    body = {"name": "Club open", "players": players, "rounds": 3}
    created = call_api(api, "POST", "/v1/scrabble/events", body)
    base, token = f"/v1/scrabble/events/{created['id']}", created["token"]
    paired = call_api(api, "POST", base + "/rounds", token=token)
    # Seeded: the lowest-rated sits out, then the top half against the bottom half.
    assert [g["players"] for g in paired["games"]] == [["S0", "S3"], ["S1", "S4"], ["S2", "S5"]]
    assert paired["bye"] == "S6"
    call_api(api, "PUT", base + "/rounds/1/games/1", {"scores": [420, 380]}, token)
    call_api(api, "PUT", base + "/rounds/1/games/2", {"scores": [300, 410]}, token)
    return created["id"], base, token


def _cells(locator) -> list[list[str]]:
    return [row.split("\t") for row in locator.all_inner_texts()]


@pytest.mark.parametrize("width", [1280, 375])
def test_a_scrabble_event_shows_its_pairings_by_board_and_by_name(sites, width):
    """Standings (rank, name, wins, losses, spread), round 1 by board with the scores
    entered and by name in alphabetical order, the bye as a bye; refresh="20" reads the
    event again (the page's clock run forward) and shows a result entered meanwhile."""
    api = sites["api"]
    event, base, token = _scrabble_event(api)
    sites["pages"]["/scrabble.html"] = host_page(
        api, f"<scrabble-standings api='{api}' event='{event}' refresh='20'></scrabble-standings>"
    )
    page = sites["browser"].new_page(viewport={"width": width, "height": 1400})
    errors = watch_errors(page)
    page.clock.install()
    page.goto(sites["host"] + "/scrabble.html")
    widget = page.locator("scrabble-standings")
    standings = widget.locator("table.standings tbody tr")
    standings.first.wait_for(timeout=15_000)
    assert widget.locator("h2").inner_text() == "Club open"
    assert widget.locator("p.muted").first.inner_text() == "Round 1 of 3 · round under way"
    assert widget.locator("table.standings th").all_inner_texts() == [
        "#",
        "Player",
        "Wins",
        "Losses",
        "Spread",
    ]
    assert _cells(standings) == [
        ["1", "Eve Elm", "1", "0", "+110"],
        ["2", "Dan Dale", "1", "0", "+50"],  # the bye
        ["3", "Zoe Zed", "1", "0", "+40"],
        ["4", "Max Moss", "0", "0", "0"],
        ["5", "Cat Cedar", "0", "0", "0"],
        ["6", "Bob Birch", "0", "1", "-40"],
        ["7", "Ann Ash", "0", "1", "-110"],
    ]
    assert widget.locator("h3").first.inner_text() == "Round 1 pairings (open)"
    assert _cells(widget.locator("table.boards tbody tr")) == [
        ["1", "Zoe Zed", "Bob Birch", "420–380"],
        ["2", "Ann Ash", "Eve Elm", "300–410"],
        ["3", "Max Moss", "Cat Cedar", "—"],
        ["—", "Dan Dale", "bye", "+50"],
    ]
    assert _cells(widget.locator("table.by-name tbody tr")) == [
        ["Ann Ash", "2", "Eve Elm"],
        ["Bob Birch", "1", "Zoe Zed"],
        ["Cat Cedar", "3", "Max Moss"],
        ["Dan Dale", "—", "bye"],
        ["Eve Elm", "2", "Ann Ash"],
        ["Max Moss", "3", "Cat Cedar"],
        ["Zoe Zed", "1", "Bob Birch"],
    ]
    shown = page.evaluate("document.querySelector('scrabble-standings').shadowRoot.textContent")
    assert "S0" not in shown  # names, not ids
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(SHOTS / f"scrabble-{width}.png"), full_page=True)
    # The last game entered elsewhere: shown at the next read, 20 seconds on, not before.
    call_api(api, "PUT", base + "/rounds/1/games/3", {"scores": [500, 290]}, token)
    page.clock.run_for(15_000)
    page.wait_for_timeout(500)
    assert widget.locator("table.boards tbody tr").nth(2).inner_text().endswith("—")
    page.clock.run_for(6_000)
    widget.locator("table.boards tbody tr").nth(2).get_by_text("500–290").wait_for(timeout=10_000)
    assert _cells(standings)[0] == ["1", "Max Moss", "1", "0", "+210"]
    assert errors == []


def test_scrabble_standings_show_the_prize_beside_each_place_that_has_one(sites):
    """When the event's JSON lists `prizes` (amounts or null, in place order), the players
    holding those places show theirs: "1st · 500"; players level on wins and spread share
    their places, shown tied ("2nd–3rd (tied)": the forfeit's 50 is level with the bye's,
    and rating, which orders them, decides no money). The field is added here by
    intercepting the event's read. Between rounds the last round is shown, closed, and a
    player who withdrew keeps their place, marked."""
    api = sites["api"]
    event, base, token = _scrabble_event(api)
    call_api(api, "PUT", base + "/rounds/1/games/3", {"forfeit": "S5"}, token)
    call_api(api, "POST", base + "/rounds/1/close", token=token)
    call_api(api, "POST", base + "/players/S1/drop", token=token)
    sites["pages"]["/prizes.html"] = host_page(
        api, f"<scrabble-standings api='{api}' event='{event}'></scrabble-standings>"
    )
    page = sites["browser"].new_page(viewport={"width": 375, "height": 1400})
    errors = watch_errors(page)

    def with_prizes(route):
        response = route.fetch()
        route.fulfill(response=response, json={**response.json(), "prizes": [500, 250, None]})

    page.route(f"{api}/v1/scrabble/events/{event}", with_prizes)
    page.goto(sites["host"] + "/prizes.html")
    widget = page.locator("scrabble-standings")
    standings = widget.locator("table.standings tbody tr")
    standings.first.wait_for(timeout=15_000)
    assert widget.locator("p.muted").first.inner_text() == "Round 1 of 3 · between rounds"
    assert widget.locator("h3").first.inner_text() == "Round 1 pairings (closed)"
    boards = _cells(widget.locator("table.boards tbody tr"))
    assert boards[2] == ["3", "Max Moss", "Cat Cedar", "Cat Cedar forfeited"]
    assert widget.locator("table.standings th").all_inner_texts()[-1] == "Spread"
    players = standings.locator("td:nth-child(2)")
    prizes = players.evaluate_all(
        "cells => cells.map((c) => c.querySelector('.prize')?.textContent ?? '')"
    )
    first_names = [text.split(" ")[0] for text in players.all_inner_texts()]
    assert list(zip(first_names, prizes, strict=True)) == [
        ("Eve", "1st · 500"),
        ("Max", "2nd–3rd (tied)"),  # the forfeit's 50 level with the bye's
        ("Dan", "2nd–3rd (tied)"),  # 3rd's amount is not given: no split to say
        ("Zoe", ""),
        ("Bob", ""),
        ("Cat", ""),
        ("Ann", ""),
    ]
    assert players.nth(0).inner_text() == "Eve Elm 1st · 500"  # beside the name
    assert players.nth(6).inner_text() == "Ann Ash withdrawn"
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path=str(SHOTS / "scrabble-prizes-375.png"), full_page=True)
    assert errors == []


def test_scrabble_boards_show_a_games_penalties_beside_its_scores(sites):
    """A penalty (spread only, never who won) is shown with the scores it goes with, by
    the player it was taken from; the standings count it."""
    api = sites["api"]
    event, base, token = _scrabble_event(api)
    call_api(
        api, "PUT", base + "/rounds/1/games/3", {"scores": [400, 390], "penalties": [30, 0]}, token
    )
    sites["pages"]["/penalties.html"] = host_page(
        api, f"<scrabble-standings api='{api}' event='{event}'></scrabble-standings>"
    )
    page = sites["browser"].new_page(viewport={"width": 375, "height": 1400})
    errors = watch_errors(page)
    page.goto(sites["host"] + "/penalties.html")
    widget = page.locator("scrabble-standings")
    standings = widget.locator("table.standings tbody tr")
    standings.first.wait_for(timeout=15_000)
    boards = _cells(widget.locator("table.boards tbody tr"))
    assert boards[0] == ["1", "Zoe Zed", "Bob Birch", "420–380"]
    assert boards[2] == ["3", "Max Moss", "Cat Cedar", "400–390 (penalty: Max Moss −30)"]
    rows = {cells[1]: cells for cells in _cells(standings)}
    assert rows["Max Moss"][2:] == ["1", "0", "-20"]  # still a win, spread 10 - 30
    assert rows["Cat Cedar"][2:] == ["0", "1", "-10"]
    assert errors == []


def test_an_imported_rounds_players_without_an_opponent_are_listed_both_ways(sites):
    """A round imported from tsh: a forfeit lost and a round without a result (tsh's
    opponent 0) show on the boards and in the list by name, at phone width."""
    api = sites["api"]
    tsh = (
        "Able, Ann 1800 2 3 ; 420 390\nBaker, Bob 1750 1 6 ; 380 400\n"
        "Cole, Cat 1700 4 1 ; 350 401\nDunn, Dan 1650 3 0 ; 300 -50\n"
        "Eve, Emma 1600 0 0 ; 0 0\nFay, Finn 1550 0 2 ; 50 370\n"
    )
    created = call_api(api, "POST", "/v1/scrabble/events/import-tsh", {"tsh": tsh})
    sites["pages"]["/imported.html"] = host_page(
        api, f"<scrabble-standings api='{api}' event='{created['id']}'></scrabble-standings>"
    )
    page = sites["browser"].new_page(viewport={"width": 375, "height": 1400})
    errors = watch_errors(page)
    page.goto(sites["host"] + "/imported.html")
    widget = page.locator("scrabble-standings")
    widget.locator("table.by-name tbody tr").first.wait_for(timeout=15_000)
    boards = _cells(widget.locator("table.boards tbody tr"))
    assert boards[-2:] == [
        ["—", "Dunn, Dan", "forfeit", "-50"],
        ["—", "Eve, Emma", "unplayed", "0"],
    ]
    by_name = {cells[0]: cells[1:] for cells in _cells(widget.locator("table.by-name tbody tr"))}
    assert by_name["Dunn, Dan"] == ["—", "forfeit"]
    assert by_name["Eve, Emma"] == ["—", "unplayed"]
    assert len(by_name) == 6
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert errors == []
