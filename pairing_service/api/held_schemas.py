"""The schemas every held format's share: an entrant, the entrants, the event's name, the
fields every read starts with, the director token, what a correction changed, a late
entrant, no-shows. How an answer reads the store's and the engine's objects is
``held_views.py``."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from ..store import Held
from .common import NAME_LENGTH, player_id, printable, unique_items


class EntrantIn(Schema):
    """A registered player: an id, and a name to show."""

    id = player_id(example="ann")
    name = fields.String(allow_none=True, validate=[validate.Length(max=NAME_LENGTH), printable])


def entrants(entrant: type[Schema], fewest: int, most: int) -> fields.List:  # type: ignore[type-arg]
    """Every entrant of a tournament at its creation."""
    return fields.List(
        fields.Nested(entrant),
        required=True,
        validate=validate.Length(fewest, most),
        metadata={"description": f"Every entrant, {fewest}-{most}; ids unique."},
    )


def event_name() -> fields.String:
    return fields.String(
        allow_none=True,
        validate=[validate.Length(max=200), printable],
        metadata={"description": "The event's name, shown to players.", "example": "Club night"},
    )


class HeldOut(Schema):
    """The fields every held tournament's read starts with."""

    id = fields.String(required=True)
    name = fields.String(allow_none=True, required=True)
    created_at = fields.DateTime(required=True)
    revision = fields.Integer(
        required=True, metadata={"description": "Bumped by every action the log appends."}
    )


class TokenOut(Schema):
    """The director token, answered once, by the create."""

    token = fields.String(
        required=True,
        metadata={
            "description": "The director token: send it as `Authorization: Bearer ...` "
            "on every write. Shown only here."
        },
    )


def held_row(held: Held[Any]) -> dict[str, Any]:
    """The :class:`HeldOut` fields of a held tournament, for a format whose answers are
    still built as dicts (a :class:`HeldView` needs none)."""
    return {
        "id": held.id,
        "name": held.name,
        "created_at": held.created_at,
        "revision": held.revision,
    }


def changes_field() -> fields.List:  # type: ignore[type-arg]
    return fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "What a correction of a round (or stage, or season) that is no "
            "longer the current one changed beyond its own result, in words; the history "
            "entry says the same. Empty otherwise."
        },
    )


class LateEntrantIn(EntrantIn):
    """A player who joins after the tournament was created (before a round starts)."""


class NoShowsIn(Schema):
    no_shows = fields.List(
        player_id(),
        required=True,
        validate=[validate.Length(1, 100), unique_items],
        metadata={
            "description": "The players seated in the round who did not come: they are "
            "dropped and the round is seated again without them.",
            "example": ["eve"],
        },
    )
