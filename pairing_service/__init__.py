"""Pairing Advisor: tells tournament directors how to pair, seat and score, and why."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Flask

from .rules import DEFAULT_RULES_DIR, load_rules
from .store import HeldStore, make_engine

if TYPE_CHECKING:
    from .api.formats import Format

__all__ = ["create_app"]

# Settings read from their usual names too (hosting platforms set them), besides PAIRING_*.
UNPREFIXED_SETTINGS = ("DATABASE_URL", "SMTP_URL")
DEFAULTS: dict[str, Any] = {
    "MAX_CONTENT_LENGTH": 1024 * 1024,
    "RULES_DIR": str(DEFAULT_RULES_DIR),
    "API_TITLE": "Pairing Advisor",
    "API_VERSION": "0.1.0",
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/",
    "OPENAPI_JSON_PATH": "openapi.json",
    # /docs is the service's own page (api/swagger.py): flask-smorest's has an inline script.
    "API_SPEC_OPTIONS": {
        "info": {
            "description": "Pairs, seats and scores the next round of a tournament, and explains "
            "why. Errors are RFC 9457 problem details (application/problem+json)."
        },
    },
    "JSON_SORT_KEYS": False,
    # DATABASE_URL (or PAIRING_DATABASE_URL) selects the database, e.g.
    # postgresql://user@host:5432/db; without one, a SQLite file at SQLITE_PATH
    # (default: pairing.sqlite3 in the instance folder).
    "DATABASE_URL": None,
    "SQLITE_PATH": None,
    "DATABASE_MIGRATE": True,
    # Origins (scheme://host[:port]) whose pages may call the API and load the widget.
    "CORS_ORIGINS": [],
    # Host names the service answers for besides loopback names and IP addresses
    # (api/hosts.py): "pairing.club.example", "*.club.example", or "*" for every host.
    "ALLOWED_HOSTS": [],
    # Where every absolute link (QR codes, sheets, letters, Link headers) starts, e.g.
    # https://pairing.club.example (api/public_url.py); None: the request's own address.
    "PUBLIC_URL": None,
    # Writes to persistent tournaments per client address: "<count>/<seconds>" ("" off).
    "WRITE_RATE_LIMIT": "120/60",
    # Where the rate limit counts live: database (the service's own, shared by every worker
    # and instance on it), redis://host:6379 (shared), or memory:// (per worker).
    "RATE_LIMIT_STORAGE": "database",
    # SMTP_URL (or PAIRING_SMTP_URL), e.g. smtp://mail.example:25 or smtps://user:pw@host:465:
    # when set, league letters are sent to players who gave an e-mail address.
    "SMTP_URL": None,
    "MAIL_FROM": "pairing-advisor@localhost",
    # Costly computations (the simulators) at once in this instance, and where their slots
    # are kept (api/costly.py); None: half the workers, and a folder of this instance's own
    # (made when the app is, removed when the process that made it exits).
    "COSTLY_CONCURRENCY": None,
    "COSTLY_SLOTS_DIR": None,
    # Prometheus metrics at /metrics and the JSON request log (api/metrics.py, api/observe.py).
    "METRICS": True,
    "REQUEST_LOG": True,
}


def create_app(
    config: Mapping[str, Any] | None = None, *, formats: Sequence[Format] | None = None
) -> Flask:
    """Application factory; gunicorn runs ``pairing_service:create_app()``.

    Settings come from DEFAULTS, then ``PAIRING_*`` environment variables (for example
    ``PAIRING_MAX_CONTENT_LENGTH``), then ``config``. The formats served are the registry's
    (``api/formats.py``) unless ``formats`` names others.
    """
    from .api import init_api
    from .api.formats import FORMATS, ledgers
    from .api.json_provider import FastJSONProvider
    from .api.metrics import time_ledgers

    app = Flask(__name__)
    app.json = FastJSONProvider(app)
    app.config.from_mapping(DEFAULTS)
    for name in UNPREFIXED_SETTINGS:
        if os.environ.get(name):
            app.config[name] = os.environ[name]
    app.config.from_prefixed_env("PAIRING")
    if config:
        app.config.from_mapping(config)
    rules = load_rules(app.config["RULES_DIR"])
    app.extensions["pairing_rules"] = rules
    formats = FORMATS if formats is None else formats
    held = ledgers(rules, formats)
    app.extensions["pairing_ledgers"] = time_ledgers(held) if app.config["METRICS"] else held
    app.extensions["pairing_store"] = open_store(app)
    init_api(app, formats)
    return app


def open_store(app: Flask) -> HeldStore:
    # The store asks each request's conditions of a write, and tells it the revision.
    from .api.held.conditions import observe, request_conditions

    path = app.config["SQLITE_PATH"] or Path(app.instance_path) / "pairing.sqlite3"
    url = app.config["DATABASE_URL"] or f"sqlite:///{path}"
    store = HeldStore(make_engine(url), conditions=request_conditions, observe=observe)
    if app.config["DATABASE_MIGRATE"]:
        store.migrate()
    return store
