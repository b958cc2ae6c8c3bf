"""How many worker processes serve the app on this machine: ``WEB_CONCURRENCY``, which
gunicorn.conf.py reads (and sets, when it picks the number itself); 1 without it (a
development server). What is divided among the workers is sized by it: the write limit
when each worker counts it in memory (``memory://``), and the default number of slots for
costly computations."""

from __future__ import annotations

import os


def serving_workers() -> int:
    try:
        return max(1, int(os.environ.get("WEB_CONCURRENCY") or 1))
    except ValueError:
        return 1
