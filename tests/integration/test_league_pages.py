"""A two-season Meeple League run through its public pages in Chromium: season 1's
sign-ups with e-mail addresses, season 2's returners signing up by id alone (and a new
player from a CSV file); the letters go to a local SMTP server, a player opens the report
link of the letter they received, reports a game on a desktop and on a 360 px phone, and
the season's page shows it. The console stays clean, and no page shows an address."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from tests.support.mailbox import letter_to, local_smtp
from tests.support.servers import free_port
from tests.support.widget import CHROMIUM, HOST, SHOTS, browser_or_skip, call_api, serve

MAIL = "club.example"


@pytest.fixture()
def league_site(tmp_path):
    """The service (with a local SMTP server) on a loopback port, and Chromium."""
    from pairing_service import create_app

    sync_playwright = browser_or_skip()
    with local_smtp() as (smtp_url, received):
        app = create_app(
            {
                "TESTING": True,
                "DATABASE_URL": f"sqlite:///{tmp_path}/league.sqlite3",
                "SMTP_URL": smtp_url,
            }
        )
        port = free_port()
        service = serve(make_server(HOST, port, app, threaded=True))
        SHOTS.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            try:
                yield {"api": f"http://{HOST}:{port}", "browser": browser, "mail": received}
            finally:
                browser.close()
                service.shutdown()
                app.extensions["pairing_store"].engine.dispose()


def import_csv(api: str, path: str, text: str, token: str) -> dict:
    request = urllib.request.Request(
        api + path,
        data=text.encode(),
        method="POST",
        headers={"Content-Type": "text/csv", "Authorization": f"Bearer {token}"},
    )
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def two_seasons(api: str) -> tuple[str, str]:
    """Season 1 played and closed; season 2 formed with returners signed up by id. The
    organisation's id and token."""
    made = call_api(api, "POST", "/v1/league/organisations", {"name": "Agricola", "code": "AGR"})
    org, token = made["id"], made["token"]
    base = f"/v1/league/organisations/{org}"
    call_api(api, "POST", base + "/seasons", token=token)
    people = [{"id": f"p{i}", "name": f"Player {i}", "email": f"p{i}@{MAIL}"} for i in range(7)]
    call_api(api, "POST", base + "/seasons/1/signups", {"players": people}, token=token)
    call_api(api, "POST", base + "/seasons/1/form", token=token)
    for game in call_api(api, "GET", base + "/seasons/1/leagues/1-A")["games"]:
        results = [
            {"player": p, "score": 100 - 10 * i, "position": i + 1}
            for i, p in enumerate(game["seats"])
        ]
        path = f"{base}/seasons/1/leagues/1-A/games/{game['game']}"
        call_api(api, "PUT", path, {"results": results}, token=token)
    call_api(api, "POST", base + "/seasons/1/close", token=token)
    call_api(api, "POST", base + "/seasons", token=token)
    returners = {"players": [{"id": f"p{i}"} for i in range(7)]}
    call_api(api, "POST", base + "/seasons/2/signups", returners, token=token)
    import_csv(api, base + "/seasons/2/signups/import", f"id,name,email\nn1,Nia,n1@{MAIL}\n", token)
    formed = call_api(api, "POST", base + "/seasons/2/form", token=token)
    assert formed["letters_sent"] == 8 and formed["letters_not_sent"] == []
    return org, token


def watch(page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


@pytest.mark.parametrize(("width", "height", "player"), [(1280, 900, "p3"), (360, 740, "p5")])
def test_a_player_reports_a_game_from_the_link_in_their_letter(league_site, width, height, player):
    api = league_site["api"]
    org, _ = two_seasons(api)
    text = letter_to(league_site["mail"], f"{player}@{MAIL}")
    assert "curl" not in text
    link = re.search(r"(http\S+/seasons/2/report\?league=(\S+)#token=\S+)", text)
    assert link is not None, text
    assert link.group(1).endswith(f"&player={player}")
    url, league = link.group(1), link.group(2)
    base = f"/v1/league/organisations/{org}/seasons/2"
    games = call_api(api, "GET", f"{base}/leagues/{league}")["games"]
    game = next(g for g in games if player in g["seats"])
    page = league_site["browser"].new_page(viewport={"width": width, "height": height})
    errors = watch(page)
    page.goto(url)
    form = page.locator("league-report")
    form.locator("select#game option").first.wait_for(state="attached", timeout=15_000)
    assert "token" not in page.url  # read, kept in the tab, and cleared from the address bar
    mine = [str(g["game"]) for g in games if player in g["seats"] and not g["results"]]
    first = form.locator("select#game option").first.get_attribute("value")
    assert first == mine[0]  # the player's own games to report come first
    form.locator("select#game").select_option(str(game["game"]))
    # The reporter wins; the others finish in seat order. Positions follow the scores.
    order = [player] + [p for p in game["seats"] if p != player]
    scores = {p: 150 - 20 * i for i, p in enumerate(order)}
    for i, seat in enumerate(game["seats"]):
        form.locator(f"input[name=score-{i}]").fill(str(scores[seat]))
    expect(form.locator("select[name=position-0]")).to_have_value(  # the service's answer
        str(order.index(game["seats"][0]) + 1), timeout=15_000
    )
    if width < 400:
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    form.get_by_role("button", name="Report this game").click()
    form.get_by_role("status").filter(has_text="is reported").wait_for(timeout=15_000)
    standings = page.locator("league-standings")
    standings.locator("table.standings").filter(has_text="Player").first.wait_for(timeout=15_000)
    row = standings.locator("table.standings tbody tr").first
    row.filter(has_text=f"Player {player[1]}").wait_for(timeout=15_000)
    page.screenshot(path=str(SHOTS / f"league-report-{width}.png"), full_page=True)
    reported = call_api(api, "GET", f"{base}/leagues/{league}")
    mine = next(g for g in reported["games"] if g["game"] == game["game"])
    assert mine["reported_by"] == player
    # The season's page shows the report: the table and the schedule.
    page.goto(f"{api}/events/league/{org}/seasons/2")
    section = page.locator(f"#league-{league}")
    assert f"1st Player {player[1]} 150" in section.inner_text()
    first_row = section.locator("table").first.locator("tbody tr").first
    assert f"Player {player[1]}" in first_row.inner_text()
    assert f"({player})" not in first_row.inner_text()  # names, not ids
    assert "10" in first_row.inner_text()
    if width < 400:
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(SHOTS / f"league-season-{width}.png"), full_page=True)
    # The organisation's page links each season.
    page.goto(f"{api}/events/league/{org}")
    page.get_by_role("link", name=re.compile("Season 1")).click()
    page.wait_for_url(re.compile(r"/seasons/1$"))
    assert "Closed" in page.inner_text("body")
    for shown in (f"/events/league/{org}/seasons/1", f"/events/league/{org}/seasons/2", url):
        page.goto(shown if shown.startswith("http") else api + shown)
        page.wait_for_load_state("networkidle")
        assert MAIL not in page.content()
    assert errors == []


def letter_link(mail, player: str) -> tuple[str, str, str]:
    """The report link of the letter ``player`` received: (url, league, token)."""
    text = letter_to(mail, f"{player}@{MAIL}")
    found = re.search(r"(http\S+/seasons/2/report\?league=(\S+)#token=([^&\s]+)&player=\S+)", text)
    assert found is not None, text
    return found.group(1), found.group(2), found.group(3)


def wait_for_token(form, token: str) -> None:
    """Until the form on the page holds ``token`` and has listed its league's games."""
    for _ in range(150):
        shown = form.locator("input#token")
        if shown.count() == 1 and shown.input_value() == token:
            break
        form.page.wait_for_timeout(100)
    assert form.locator("input#token").input_value() == token
    form.locator("select#game option").first.wait_for(state="attached", timeout=15_000)


@pytest.mark.parametrize(("width", "height"), [(1280, 900), (360, 740)])
def test_a_second_letters_link_in_the_same_tab_takes_its_own_token(league_site, width, height):
    api = league_site["api"]
    org, organiser = two_seasons(api)
    base = f"/v1/league/organisations/{org}/seasons/2"
    league = call_api(api, "GET", base)["leagues"][0]["league"]
    games = call_api(api, "GET", f"{base}/leagues/{league}")["games"]
    first, second = games[0]["seats"][0], games[0]["seats"][1]  # both in games[0]
    # One of the second player's games is reported already (by the organiser).
    done = next(g for g in games[1:] if second in g["seats"])
    results = [
        {"player": p, "score": 90 - 10 * i, "position": i + 1} for i, p in enumerate(done["seats"])
    ]
    path = f"{base}/leagues/{league}/games/{done['game']}"
    call_api(api, "PUT", path, {"results": results}, token=organiser)
    links = {p: letter_link(league_site["mail"], p) for p in (first, second)}
    assert links[first][1] == links[second][1] == league  # the same page: only the fragment
    page = league_site["browser"].new_page(viewport={"width": width, "height": height})
    errors = watch(page)
    form = page.locator("league-report")
    page.goto(links[first][0])
    wait_for_token(form, links[first][2])
    assert "token" not in page.url
    page.evaluate("window.sameDocument = true")
    page.goto(links[second][0])  # the second letter, in the same tab
    wait_for_token(form, links[second][2])
    assert page.evaluate("window.sameDocument === true")  # no reload: a hashchange
    assert "token" not in page.url and "#" not in page.url
    assert links[second][2] not in page.url
    # The second player's games: theirs to report first, then theirs reported, then the rest.
    games = call_api(api, "GET", f"{base}/leagues/{league}")["games"]
    theirs = [g for g in games if second in g["seats"]]
    expected = (
        [g for g in theirs if not g["results"]]
        + [g for g in theirs if g["results"]]
        + [g for g in games if second not in g["seats"]]
    )
    options = form.locator("select#game option")
    assert options.count() == len(games)
    listed = [options.nth(i).get_attribute("value") for i in range(options.count())]
    assert listed == [str(g["game"]) for g in expected]
    assert str(done["game"]) in listed[: len(theirs)] and listed[0] != str(done["game"])
    if width < 400:
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(SHOTS / f"league-second-letter-{width}.png"), full_page=True)
    # The form reports with the second player's token: the game is theirs.
    game = expected[0]
    form.locator("select#game").select_option(str(game["game"]))
    order = [second] + [p for p in game["seats"] if p != second]
    for i, seat in enumerate(game["seats"]):
        form.locator(f"input[name=score-{i}]").fill(str(150 - 20 * order.index(seat)))
    form.get_by_role("button", name="Report this game").click()
    form.get_by_role("status").filter(has_text="is reported").wait_for(timeout=15_000)
    reported = call_api(api, "GET", f"{base}/leagues/{league}")["games"]
    assert next(g for g in reported if g["game"] == game["game"])["reported_by"] == second
    page.reload()  # the newest token is still the tab's
    wait_for_token(form, links[second][2])
    assert errors == []
