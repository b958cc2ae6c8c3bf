"""Rate limiting of writes to held tournaments, with Flask-Limiter.

``WRITE_RATE_LIMIT`` (env ``PAIRING_WRITE_RATE_LIMIT``) is "<count>/<seconds>", default
"120/60": each client address may make that many writes (POST, PUT, DELETE) to held
tournaments of every format (the routes of a ``HeldBlueprint``), together, per moving
window; more get a 429 problem with Retry-After. An empty value turns it off.

``RATE_LIMIT_STORAGE`` (env ``PAIRING_RATE_LIMIT_STORAGE``) is where the counts live:
``memory://`` (the default: per worker process, so N workers allow N times the limit) or
``redis://host:6379`` when several workers or instances serve one database, so the limit
holds across all of them.
"""

from __future__ import annotations

from flask import Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from .held_blueprint import HeldBlueprint

WRITE_METHODS = ["POST", "PUT", "DELETE"]


def limit_text(setting: str | None) -> str | None:
    """Flask-Limiter's form of a "<count>/<seconds>" setting; None when it is off."""
    if not setting:
        return None
    count, _, seconds = str(setting).partition("/")
    limit, window = int(count), int(float(seconds or 60))
    if limit < 1 or window < 1:
        raise ValueError(f"WRITE_RATE_LIMIT must be '<count>/<seconds>', not {setting!r}")
    return f"{limit} per {window} second"


def init_rate_limit(app: Flask) -> Limiter | None:
    limit = limit_text(app.config.get("WRITE_RATE_LIMIT"))
    if limit is None:
        return None
    limiter = Limiter(
        get_remote_address,
        app=app,
        storage_uri=app.config["RATE_LIMIT_STORAGE"],
        strategy="moving-window",
        headers_enabled=True,
        default_limits=[],
    )
    writes = limiter.shared_limit(
        limit,
        scope="held-writes",  # one count for every held format's writes
        methods=WRITE_METHODS,
        error_message=f"more than {limit.replace(' per ', ' writes per ')}s from this "
        "address; try again shortly",
    )
    for blueprint in app.blueprints.values():
        if isinstance(blueprint, HeldBlueprint):
            writes(blueprint)
    return limiter
