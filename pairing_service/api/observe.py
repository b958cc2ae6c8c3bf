"""Request ids and structured logs.

Every request gets an id: the client's ``X-Request-ID`` when it is well-formed (1-64
letters, digits, ``.``, ``_`` or ``-``), else a new one. It is echoed in the answer's
``X-Request-ID``, named in every problem+json as ``instance``, and written with the
request's log line. The request log (logger ``pairing_service.requests``) is JSON lines,
by python-json-logger: method, path (never the query or the body), status, duration,
request id. Tokens and bodies are never logged.

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

from flask import Flask, Response, g, has_request_context, request
from pythonjsonlogger.json import JsonFormatter

from .metrics import record_request, serve_metrics

REQUEST_ID = "X-Request-ID"
_WELL_FORMED = re.compile(r"[A-Za-z0-9._-]{1,64}")
log = logging.getLogger("pairing_service.requests")


def request_id() -> str | None:
    """The current request's id (None outside a request)."""
    if not has_request_context():
        return None
    return getattr(g, "request_id", None)


def json_logs() -> None:
    """JSON lines on stdout for the service's own loggers (once per process)."""
    root = logging.getLogger("pairing_service")
    if any(getattr(h, "pairing_json", False) for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(
        # "timestamp" (ISO 8601, UTC) rather than asctime too: one time, and cheaper.
        JsonFormatter("%(levelname)s %(name)s %(message)s", timestamp=True)
    )
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
        rid = request_id()
        if rid is None:
            return response
        response.headers[REQUEST_ID] = rid
        seconds = time.perf_counter() - g.started
        if log_requests and log.isEnabledFor(logging.INFO):
            fields = {
                "request_id": rid,
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": round(seconds * 1000, 2),
            }
            # makeRecord, not log.info: info() walks Flask's deep stack for the caller's
            # file and line on every request, which this line never shows.
            log.handle(
                log.makeRecord(
                    log.name, logging.INFO, __file__, 0, "request", (), None, extra=fields
                )
            )
        if count_requests:
            record_request(response.status_code, seconds)
        return response
