"""The ``warnings`` of a held event's read: namesakes among the players the request entered.

An event's read answers its creation, a late entry, a drop, a settings write and a plain
GET alike; only the answers to the requests that enter players warn. The route that
enters them finds the warnings (:func:`created_warnings`, :func:`entered_warnings`) and
hands them to its answer (a view's ``warnings``, or the key of an answer built as a
dict): the answer never reads the request. Two people may share a name, so a namesake is
accepted and told of, never refused (``engine/names.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from marshmallow import fields

from ...engine.event_log import Action, Entry
from ...engine.names import Named, namesake_warnings
from ...engine.round_ledger import LateEntry

DESCRIPTION = (
    "What the organiser should check about the players this request entered (a create's "
    "players, a late entrant): a name another player has too. Accepted, since two people "
    "may share a name; tell them apart (an initial, a town). Empty for any other request."
)


class Listed(Protocol):
    """A player as a creation lists them (every format's creation names its players)."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str | None: ...


def created_warnings(created: Action) -> list[str]:
    """Namesakes among the players a creation lists: a create enters every one of them.
    Read from the creation decided (its typed event), not from the tournament answered:
    a retried create answers the tournament as it is now, late entrants and all."""
    listed: Sequence[Listed] = getattr(created.event, "players", ())
    return namesake_warnings((player.id, player.name) for player in listed)


def entered_warnings(state: object, entered: Sequence[str]) -> list[str]:
    """Namesakes that the players just ``entered`` (late entrants) share with anyone of the
    event (``state``, after the entry: every held format's state names its players)."""
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
