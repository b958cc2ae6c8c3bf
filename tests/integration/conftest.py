"""Fixtures of the tests that run the service as it runs in production."""

from __future__ import annotations

import pytest

from tests.support.servers import free_port, start_gunicorn, wait_ready


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
