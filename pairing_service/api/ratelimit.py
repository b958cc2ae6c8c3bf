"""Rate limiting of writes to persistent tournaments (configurable).

``WRITE_RATE_LIMIT`` (env ``PAIRING_WRITE_RATE_LIMIT``) is "<count>/<seconds>", default
"120/60": each client address may make that many writes (POST, PUT, DELETE) to held
tournaments of every format (the routes of a ``HeldBlueprint``) per window; more get a
429 problem with Retry-After. An empty value turns it off. The count is kept per worker
process (a sliding window in memory), so with N gunicorn workers a client can make at
most N times the limit: the limit is there
to stop a runaway script, not to meter.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque

from flask import Flask, Response, request

from .errors import problem
from .held import HeldBlueprint

WRITE_METHODS = frozenset({"POST", "PUT", "DELETE"})


def parse_limit(setting: str | None) -> tuple[int, float] | None:
    if not setting:
        return None
    count, _, seconds = str(setting).partition("/")
    limit, window = int(count), float(seconds or 60)
    if limit < 1 or window <= 0:
        raise ValueError(f"WRITE_RATE_LIMIT must be '<count>/<seconds>', not {setting!r}")
    return limit, window


class SlidingWindow:
    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self.hits: dict[str, deque[float]] = {}
        self.lock = threading.Lock()

    def allow(self, key: str, now: float) -> float:
        """0 when allowed (and counted), else the seconds until the next write is."""
        with self.lock:
            hits = self.hits.setdefault(key, deque())
            while hits and hits[0] <= now - self.window:
                hits.popleft()
            if len(hits) >= self.limit:
                return hits[0] + self.window - now
            hits.append(now)
            if len(self.hits) > 10_000:  # forget idle clients
                for other in [k for k, v in self.hits.items() if not v]:
                    del self.hits[other]
            return 0.0


def init_rate_limit(app: Flask) -> None:
    parsed = parse_limit(app.config.get("WRITE_RATE_LIMIT"))
    if parsed is None:
        return
    window = SlidingWindow(*parsed)

    @app.before_request
    def limit_writes() -> Response | None:
        held = isinstance(app.blueprints.get(request.blueprint or ""), HeldBlueprint)
        if request.method not in WRITE_METHODS or not held:
            return None
        wait = window.allow(request.remote_addr or "unknown", time.monotonic())
        if not wait:
            return None
        return problem(
            429,
            f"more than {window.limit} writes in {window.window:g} s from this address; "
            "try again shortly",
            headers={"Retry-After": str(max(1, math.ceil(wait)))},
        )
