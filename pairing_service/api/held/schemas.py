"""The schemas every held format's share: an entrant, the entrants, the event's name, the
fields every read starts with, the director token, what a correction changed, a late
entrant, no-shows. What the request schemas load is ``requests.py``; how an answer reads
the store's and the engine's objects, ``views.py``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, fields, post_load, validate

from ...store import Held
from ..common import NAME_LENGTH, player_id, printable, unique_items
from ..public_url import link_warning
from .links import links_of_request
from .requests import Entered, NoShows


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


class EventLinksOut(Schema):
    page = fields.String(required=True, metadata={"description": "The public page."})
    sheet = fields.String(
        required=True, metadata={"description": "The sheet to pin up, with the page's QR code."}
    )
    desk = fields.String(
        required=True,
        metadata={
            "description": "The director's desk: add `#token=` and the director token to "
            "open it (the fragment never reaches the server)."
        },
    )


def _id_of(made: Any) -> str:
    return str(made["id"] if isinstance(made, Mapping) else made.id)


class _CreatedLinks(fields.Nested):
    """The links of the event just made, from its id (nothing the answer holds)."""

    def serialize(self, attr: str, obj: Any, accessor: Any = None, **kwargs: Any) -> Any:
        links = links_of_request(_id_of(obj))
        return self._serialize(links, attr, obj, **kwargs)  # type: ignore[no-untyped-call]


class _LinkWarning(fields.String):
    """Why the links would not open on players' phones, or None (``public_url.py``)."""

    def serialize(self, attr: str, obj: Any, accessor: Any = None, **kwargs: Any) -> Any:
        return self._serialize(link_warning(), attr, obj, **kwargs)


class TokenOut(Schema):
    """The director token, answered once, by the create; the event's pages, linked."""

    token = fields.String(
        required=True,
        metadata={
            "description": "The director token: send it as `Authorization: Bearer ...` "
            "on every write. Shown only here."
        },
    )
    links = _CreatedLinks(
        EventLinksOut,
        required=True,
        metadata={
            "description": "Absolute links to the event's public page, its sheet and the "
            "director's desk (also in the `Link` header), from PAIRING_PUBLIC_URL when set."
        },
    )
    # The route finds them, among the players it entered (``entry_warnings.py``).
    warnings = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "What the organiser should check: players entered under the "
            "same name (accepted: two people may share one; tell them apart on pages)."
        },
    )
    link_warning = _LinkWarning(
        allow_none=True,
        required=True,
        metadata={
            "description": "Null, or why the links would not open on players' phones (built "
            "from a loopback or private address with no PAIRING_PUBLIC_URL): tell the "
            "organiser before anything is printed or mailed."
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

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> Entered:
        return Entered.of(data)


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

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> NoShows:
        return NoShows(tuple(data["no_shows"]))
