"""Rate limiting of writes to held tournaments, with Flask-Limiter.

At a venue every scorekeeper shares one address (the venue's Wi-Fi, or the load balancer
in front of the service), so writes are counted per token, not per address:

- ``WRITE_RATE_LIMIT`` (env ``PAIRING_WRITE_RATE_LIMIT``), "<count>/<seconds>", default
  "120/60": the writes (POST, PUT, DELETE) each token may make — a director's, a
  scorekeeper's, a league player's — to held tournaments of every format, per moving
  window. A write sent without a token is counted against its address.
- ``CREATE_RATE_LIMIT`` (env ``PAIRING_CREATE_RATE_LIMIT``; default: the write limit):
  the tournaments, events and organisations each address may create per window.

More get a 429 problem with Retry-After. An empty ``WRITE_RATE_LIMIT`` turns both off.

``RATE_LIMIT_STORAGE`` (env ``PAIRING_RATE_LIMIT_STORAGE``) is where the counts live:

- ``database`` (the default): the service's own database, SQLite or PostgreSQL
  (``api/rate_storage.py``, ``store/rate_counts.py``): one count for every worker and every
  instance on the database, so the limit is exact (the 121st write of a minute is refused,
  whichever worker takes it). Two small statements per write.
- ``redis://host:6379``: one count in Redis, for every worker and instance given it.
- ``memory://``: each worker counts in its own memory, and keeps its share of the limit
  (the count divided by ``WEB_CONCURRENCY``, rounded up), so a client whose writes all
  reach one worker is refused at that share; its headers and 429 say that share. For one
  process (a development server).

When the database or Redis stops answering, writes go on: the limits are counted in each
worker's memory meanwhile (a warning is logged), the store is tried again every few
requests, and for Redis ``/readyz`` says which (:func:`rate_limit_storage_status`).

What a limited write's answer says is the limit that counted it: ``X-RateLimit-Limit``,
``-Remaining`` and ``-Reset`` (the epoch second its window frees a place), and on a 429 only,
``Retry-After`` (Flask-Limiter's own headers would put a ``Retry-After`` on every limited
answer, a success too, and raise a database outage's 503 ``Retry-After`` to the window's).
"""

from __future__ import annotations

import logging
import math
import time
from typing import Any

from flask import Flask, Response, current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from ..store.rate_counts import RateCounts
from ..store.tokens import hash_token
from .held.blueprint import CREATES, HeldBlueprint
from .rate_storage import SCHEME
from .workers import serving_workers

log = logging.getLogger(__name__)

WRITE_METHODS = ["POST", "PUT", "DELETE"]
# A storage that does not answer within this is taken as down (rather than holding writes).
STORAGE_TIMEOUT_SECONDS = 0.5


def limit_text(setting: str | None, shares: int = 1) -> str | None:
    """Flask-Limiter's form of a "<count>/<seconds>" setting, the count divided among
    ``shares`` counters that each see a part of the traffic; None when it is off."""
    if not setting:
        return None
    count, _, seconds = str(setting).partition("/")
    limit, window = int(count), int(float(seconds or 60))
    if limit < 1 or window < 1:
        raise ValueError(f"a rate limit must be '<count>/<seconds>', not {setting!r}")
    return f"{-(-limit // shares)} per {window} second"


def counters(storage: str) -> int:
    """How many counters a limit is kept in: one per worker when each counts in its own
    memory (so that together they allow about the limit, not N times it), else one."""
    return serving_workers() if storage.startswith("memory://") else 1


def writer_key() -> str:
    """Whose writes these are: the bearer token's (only a prefix of its hash is kept in
    the counts), else the client's address."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return "token:" + hash_token(token.strip())[:32]
    return "address:" + (get_remote_address() or "")


def creating() -> bool:
    """Whether the request is a create (``HeldBlueprint.route("")``'s POST)."""
    view = current_app.view_functions.get(request.endpoint or "")
    method = getattr(getattr(view, "view_class", None), request.method.lower(), None)
    return bool(getattr(method, CREATES, False))


def _refusal(setting: str, what: str, whose: str, shares: int) -> str:
    """What a 429 says: the limit that refused, as its headers give it (a worker's share
    when each counts in its own memory)."""
    count, _, seconds = str(setting).partition("/")
    limit, window = int(count), int(float(seconds or 60))
    if shares == 1:
        return f"more than {limit} {what} per {window} seconds {whose}; try again shortly"
    share = -(-limit // shares)
    return (
        f"more than {share} {what} per {window} seconds {whose} in this worker, its share of "
        f"{limit} among {shares} workers that each count in memory "
        "(PAIRING_RATE_LIMIT_STORAGE=memory://); try again shortly"
    )


def storage_uri(setting: str) -> str:
    """Flask-Limiter's storage for the setting: ``database`` is the service's own."""
    return f"{SCHEME}://" if setting.strip().lower() in ("database", f"{SCHEME}://") else setting


def init_rate_limit(app: Flask) -> Limiter | None:
    storage = storage_uri(app.config["RATE_LIMIT_STORAGE"])
    shares = counters(storage)
    writes_limit = limit_text(app.config.get("WRITE_RATE_LIMIT"), shares)
    if writes_limit is None:
        return None
    creates_setting = app.config.get("CREATE_RATE_LIMIT") or app.config["WRITE_RATE_LIMIT"]
    creates_limit = limit_text(creates_setting, shares) or writes_limit
    options: dict[str, Any] = {}  # redis-py takes float timeouts; the stub says int
    if storage.startswith(("redis://", "rediss://")):
        timeout = STORAGE_TIMEOUT_SECONDS
        options = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    elif storage.startswith(f"{SCHEME}://"):
        store = app.extensions["pairing_store"]
        options = {"counts": RateCounts(lambda: store.engine)}
    limiter = Limiter(
        get_remote_address,
        app=app,
        storage_uri=storage,
        storage_options=options,
        strategy="moving-window",
        headers_enabled=False,  # written by limit_headers, below
        default_limits=[],
        in_memory_fallback_enabled=True,  # the store down: count in memory, keep writing
        swallow_errors=True,
    )
    writes = limiter.shared_limit(
        writes_limit,
        scope="held-writes",  # one count per token for every held format's writes
        key_func=writer_key,
        methods=WRITE_METHODS,
        exempt_when=creating,
        error_message=_refusal(app.config["WRITE_RATE_LIMIT"], "writes", "with this token", shares),
    )
    creates = limiter.shared_limit(
        creates_limit,
        scope="held-creates",
        key_func=get_remote_address,
        methods=["POST"],
        exempt_when=lambda: not creating(),
        error_message=_refusal(creates_setting, "creations", "from this address", shares),
    )
    for blueprint in app.blueprints.values():
        if isinstance(blueprint, HeldBlueprint):
            writes(blueprint)
            creates(blueprint)
    app.extensions["pairing_limiter"] = limiter
    app.after_request(limit_headers)
    return limiter


def limit_headers(response: Response) -> Response:
    """The limit that counted this request, its places left and when its window frees
    one; ``Retry-After`` on its 429 only (a 503's own, a database outage's or a busy
    simulator's, stands)."""
    limiter: Limiter | None = current_app.extensions.get("pairing_limiter")
    counted = limiter.current_limit if limiter is not None else None
    if counted is None:
        return response
    try:
        reset_at, remaining = counted.window  # when the window frees a place
    except Exception:  # the store stopped answering since: the answer goes without them
        log.warning("rate limit headers left out: the counts could not be read")
        return response
    response.headers["X-RateLimit-Limit"] = str(counted.limit.amount)
    response.headers["X-RateLimit-Remaining"] = str(max(0, remaining))
    response.headers["X-RateLimit-Reset"] = str(math.ceil(reset_at))
    if response.status_code == 429:
        response.headers["Retry-After"] = str(max(1, math.ceil(reset_at - time.time())))
    return response


def rate_limit_storage_status(app: Flask) -> str | None:
    """``ok`` when the rate limit's Redis answers, ``unavailable`` when it does not (the
    limits are counted in memory meanwhile); None when the counts are kept elsewhere (in
    the database, which readiness checks anyway, or in memory)."""
    limiter: Limiter | None = app.extensions.get("pairing_limiter")
    if limiter is None or not app.config["RATE_LIMIT_STORAGE"].startswith(("redis", "rediss")):
        return None
    return "ok" if limiter.storage.check() else "unavailable"
