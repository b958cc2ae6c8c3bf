"""GET /healthz (the process is up) and GET /readyz (the rules are loaded and the database
answers: a load balancer sends no traffic to an instance whose database is out of reach).

A Redis that keeps the rate limits and does not answer is reported, but leaves the
instance ready: writes go on with the limits counted in memory, and taking every instance
out of service at once for a counter store would stop the event it protects."""

from __future__ import annotations

import logging
from typing import Any

from flask import current_app
from flask.views import MethodView
from marshmallow import Schema, fields
from sqlalchemy.exc import SQLAlchemyError

from .errors import problem, unavailable
from .parsing import StrictBlueprint
from .ratelimit import rate_limit_storage_status

log = logging.getLogger(__name__)
blp = StrictBlueprint("health", __name__, description="Liveness and readiness.")


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
        try:
            current_app.extensions["pairing_store"].ping()
        except SQLAlchemyError as error:
            log.warning("not ready: the database does not answer (%s)", type(error).__name__)
            return unavailable()
        ready = {"status": "ready", "rules": rules.summary(), "database": "ok"}
        storage = rate_limit_storage_status(current_app)
        if storage is not None:
            ready["rate_limit_storage"] = storage
            if storage != "ok":
                log.warning("the rate limit storage does not answer: counting in memory")
        return ready
