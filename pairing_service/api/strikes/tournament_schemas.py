"""Schemas of the persistent strikes tournaments."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate, validates_schema

from ...engine.errors import FieldError, refuse_repeats
from ...engine.strikes import GAME_KINDS, STRATEGIES
from ..held_schemas import EntrantIn, TokenOut, changes_field, event_name, round_status
from .tool_schemas import (
    MAX_FIELD,
    MAX_PLANS,
    MAX_SEED,
    MAX_THRESHOLD,
    StrikesNumber,
    StrikesOut,
    check_plan_work,
    two_player_field,
)


class TournamentIn(Schema):
    name = event_name()
    players = fields.List(
        fields.Nested(EntrantIn),
        required=True,
        validate=validate.Length(3, MAX_FIELD),
        metadata={"description": f"Every entrant, 3-{MAX_FIELD}; ids unique."},
    )
    threshold = fields.Integer(
        strict=True,
        load_default=35,
        validate=validate.Range(1, MAX_THRESHOLD),
        metadata={"description": "Eliminated at this many strikes (seed: 23, 35 or 47)."},
    )
    game = fields.String(load_default="5-4-3", validate=validate.OneOf(GAME_KINDS))
    two_player_games = two_player_field()
    strategy = fields.String(load_default="optimize", validate=validate.OneOf(STRATEGIES))
    plans = fields.Integer(strict=True, load_default=30, validate=validate.Range(1, MAX_PLANS))
    seed = fields.Integer(
        strict=True,
        validate=validate.Range(0, MAX_SEED),
        metadata={"description": "Seating seed; drawn at random when not given."},
    )

    @validates_schema
    def _unique_ids(self, data: dict[str, Any], **_: Any) -> None:
        refuse_repeats(
            [entrant["id"] for entrant in data["players"]], ("players",), FieldError, ("id",)
        )
        check_plan_work(data, len(data["players"]))


class StandingOut(Schema):
    player = fields.String(required=True)
    name = fields.String(allow_none=True)
    strikes = StrikesNumber(required=True)
    strikes_exact = fields.String(required=True)
    games = fields.Integer(required=True)
    opponents_met = fields.Integer(required=True)
    status = fields.String(
        required=True, validate=validate.OneOf(["active", "eliminated", "dropped"])
    )
    eliminated_after_round = fields.Integer(allow_none=True)
    dropped_before_round = fields.Integer(allow_none=True)


class EndingOut(Schema):
    finished = fields.Boolean(required=True)
    winners = fields.List(fields.String(), required=True)
    rule = fields.String(required=True)
    reason = fields.String(required=True)
    tiebreak_game = fields.Boolean(
        required=True,
        metadata={
            "description": "Two winners may play a 2-player game to decide (start it "
            "with POST .../rounds)."
        },
    )


class TournamentOut(Schema):
    id = fields.String(required=True)
    name = fields.String(allow_none=True)
    game = fields.String(required=True)
    threshold = fields.Integer(required=True)
    two_player_games = fields.Boolean(required=True)
    strategy = fields.String(required=True)
    plans = fields.Integer(required=True)
    seed = fields.Integer(required=True)
    created_at = fields.DateTime(required=True)
    revision = fields.Integer(required=True)
    status = round_status()
    current_round = fields.Integer(allow_none=True, required=True)
    standings = fields.List(fields.Nested(StandingOut), required=True)
    ending = fields.Nested(EndingOut, allow_none=True, required=True)
    winners = fields.List(fields.String(), required=True)


class CreatedOut(TournamentOut, TokenOut):
    pass


class TableOut(Schema):
    table = fields.Integer(required=True)
    group = fields.Integer(required=True)
    players = fields.List(fields.String(), required=True)
    result = fields.List(fields.Nested(StrikesOut), allow_none=True, required=True)


class TableEnteredOut(TableOut):
    changes = changes_field()


class RoundOut(Schema):
    tournament = fields.String(required=True)
    round = fields.Integer(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["random", "split", "tiebreak"]))
    status = fields.String(required=True, validate=validate.OneOf(["open", "closed"]))
    tables = fields.List(fields.Nested(TableOut), required=True)
    byes = fields.List(fields.String(), required=True)
    detrimental_points = fields.Integer(required=True)
    eliminated = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Players eliminated after this round (once it is closed)."},
    )
    ending = fields.Nested(EndingOut, allow_none=True, required=True)
