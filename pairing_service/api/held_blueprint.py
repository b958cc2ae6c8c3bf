"""What every held format's resource module is built on: :class:`HeldBlueprint` (the write
rate limit applies to the writes of exactly these blueprints, ``ratelimit.py``), the app's
store and ledgers, the answers of a create and of a late entry, and :class:`HeldResource`,
what the log routes and the director's list need of the module."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any, TypeVar

from flask import current_app, url_for
from marshmallow import Schema

from ..engine.event_log import Entry, Ledger
from ..store import Held, HeldStore
from .director_token import AUTH_DOC
from .parsing import StrictBlueprint

F = TypeVar("F", bound=Callable[..., Any])
L = TypeVar("L", bound=Ledger[Any])

TOURNAMENT = "/<hex32:tournament_id>"
WRITE_ERRORS = (401, 403, 404, 409, 429)

Shape = Callable[[Held[Any]], dict[str, Any]]
StandingsTable = Callable[[Held[Any]], tuple[list[str], list[Sequence[Any]]]]
Status = Callable[[Held[Any]], str]


class HeldBlueprint(StrictBlueprint):
    """The blueprint of a format the service holds: its writes are rate-limited."""

    has_log_routes = False  # set by log_routes.add_log_routes

    def documents(self, *statuses: int) -> Callable[[F], F]:
        """Document the problem responses a route can give."""

        def decorate(view: F) -> F:
            for status in statuses:
                view = self.alt_response(status, response=HTTPStatus(status).name)(view)
            return view

        return decorate

    def writes(self) -> Callable[[F], F]:
        """Document a write: the bearer token, and the problems a write can give."""

        def decorate(view: F) -> F:
            documented: F = self.doc(**AUTH_DOC)(self.documents(*WRITE_ERRORS)(view))
            return documented

        return decorate


def held_store() -> HeldStore:
    found: HeldStore = current_app.extensions["pairing_store"]
    return found


def ledger_of(fmt: str) -> Ledger[Any]:
    """The app's ledger of the format ``fmt`` (built once, with the rules loaded at
    start-up: ``formats.ledgers``)."""
    found: Ledger[Any] = current_app.extensions["pairing_ledgers"][fmt]
    return found


def ledger(kind: type[L]) -> L:
    """The app's ledger of this format."""
    found = ledger_of(kind.format)
    assert isinstance(found, kind)
    return found


def created_answer(
    held: Held[Any], token: str, shape: Shape, endpoint: str
) -> tuple[dict[str, Any], int, dict[str, str]]:
    """201 with the tournament, its token (once), and where to read it."""
    location = url_for(endpoint, tournament_id=held.id)
    return dict(shape(held), token=token), 201, {"Location": location}


def entered_answer(
    held: Held[Any], shape: Shape, endpoint: str
) -> tuple[dict[str, Any], int, dict[str, str]]:
    """201 with the tournament a late entrant has just joined, and where to read it."""
    return shape(held), 201, {"Location": url_for(endpoint, tournament_id=held.id)}


def changes_of(entry: Entry | None) -> list[str]:
    """What the action just logged says it changed (nothing, for most actions)."""
    return list(entry.data.get("changes", ())) if entry is not None else []


@dataclass(frozen=True)
class HeldResource:
    """A held format's resource module, as the log routes and the director's list use it."""

    blueprint: HeldBlueprint
    read_schema: type[Schema]  # what the tournament's own page answers
    shape: Shape  # the tournament in that schema
    standings: StandingsTable  # printed by the export as CSV or text
    read_endpoint: str  # the tournament's own page, linked from the director's list
    status: Status  # where the tournament stands, in a word, for the director's list
