"""A round's clock through the API (``engine/round_clock.py``): ``POST …/{id}/clock`` starts
(or starts again) the clock of the round being played, ``DELETE …/{id}/clock`` stops it,
both by the director; every read of the event answers ``clock`` (null when none runs), and
the desk and the public page show the time left."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from flask.views import MethodView
from marshmallow import Schema, fields, post_load, validate

from ...engine.round_clock import MAX_MINUTES, Clock, clock_of, start_clock, stop_clock
from ...store import Held
from .director_token import director_token
from .requests import ClockStart

if TYPE_CHECKING:
    from .blueprint import RoundRoutes


class ClockIn(Schema):
    minutes = fields.Integer(
        strict=True,
        validate=validate.Range(1, MAX_MINUTES),
        metadata={
            "description": "How long the round runs; without it, as long as the event's last "
            "clock ran, else the format's usual length."
        },
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> ClockStart:
        return ClockStart(data.get("minutes"))


class ClockOut(Schema):
    """Reads a round's :class:`Clock`."""

    round = fields.Integer(required=True)
    minutes = fields.Integer(required=True)
    started_at = fields.DateTime(required=True)
    ends_at = fields.DateTime(required=True)


def clock_field() -> fields.Nested:
    return fields.Nested(
        ClockOut,
        allow_none=True,
        required=True,
        metadata={
            "description": "The clock of the round being played, while the director has it "
            "running (POST …/clock); null otherwise. Time left: `ends_at` less now."
        },
    )


def open_round(held: Held[Any]) -> int | None:
    """The number of the round being played, if one is."""
    latest = held.state.latest
    return None if latest is None or latest.closed else int(latest.number)


def round_clock(held: Held[Any]) -> Clock | None:
    return clock_of(held.log, open_round(held))


def add_clock_routes(routes: RoundRoutes[Any, Any]) -> None:
    from .blueprint import TOURNAMENT, described, held_store, optional_body

    blp = routes.blueprint

    @blp.route(TOURNAMENT + "/clock")
    class RoundClock(MethodView):
        @blp.response(200, routes.read_out)
        @blp.doc(
            requestBody={"required": False, "content": {"application/json": {"schema": ClockIn}}}
        )
        @blp.writes()
        @described(
            "Start the clock of the round being played (again: restart it), for `minutes` "
            "(else the event's last clock's length, else the format's usual one); 409 when "
            "no round is being played. Its end is in every read's `clock`."
        )
        def post(self, tournament_id: str) -> Any:
            body: ClockStart = optional_body(blp, ClockIn)
            usual = routes.clock_minutes
            held = held_store().record(
                routes.ledger(),
                tournament_id,
                director_token(),
                lambda held: start_clock(
                    held.log, open_round(held), body.minutes, datetime.now(UTC), usual
                ),
            )
            return routes.view(held)

        @blp.response(200, routes.read_out)
        @blp.writes()
        @described("Stop the round's clock; stopping a clock that is not running changes nothing.")
        def delete(self, tournament_id: str) -> Any:
            held = held_store().record(
                routes.ledger(),
                tournament_id,
                director_token(),
                lambda held: stop_clock(held.log, open_round(held)),
            )
            return routes.view(held)
