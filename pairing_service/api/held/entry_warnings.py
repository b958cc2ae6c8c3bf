"""The ``warnings`` of a held event's read: namesakes among the players the request entered.

An event's read answers its creation, a late entry, a drop, a settings write and a plain
GET alike; only the answers to the requests that enter players warn. Two people may share
a name, so a namesake is accepted and told of, never refused (``engine/names.py``)."""

from __future__ import annotations

from typing import Any

from flask import request
from marshmallow import fields

from ...engine.names import Named, namesake_warnings
from .schemas import CreatedNamesakes

DESCRIPTION = (
    "What the organiser should check about the players this request entered (a create's "
    "players, a late entrant): a name another player has too. Accepted, since two people "
    "may share a name; tell them apart (an initial, a town). Empty for any other request."
)


def _late_entrant() -> str | None:
    """The id a late entry's body gives (``POST …/players``); None for other requests."""
    rule = request.url_rule.rule if request.url_rule is not None else ""
    if request.method != "POST" or not rule.endswith("/players") or not request.is_json:
        return None
    body = request.get_json(silent=True)
    entrant = body.get("id") if isinstance(body, dict) else None
    return entrant if isinstance(entrant, str) else None


class EntryWarnings(CreatedNamesakes):
    """Reads the event's state (``attribute``, a :class:`Named`) for a late entrant's
    namesakes; a create's are among the players its body lists (``schemas.py``)."""

    def __init__(self, attribute: str = "state", **kwargs: Any) -> None:
        metadata = {"description": DESCRIPTION}
        super().__init__(fields.String(), attribute=attribute, metadata=metadata, **kwargs)

    def serialize(self, attr: str, obj: Any, accessor: Any = None, **kwargs: Any) -> Any:
        late = _late_entrant()
        if late is None:
            return super().serialize(attr, obj, accessor, **kwargs)
        state = self.get_value(obj, attr, accessor=accessor)
        assert isinstance(state, Named)  # every held format's state names its players
        return namesake_warnings(state.names().items(), new=[late])
