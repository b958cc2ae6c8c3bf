"""Request and response schemas of the Scrabble final-round advisor (bounds stated here)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates

from ..engine.scrabble.advisor import MAX_VICTORS
from .common import ID_LENGTH, NAME_LENGTH, printable

MAX_PLAYERS = 2000
MAX_GAMES = 500
MAX_SPREAD = 1_000_000
MAX_WINS = 1000


class PlayerIn(Schema):
    id = fields.String(
        required=True,
        validate=[validate.Length(1, ID_LENGTH), printable],
        metadata={"description": f"Unique player id, 1-{ID_LENGTH} characters.", "example": "A"},
    )
    name = fields.String(
        allow_none=True,
        validate=[validate.Length(max=NAME_LENGTH), printable],
        metadata={"example": "Ann"},
    )
    wins = fields.Float(
        required=True,
        validate=validate.Range(0, MAX_WINS),
        metadata={
            "description": "Wins so far, a multiple of 0.5 (a draw is half a win).",
            "example": 8,
        },
    )
    spread = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(-MAX_SPREAD, MAX_SPREAD),
        metadata={"description": "Cumulative spread (cume).", "example": 412},
    )
    rank = fields.Integer(
        strict=True,
        validate=validate.Range(1, MAX_PLAYERS),
        metadata={
            "description": "Optional; if given for one player, give it for all "
            "(a permutation of 1..n that agrees with wins)."
        },
    )
    opponents = fields.List(
        fields.String(allow_none=True, validate=[validate.Length(1, ID_LENGTH), printable]),
        validate=validate.Length(max=MAX_GAMES),
        metadata={"description": "Previous opponents' ids in round order; null for a bye."},
    )

    @validates("wins")
    def _half_steps(self, value: float, **_: Any) -> None:
        if not (value * 2).is_integer():
            raise ValidationError("wins must be a multiple of 0.5")


class FinalRoundIn(Schema):
    players = fields.List(
        fields.Nested(PlayerIn),
        required=True,
        validate=validate.Length(1, MAX_PLAYERS),
        metadata={"description": f"The standings, 1-{MAX_PLAYERS} players."},
    )
    victors = fields.Integer(
        strict=True,
        load_default=2,
        validate=validate.Range(1, MAX_VICTORS),
        metadata={"description": "How many players share the victory (the seed's case is 2)."},
    )
    max_spread_per_game = fields.Integer(
        strict=True,
        allow_none=True,
        load_default=None,
        validate=validate.Range(1, 10_000),
        metadata={
            "description": "Largest spread a player can gain or lose in one game. Null: unbounded, "
            "so clinching is decided on wins only (tsh assumes 500, COP 250)."
        },
    )


class RuleOut(Schema):
    id = fields.String(required=True)
    source = fields.String(required=True, validate=validate.OneOf(["table", "fallback"]))
    method = fields.String(required=True)
    text = fields.String(required=True)
    reading = fields.String()


class PairingOut(Schema):
    players = fields.List(fields.String(), required=True)
    bye = fields.Boolean(required=True)
    ranks = fields.List(fields.Integer(), required=True)
    repeats = fields.Integer(
        required=True, metadata={"description": "Previous meetings of the pair."}
    )
    reason = fields.String(required=True)


class PrincipleOut(Schema):
    id = fields.String(required=True, validate=validate.OneOf(["GP1", "GP2", "GP3", "GP4"]))
    status = fields.String(
        required=True,
        validate=validate.OneOf(
            ["satisfied", "overridden", "not_applicable", "violated", "unverified"]
        ),
    )
    reason = fields.String(required=True)


class NeedOut(Schema):
    player = fields.String(required=True)
    rank = fields.Integer(required=True)
    text = fields.String(required=True)


class FinalRoundOut(Schema):
    configuration = fields.String(required=True, metadata={"example": "0/0/1/2"})
    rule = fields.Nested(RuleOut, required=True)
    pairings = fields.List(fields.Nested(PairingOut), required=True)
    gibsonized = fields.List(fields.String(), required=True)
    contenders = fields.List(fields.String(), required=True)
    principles = fields.List(fields.Nested(PrincipleOut), required=True)
    needs = fields.List(fields.Nested(NeedOut), required=True)
    warnings = fields.List(fields.String(), required=True)
    clinching = fields.String(required=True, metadata={"description": "How clinching was decided."})
    max_spread_per_game = fields.Integer(allow_none=True, required=True)
    victors = fields.Integer(required=True)
