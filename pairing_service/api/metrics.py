"""Prometheus metrics: ``GET /metrics``, request counts and latency, engine time.

Recorded (instruments in ``pairing_service/instruments.py``):

- ``pairing_http_request_duration_seconds``, by method, route and status; its ``_count``
  is the number of requests answered. The route is the URL rule
  (``/v1/strikes/tournaments/<hex32:tournament_id>``), never the path, and a method the
  service does not know counts as ``other``, so no client can grow the label sets; a path
  that matches no route is ``unmatched``.
- ``pairing_engine_seconds``, by format: each stateless endpoint's handler is timed by
  :func:`engine_timed` (the work between validation and serialisation: building the
  engine's input, the engine, shaping its answer), and every held format's ledger by
  :func:`time_ledgers` (folding logs, deciding and applying actions), wherever the store
  or a view calls it. Nested calls count once, in the outermost.
- ``pairing_store_writes_total``, by format and action: counted by the store after commit.

``/metrics`` answers the Prometheus text format. Under gunicorn it adds up every worker's
values (multiprocess mode, set up by ``gunicorn.conf.py``), so a scrape that lands on any
worker sees every request once. It is not rate-limited (only held writes are), carries no
path, id or token, and is not in the OpenAPI document (it is for the operator's scraper,
which sends no ``Origin``). ``METRICS`` (env ``PAIRING_METRICS``) false turns it all off.
"""

from __future__ import annotations

import functools
import inspect
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from flask import Flask, Response, current_app, has_app_context
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Histogram,
    generate_latest,
)
from prometheus_client.multiprocess import MultiProcessCollector
from werkzeug.routing import Rule

from ..engine.event_log import Ledger
from ..instruments import ENGINE_SECONDS, REQUEST_SECONDS

F = TypeVar("F", bound=Callable[..., Any])

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
# Ledger methods that only put actions into words for the history: not engine work, and
# called once per logged action, so timing them would cost more than it tells.
WORDING = frozenset({"describe", "summary", "public"})

_timing = threading.local()
# (method, route, status) -> its duration histogram: labels() costs more than the
# observation itself, on every request.
_series: dict[tuple[str, str, str], Histogram] = {}


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def exposition() -> bytes:
    """Every metric in the Prometheus text format: all workers' under gunicorn."""
    if multiprocess_dir() is None:
        return generate_latest(REGISTRY)
    registry = CollectorRegistry()
    MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    return generate_latest(registry)


def record_request(method: str, rule: Rule | None, status: int, seconds: float) -> None:
    """Count a request under its route, with its duration (called as its answer leaves)."""
    labels = (
        method if method in METHODS else "other",
        rule.rule if rule is not None else "unmatched",
        str(status),
    )
    series = _series.get(labels)
    if series is None:  # the label sets are bounded: this fills once per route and status
        series = _series.setdefault(labels, REQUEST_SECONDS.labels(*labels))
    series.observe(seconds)


@contextmanager
def engine_time(fmt: str) -> Iterator[None]:
    """Time the block as engine work of ``fmt`` (once: not again inside an outer one)."""
    if getattr(_timing, "active", False):
        yield
        return
    _timing.active = True
    started = time.perf_counter()
    try:
        yield
    finally:
        _timing.active = False
        ENGINE_SECONDS.labels(fmt).observe(time.perf_counter() - started)


def engine_timed(fmt: str) -> Callable[[F], F]:
    """Decorator: each call of the function is engine work of ``fmt``. On a view, put it
    right above ``def`` so that validation and serialisation stay outside."""

    def decorate(function: F) -> F:
        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            if has_app_context() and not current_app.config["METRICS"]:
                return function(*args, **kwargs)
            with engine_time(fmt):
                return function(*args, **kwargs)

        return timed  # type: ignore[return-value]

    return decorate


def time_ledgers(ledgers: dict[str, Ledger[Any]]) -> dict[str, Ledger[Any]]:
    """Time the engine work of every held format: each ledger's own methods (not their
    wording for the history) are wrapped on the instance, under the ledger's format."""
    for fmt, ledger in ledgers.items():
        for name, method in inspect.getmembers(ledger, inspect.ismethod):
            if not name.startswith("_") and name not in WORDING:
                setattr(ledger, name, engine_timed(fmt)(method))
    return ledgers


def serve_metrics(app: Flask) -> None:
    def metrics() -> Response:
        answer = Response(exposition(), mimetype=None, content_type=CONTENT_TYPE_LATEST)
        answer.headers["Cache-Control"] = "no-store"
        return answer

    app.add_url_rule("/metrics", "metrics", metrics, methods=["GET"])
