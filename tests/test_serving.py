"""The server-side helpers of gunicorn.conf.py (pairing_service/serving.py), in isolation;
tests/integration/test_serving.py runs them in a real gunicorn."""

from __future__ import annotations

import subprocess
import sys

from gunicorn.http import wsgi

from pairing_service.serving import die_with_parent, hide_server_header, settle_threads
from tests.support.servers import ROOT


class _Request:
    version = (1, 1)
    method = "GET"

    def should_close(self) -> bool:
        return False


def test_a_worker_whose_master_is_gone_exits_at_once():
    """The race die_with_parent closes: the parent died before the signal was asked for."""
    code = "from pairing_service.serving import die_with_parent; die_with_parent(1); print('alive')"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "alive" not in result.stdout


def test_a_worker_whose_master_lives_carries_on():
    code = (
        "import os; from pairing_service.serving import die_with_parent;"
        "die_with_parent(os.getppid()); print('alive')"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.stdout.strip() == "alive", result.stderr
    assert die_with_parent  # imported here too: the module loads without gunicorn running


def test_gunicorn_writes_no_server_header():
    hide_server_header()
    hide_server_header()  # twice is once
    response = wsgi.Response(_Request(), None, None)
    response.status = "200 OK"
    response.force_close()
    lines = response.default_headers()
    assert lines[0] == "HTTP/1.1 200 OK\r\n"
    assert any(line.startswith("Date:") for line in lines)
    assert not any(line.lower().startswith("server:") for line in lines)


def test_settle_threads_waits_for_threads_that_end():
    import threading
    import time

    thread = threading.Thread(target=time.sleep, args=(0.2,), name="short")
    thread.start()
    assert "short" not in settle_threads(timeout=5)
    assert not thread.is_alive()
