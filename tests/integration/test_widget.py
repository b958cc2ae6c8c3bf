"""The embeddable widget: served, CORS, and driven in a real browser (Debian's chromium).

Browser tests run a service on one loopback port and host pages on others, so the widget
really is cross-origin. Screenshots go to test-output/widget/.
"""

from __future__ import annotations

import http.server
import json
import os
import shutil
import socket
import threading
import urllib.request
from pathlib import Path
from typing import ClassVar

import pytest
from werkzeug.serving import make_server

from tests.support import ROOT, assert_problem

SHOTS = ROOT / "test-output" / "widget"
CHROMIUM = "/usr/bin/chromium"
HOST = "127.0.0.1"
CSV = (
    "id,wins,spread,name\nA,10,300,Ann\nB,10,200,Bob\nC,9,100,Cat\n"
    "D,8,0,Dan\nE,6,0,Eve\nF,5,0,Fay\n"
)


# --- without a browser ------------------------------------------------------------------


@pytest.fixture()
def cors_client(tmp_path):
    app = _with_origins(tmp_path, ["http://allowed.example"])
    yield app.test_client()
    app.extensions["pairing_store"].engine.dispose()


def _with_origins(tmp_path, origins):
    from pairing_service import create_app

    return create_app(
        {
            "TESTING": True,
            "DATABASE_URL": f"sqlite:///{tmp_path}/w.sqlite3",
            "CORS_ORIGINS": origins,
        }
    )


def test_the_script_and_the_demo_are_served(client):
    script = client.get("/widget/v1/pairing-advisor.js")
    assert script.status_code == 200 and script.mimetype == "text/javascript"
    text = script.get_data(as_text=True)
    assert 'customElements.define("pairing-advisor"' in text
    assert 'customElements.define("strikes-standings"' in text
    assert 'attachShadow({ mode: "open" })' in text
    demo = client.get("/widget/demo")
    assert demo.status_code == 200 and demo.mimetype == "text/html"
    assert "<pairing-advisor" in demo.get_data(as_text=True)
    assert "script-src 'self'" in demo.headers["Content-Security-Policy"]
    assert demo.headers["X-Content-Type-Options"] == "nosniff"


def test_allowed_origins_get_cors_headers_without_credentials(cors_client):
    headers = {"Origin": "http://allowed.example"}
    answer = cors_client.get("/widget/v1/pairing-advisor.js", headers=headers)
    assert answer.headers["Access-Control-Allow-Origin"] == "http://allowed.example"
    assert "Access-Control-Allow-Credentials" not in answer.headers
    preflight = cors_client.options(
        "/v1/scrabble/final-round",
        headers={
            **headers,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert preflight.status_code == 200
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    assert "Content-Type" in preflight.headers["Access-Control-Allow-Headers"]
    api = cors_client.post(
        "/v1/scrabble/final-round", data=CSV, content_type="text/csv", headers=headers
    )
    assert (
        api.status_code == 200
        and api.headers["Access-Control-Allow-Origin"] == "http://allowed.example"
    )


def test_other_origins_are_refused_and_same_origin_is_fine(cors_client, client):
    refused = cors_client.post(
        "/v1/scrabble/final-round",
        data=CSV,
        content_type="text/csv",
        headers={"Origin": "http://evil.example"},
    )
    assert_problem(refused, 403)
    assert "Access-Control-Allow-Origin" not in refused.headers
    script = client.get("/widget/v1/pairing-advisor.js", headers={"Origin": "http://other.example"})
    assert script.status_code == 403  # no origins are allowed by default
    same = client.post(
        "/v1/scrabble/final-round",
        data=CSV,
        content_type="text/csv",
        headers={"Origin": "http://localhost"},
    )
    assert same.status_code == 200


# --- in a real browser -------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def _browser_or_skip():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:  # pragma: no cover - declared in the test extras
        reason = f"playwright is not installed: {exc}"
    else:
        if Path(CHROMIUM).exists():
            return sync_playwright
        reason = f"{CHROMIUM} is missing (apt-get install chromium)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(reason + " (CI=true: the browser tests must run)")
    pytest.skip(reason)


class _Pages(http.server.BaseHTTPRequestHandler):
    pages: ClassVar[dict[str, str]] = {}

    def do_GET(self) -> None:
        body = self.pages.get(self.path.split("?")[0], "not found").encode()
        self.send_response(200 if self.path.split("?")[0] in self.pages else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def _serve(server):
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server


@pytest.fixture()
def sites(tmp_path):
    """The service on one port; an allowed host site and a refused one on two others."""
    sync_playwright = _browser_or_skip()
    host_port, evil_port, api_port = _free_port(), _free_port(), _free_port()
    host = f"http://{HOST}:{host_port}"
    evil = f"http://{HOST}:{evil_port}"
    api = f"http://{HOST}:{api_port}"
    app = _with_origins(tmp_path, [host])
    service = _serve(make_server(HOST, api_port, app, threaded=True))
    handler = type("Pages", (_Pages,), {"pages": {}})
    host_server = _serve(http.server.ThreadingHTTPServer((HOST, host_port), handler))
    evil_server = _serve(http.server.ThreadingHTTPServer((HOST, evil_port), handler))
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            yield {
                "api": api,
                "host": host,
                "evil": evil,
                "pages": handler.pages,
                "browser": browser,
            }
        finally:
            browser.close()
            for server in (service, host_server, evil_server):
                server.shutdown()
            app.extensions["pairing_store"].engine.dispose()


def _page(api: str, body: str) -> str:
    return (
        "<!doctype html><html><head><meta name='viewport' content='width=device-width'>"
        "<link rel='icon' href='data:,'>"  # the host site has no favicon: no 404 in the console
        f"<script type='module' src='{api}/widget/v1/pairing-advisor.js'></script>"
        "<style>body{margin:8px;font-family:sans-serif}"
        " pairing-advisor{--pa-accent:#b03a2e}</style>"
        f"</head><body><h1>Club site</h1>{body}</body></html>"
    )


def test_a_host_site_pairs_a_final_round_through_the_widget(sites):
    sites["pages"]["/advisor.html"] = _page(
        sites["api"], f"<pairing-advisor api='{sites['api']}'></pairing-advisor>"
    )
    page = sites["browser"].new_page(viewport={"width": 360, "height": 1400})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(sites["host"] + "/advisor.html")
    widget = page.locator("pairing-advisor")
    widget.locator("textarea").fill(CSV)
    widget.locator("#victors").fill("2")
    widget.get_by_role("button", name="Pair the final round").click()
    table = widget.locator("table.pairings tbody tr")
    table.first.wait_for(timeout=15_000)
    assert table.count() == 3
    assert "#1 Ann (A)" in table.nth(0).inner_text()  # names, as in principles and needs
    principles = widget.locator("ul.principles li")
    assert principles.count() == 4
    assert "GP1" in principles.nth(0).inner_text()
    assert widget.locator("ul.needs li").count() >= 3
    assert widget.locator("h3").first.inner_text() == "Configuration 0/0/1/2"
    # Keyboard: the form's controls are reachable with Tab.
    widget.locator("#format").focus()
    page.keyboard.press("Tab")
    focused = page.evaluate("document.querySelector('pairing-advisor').shadowRoot.activeElement.id")
    assert focused == "standings"
    # Fits a 360 px phone without sideways scrolling of the page.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(SHOTS / "advisor.png"), full_page=True)
    # An API error is shown as the problem's title and detail.
    widget.locator("textarea").fill("id,wins,spread\nA,ten,0\n")
    widget.get_by_role("button", name="Pair the final round").click()
    alert = widget.get_by_role("alert")
    alert.wait_for(timeout=15_000)
    assert "Unprocessable Entity" in alert.inner_text() and "/players/0/wins" in alert.inner_text()
    page.screenshot(path=str(SHOTS / "advisor-error.png"), full_page=True)
    assert errors == []


def _create_tournament(api: str) -> tuple[str, str]:
    body = json.dumps(
        {
            "name": "Club night",
            "players": [{"id": p} for p in ["ann", "bob", "cat", "dan", "eve", "fay", "gus"]],
            "seed": 4,
        }
    ).encode()
    request = urllib.request.Request(
        api + "/v1/strikes/tournaments",
        data=body,
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as response:
        created = json.loads(response.read())
    auth = {"Authorization": f"Bearer {created['token']}"}
    start = urllib.request.Request(
        api + f"/v1/strikes/tournaments/{created['id']}/rounds", method="POST", headers=auth
    )
    with urllib.request.urlopen(start) as response:
        round_ = json.loads(response.read())
    table = round_["tables"][0]
    result = json.dumps(
        {"results": [{"player": p, "score": 100 - 10 * i} for i, p in enumerate(table["players"])]}
    ).encode()
    put = urllib.request.Request(
        api + f"/v1/strikes/tournaments/{created['id']}/rounds/1/tables/1",
        data=result,
        method="PUT",
        headers={**auth, "Content-Type": "application/json"},
    )
    urllib.request.urlopen(put).close()
    return created["id"], table["players"][0]


def test_a_strikes_tournament_shows_its_seating_and_standings(sites):
    tournament, leader = _create_tournament(sites["api"])
    sites["pages"]["/standings.html"] = _page(
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


def test_the_advisor_widget_shows_the_alternative_and_can_prefer_it(sites):
    sites["pages"]["/alt.html"] = _page(
        sites["api"], f"<pairing-advisor api='{sites['api']}'></pairing-advisor>"
    )
    page = sites["browser"].new_page(viewport={"width": 360, "height": 1800})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(sites["host"] + "/alt.html")
    widget = page.locator("pairing-advisor")
    widget.locator("textarea").fill(
        "id,wins,spread,name\nA,8,300,Ann\nB,8,200,Bob\nC,7,100,Cat\nD,7,0,Dan\n"
        "E,5,0,Eve\nF,4,0,Fay\n"
    )
    widget.get_by_role("button", name="Pair the final round").click()
    widget.locator("table.alternative tbody tr").first.wait_for(timeout=15_000)
    assert "#1 Ann (A)" in widget.locator("table.pairings tbody tr").nth(0).inner_text()
    assert "#3 Cat (C)" in widget.locator("table.pairings tbody tr").nth(0).inner_text()
    assert widget.get_by_text("An alternative that ranks above on the principles").is_visible()
    assert "1-2, 3-4 guarantees a victor" in widget.locator("p.tradeoff").inner_text()
    widget.locator("#prefer").select_option("principles")
    widget.get_by_role("button", name="Pair the final round").click()
    widget.get_by_text("The seed's table would pair").wait_for(timeout=15_000)
    assert "#2 Bob (B)" in widget.locator("table.pairings tbody tr").nth(0).inner_text()
    assert "#3 Cat (C)" in widget.locator("table.alternative tbody tr").nth(0).inner_text()
    page.screenshot(path=str(SHOTS / "advisor-alternative.png"), full_page=True)
    assert errors == []


def _api(api: str, method: str, path: str, body=None, token: str | None = None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(api + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def _watch(page) -> list[str]:
    """Page errors and console errors, collected as they happen."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


def test_a_diagonal_event_shows_its_round_and_standings(sites):
    api = sites["api"]
    players = [{"id": f"r{i}", "name": f"Racer {i}", "rating": 1800 - 20 * i} for i in range(6)]
    created = _api(api, "POST", "/v1/diagonal/events", {"name": "Spring Race", "players": players})
    base, token = f"/v1/diagonal/events/{created['id']}", created["token"]
    games = _api(api, "POST", base + "/rounds", token=token)["games"]
    first = games[0]
    _api(
        api,
        "PUT",
        f"{base}/rounds/1/games/1",
        {"winner": first["players"][0], "pieces_left": 3},
        token,
    )
    sites["pages"]["/race.html"] = _page(
        api, f"<diagonal-standings api='{api}' event='{created['id']}'></diagonal-standings>"
    )
    page = sites["browser"].new_page(viewport={"width": 360, "height": 1200})
    errors = _watch(page)
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
    _api(
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
    created = _api(
        api,
        "POST",
        "/v1/puffing-billy/events",
        {"name": "Billy Cup", "players": [{"id": p} for p in ids]},
    )
    base, token = f"/v1/puffing-billy/events/{created['id']}", created["token"]
    scores = [252_000, 248_000, 121_000, 98_000, 60_000]
    sheet = {"players": [{"id": p, "score": s} for p, s in zip(ids, scores, strict=True)]}
    _api(api, "PUT", base + "/boards/1", {**sheet, "name": "Heat 1"}, token)
    sites["pages"]["/billy.html"] = _page(
        api,
        f"<puffing-billy-standings api='{api}' event='{created['id']}'></puffing-billy-standings>",
    )
    page = sites["browser"].new_page(viewport={"width": 360, "height": 1200})
    errors = _watch(page)
    page.goto(sites["host"] + "/billy.html")
    widget = page.locator("puffing-billy-standings")
    rows = widget.locator("table.standings tbody tr")
    rows.first.wait_for(timeout=15_000)
    assert rows.count() == 5
    assert rows.nth(0).inner_text().split("\t")[:3] == ["1", "Jenny", "3.028"]
    assert rows.nth(1).inner_text().split("\t")[:3] == ["2", "Damien", "2.492"]
    assert "Heat 1" in widget.locator("table.boards").inner_text()
    # The final: the preliminaries close with two qualifiers, Damien wins the final board.
    _api(api, "POST", base + "/preliminaries/close", {"finalists": 2}, token)
    final = {"players": [{"id": "Damien", "score": 900}, {"id": "Jenny", "score": 100}]}
    _api(api, "PUT", base + "/boards/2", final, token)
    _api(api, "POST", base + "/final/close", token=token)
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
    org = _api(api, "POST", "/v1/league/organisations", {"name": "Agricola League", "code": "AGR"})
    base, token = f"/v1/league/organisations/{org['id']}", org["token"]
    _api(api, "POST", base + "/seasons", token=token)
    signups = {"players": [{"id": f"p{i}", "name": f"Player {i}"} for i in range(7)]}
    _api(api, "POST", base + "/seasons/1/signups", signups, token)
    formed = _api(api, "POST", base + "/seasons/1/form", token=token)
    tokens = {t["player"]: t["token"] for t in formed["reporting_tokens"]}
    seats = _api(api, "GET", base + "/seasons/1/leagues/1-A")["games"][0]["seats"]
    reporter = seats[0]
    sites["pages"]["/league.html"] = _page(
        api,
        f"<league-standings api='{api}' organisation='{org['id']}' league='1-A'></league-standings>"
        f"<league-report api='{api}' organisation='{org['id']}' season='1'></league-report>",
    )
    page = sites["browser"].new_page(viewport={"width": 360, "height": 1400})
    errors = _watch(page)
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
    assert rows.nth(0).inner_text().split("\t")[1:3] == [reporter, "10"]
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
    org = _api(api, "POST", "/v1/league/organisations", {"code": "TM"})
    base, token = f"/v1/league/organisations/{org['id']}", org["token"]
    _api(api, "POST", base + "/seasons", token=token)
    signups = {"players": [{"id": f"p{i:02d}"} for i in range(14)]}
    _api(api, "POST", base + "/seasons/1/signups", signups, token)
    _api(api, "POST", base + "/seasons/1/form", token=token)
    for league in ("1-A", "2-A"):
        for game in _api(api, "GET", f"{base}/seasons/1/leagues/{league}")["games"]:
            results = [
                {"player": p, "score": 100 - 10 * i, "position": i + 1}
                for i, p in enumerate(game["seats"])
            ]
            path = f"{base}/seasons/1/leagues/{league}/games/{game['game']}"
            _api(api, "PUT", path, {"results": results}, token)
    closed = _api(api, "POST", base + "/seasons/1/close", token=token)
    sites["pages"]["/lifetime.html"] = _page(
        api,
        f"<league-standings api='{api}' organisation='{org['id']}' division='2'></league-standings>"
        f"<league-standings api='{api}' organisation='{org['id']}' view='lifetime'>"
        "</league-standings>",
    )
    page = sites["browser"].new_page(viewport={"width": 360, "height": 1600})
    errors = _watch(page)
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


def test_a_disallowed_origin_is_refused(sites):
    sites["pages"]["/evil.html"] = _page(
        sites["api"], f"<pairing-advisor api='{sites['api']}'></pairing-advisor>"
    )
    page = sites["browser"].new_page()
    page.goto(sites["evil"] + "/evil.html")
    page.wait_for_timeout(1000)
    # The module script itself is refused: the element is never defined.
    assert page.evaluate("customElements.get('pairing-advisor') === undefined")
    outcome = page.evaluate(
        """async (api) => {
            try { await fetch(api + '/v1/strikes/tables', {method: 'POST',
                  headers: {'Content-Type': 'application/json'}, body: '{"players": 9}'});
                  return 'allowed'; }
            catch (error) { return 'refused'; }
        }""",
        sites["api"],
    )
    assert outcome == "refused"
    page.screenshot(path=str(SHOTS / "refused.png"), full_page=True)


def test_the_demo_page_embeds_every_widget(sites):
    page = sites["browser"].new_page(viewport={"width": 800, "height": 1200})
    errors = _watch(page)
    tournament, _ = _create_tournament(sites["api"])
    page.goto(f"{sites['api']}/widget/demo?tournament={tournament}")
    page.locator("pairing-advisor").get_by_role("button", name="Pair the final round").click()
    page.locator("pairing-advisor table.pairings tbody tr").first.wait_for(timeout=15_000)
    page.locator("strikes-standings table.standings tbody tr").first.wait_for(timeout=15_000)
    # The form switches to a Diagonal Race event.
    race = _api(
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
        1 for methods in spec["paths"].values() for m in methods if m in ("get", "post", "put")
    )
    page = sites["browser"].new_page(viewport={"width": 1280, "height": 2000})
    errors = _watch(page)
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
