"""The service's own pages in a real browser (Debian's chromium): the widget's demo page with
every widget, and the API reference (/docs) under the service's CSP.

Browser tests run a service on one loopback port and host pages on others, so the widget
really is cross-origin (the ``sites`` fixture, tests/integration/conftest.py). Screenshots
go to test-output/widget/.
"""

from __future__ import annotations

import json
import os
import shutil
import urllib.request
from pathlib import Path

import pytest

from tests.support.widget import CHROMIUM, SHOTS, call_api, strikes_tournament, watch_errors


def test_the_demo_page_embeds_every_widget(sites):
    page = sites["browser"].new_page(viewport={"width": 800, "height": 1200})
    errors = watch_errors(page)
    tournament, _ = strikes_tournament(sites["api"])
    page.goto(f"{sites['api']}/widget/demo?tournament={tournament}")
    page.locator("pairing-advisor").get_by_role("button", name="Pair the final round").click()
    page.locator("pairing-advisor table.pairings tbody tr").first.wait_for(timeout=15_000)
    page.locator("strikes-standings table.standings tbody tr").first.wait_for(timeout=15_000)
    # The form switches to a Diagonal Race event.
    race = call_api(
        sites["api"],
        "POST",
        "/v1/diagonal/events",
        {"players": [{"id": "a"}, {"id": "b"}, {"id": "c"}]},
    )
    page.select_option("#format", "diagonal-standings")
    page.fill("#tournament", race["id"])
    page.get_by_role("button", name="Show standings").click()
    page.locator("diagonal-standings table.standings tbody tr").first.wait_for(timeout=15_000)
    assert page.locator("strikes-standings").is_hidden()
    assert page.locator("diagonal-standings table.standings tbody tr").count() == 3
    # And to a Scrabble event: its round by board and by name, and its standings.
    players = [{"id": f"S{i}", "name": n, "rating": 1800 - i} for i, n in enumerate("BCA")]
    scrabble = call_api(
        sites["api"], "POST", "/v1/scrabble/events", {"players": players, "rounds": 2}
    )
    call_api(
        sites["api"],
        "POST",
        f"/v1/scrabble/events/{scrabble['id']}/rounds",
        token=scrabble["token"],
    )
    page.select_option("#format", "scrabble-standings")
    page.fill("#tournament", scrabble["id"])
    page.get_by_role("button", name="Show standings").click()
    words = page.locator("scrabble-standings table.by-name tbody tr")
    words.first.wait_for(timeout=15_000)
    assert [row.split("\t") for row in words.all_inner_texts()] == [
        ["A", "—", "bye"],
        ["B", "1", "C"],
        ["C", "1", "B"],
    ]
    assert page.locator("scrabble-standings table.standings tbody tr").count() == 3
    assert page.locator("diagonal-standings").is_hidden()
    # And to a league organisation: its standings and the players' report form.
    org = call_api(sites["api"], "POST", "/v1/league/organisations", {"code": "AGR"})
    auth = org["token"]
    base = f"/v1/league/organisations/{org['id']}"
    call_api(sites["api"], "POST", f"{base}/seasons", token=auth)
    signups = {"players": [{"id": f"L{i}", "name": f"Player {i}"} for i in range(7)]}
    call_api(sites["api"], "POST", f"{base}/seasons/1/signups", signups, auth)
    call_api(sites["api"], "POST", f"{base}/seasons/1/form", token=auth)
    page.select_option("#format", "league-standings")
    page.fill("#tournament", org["id"])
    page.fill("#refresh", "60")
    page.get_by_role("button", name="Show standings").click()
    league = page.locator("league-standings")
    league.locator("table tbody tr").first.wait_for(timeout=15_000)
    assert league.get_attribute("refresh") == "60" and league.get_attribute("organisation")
    assert page.locator("scrabble-standings").is_hidden()
    assert page.locator("#report league-report").is_visible()
    page.screenshot(path=str(SHOTS / "demo.png"), full_page=True)
    assert errors == []


def test_chromium_is_where_the_tests_expect():
    if shutil.which("chromium") is None and os.environ.get("CI", "").lower() != "true":
        pytest.skip("chromium is not installed here")
    assert Path(CHROMIUM).exists()


def test_the_api_reference_page_works_in_a_browser(sites):
    """/docs under the service's own CSP: Swagger UI lists every operation, and "Try it
    out" on the final-round endpoint answers 200; the console stays clean."""
    api = sites["api"]
    spec = json.loads(urllib.request.urlopen(api + "/openapi.json").read())
    operations = sum(
        1
        for methods in spec["paths"].values()
        for m in methods
        if m in ("get", "post", "put", "delete")
    )
    page = sites["browser"].new_page(viewport={"width": 1280, "height": 2000})
    errors = watch_errors(page)
    page.goto(api + "/docs")
    page.locator(".opblock").first.wait_for(timeout=20_000)
    assert page.locator(".opblock").count() == operations
    block = page.locator(".opblock-post").filter(has_text="/v1/scrabble/final-round").first
    block.locator(".opblock-summary").click()
    block.get_by_role("button", name="Try it out").click()
    block.get_by_role("button", name="Execute").click()
    status = block.locator(".live-responses-table tbody .response-col_status").first
    status.wait_for(timeout=20_000)
    assert status.inner_text().strip() == "200"
    assert "pairings" in block.locator(".live-responses-table .microlight").first.inner_text()
    page.screenshot(path=str(SHOTS / "docs.png"))
    assert errors == []


@pytest.mark.parametrize(("width", "height"), [(1280, 900), (360, 740)])
def test_the_front_door_and_a_problem_page_in_a_browser(sites, width, height):
    """``/`` and a problem page render without a script error at desktop and phone width,
    fit the screen, and their links lead on: the front door to /docs and /problems/,
    the problem index to each problem's page."""
    api = sites["api"]
    page = sites["browser"].new_page(viewport={"width": width, "height": height})
    errors = watch_errors(page)
    page.goto(api + "/")
    assert page.get_by_role("heading", name="Pairing Advisor").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(SHOTS / f"front-door-{width}.png"), full_page=True)
    page.get_by_role("link", name="Problems").click()
    page.wait_for_url(api + "/problems/")
    page.get_by_role("link", name="422 Invalid field").click()
    page.wait_for_url(api + "/problems/validation")
    assert page.get_by_text("How to fix it").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(SHOTS / f"problem-{width}.png"), full_page=True)
    page.goto(api + "/docs/")
    page.wait_for_url(api + "/docs")
    page.locator(".opblock").first.wait_for(timeout=20_000)
    assert errors == []


@pytest.mark.parametrize(("width", "height"), [(1280, 900), (360, 740)])
def test_a_player_finds_their_table_on_the_event_page(sites, width, height):
    """A strikes night's public page on a phone and a desktop: the player types their
    name, their seat is highlighted in the round's tables, the page fits the screen (wide
    tables scroll in their box), the sheet shows the QR code, the round's result slips
    print alone, and the console is clean."""
    api = sites["api"]
    tournament, player = strikes_tournament(api)
    page = sites["browser"].new_page(viewport={"width": width, "height": height})
    errors = watch_errors(page)
    page.goto(f"{api}/events/strikes/{tournament}")
    assert page.get_by_role("heading", name="Club night").is_visible()
    page.get_by_label("Find your table").fill(player)
    page.get_by_role("button", name="Find").click()
    page.wait_for_url(f"**/events/strikes/{tournament}?name={player}#found")  # jumps to it
    found = page.locator("section").first.locator("tr.found")
    assert found.count() == 1 and player in found.inner_text()
    assert found.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(SHOTS / f"event-page-{width}.png"), full_page=True)
    page.get_by_role("link", name="Printable sheet with this page's QR code").click()
    page.wait_for_url(f"**/events/strikes/{tournament}/sheet")
    qr = page.get_by_role("img", name="QR code of this event's page")
    assert qr.is_visible() and qr.evaluate("image => image.naturalWidth") > 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.emulate_media(media="print")
    page.screenshot(path=str(SHOTS / f"event-sheet-{width}.png"), full_page=True)
    page.emulate_media(media="screen")
    page.goto(f"{api}/events/strikes/{tournament}")
    page.get_by_role("link", name="Result slips for round 1").click()
    page.wait_for_url(f"**/events/strikes/{tournament}/slips?round=1")
    assert page.locator("section.slip").count() >= 1
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.emulate_media(media="print")
    assert page.locator("h1").is_hidden()  # the slips alone on paper
    page.screenshot(path=str(SHOTS / f"event-slips-{width}.png"), full_page=True)
    assert errors == []


@pytest.mark.parametrize(("width", "height"), [(1280, 900), (375, 740)])
def test_a_scrabble_event_page_lists_the_round_by_board_and_by_name(sites, width, height):
    """A Scrabble event's public page: the round by board and by name (alphabetical), and
    the standings, fitting a phone (wide tables scroll in their box); "find your table"
    marks the player in both lists."""
    api = sites["api"]
    names = ["Zoe Zed", "Ann Ash", "Max Moss", "Bob Birch", "Dan Dale"]
    players = [{"id": f"S{i}", "name": n, "rating": 1900 - 20 * i} for i, n in enumerate(names)]
    made = call_api(
        api, "POST", "/v1/scrabble/events", {"name": "Club open", "players": players, "rounds": 3}
    )
    base = f"/v1/scrabble/events/{made['id']}"
    call_api(api, "POST", base + "/rounds", token=made["token"])
    call_api(api, "PUT", base + "/rounds/1/games/1", {"scores": [420, 380]}, made["token"])
    page = sites["browser"].new_page(viewport={"width": width, "height": height})
    errors = watch_errors(page)
    page.goto(f"{api}/events/scrabble/{made['id']}")
    assert page.get_by_role("heading", name="By board").is_visible()
    by_name = page.locator("h3:has-text('By name') + .scroll tbody tr")
    assert [row.split("\t")[:2] for row in by_name.all_inner_texts()] == [
        ["Ann Ash", "2"],
        ["Bob Birch", "2"],
        ["Dan Dale", "bye"],
        ["Max Moss", "1"],
        ["Zoe Zed", "1"],
    ]
    assert page.get_by_role("heading", name="Standings").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.get_by_label("Find your table").fill("Max")
    page.get_by_role("button", name="Find").click()
    page.wait_for_url("**?name=Max#found")
    found = page.locator("section").first.locator("tr.found")
    assert found.count() == 2 and found.nth(1).inner_text().startswith("Max Moss\t1")
    page.screenshot(path=str(SHOTS / f"event-page-scrabble-{width}.png"), full_page=True)
    assert errors == []
