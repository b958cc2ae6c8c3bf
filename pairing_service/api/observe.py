"""Request ids and structured logs.

Every request gets an id: the client's ``X-Request-ID`` when it is well-formed (1-64
letters, digits, ``.``, ``_`` or ``-``), else a new one. It is echoed in the answer's
``X-Request-ID``, named in every problem+json as ``instance``, and written with the
request's log line, and in every other line the service logs during the request (an
unhandled error's traceback included). The logs are JSON lines (:class:`JsonLines`); the
request log (logger ``pairing_service.requests``) gives method, path (never the query or
the body), status, duration and request id. Tokens and bodies are never logged.

Each answer is also counted in the Prometheus metrics (``api/metrics.py``) with the same
duration. ``REQUEST_LOG`` and ``METRICS`` (env ``PAIRING_REQUEST_LOG``,
``PAIRING_METRICS``; both true by default) turn the request log and the metrics off: the
benchmark of their overhead compares the two (``bench/bench_web.py``).
"""

from __future__ import annotations

import logging
import re
import sys
import time
import uuid
from datetime import UTC, datetime
from typing import Any

import orjson
from flask import Flask, Response, g, has_request_context, request

from .metrics import record_request, serve_metrics

REQUEST_ID = "X-Request-ID"
_WELL_FORMED = re.compile(r"[A-Za-z0-9._-]{1,64}")
log = logging.getLogger("pairing_service.requests")


def request_id() -> str | None:
    """The current request's id (None outside a request)."""
    if not has_request_context():
        return None
    return getattr(g, "request_id", None)


class JsonLines(logging.Formatter):
    """One JSON object a line: ``timestamp`` (ISO 8601, UTC), ``levelname``, ``name``,
    ``message``, the ``request_id`` of the request being served (if any), the record's
    ``fields`` (``extra={"fields": {...}}``) and, for an exception, its ``exc_info``.

    Our own rather than python-json-logger's formatter: that one looks through every
    attribute of every record for extras, which made the request line cost about 55 us
    of a no-op request's 800 us through gunicorn and, with the metrics, broke the 10 %
    overhead target (docs/benchmarks.md); this one writes what it is given, by orjson."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "timestamp": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "levelname": record.levelname,
            "name": record.name,
            "message": record.getMessage(),
        }
        fields = getattr(record, "fields", {})
        if "request_id" not in fields:
            rid = request_id()
            if rid is not None:
                line["request_id"] = rid
        line.update(fields)
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        # default=str: a field no JSON type fits is written as text, never lost.
        return orjson.dumps(line, default=str).decode()


def json_logs() -> None:
    """JSON lines on stdout for the service's own loggers (once per process)."""
    root = logging.getLogger("pairing_service")
    if any(getattr(h, "pairing_json", False) for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(JsonLines())
    handler.pairing_json = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(logging.INFO)


def init_observe(app: Flask) -> None:
    log_requests = bool(app.config.get("REQUEST_LOG", True))
    count_requests = bool(app.config.get("METRICS", True))
    if log_requests and not app.testing:
        json_logs()
    if count_requests:
        serve_metrics(app)

    @app.before_request
    def start() -> None:
        given = request.headers.get(REQUEST_ID, "")
        g.request_id = given if _WELL_FORMED.fullmatch(given) else uuid.uuid4().hex
        g.started = time.perf_counter()

    @app.after_request
    def finish(response: Response) -> Response:
        # The request and g looked up once each: every lookup through Flask's proxies
        # costs, on every request (the overhead target, docs/benchmarks.md).
        state = g._get_current_object()
        rid = getattr(state, "request_id", None)
        if rid is None:
            return response
        response.headers[REQUEST_ID] = rid
        seconds = time.perf_counter() - state.started
        served = request._get_current_object()  # type: ignore[attr-defined]
        status = response.status_code
        if log_requests and log.isEnabledFor(logging.INFO):
            fields = {
                "request_id": rid,
                "method": served.method,
                "path": served.path,
                "status": status,
                "duration_ms": round(seconds * 1000, 2),
            }
            # makeRecord, not log.info: info() walks Flask's deep stack for the caller's
            # file and line on every request, which this line never shows.
            log.handle(
                log.makeRecord(
                    log.name, logging.INFO, "", 0, "request", (), None, extra={"fields": fields}
                )
            )
        if count_requests:
            record_request(served.method, served.url_rule, status, seconds)
        return response
