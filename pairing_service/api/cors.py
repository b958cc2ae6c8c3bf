"""CORS and security headers.

Allowed origins come from configuration (``CORS_ORIGINS``: a list, or a comma-separated
string in ``PAIRING_CORS_ORIGINS``); none by default besides the service's own origin.
They apply to the API and to the widget's script. No credentials are ever allowed: the
answers carry no ``Access-Control-Allow-Credentials`` and writes authenticate with a bearer
token, never a cookie. A request whose ``Origin`` is neither the service's own nor allowed
is refused with a 403 problem, before it does anything. The service's own origin is the
request's scheme and ``Host`` only when that host is one the service is reached by
(``hosts.own_origin``): a DNS-rebinding page sends ``Origin`` equal to its own foreign
``Host``, which is never taken for the service's (even where ``PAIRING_ALLOWED_HOSTS``
lets every host through).

Why not flask-cors: it only adds or leaves out the ``Access-Control-*`` headers and lets
every request run, so a write from a foreign page would still be carried out (the browser
merely hides the answer). Refusing such requests before they run, with a problem+json,
is the behaviour the service promises (and tests), so these few lines stay; the headers
they write are the same ones flask-cors would.
"""

from __future__ import annotations

from collections.abc import Iterable

from flask import Flask, Response, request

from .errors import CORS_REFUSED, problem
from .hosts import own_origin

ALLOWED_METHODS = "GET, POST, PUT, OPTIONS"
ALLOWED_HEADERS = "Content-Type, Authorization, Accept, If-Match, Idempotency-Key"
MAX_AGE = "600"


def allowed_origins(setting: str | Iterable[str] | None) -> frozenset[str]:
    if not setting:
        return frozenset()
    items = setting.split(",") if isinstance(setting, str) else setting
    return frozenset(item.strip().rstrip("/") for item in items if item.strip())


def init_cors(app: Flask) -> None:
    origins = allowed_origins(app.config.get("CORS_ORIGINS"))

    @app.before_request
    def refuse_other_origins() -> Response | None:
        origin = request.headers.get("Origin")
        if origin is None or origin in origins or origin == own_origin():
            return None
        return problem(
            403,
            f"requests from {origin} are not allowed: the service's operator adds the "
            "origin to PAIRING_CORS_ORIGINS",
            title="Origin not allowed",
            kind=CORS_REFUSED,
        )

    @app.after_request
    def headers(response: Response) -> Response:
        origin = request.headers.get("Origin")
        if origin is not None and origin in origins:
            response.headers["Access-Control-Allow-Origin"] = origin
            response.headers["Access-Control-Expose-Headers"] = "Location, ETag"
            if request.method == "OPTIONS":
                response.headers["Access-Control-Allow-Methods"] = ALLOWED_METHODS
                response.headers["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
                response.headers["Access-Control-Max-Age"] = MAX_AGE
        response.vary.add("Origin")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        if response.mimetype == "text/html":
            connect = " ".join(["'self'", *sorted(origins)])
            response.headers.setdefault(
                "Content-Security-Policy",
                "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                f"connect-src {connect}; img-src 'self' data:; frame-ancestors 'self'",
            )
        return response
