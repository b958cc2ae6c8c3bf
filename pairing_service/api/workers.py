"""How many worker processes serve the app on this machine: ``WEB_CONCURRENCY``, which
gunicorn.conf.py reads (and sets, when it picks the number itself); 1 without it (a
development server). What is shared between workers without a shared store (the write
limit counted in memory, the slots of costly computations) is sized by it."""

from __future__ import annotations

import os


def serving_workers() -> int:
    try:
        return max(1, int(os.environ.get("WEB_CONCURRENCY") or 1))
    except ValueError:
        return 1
