"""The public event page and the sheet in Chromium, at 1280 px and at 360 px: "find your
table" folds accents and jumps to the match, a Scrabble round's boards fit a phone, the
sheet's QR code decodes to the public address (and the warning of a loopback one is not
printed), and an unknown event is a page saying so. The console stays clean."""

from __future__ import annotations

import io
import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from werkzeug.serving import make_server

from tests.support.servers import free_port
from tests.support.widget import (
    HOST,
    SHOTS,
    call_api,
    chromium,
    serve,
    watch_errors,
)

PUBLIC = "https://pairing.club.example"
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 360, "height": 740}}
# Enough players that a name is found screens down the page, on a phone and on a laptop.
FIELD = [f"Player {chr(65 + i // 26)}{chr(65 + i % 26)}" for i in range(60)]
ACCENTED = {17: "José Díaz", 44: "Zoé Lindqvist-Zimmermann"}


@pytest.fixture(scope="module")
def event_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Two services on loopback ports, one with its public address set and one without,
    and Chromium."""
    from pairing_service import create_app

    folder = tmp_path_factory.mktemp("event-pages")
    apps, servers, addresses = [], [], {}
    for name, settings in (("public", {"PUBLIC_URL": PUBLIC}), ("local", {})):
        port = free_port()
        database = f"sqlite:///{folder}/{name}.sqlite3"
        app = create_app({"TESTING": True, "DATABASE_URL": database, **settings})
        apps.append(app)
        servers.append(serve(make_server(HOST, port, app, threaded=True)))
        addresses[name] = f"http://{HOST}:{port}"
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        with chromium() as browser:
            yield {**addresses, "browser": browser}
    finally:
        for server in servers:
            server.shutdown()
        for app in apps:
            app.extensions["pairing_store"].engine.dispose()


@pytest.fixture(params=sorted(VIEWPORTS))
def viewport(request: pytest.FixtureRequest) -> tuple[str, dict[str, int]]:
    return request.param, VIEWPORTS[request.param]


def _page(site: dict[str, Any], viewport: tuple[str, dict[str, int]]) -> tuple[Any, list[str]]:
    page = site["browser"].new_context(viewport=viewport[1]).new_page()
    page.set_default_timeout(20_000)  # a loaded machine answers slowly; nothing waits on time
    return page, watch_errors(page)


def _strikes_night(api: str) -> dict[str, Any]:
    players = [{"id": f"p{i}", "name": ACCENTED.get(i, name)} for i, name in enumerate(FIELD)]
    made = call_api(
        api, "POST", "/v1/strikes/tournaments", {"name": "Club night", **{"players": players}}
    )
    call_api(api, "POST", f"/v1/strikes/tournaments/{made['id']}/rounds", token=made["token"])
    return made


def _no_page_wide_scroll(page: Any) -> None:
    """Nothing is wider than the window but tables in their own scrolling box."""
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    wider = page.evaluate(
        """(width) => [...document.querySelectorAll('main *')]
            .filter((e) => !e.closest('.scroll'))
            .filter((e) => e.getBoundingClientRect().right > width + 0.5)
            .map((e) => e.tagName + '.' + e.className)""",
        width,
    )
    assert wider == []


def _in_view(page: Any, selector: str) -> bool:
    return bool(
        page.evaluate(
            """(selector) => {
                const box = document.querySelector(selector).getBoundingClientRect();
                return box.top >= -1 && box.bottom <= window.innerHeight + 1;  // subpixels
            }""",
            selector,
        )
    )


@pytest.mark.parametrize("typed", ["jose", "ZOE", "díaz"])
def test_find_your_table_folds_accents_and_jumps_to_the_match(event_site, viewport, typed):
    made = _strikes_night(event_site["public"])
    page, errors = _page(event_site, viewport)
    page.goto(f"{event_site['public']}/events/strikes/{made['id']}")
    assert page.evaluate("window.scrollY") == 0
    page.fill("#name", typed)
    page.click("form.find button")
    page.wait_for_url("**#found")
    wanted = "Zoé" if typed == "ZOE" else "José Díaz"
    found = page.locator("tr.found")
    assert found.count() == 2  # the seat in the round and the line of the standings
    assert all(wanted in text for text in found.all_inner_texts())
    # The first match is the anchor, brought into view screens down the page.
    assert page.get_attribute("#found", "class") == "found"
    assert wanted in page.inner_text("#found")
    assert _in_view(page, "#found") and page.evaluate("window.scrollY") > 0
    assert page.input_value("#name") == typed
    _no_page_wide_scroll(page)
    page.screenshot(path=str(SHOTS / f"event-find-{typed}-{viewport[0]}.png"))
    assert errors == []


def test_a_scrabble_round_by_board_fits_a_phone(event_site, viewport):
    api = event_site["public"]
    names = [
        "Zoé Lindqvist-Zimmermann",
        "Ann Ashworth",
        "Maximilian Moss",
        "Bob Birchwood",
        "Dan Dale",
        "José Díaz",
        "Eve Eng",
    ]
    players = [{"id": f"s{i}", "name": n, "rating": 1900 - 20 * i} for i, n in enumerate(names)]
    made = call_api(
        api, "POST", "/v1/scrabble/events", {"name": "Club open", "players": players, "rounds": 3}
    )
    base = f"/v1/scrabble/events/{made['id']}"
    paired = call_api(api, "POST", f"{base}/rounds", token=made["token"])
    page, errors = _page(event_site, viewport)
    board = "section table >> nth=0"
    for entered in (0, 1):
        if entered:  # one game's scores in, the others still open
            game = paired["games"][0]["game"]
            _put(api, f"{base}/rounds/1/games/{game}", {"scores": [420, 380]}, made["token"])
        page.goto(f"{api}/events/scrabble/{made['id']}")
        header = page.locator(board).locator("th").all_inner_texts()
        assert "repeat" not in header and "forfeit" not in header
        assert ("score b" in header) == bool(entered)  # empty until a score is in
        width = page.locator(board).bounding_box()["width"]
        room = page.locator(board).evaluate("(table) => table.parentElement.clientWidth")
        # Every column in view: nothing to scroll sideways, even inside its box.
        assert width <= room <= viewport[1]["width"], header
        _no_page_wide_scroll(page)
    page.screenshot(path=str(SHOTS / f"event-scrabble-{viewport[0]}.png"), full_page=True)
    assert errors == []


def _put(api: str, path: str, body: dict[str, Any], token: str) -> None:
    request = urllib.request.Request(
        api + path,
        data=json.dumps(body).encode(),
        method="PUT",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
    )
    with urllib.request.urlopen(request) as response:
        assert response.status == 200


def _decode_qr(png: bytes) -> str:
    import zxingcpp
    from PIL import Image

    (found,) = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    return str(found.text)


def test_the_sheets_qr_code_decodes_to_the_public_address(event_site, viewport):
    made = _strikes_night(event_site["public"])
    page, errors = _page(event_site, viewport)
    page.goto(f"{event_site['public']}/events/strikes/{made['id']}/sheet")
    address = f"{PUBLIC}/events/strikes/{made['id']}"
    assert _decode_qr(page.locator(".qr img").screenshot()) == address
    assert page.locator(".qr a").inner_text() == address
    assert page.locator(".warning").count() == 0  # the public address is set
    _no_page_wide_scroll(page)
    assert errors == []


def test_a_loopback_sheet_warns_on_screen_and_prints_without_the_warning(event_site, viewport):
    made = _strikes_night(event_site["local"])
    page, errors = _page(event_site, viewport)
    page.goto(f"{event_site['local']}/events/strikes/{made['id']}/sheet")
    address = f"{event_site['local']}/events/strikes/{made['id']}"
    assert _decode_qr(page.locator(".qr img").screenshot()) == address
    warning = page.locator(".warning")
    assert warning.is_visible() and "PAIRING_PUBLIC_URL" in warning.inner_text()
    _no_page_wide_scroll(page)
    page.emulate_media(media="print")
    assert warning.is_hidden() and page.locator(".qr img").is_visible()
    assert errors == []


def test_an_unknown_event_is_a_not_found_page(event_site, viewport):
    page, errors = _page(event_site, viewport)
    missing = f"{event_site['public']}/events/strikes/0123456789abcdef0123456789abcdef"
    answer = page.goto(missing)
    assert answer.status == 404 and answer.headers["content-type"].startswith("text/html")
    assert page.inner_text("h1") == "This page is not here"
    assert page.locator("a[href='/']").is_visible()
    _no_page_wide_scroll(page)
    # Chromium reports the page's own 404 status in the console; nothing else may be there.
    assert [e for e in errors if "status of 404" not in e] == []
    assert len(errors) <= 1
