"""Answer schemas of the Scrabble final-round advisor and its audit: they dump the typed
answers of ``answers.py`` (each schema the fields of its dataclass, in the answer's
order), and the engine's objects those hold as they are (``tool_schemas.py`` holds the
requests)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, missing, validate

from ..fast_fields import FastList
from .answers import NOT_ASKED
from .tool_schemas import PrizeAmount


class BlankAsNull(fields.String):
    """A string the engine leaves blank when there is none (``RuleUsed.covers``): null."""

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> str | None:
        return super()._serialize(value or None, attr, obj, **kwargs)


class WhenAsked(FastList):
    """A list the answer holds only when the request asks for it: left out of the answer
    when it did not (``answers.NOT_ASKED``)."""

    def serialize(self, attr: str, obj: Any, accessor: Any = None, **kwargs: Any) -> Any:
        value: Any = self.get_value(obj, attr, accessor=accessor)
        if value is NOT_ASKED:
            return missing
        return super().serialize(attr, obj, accessor, **kwargs)


class RuleOut(Schema):
    """Reads the engine's ``RuleUsed`` as it is."""

    id = fields.String(
        required=True,
        metadata={
            "description": "A table row: the seed's heading exactly (0/0.5/1.5+); the "
            "fallback: the configuration."
        },
    )
    source = fields.String(
        required=True,
        validate=validate.OneOf(["table", "fallback", "prizes"]),
        metadata={"description": "prizes: the places pay differently (`prizes`)."},
    )
    method = fields.String(required=True)
    text = fields.String(required=True)
    reading = fields.String()
    covers = BlankAsNull(
        allow_none=True,
        metadata={
            "description": "A table row: the games behind it takes, as read (0/0.5/1.5 is "
            "exactly 1.5; 1.5-2 a range; 2+ and more)."
        },
    )


class PairingOut(Schema):
    players = FastList(fields.String(), required=True)
    names = FastList(
        fields.String(allow_none=True),
        required=True,
        metadata={"description": "The players' names, as given (null: none given)."},
    )
    bye = fields.Boolean(required=True)
    ranks = FastList(fields.Integer(), required=True)
    repeats = fields.Integer(
        required=True,
        metadata={
            "description": "Previous meetings of the pair (the warnings count the round's "
            "repeats, and name each back-to-back rematch and meeting past the allowance)."
        },
    )
    reason = fields.String(required=True)


class ResultOut(Schema):
    player = fields.String(required=True)
    rank = fields.Integer(required=True)
    result = fields.String(required=True, validate=validate.OneOf(["win", "draw", "loss", "bye"]))


class OutcomeOut(Schema):
    text = fields.String(required=True, metadata={"example": "#1 Ann loses, #3 Cat wins"})
    complete = fields.Boolean(
        required=True,
        metadata={"description": "False: only these results are fixed (whatever else happens)."},
    )
    results = FastList(fields.Nested(ResultOut), required=True)


class ListedOutcomeOut(OutcomeOut):
    victors = FastList(fields.String(), required=True, metadata={"description": "Certain victors."})
    decided_by_spread = FastList(
        fields.String(),
        required=True,
        metadata={"description": "Victors for some margins only: spread decides."},
    )


class SeedNoteOut(Schema):
    """Reads the engine's ``SeedNote`` as it is."""

    status = fields.String(required=True)
    reason = fields.String(required=True)
    difference = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "description": "Where the engine's verdict differs from the seed's note: why, "
            "in one line (the engine proves each principle over every outcome)."
        },
    )


class PrincipleOut(Schema):
    id = fields.String(required=True, validate=validate.OneOf(["GP1", "GP2", "GP3", "GP4"]))
    status = fields.String(
        required=True,
        validate=validate.OneOf(
            ["satisfied", "overridden", "not_applicable", "violated", "unavoidable", "unverified"]
        ),
        metadata={"description": "Decided by the outcome engine (docs/scrabble.md)."},
    )
    reason = fields.String(required=True)
    outcome = fields.Nested(
        OutcomeOut,
        allow_none=True,
        required=True,
        metadata={"description": "The outcome that proves the principle broken, if it is."},
    )
    seed = fields.Nested(
        SeedNoteOut,
        allow_none=True,
        required=True,
        metadata={"description": "What the seed's row says of this principle, if anything."},
    )


class NeedOut(Schema):
    player = fields.String(required=True)
    rank = fields.Integer(required=True)
    text = fields.String(
        required=True,
        metadata={
            "description": "Computed from the outcomes, in one line to read aloud: the "
            "simplest way to become certain of a victor place, at most one more after "
            '"or", and how many more `ways` holds. With `prizes` that pay differently, '
            'the places the player races for first ("races for 1st or 2nd; certain of '
            'the money"), or the place a settled player is certain of.'
        },
    )
    ways = FastList(
        fields.String(),
        required=True,
        metadata={
            "description": "Every way found, simplest first: own results that suffice "
            "alone, then with one other game's result, two, spread, and results unnamed."
        },
    )
    seed = fields.String(
        allow_none=True, required=True, metadata={"description": "The seed row's own words."}
    )


class AlternativeOut(Schema):
    source = fields.String(
        required=True,
        validate=validate.OneOf(["principles", "table"]),
        metadata={
            "description": "principles: ranks above the table's pairing on the principles; "
            "table: the seed's table row's pairing (when principles are preferred)."
        },
    )
    tradeoff = fields.String(required=True, metadata={"description": "The trade-off in words."})
    pairings = FastList(fields.Nested(PairingOut), required=True)
    principles = FastList(fields.Nested(PrincipleOut), required=True)
    needs = FastList(fields.Nested(NeedOut), required=True)


class PlaceReachOut(Schema):
    player = fields.String(required=True)
    rank = fields.Integer(required=True)
    best = fields.Integer(required=True, metadata={"description": "The best place still open."})
    worst = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "The worst place they are certain of; null: may miss the money."},
    )
    text = fields.String(required=True, metadata={"example": "will finish between 2nd and 4th"})
    holds = fields.String(
        required=True,
        metadata={
            "description": "The place held now, with its prize; players level on wins and "
            "spread are shown tied, as many events split the money of tied places.",
            "example": "1st–2nd (tied: 300 + 200 split)",
        },
    )


class FinalRoundOut(Schema):
    headline = fields.String(
        required=True,
        metadata={
            "description": "What to post, in one sentence, and the pairing the engine ranks "
            "beside it (above the table's on the principles, or the table's own when "
            "another is recommended), with why.",
            "example": "Post 1-3, 2-4 (row 0/0/1). The engine's 1-2, 3-4 ranks above it on "
            "GP1: it guarantees a victor from the leading win group but breaks GP4.",
        },
    )
    configuration = fields.String(required=True, metadata={"example": "0/0/1/2"})
    rule = fields.Nested(RuleOut, required=True)
    pairings = FastList(fields.Nested(PairingOut), required=True)
    gibsonized = FastList(fields.String(), required=True)
    contenders = FastList(fields.String(), required=True)
    principles = FastList(fields.Nested(PrincipleOut), required=True)
    needs = FastList(fields.Nested(NeedOut), required=True)
    alternatives = FastList(
        fields.Nested(AlternativeOut),
        required=True,
        metadata={"description": "A pairing the engine proves ranks differently, with why."},
    )
    preferred = fields.String(
        required=True,
        validate=validate.OneOf(["table", "principles"]),
        metadata={"description": "Which pairing is recommended (see `prefer`)."},
    )
    warnings = FastList(fields.String(), required=True)
    clinching = fields.String(required=True, metadata={"description": "How clinching was decided."})
    max_spread_per_game = fields.Integer(allow_none=True, required=True)
    victors = fields.Integer(
        required=True, metadata={"description": "The places that pay (with `prizes`: how many)."}
    )
    prizes = FastList(
        PrizeAmount(allow_none=True),
        allow_none=True,
        required=True,
        metadata={"description": "The prizes asked for, as given (null: victors only)."},
    )
    prize_model = fields.String(
        required=True,
        validate=validate.OneOf(["victors", "graded"]),
        metadata={
            "description": "victors: the paid places are taken as equal (the seed's model); "
            "graded: `prizes` pay differently and each place's race is paired head to head."
        },
    )
    places = FastList(
        fields.Nested(PlaceReachOut),
        required=True,
        metadata={
            "description": "With `prizes`: each player who can still finish in the money, "
            "the best place open to them and the worst they are certain of."
        },
    )
    rounds_left = fields.Integer(required=True)
    repeats_allowed = fields.Integer(
        required=True, metadata={"description": "The repeat allowance used (`repeats_allowed`)."}
    )
    round = fields.Integer(allow_none=True, required=True)
    tsh_commands = WhenAsked(
        fields.String(),
        metadata={"description": "The pairing as tsh commands, when asked for."},
    )
    outcomes = WhenAsked(
        fields.Nested(ListedOutcomeOut),
        allow_none=True,
        metadata={"description": "Every outcome, when asked for; null when there are too many."},
    )


class AuditOut(Schema):
    principles = FastList(fields.Nested(PrincipleOut), required=True)
    needs = FastList(fields.Nested(NeedOut), required=True)
    pairings = FastList(fields.Nested(PairingOut), required=True)
    recommendation = fields.Nested(FinalRoundOut, required=True)
    differences = FastList(
        fields.String(),
        required=True,
        metadata={
            "description": "How the proposal differs from the recommendation, and why it matters."
        },
    )
    matches_recommendation = fields.Boolean(required=True)
    outcomes = WhenAsked(fields.Nested(ListedOutcomeOut), allow_none=True)
