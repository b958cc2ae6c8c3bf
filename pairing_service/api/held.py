"""What every held format shares over HTTP, written once.

- the director token: ``Authorization: Bearer <token>`` on every write (401 without one;
  the store answers 403 for another tournament's token);
- :class:`HeldBlueprint`: the blueprint of a held format; the write rate limit applies to
  the writes of exactly these blueprints (``ratelimit.py``);
- :func:`add_log_routes`: ``GET …/{id}/history``, ``POST …/{id}/undo``,
  ``POST …/{id}/token`` (a new director token) and ``GET …/{id}/export`` (JSON, or the
  standings as CSV or printable text) for a format, from its read shape;
- :func:`tabular`: any table a format prints (a round's seating, its standings) as CSV
  or plain text, chosen by ``?format=`` or the ``Accept`` header;
- ``listing``: ``GET /v1/held`` and ``POST /v1/held/lookup``, the tournaments of every
  format whose director tokens the caller presents.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from http import HTTPStatus
from typing import Any, TypeVar

from flask import Response, current_app, request, url_for
from flask.views import MethodView
from marshmallow import Schema, fields, validate

from ..engine.event_log import Entry, Ledger, undone_by
from ..store import Held, HeldStore
from ..store.tournament_store import HeldRow
from .common import NAME_LENGTH, player_id, prefers, printable, unique_items
from .errors import MissingToken, problem
from .parsing import StrictBlueprint

F = TypeVar("F", bound=Callable[..., Any])
L = TypeVar("L", bound=Ledger[Any])

MAX_TOKEN_LENGTH = 200
TOURNAMENT = "/<hex32:tournament_id>"
AUTH_DOC: dict[str, Any] = {"security": [{"BearerAuth": []}]}
WRITE_ERRORS = (401, 403, 404, 409, 429)

Shape = Callable[[Held[Any]], dict[str, Any]]
StandingsTable = Callable[[Held[Any]], tuple[list[str], list[Sequence[Any]]]]
Status = Callable[[Held[Any]], str]


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


def entered_answer(
    held: Held[Any], shape: Shape, endpoint: str
) -> tuple[dict[str, Any], int, dict[str, str]]:
    """201 with the tournament a late entrant has just joined, and where to read it."""
    return shape(held), 201, {"Location": url_for(endpoint, tournament_id=held.id)}


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


def changes_of(entry: Entry | None) -> list[str]:
    """What the action just logged says it changed (nothing, for most actions)."""
    return list(entry.data.get("changes", ())) if entry is not None else []


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


# --- tables as CSV or printable text --------------------------------------------------------

TABLE_FORMATS = ("json", "csv", "text")


class TableFormatIn(Schema):
    format = fields.String(
        validate=validate.OneOf(TABLE_FORMATS),
        metadata={
            "description": "json (default), csv, or text (printable); without it, "
            "`Accept: text/csv` or `Accept: text/plain` choose."
        },
    )


def tabular_doc(what: str, schema: type[Schema]) -> dict[str, Any]:
    """The OpenAPI of a read that answers ``schema`` as JSON, and also CSV and plain text."""
    return {
        "responses": {
            "200": {
                "description": f"{what} (JSON), or as CSV or printable plain text.",
                "content": {
                    "application/json": {"schema": schema},
                    "text/csv": {"schema": {"type": "string"}},
                    "text/plain": {"schema": {"type": "string"}},
                },
            }
        }
    }


def table_format(query: dict[str, Any]) -> str:
    """json, csv or text: ``?format=`` first, then what the Accept header prefers."""
    if "format" in query:
        wanted: str = query["format"]
        return wanted
    if prefers("text/csv"):
        return "csv"
    return "text" if prefers("text/plain") else "json"


@dataclass(frozen=True)
class Table:
    """A table to print: a title (plain text only), a header and rows."""

    title: str
    header: list[str]
    rows: list[Sequence[Any]]


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _numeric(value: Any) -> bool:
    return isinstance(value, int | float | Decimal | Fraction) and not isinstance(value, bool)


def text_table(table: Table) -> str:
    """The table as a director prints it: a title, then aligned columns (numbers to the
    right), one line a row."""
    cells = [[_cell(v) for v in row] for row in [table.header, *table.rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(table.header))]
    right = [
        bool(table.rows) and all(_numeric(row[i]) or row[i] is None for row in table.rows)
        for i in range(len(table.header))
    ]

    def line(row: list[str]) -> str:
        padded = (
            value.rjust(width) if flush else value.ljust(width)
            for value, width, flush in zip(row, widths, right, strict=True)
        )
        return "  ".join(padded).rstrip()

    rule = "  ".join("-" * width for width in widths)
    body = [line(row) for row in cells[1:]] or ["(none)"]
    return "\n".join([table.title, "", line(cells[0]), rule, *body]) + "\n"


def tabular(table: Table, wanted: str, filename: str) -> Response:
    """The table as CSV (a download named ``filename``.csv) or as printable text."""
    if wanted == "csv":
        return Response(
            standings_csv(table.header, table.rows),
            mimetype="text/csv",
            headers={"Content-Disposition": f'attachment; filename="{filename}.csv"'},
        )
    return Response(text_table(table), mimetype="text/plain")


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
        validate=validate.OneOf(TABLE_FORMATS),
        metadata={
            "description": "json (default): the whole tournament; csv: its standings; text: "
            "its standings, printable. Without it, `Accept: text/csv` or `text/plain` choose."
        },
    )


class NewTokenOut(Schema):
    tournament = fields.String(required=True)
    revision = fields.Integer(required=True)
    token = fields.String(
        required=True,
        metadata={
            "description": "The new director token; the one sent with this request no longer "
            "works. Shown only here: the history records that a token was replaced, never "
            "the token."
        },
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


# A cell a spreadsheet would run as a formula: a name like "=HYPERLINK(...)" is written
# with a leading apostrophe, which spreadsheets show as text (OWASP's advice for CSV).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def standings_csv(header: list[str], rows: Sequence[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([csv_cell(value) for value in row] for row in rows)
    return out.getvalue()


@dataclass(frozen=True)
class Listed:
    """How the list of a director's tournaments shows one format's."""

    kind: type[Ledger[Any]]
    read_endpoint: str  # the tournament's own page
    status: Status


LISTED: dict[str, Listed] = {}  # by format, filled by add_log_routes


def add_log_routes(
    blp: HeldBlueprint,
    kind: type[Ledger[Any]],
    read_schema: type[Schema],
    shape: Shape,
    standings: StandingsTable,
    *,
    read_endpoint: str,
    status: Status,
) -> None:
    """History, undo, a new token and export under ``blp`` for tournaments of the format
    ``kind``; and how the list of a director's tournaments shows them (``read_endpoint``,
    the tournament's own page, and its ``status`` in a word)."""
    LISTED[kind.format] = Listed(kind, read_endpoint, status)
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
    export_doc = {
        "responses": {
            "200": {
                "description": "The whole tournament (JSON), or its standings (CSV, or "
                "printable plain text).",
                "content": {
                    "application/json": {"schema": export_out},
                    "text/csv": {"schema": {"type": "string"}},
                    "text/plain": {"schema": {"type": "string"}},
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
            is left). The undo is itself kept in the history; undo again to go further back.
            A replaced director token is never brought back."""
            held, undo = held_store().undo(ledger(kind), tournament_id, director_token())
            target = next(e for e in held.log if e.seq == undo.data["entry"])
            return {
                "undone": shape_entry(target, ledger(kind), undo.seq),
                "tournament": shape(held),
            }

    @blp.route(TOURNAMENT + "/token")
    class Token(MethodView):
        @blp.response(200, NewTokenOut)
        @blp.writes()
        def post(self, tournament_id: str) -> Any:
            """Replace the director token: send the current one, get a new one (once).
            The current one stops working at once; only the new one's hash is kept, and the
            history says a token was replaced, never which. Undo does not revive the old one."""
            held, token = held_store().replace_token(ledger(kind), tournament_id, director_token())
            return {"tournament": held.id, "revision": held.revision, "token": token}

    @blp.route(TOURNAMENT + "/export")
    class Export(MethodView):
        @blp.arguments(ExportIn, location="query")
        @blp.response(200, export_out)
        @blp.doc(**export_doc)
        @blp.documents(404)
        def get(self, query: dict[str, Any], tournament_id: str) -> Any:
            """The whole tournament as JSON (its state and every action), or its standings
            as CSV (`?format=csv` or `Accept: text/csv`) or as printable text (`?format=text`
            or `Accept: text/plain`)."""
            held = held_store().read(ledger(kind), tournament_id)
            wanted = table_format(query)
            if wanted != "json":
                header, rows = standings(held)
                title = f"{held.name or held.format}: standings"
                table = Table(title, header, rows)
                return tabular(table, wanted, f"{held.format}-{held.id}-standings")
            return {
                "format": held.format,
                "tournament": shape(held),
                "history": shape_history(held, ledger(kind)),
            }


# --- the tournaments a director holds -------------------------------------------------------

MAX_LOOKUP_TOKENS = 50

listing = HeldBlueprint(
    "held",
    __name__,
    url_prefix="/v1/held",
    description="The tournaments of every format that a director holds, found by the "
    "director tokens they present.",
)


class TokensIn(Schema):
    tokens = fields.List(
        fields.String(validate=validate.Length(1, MAX_TOKEN_LENGTH)),
        required=True,
        validate=validate.Length(1, MAX_LOOKUP_TOKENS),
        metadata={
            "description": f"The director tokens the caller holds, 1-{MAX_LOOKUP_TOKENS} "
            "(one per tournament: a token is issued per tournament)."
        },
    )


class HeldLinksOut(Schema):
    self = fields.String(required=True, metadata={"description": "The tournament."})
    history = fields.String(required=True)
    export = fields.String(required=True)


class HeldListedOut(Schema):
    token = fields.Integer(
        required=True,
        metadata={"description": "Which of the tokens presented holds it (from 0)."},
    )
    id = fields.String(required=True)
    format = fields.String(
        required=True,
        validate=validate.OneOf(["strikes", "diagonal", "puffing_billy", "league"]),
    )
    name = fields.String(allow_none=True, required=True)
    created_at = fields.DateTime(required=True)
    revision = fields.Integer(required=True)
    status = fields.String(
        required=True,
        metadata={
            "description": "strikes and Diagonal Race: registered, round_open, "
            "between_rounds or finished; Puffing Billy: its stage (preliminary, final, "
            "finished); a league organisation: its latest season's (signup, running, "
            "closed), or no_season."
        },
    )
    links = fields.Nested(HeldLinksOut, required=True)


class HeldListOut(Schema):
    tournaments = fields.List(fields.Nested(HeldListedOut), required=True)
    unmatched = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "The tokens presented (from 0) that hold no tournament."},
    )


def listed(row: HeldRow, index: int) -> dict[str, Any] | None:
    """A tournament as the list shows it (None for a format this service does not list)."""
    shown = LISTED.get(row.format)
    if shown is None:
        return None
    held = held_store().read(ledger(shown.kind), row.id)
    page = url_for(shown.read_endpoint, tournament_id=row.id)
    return {
        "token": index,
        "id": row.id,
        "format": row.format,
        "name": row.name,
        "created_at": row.created_at,
        "revision": held.revision,
        "status": shown.status(held),
        "links": {"self": page, "history": f"{page}/history", "export": f"{page}/export"},
    }


def held_list(tokens: Sequence[str]) -> dict[str, Any]:
    """The tournaments whose director token the caller presented; nothing about others."""
    found = [
        item
        for index, row in held_store().held_by(tokens)
        if (item := listed(row, index)) is not None
    ]
    matched = {tokens[item["token"]] for item in found}
    return {
        "tournaments": found,
        "unmatched": [i for i, token in enumerate(tokens) if token not in matched],
    }


@listing.route("")
class HeldList(MethodView):
    @listing.response(200, HeldListOut)
    @listing.doc(**AUTH_DOC)
    @listing.documents(401, 403)
    def get(self) -> Any:
        """The tournament (of any format) that the `Authorization: Bearer` token directs
        (403 when it directs none). For several tokens at once, `POST /v1/held/lookup`."""
        found = held_list([director_token()])
        if not found["tournaments"]:
            return problem(403, "this token directs no tournament")
        return found


@listing.route("/lookup")
class HeldLookup(MethodView):
    @listing.arguments(TokensIn)
    @listing.response(200, HeldListOut)
    @listing.documents(429)
    def post(self, body: dict[str, Any]) -> Any:
        """The tournaments (of every format) that a director holds, by the director tokens
        they present in the body (never in the URL, which logs keep): each with its
        format, name, status and links, and which token holds it. Tokens that hold
        nothing are listed as unmatched; nothing is said about anyone else's tournaments.
        Counted with the writes by the rate limit, as it tries tokens."""
        return held_list(body["tokens"])
