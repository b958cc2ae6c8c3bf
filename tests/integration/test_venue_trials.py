"""The venue trials (``tests/support/venue_trials.py``) through a real gunicorn with four
workers, on SQLite and PostgreSQL: no acknowledged result lost, doubled or silently
replaced, no retried write acting twice. ``bench/venue_trials.py`` runs 80 of each for
docs/hardening.md; here fewer, to keep the suite short."""

from __future__ import annotations

import os

import pytest

from tests.support.http_client import HttpClient
from tests.support.venue_trials import run_trials

pytestmark = [pytest.mark.slow, pytest.mark.gunicorn]

TRIALS = int(os.environ.get("PAIRING_TEST_VENUE_TRIALS", "8"))


def test_no_acknowledged_write_is_lost_doubled_or_replaced(gunicorn_server):
    base, _ = gunicorn_server
    failures = run_trials(HttpClient(base), TRIALS)
    failed = {trial: errors for trial, errors in failures.items() if errors}
    assert not failed, failed
