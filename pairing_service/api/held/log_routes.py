"""The log routes of every held format, written once: ``GET …/{id}/history``,
``POST …/{id}/undo``, ``POST …/{id}/token`` (a new director token) and ``GET …/{id}/export``
(JSON, or the standings as CSV or printable text), added by :func:`add_log_routes` from the
format's read (:class:`HeldResource`), for every format in the registry (``formats.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import request
from flask.views import MethodView
from marshmallow import Schema, fields, validate

from ...engine.errors import FieldError
from ...engine.event_codec import JSON
from ...engine.event_log import Entry, Ledger, undo, undone_by
from ...engine.names import Named, labels
from ...store import Held
from ..errors import problem
from .blueprint import TOURNAMENT, HeldResource, held_store, ledger_of, read_by_director
from .director_token import director_token
from .printables import TABLE_FORMATS, Table, table_format, tabular
from .views import ReadOut

ROTATION_NEEDS_A_KEY = (
    "Idempotency-Key: a new director token is issued only to a request with a key (a "
    'random UUID: -H "Idempotency-Key: $(uuidgen)"), so that a lost answer can be asked '
    "for again: the same request with the same key and the old token, within minutes, "
    "answers the same new token. Nothing was replaced; the current token still works"
)


class NamedEntry(fields.Integer):
    """The entry an undo means (required): a request without it is answered by the route,
    which names the entry it would have been (the latest action still in effect)."""

    def _validate_missing(self, value: Any) -> None:
        return None


class UndoIn(Schema):
    entry = NamedEntry(
        required=True,
        validate=validate.Range(1, 10**9),
        metadata={
            "description": "The entry meant to be undone (its `seq` in the history: the "
            "latest action still in effect). Required: without it (422, naming that entry) "
            "an undo retried after a lost answer could take back a second action."
        },
    )


@dataclass(frozen=True)
class LoggedAction:
    """An action of the log as the history shows it: the entry, told in words by its
    format's ledger, and the undo that took it back, if any."""

    entry: Entry
    ledger: Ledger[Any]
    undone_by: int | None
    director: bool = False  # read by the tournament's director: personal data shown
    names: Mapping[str, str] = field(default_factory=dict)  # player labels: names_of

    @property
    def summary(self) -> str:
        return self.ledger.summary(self.entry.action, self.names)

    @property
    def data(self) -> dict[str, JSON]:
        action = self.entry.action
        shown = self.ledger.for_director(action) if self.director else self.ledger.public(action)
        return dict(shown)


def names_of(held: Held[Any]) -> dict[str, str]:
    """How the history names each player of the tournament: by the name the organiser
    typed (namesakes with their id), by id where they gave none."""
    return labels(held.state.names()) if isinstance(held.state, Named) else {}


def logged_actions(
    held: Held[Any], ledger: Ledger[Any], director: bool = False
) -> list[LoggedAction]:
    cancelled, names = undone_by(held.log), names_of(held)
    return [
        LoggedAction(entry, ledger, cancelled.get(entry.seq), director, names) for entry in held.log
    ]


@dataclass(frozen=True)
class HeldHistory:
    """A tournament's history, as ``…/history`` answers it."""

    held: Held[Any]
    ledger: Ledger[Any]
    director: bool = False

    @property
    def actions(self) -> list[LoggedAction]:
        return logged_actions(self.held, self.ledger, self.director)


@dataclass(frozen=True)
class Undone:
    """What ``…/undo`` answers: the action taken back, and the tournament after it."""

    undone: LoggedAction
    tournament: object  # what the format's read schema dumps (HeldResource.shape)


@dataclass(frozen=True)
class Exported:
    """What ``…/export`` answers as JSON: the tournament and every action."""

    format: str
    tournament: object  # as in Undone
    history: list[LoggedAction]


@dataclass(frozen=True)
class NewToken:
    """What ``…/token`` answers: the new director token, shown once."""

    held: Held[Any]
    token: str


class EntryOut(ReadOut):
    """Reads a :class:`LoggedAction`."""

    seq = fields.Integer(
        required=True, attribute="entry.seq", metadata={"description": "1, 2, 3, … in order."}
    )
    kind = fields.String(
        required=True, attribute="entry.kind", metadata={"example": "result_entered"}
    )
    at = fields.DateTime(required=True, attribute="entry.at")
    actor = fields.String(required=True, attribute="entry.actor")
    summary = fields.String(required=True, metadata={"description": "The action in words."})
    data = fields.Dict(required=True, metadata={"description": "What the log recorded."})
    undone_by = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "The undo that took this action back, if any."},
    )


class HistoryOut(ReadOut):
    """Reads a :class:`HeldHistory`."""

    tournament = fields.String(required=True, attribute="held.id")
    format = fields.String(required=True, attribute="held.format")
    revision = fields.Integer(required=True, attribute="held.revision")
    actions = fields.List(fields.Nested(EntryOut), required=True)


class ExportIn(Schema):
    format = fields.String(
        validate=validate.OneOf(TABLE_FORMATS),
        metadata={
            "description": "json (default): the whole tournament; csv: its standings; text: "
            "its standings, printable. Without it, `Accept: text/csv` or `text/plain` choose."
        },
    )


class NewTokenOut(ReadOut):
    """Reads a :class:`NewToken`."""

    tournament = fields.String(required=True, attribute="held.id")
    revision = fields.Integer(required=True, attribute="held.revision")
    token = fields.String(
        required=True,
        metadata={
            "description": "The new director token; the one sent with this request no longer "
            "works (only this request's retry, with its Idempotency-Key, answers this "
            "one again, for minutes and until it is first used). Shown only here: the "
            "history records that a token was replaced, never the token."
        },
    )


def _name_the_entry(held: Held[Any], fmt: str) -> FieldError:
    """The refusal of an undo that names no entry, saying which entry it would take back
    (the latest action in effect), to send as ``entry``; NothingToUndo (409) when only the
    creation is in effect."""
    latest = undo(held.log)
    assert latest is not None  # an undo naming no entry is decided or refused
    seq = int(latest.data["entry"])
    meant = next(e for e in held.log if e.seq == seq)
    return FieldError(
        ("query", "entry"),
        f"name the action to undo: the latest still in effect is entry {seq} "
        f"({ledger_of(fmt).summary(meant.action, names_of(held))}); send POST "
        f"…/undo?entry={seq}. Nothing was undone: without the entry, an undo retried after "
        "a lost answer would take back a second action",
    )


def add_log_routes(fmt: str, resource: HeldResource) -> None:
    """History, undo, a new token and export for tournaments of the format ``fmt``, under
    its blueprint, after its own routes. Once: every app made registers the same blueprint
    (the tests make many), and its routes are fixed by the first."""
    blp, read_schema = resource.blueprint, resource.read_schema
    shape, standings = resource.shape, resource.standings
    if blp.has_log_routes:
        return
    blp.has_log_routes = True
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
            entries they replace, undone actions marked with the undo that took them back.
            Players' e-mail addresses only with the director token (403 with another)."""
            held = held_store().read(ledger_of(fmt), tournament_id)
            return HeldHistory(held, ledger_of(fmt), read_by_director(held))

    @blp.route(TOURNAMENT + "/undo")
    class Undo(MethodView):
        @blp.arguments(UndoIn, location="query")
        @blp.response(200, undo_out)
        @blp.writes()
        def post(self, query: dict[str, Any], tournament_id: str) -> Any:
            """Take back the latest action still in effect, named by `?entry=N` (its `seq`
            in the history; 409 when only the creation is left). The undo is itself kept
            in the history; undo again, naming the entry before, to go further back. A
            replaced director token is never brought back.

            The undo happens only if N is the latest action in effect (else 409, saying
            which is, and nothing is undone), and when N is already undone the answer is
            that undo again, with nothing written: a retried or doubled undo cannot take
            back a second action, nor a result entered in between. Without `entry`, 422
            naming the entry it would be: nothing is undone."""
            target = query.get("entry")
            if target is None:
                raise _name_the_entry(held_store().read(ledger_of(fmt), tournament_id), fmt)
            held, undone = held_store().undo(
                ledger_of(fmt), tournament_id, director_token(), target
            )
            taken = next(e for e in held.log if e.seq == undone.data["entry"])
            taken_back = LoggedAction(taken, ledger_of(fmt), undone.seq, True, names_of(held))
            return Undone(taken_back, shape(held))

    @blp.route(TOURNAMENT + "/token")
    class Token(MethodView):
        @blp.response(200, NewTokenOut)
        @blp.writes(rotation=True)
        @blp.documents(400)
        def post(self, tournament_id: str) -> Any:
            """Replace the director token: send the current one and an `Idempotency-Key`,
            get a new one. The current one stops working at once, for everything: whoever
            else holds it can neither use it nor ask for its successor. Only hashes are
            kept, and the history says a token was replaced, never which. Undo does not
            revive the old one.

            The key is required (400 without one, nothing replaced): when the answer is
            lost, send the same request with the same key and the old token again, within
            minutes and before the new token is first used (any write with it, or
            `GET /v1/held`): it answers the same new token, replacing nothing. The old
            token alone, or with another key, is refused (403)."""
            token, key = director_token(), request.headers.get("Idempotency-Key")
            if key is None:
                held_store().check_director(tournament_id, token)  # 404 and 403 first
                return problem(400, ROTATION_NEEDS_A_KEY)
            store = held_store()
            held, new_token = store.replace_token(ledger_of(fmt), tournament_id, token, key)
            return NewToken(held, new_token)

    @blp.route(TOURNAMENT + "/export")
    class Export(MethodView):
        @blp.arguments(ExportIn, location="query")
        @blp.response(200, export_out)
        @blp.doc(**export_doc)
        @blp.documents(404)
        def get(self, query: dict[str, Any], tournament_id: str) -> Any:
            """The whole tournament as JSON (its state and every action), or its standings
            as CSV (`?format=csv` or `Accept: text/csv`) or as printable text (`?format=text`
            or `Accept: text/plain`). Players' e-mail addresses only with the director
            token (403 with another)."""
            held = held_store().read(ledger_of(fmt), tournament_id)
            director = read_by_director(held)
            wanted = table_format(query)
            if wanted != "json":
                header, rows = standings(held)
                title = f"{held.name or held.format}: standings"
                table = Table(title, header, rows)
                return tabular(table, wanted, f"{held.format}-{held.id}-standings")
            return Exported(
                held.format, shape(held), logged_actions(held, ledger_of(fmt), director)
            )
