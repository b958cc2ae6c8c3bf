"""What every held format shares over HTTP, written once.

- the director token: ``Authorization: Bearer <token>`` on every write (401 without one;
  the store answers 403 for another tournament's token);
- :class:`HeldBlueprint`: the blueprint of a held format; the write rate limit applies to
  the writes of exactly these blueprints (``ratelimit.py``);
- :func:`add_log_routes`: ``GET …/{id}/history``, ``POST …/{id}/undo`` and
  ``GET …/{id}/export`` (JSON, or the standings as CSV) for a format, from its read shape.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from http import HTTPStatus
from typing import Any, TypeVar

from flask import Response, current_app, request, url_for
from flask.views import MethodView
from marshmallow import Schema, fields, validate

from ..engine.held import Entry, Ledger, undone_by
from ..store import Held, HeldStore
from .common import NAME_LENGTH, player_id, prefers, printable
from .errors import MissingToken
from .parsing import StrictBlueprint

F = TypeVar("F", bound=Callable[..., Any])
L = TypeVar("L", bound=Ledger[Any])

MAX_TOKEN_LENGTH = 200
TOURNAMENT = "/<hex32:tournament_id>"
AUTH_DOC: dict[str, Any] = {"security": [{"BearerAuth": []}]}
WRITE_ERRORS = (401, 403, 404, 409, 429)

Shape = Callable[[Held[Any]], dict[str, Any]]
StandingsTable = Callable[[Held[Any]], tuple[list[str], list[Sequence[Any]]]]


class HeldBlueprint(StrictBlueprint):
    """The blueprint of a format the service holds: its writes are rate-limited."""

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


def director_token() -> str:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise MissingToken
    return token[: MAX_TOKEN_LENGTH + 1]


def held_store() -> HeldStore:
    found: HeldStore = current_app.extensions["pairing_store"]
    return found


def ledger(kind: type[L]) -> L:
    """The app's ledger of this format (built once, with the rules loaded at start-up)."""
    found = current_app.extensions["pairing_ledgers"][kind.format]
    assert isinstance(found, kind)
    return found


# --- what every held format's schemas share ---------------------------------------------------


class EntrantIn(Schema):
    """A registered player: an id, and a name to show."""

    id = player_id(example="ann")
    name = fields.String(allow_none=True, validate=[validate.Length(max=NAME_LENGTH), printable])


def event_name() -> fields.String:
    return fields.String(
        allow_none=True,
        validate=[validate.Length(max=200), printable],
        metadata={"description": "The event's name, shown to players.", "example": "Club night"},
    )


def round_status() -> fields.String:
    """Where a round-by-round event stands."""
    return fields.String(
        required=True,
        validate=validate.OneOf(["registered", "round_open", "between_rounds", "finished"]),
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
    """The :class:`HeldOut` fields of a held tournament."""
    return {
        "id": held.id,
        "name": held.name,
        "created_at": held.created_at,
        "revision": held.revision,
    }


def created_answer(
    held: Held[Any], token: str, shape: Shape, endpoint: str
) -> tuple[dict[str, Any], int, dict[str, str]]:
    """201 with the tournament, its token (once), and where to read it."""
    location = url_for(endpoint, tournament_id=held.id)
    return dict(shape(held), token=token), 201, {"Location": location}


# --- history, undo, export ------------------------------------------------------------------


class EntryOut(Schema):
    seq = fields.Integer(required=True, metadata={"description": "1, 2, 3, … in order."})
    kind = fields.String(required=True, metadata={"example": "result_entered"})
    at = fields.DateTime(required=True)
    actor = fields.String(required=True)
    summary = fields.String(required=True, metadata={"description": "The action in words."})
    data = fields.Dict(required=True, metadata={"description": "What the log recorded."})
    undone_by = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "The undo that took this action back, if any."},
    )


class HistoryOut(Schema):
    tournament = fields.String(required=True)
    format = fields.String(required=True)
    revision = fields.Integer(required=True)
    actions = fields.List(fields.Nested(EntryOut), required=True)


class ExportIn(Schema):
    format = fields.String(
        load_default="json",
        validate=validate.OneOf(["json", "csv"]),
        metadata={"description": "json: the whole tournament; csv: its standings."},
    )


def shape_history(held: Held[Any], kind: Ledger[Any]) -> list[dict[str, Any]]:
    cancelled = undone_by(held.log)
    return [shape_entry(entry, kind, cancelled.get(entry.seq)) for entry in held.log]


def shape_entry(entry: Entry, kind: Ledger[Any], undone: int | None) -> dict[str, Any]:
    return {
        "seq": entry.seq,
        "kind": entry.kind,
        "at": entry.at,
        "actor": entry.actor,
        "summary": kind.summary(entry.action),
        "data": dict(kind.public(entry.action)),
        "undone_by": undone,
    }


def standings_csv(header: list[str], rows: Sequence[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(["" if value is None else value for value in row] for row in rows)
    return out.getvalue()


def add_log_routes(
    blp: HeldBlueprint,
    kind: type[Ledger[Any]],
    read_schema: type[Schema],
    shape: Shape,
    standings: StandingsTable,
) -> None:
    """History, undo and export under ``blp`` for tournaments of the format ``kind``."""
    prefix = read_schema.__name__.removesuffix("Out")
    undo_out = Schema.from_dict(
        {
            "undone": fields.Nested(EntryOut, required=True),
            "tournament": fields.Nested(read_schema, required=True),
        },
        name=f"{prefix}UndoOut",
    )
    export_out = Schema.from_dict(
        {
            "format": fields.String(required=True),
            "tournament": fields.Nested(read_schema, required=True),
            "history": fields.List(fields.Nested(EntryOut), required=True),
        },
        name=f"{prefix}ExportOut",
    )
    csv_doc = {
        "responses": {
            "200": {
                "description": "The whole tournament (JSON), or its standings (CSV).",
                "content": {
                    "application/json": {"schema": export_out},
                    "text/csv": {"schema": {"type": "string"}},
                },
            }
        }
    }

    @blp.route(TOURNAMENT + "/history")
    class History(MethodView):
        @blp.response(200, HistoryOut)
        @blp.documents(404)
        def get(self, tournament_id: str) -> Any:
            """Every action of the tournament, oldest first: corrections beside the
            entries they replace, undone actions marked with the undo that took them back."""
            held = held_store().read(ledger(kind), tournament_id)
            return {
                "tournament": held.id,
                "format": held.format,
                "revision": held.revision,
                "actions": shape_history(held, ledger(kind)),
            }

    @blp.route(TOURNAMENT + "/undo")
    class Undo(MethodView):
        @blp.response(200, undo_out)
        @blp.writes()
        def post(self, tournament_id: str) -> Any:
            """Take back the latest action still in effect (409 when only the creation
            is left). The undo is itself kept in the history; undo again to go further back."""
            held, undo = held_store().undo(ledger(kind), tournament_id, director_token())
            target = next(e for e in held.log if e.seq == undo.data["entry"])
            return {
                "undone": shape_entry(target, ledger(kind), undo.seq),
                "tournament": shape(held),
            }

    @blp.route(TOURNAMENT + "/export")
    class Export(MethodView):
        @blp.arguments(ExportIn, location="query")
        @blp.response(200, export_out)
        @blp.doc(**csv_doc)
        @blp.documents(404)
        def get(self, query: dict[str, Any], tournament_id: str) -> Any:
            """The whole tournament as JSON (its state and every action), or its standings
            as CSV (`?format=csv` or `Accept: text/csv`)."""
            held = held_store().read(ledger(kind), tournament_id)
            if query["format"] == "csv" or prefers("text/csv"):
                text = standings_csv(*standings(held))
                filename = f"{held.format}-{held.id}-standings.csv"
                return Response(
                    text,
                    mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'},
                )
            return {
                "format": held.format,
                "tournament": shape(held),
                "history": shape_history(held, ledger(kind)),
            }
