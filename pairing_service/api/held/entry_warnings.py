"""The ``warnings`` of a held event's read: namesakes among the players the request entered.

An event's read answers its creation, a late entry, a drop, a settings write and a plain
GET alike; only the answers to the requests that enter players warn. The route that
enters them finds the warnings (:func:`entry_warnings`) and hands them to its answer (a
view's ``warnings``, or the key of an answer built as a dict): the answer never reads the
request. Two people may share a name, so a namesake is accepted and told of, never
refused (``engine/names.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from marshmallow import fields

from ...engine.event_log import Entry
from ...engine.names import Named, namesake_warnings
from ...engine.round_ledger import LateEntry

DESCRIPTION = (
    "What the organiser should check about the players this request entered (a create's "
    "players, a late entrant): a name another player has too. Accepted, since two people "
    "may share a name; tell them apart (an initial, a town). Empty for any other request."
)


def entry_warnings(state: object, entered: Sequence[str] | None = None) -> list[str]:
    """Namesakes among the players a request entered: ``entered`` (a late entrant), or,
    for a creation (None), every player of the ``state`` it made. ``state`` is the event
    after the request (a :class:`Named`: every held format's state names its players)."""
    assert isinstance(state, Named)
    return namesake_warnings(state.names().items(), new=entered)


def late_entrant(entry: Entry | None) -> list[str]:
    """The player a late entry logged (a round-by-round format's :class:`LateEntry`)."""
    event = None if entry is None else entry.action.event
    return [event.player] if isinstance(event, LateEntry) else []


class EntryWarnings(fields.List):  # type: ignore[type-arg]
    """The warnings the route found (``attribute``: a view's ``warnings``, or a key of an
    answer built as a dict); every other answer of the event has none."""

    def __init__(self, attribute: str = "warnings", **kwargs: Any) -> None:
        metadata = {"description": DESCRIPTION}
        super().__init__(fields.String(), attribute=attribute, metadata=metadata, **kwargs)
