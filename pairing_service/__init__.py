"""Pairing Advisor: tells tournament directors how to pair, seat and score, and why."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from .rules import DEFAULT_RULES_DIR, load_rules

__all__ = ["create_app"]

DEFAULTS: dict[str, Any] = {
    "MAX_CONTENT_LENGTH": 1024 * 1024,
    "RULES_DIR": str(DEFAULT_RULES_DIR),
    "API_TITLE": "Pairing Advisor",
    "API_VERSION": "0.1.0",
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/",
    "OPENAPI_JSON_PATH": "openapi.json",
    "OPENAPI_SWAGGER_UI_PATH": "/docs",
    "OPENAPI_SWAGGER_UI_URL": "/docs/assets/",
    "API_SPEC_OPTIONS": {
        "info": {
            "description": "Pairs, seats and scores the next round of a tournament, and explains "
            "why. Errors are RFC 9457 problem details (application/problem+json)."
        },
    },
    "JSON_SORT_KEYS": False,
}


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Application factory; gunicorn runs ``pairing_service:create_app()``.

    Settings come from DEFAULTS, then ``PAIRING_*`` environment variables (for example
    ``PAIRING_MAX_CONTENT_LENGTH``), then ``config``.
    """
    from .api import init_api

    app = Flask(__name__)
    app.config.from_mapping(DEFAULTS)
    app.config.from_prefixed_env("PAIRING")
    if config:
        app.config.from_mapping(config)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions["pairing_rules"] = load_rules(app.config["RULES_DIR"])
    init_api(app)
    return app
