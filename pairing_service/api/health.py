"""GET /healthz (the process is up) and GET /readyz (the rules are loaded and the database
answers: a load balancer sends no traffic to an instance whose database is out of reach).

Neither waits behind the requests a worker is serving: ``/healthz`` touches nothing but
the process, and both pass the gate that bounds the reads a worker runs at once
(``public_reads.py``). ``/readyz`` asks the database on a connection of its own (one per
worker), not from the pool the requests share (a busy event's readers hold it all), and
waits at most ``READY_WAIT_SECONDS`` for the answer: a database that answers later is
not ready. An answer of the last second and a half answers at once, while the database
is asked again behind it (:class:`ReadinessCheck`).

A Redis that keeps the rate limits and does not answer is reported, but leaves the
instance ready: writes go on with the limits counted in memory, and taking every instance
out of service at once for a counter store would stop the event it protects."""

from __future__ import annotations

import logging
import os
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from flask import Flask, current_app
from flask.views import MethodView
from marshmallow import Schema, fields
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import QueuePool

from ..store import HeldStore, make_engine
from ..store.database import ping
from .errors import problem, unavailable
from .parsing import StrictBlueprint
from .ratelimit import rate_limit_storage_status

log = logging.getLogger(__name__)
blp = StrictBlueprint("health", __name__, description="Liveness and readiness.")
HEALTH_PATHS = frozenset({"/healthz", "/readyz"})
READY_WAIT_SECONDS = 2.0
READY_FRESH_SECONDS = 1.5  # a database's answer this recent answers the next check
READY_REFRESH_SECONDS = 0.5  # an answer this old has the next check ask again


class ReadinessCheck:
    """The database asked ``SELECT 1`` on a connection of the check's own, by a thread of
    its own (a greenlet under gevent), on the store's database (made again when the
    store's engine is replaced). Made lazily in each process: a worker forked from the
    master builds its own.

    A check answered by the database less than ``READY_FRESH_SECONDS`` ago answers the
    next at once, and one older than ``READY_REFRESH_SECONDS`` has the next check ask
    again, without waiting for it: a load balancer asking often never waits for the
    database. Without a recent answer (the first check, or after a failure), the check
    waits for the database at most ``READY_WAIT_SECONDS``. A question still unanswered
    is shared by the checks that come meanwhile, so a database that hangs holds one
    connection and one thread, however often it is asked."""

    def __init__(self, store: HeldStore, wait: float = READY_WAIT_SECONDS) -> None:
        self._store = store
        self._url = ""
        self._wait = wait
        self._lock = threading.Lock()
        self._pid = 0
        self._engine: Engine | None = None
        self._asker: ThreadPoolExecutor | None = None
        self._pending: Future[None] | None = None
        self._answered_at: float | None = None  # the last answer's time, if it was ready

    def _ask(self, engine: Engine) -> None:
        try:
            ping(engine)
        except BaseException:
            self._answered_at = None
            raise
        self._answered_at = time.monotonic()

    def check(self) -> None:
        """Return when the database answered (recently, or now in time); its error, or
        TimeoutError."""
        # The store's database now (an operator's or a test's may replace its engine).
        url = self._store.engine.url.render_as_string(hide_password=False)
        now = time.monotonic()
        with self._lock:
            if self._pid != os.getpid() or url != self._url:
                if self._engine is not None and self._pid == os.getpid():
                    self._engine.dispose()
                self._url = url
                self._engine = make_engine(
                    url,
                    poolclass=QueuePool,  # one connection, whatever the database's default
                    pool_size=1,
                    max_overflow=0,
                    pool_timeout=self._wait,
                )
                self._asker = ThreadPoolExecutor(1, thread_name_prefix="readiness")
                self._pid, self._pending, self._answered_at = os.getpid(), None, None
            assert self._asker is not None and self._engine is not None
            answered = self._answered_at
            age = None if answered is None else now - answered
            if (self._pending is None or self._pending.done()) and (
                age is None or age >= READY_REFRESH_SECONDS
            ):
                self._pending = self._asker.submit(self._ask, self._engine)
            pending = self._pending
        if age is not None and age < READY_FRESH_SECONDS:
            return
        assert pending is not None
        pending.result(timeout=self._wait)


def init_health(app: Flask) -> None:
    app.extensions["pairing_readiness"] = ReadinessCheck(app.extensions["pairing_store"])


class HealthOut(Schema):
    status = fields.String(required=True)
    rules = fields.Dict(keys=fields.String(), values=fields.Integer())
    database = fields.String(metadata={"description": "`ok`: the database answered."})
    rate_limit_storage = fields.String(
        metadata={
            "description": "Where the write limits are counted in Redis: `ok`, or "
            "`unavailable` (writes go on, counted in each worker's memory until it answers "
            "again: the instance stays ready). Absent when they are counted in memory."
        }
    )


@blp.route("/healthz")
class Health(MethodView):
    @blp.response(200, HealthOut)
    def get(self) -> dict[str, Any]:
        """The process is up."""
        return {"status": "ok"}


@blp.route("/readyz")
class Ready(MethodView):
    @blp.response(200, HealthOut)
    @blp.alt_response(503, description="Not ready")
    def get(self) -> Any:
        """The service can answer: its rules are loaded and its database answers (else 503,
        with Retry-After)."""
        rules = current_app.extensions.get("pairing_rules")
        if rules is None:
            return problem(503, "rules are not loaded")
        readiness: ReadinessCheck = current_app.extensions["pairing_readiness"]
        try:
            readiness.check()
        except (SQLAlchemyError, TimeoutError) as error:
            log.warning("not ready: the database does not answer (%s)", type(error).__name__)
            return unavailable()
        ready = {"status": "ready", "rules": rules.summary(), "database": "ok"}
        storage = rate_limit_storage_status(current_app)
        if storage is not None:
            ready["rate_limit_storage"] = storage
            if storage != "ok":
                log.warning("the rate limit storage does not answer: counting in memory")
        return ready
