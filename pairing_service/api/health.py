"""GET /healthz (the process is up) and GET /readyz (the rules are loaded)."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask.views import MethodView
from marshmallow import Schema, fields

from .errors import problem
from .parsing import StrictBlueprint

blp = StrictBlueprint("health", __name__, description="Liveness and readiness.")


class HealthOut(Schema):
    status = fields.String(required=True)
    rules = fields.Dict(keys=fields.String(), values=fields.Integer())


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
        """The service can answer: its rules are loaded."""
        rules = current_app.extensions.get("pairing_rules")
        if rules is None:
            return problem(503, "rules are not loaded")
        return {"status": "ready", "rules": rules.summary()}
