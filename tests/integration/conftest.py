"""Fixtures of the tests that run the service as it runs in production."""

from __future__ import annotations

import http.server

import pytest
from werkzeug.serving import make_server

from tests.support.servers import free_port, start_gunicorn, wait_ready
from tests.support.widget import (
    CHROMIUM,
    HOST,
    SHOTS,
    Pages,
    app_with_origins,
    browser_or_skip,
    serve,
)


@pytest.fixture()
def gunicorn_server(database_url, tmp_path):
    """The service under a real gunicorn on ``database_url``: (its base URL, the URL)."""
    port = free_port()
    log = tmp_path / "gunicorn.log"
    process = start_gunicorn(database_url, port, log)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, process, log)
    except RuntimeError as exc:
        pytest.fail(str(exc))
    yield base, database_url
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture()
def sites(tmp_path):
    """The service on one port; an allowed host site and a refused one on two others."""
    sync_playwright = browser_or_skip()
    host_port, evil_port, api_port = free_port(), free_port(), free_port()
    host = f"http://{HOST}:{host_port}"
    evil = f"http://{HOST}:{evil_port}"
    api = f"http://{HOST}:{api_port}"
    app = app_with_origins(tmp_path, [host])
    service = serve(make_server(HOST, api_port, app, threaded=True))
    handler = type("Pages", (Pages,), {"pages": {}})
    host_server = serve(http.server.ThreadingHTTPServer((HOST, host_port), handler))
    evil_server = serve(http.server.ThreadingHTTPServer((HOST, evil_port), handler))
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
