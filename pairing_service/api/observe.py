"""Request ids and structured logs.

Every request gets an id: the client's ``X-Request-ID`` when it is well-formed (1-64
letters, digits, ``.``, ``_`` or ``-``), else a new one. It is echoed in the answer's
``X-Request-ID``, named in every problem+json as ``instance``, and written with the
request's log line. The request log (logger ``pairing_service.requests``) is JSON lines,
by python-json-logger: method, path (never the query or the body), status, duration,
request id. Tokens and bodies are never logged.
"""

from __future__ import annotations

import logging
import re
import sys
import time
import uuid

from flask import Flask, Response, g, has_request_context, request
from pythonjsonlogger.json import JsonFormatter

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
        JsonFormatter("%(asctime)s %(levelname)s %(name)s %(message)s", timestamp=True)
    )
    handler.pairing_json = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(logging.INFO)


def init_observe(app: Flask) -> None:
    if not app.testing:
        json_logs()

    @app.before_request
    def start() -> None:
        given = request.headers.get(REQUEST_ID, "")
        g.request_id = given if _WELL_FORMED.fullmatch(given) else uuid.uuid4().hex
        g.started = time.perf_counter()

    @app.after_request
    def finish(response: Response) -> Response:
        rid = request_id()
        if rid is not None:
            response.headers[REQUEST_ID] = rid
            log.info(
                "request",
                extra={
                    "request_id": rid,
                    "method": request.method,
                    "path": request.path,
                    "status": response.status_code,
                    "duration_ms": round((time.perf_counter() - g.started) * 1000, 2),
                },
            )
        return response
