"""What the widget's tests share: an app that allows cross-origin hosts, pages on a host
site that embed the widget, Debian's chromium (or a skip), and calls to the API."""

from __future__ import annotations

import contextlib
import http.server
import json
import os
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from werkzeug.serving import make_server

from tests.support import ROOT
from tests.support.servers import free_port

SHOTS = ROOT / "test-output" / "widget"
CHROMIUM = "/usr/bin/chromium"
HOST = "127.0.0.1"
CSV = (
    "id,wins,spread,name\nA,10,300,Ann\nB,10,200,Bob\nC,9,100,Cat\n"
    "D,8,0,Dan\nE,6,0,Eve\nF,5,0,Fay\n"
)


def app_with_origins(tmp_path, origins):
    from pairing_service import create_app

    return create_app(
        {
            "TESTING": True,
            "DATABASE_URL": f"sqlite:///{tmp_path}/w.sqlite3",
            "CORS_ORIGINS": origins,
        }
    )


def browser_or_skip():
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


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (skipped where it is missing;
    never in CI)."""
    sync_playwright = browser_or_skip()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def public_site(folder: Path) -> Iterator[dict[str, Any]]:
    """The service on a loopback port, its public address set to that port (so its links
    and QR codes open there), with Chromium: ``{"api": its address, "browser": ...}``."""
    from pairing_service import create_app

    port = free_port()
    api = f"http://{HOST}:{port}"
    app = create_app(
        {"TESTING": True, "DATABASE_URL": f"sqlite:///{folder}/site.sqlite3", "PUBLIC_URL": api}
    )
    service = serve(make_server(HOST, port, app, threaded=True))
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        with chromium() as browser:
            yield {"api": api, "browser": browser}
    finally:
        service.shutdown()
        app.extensions["pairing_store"].engine.dispose()


class Pages(http.server.BaseHTTPRequestHandler):
    pages: ClassVar[dict[str, str]] = {}

    def do_GET(self) -> None:
        body = self.pages.get(self.path.split("?")[0], "not found").encode()
        self.send_response(200 if self.path.split("?")[0] in self.pages else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def serve(server):
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server


def host_page(api: str, body: str) -> str:
    return (
        "<!doctype html><html><head><meta name='viewport' content='width=device-width'>"
        "<link rel='icon' href='data:,'>"  # the host site has no favicon: no 404 in the console
        f"<script type='module' src='{api}/widget/v1/pairing-advisor.js'></script>"
        "<style>body{margin:8px;font-family:sans-serif}"
        " pairing-advisor{--pa-accent:#b03a2e}</style>"
        f"</head><body><h1>Club site</h1>{body}</body></html>"
    )


def call_api(api: str, method: str, path: str, body=None, token: str | None = None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(api + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def watch_errors(page) -> list[str]:
    """Page errors and console errors, collected as they happen."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


def strikes_tournament(api: str) -> tuple[str, str]:
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
