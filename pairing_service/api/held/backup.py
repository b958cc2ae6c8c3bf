"""Backup and restore of one held tournament, for every held format that says how its log
is decided again: ``GET …/{id}/backup`` (the director's: the whole log, as
``store/backup.py`` writes it) and ``POST …/import`` on the format's collection (a new
tournament from a backup, with a new director token, answered once; ``Idempotency-Key`` as
for a create). Added by :func:`add_backup_routes` from the registry (``formats.py``), after
the log routes.

Each format says, in its own ``api/<format>/backup.py`` (its registry entry's
:class:`FormatBackup`), how its rules decide again the action an entry records (its
``replayer``): the inputs the director gave are in the entry (a table's places, a game's
winner, a board's scores, a league's reports), and what the engine worked out from them
(strikes, seatings, pairings, the cut, finishes) must come out the same; and the request
that would have made each entry (its ``request_of``), whose schema checks the entry's input
as that request's was checked. What the formats run round by round decide alike is here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import url_for
from flask.views import MethodView
from marshmallow import Schema, ValidationError, fields, validate

from ...engine.event_codec import LogEvent
from ...engine.event_log import Action, Ledger
from ...engine.round_ledger import (
    RESULT_CORRECTED,
    RESULT_ENTERED,
    PlayerDropped,
    Reinstatement,
    Reseated,
    RoundClosed,
    RoundLedger,
    SettingsChange,
)
from ...store.backup import (
    BACKUP_FORMAT,
    BACKUP_VERSION,
    Backup,
    BackupRefused,
    Replayer,
    backup_document,
    read_backup,
    replay,
    restore,
)
from ..errors import flatten
from .blueprint import TOURNAMENT, HeldResource, held_store, ledger_of, read_by_director
from .conditions import HEADERS, IDEMPOTENCY_KEY
from .director_token import AUTH_DOC, director_token
from .schemas import NoShowsIn

# --- what the formats run round by round decide alike ---------------------------------------


# The kinds a scorekeeper's token may log: results (blueprint.py: ``writes(results=True)``).
ROUND_RESULTS = frozenset({RESULT_ENTERED, RESULT_CORRECTED})


def unsupported(event: LogEvent) -> Action:
    """An entry of a kind the format's rules never log: the backup is refused."""
    raise ValueError(f"no action {event.logged_as!r} in this log")


def round_replay(ledger: RoundLedger[Any, Any], state: Any, event: LogEvent) -> Action | None:
    """What every format run round by round (a ``RoundLedger``) decides alike: a round
    closed or reseated, a player dropped or reinstated, the settings changed."""
    match event:
        case RoundClosed(round=number):
            return ledger.close_round(state, number)
        case PlayerDropped(player=player):
            return ledger.drop(state, player)
        case Reseated(round=number, no_shows=no_shows):
            reseat: Any = getattr(ledger, "reseat")  # noqa: B009 (every such format has it)
            result: Action = reseat(state, number, list(no_shows))
            return result
        case Reinstatement(player=player):  # what was added is decided again, and compared
            return ledger.reinstate(state, player)
        case SettingsChange():
            change: Any = getattr(ledger, "change_settings")  # noqa: B009 (each has its own)
            changed: Action | None = change(state, getattr(event, "settings"))  # noqa: B009
            return changed
    return unsupported(event)


# --- the requests the director sent, as their schemas check them --------------------------
#
# The rules check what a request asks of the state; the request's own bounds (lengths,
# patterns, ranges: a strikes event's number of plans, a score, an e-mail address) are its
# schema's. A backup brings each request's input in an entry, so each entry's input is
# loaded through the schema of the request that made it, as that request would have been.

Request = tuple[type[Schema], dict[str, Any]]  # a request's schema, and its body


def named(player_id: str, name: str | None) -> dict[str, Any]:
    """A player as a request sends them: an id, and the name if they have one."""
    return {"id": player_id} if name is None else {"id": player_id, "name": name}


def named_in(name: str | None) -> dict[str, Any]:
    """A create's ``name``, if the tournament has one."""
    return {} if name is None else {"name": name}


def round_request(event: LogEvent) -> Request | None:
    """The request of a round ledger's own entry that has a body (a reseat's no-shows)."""
    match event:
        case Reseated(no_shows=no_shows):
            return NoShowsIn, {"no_shows": list(no_shows)}
    return None


@dataclass(frozen=True)
class FormatBackup:
    """A held format's part of its backup and import: ``replayer`` says how its rules decide
    each entry again (given the app's ledger of the format), ``request_of`` the request that
    would have made an entry (its schema and body; None for an entry no body made), given
    the tournament's name for its creation."""

    replayer: Callable[[Ledger[Any]], Replayer]
    request_of: Callable[[LogEvent, str | None], Request | None]

    def check_requests(self, ledger: Ledger[Any], backup: Backup) -> None:
        """Every entry's input, loaded through the schema of the request that made it (a
        creation with the backup's name); BackupRefused at the first it refuses."""
        for index, entry in enumerate(backup.log):
            request = self.request_of(ledger._event(entry.action), backup.name)
            if request is None:
                continue
            schema, body = request
            try:
                schema().load(body)
            except ValidationError as error:
                wrong = next(flatten(error.messages))
                raise BackupRefused(
                    ("log", index, "data"),
                    f"entry {entry.seq} ({entry.kind}) is not a request the service takes: "
                    f"{wrong['pointer'] or '/'}: {wrong['detail']}",
                ) from None


# --- the document, and the routes ---------------------------------------------------------


class BackupEntry(Schema):
    seq = fields.Integer(required=True, strict=True, validate=validate.Range(1, 10**9))
    kind = fields.String(required=True, validate=validate.Length(1, 40))
    data = fields.Dict(keys=fields.String(), required=True)
    actor = fields.String(required=True, validate=validate.Length(1, 80))
    at = fields.AwareDateTime(required=True, default_timezone=None)


class BackupTournament(Schema):
    format = fields.String(
        required=True, metadata={"description": "The tournament's format: strikes, …"}
    )
    name = fields.String(required=True, allow_none=True, validate=validate.Length(max=200))
    created_at = fields.AwareDateTime(required=True)
    revision = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(1, 10**9),
        metadata={"description": "Its revision (ETag): the copy has the same."},
    )


class BackupDocument(Schema):
    """A held tournament's backup: every entry of its log as the store keeps it."""

    format = fields.String(
        required=True,
        validate=validate.OneOf([BACKUP_FORMAT]),
        metadata={"description": f"Always `{BACKUP_FORMAT}`."},
    )
    version = fields.Integer(
        required=True,
        strict=True,  # an integer, never "1": the document states it so
        validate=validate.OneOf([BACKUP_VERSION]),
        metadata={"description": f"The document's version: {BACKUP_VERSION}."},
    )
    tournament = fields.Nested(BackupTournament, required=True)
    log = fields.List(
        fields.Nested(BackupEntry),
        required=True,
        validate=validate.Length(min=1),
        metadata={"description": "Every entry, oldest first (its seq 1, 2, 3, …)."},
    )


def add_backup_routes(fmt: str, resource: HeldResource, restoring: FormatBackup) -> None:
    """``GET …/{id}/backup`` and ``POST …/import`` for the format ``fmt``, under its
    blueprint, its entries decided again and checked as ``restoring`` says. Once per
    blueprint, as the log routes (``log_routes.add_log_routes``); the registry adds none
    for a format that says no way to decide its entries again: a backup it could not check
    would not be restored."""
    blp, read_schema, shape = resource.blueprint, resource.read_schema, resource.shape
    if getattr(blp, "has_backup_routes", False):
        return
    blp.has_backup_routes = True
    prefix = read_schema.__name__.removesuffix("Out")
    imported_out = Schema.from_dict(
        {
            "id": fields.String(required=True, metadata={"description": "The copy's id."}),
            "tournament": fields.Nested(read_schema, required=True),
            "token": fields.String(
                required=True,
                metadata={"description": "The copy's director token, shown only here."},
            ),
        },
        name=f"{prefix}ImportedOut",
    )

    @blp.route(TOURNAMENT + "/backup")
    class Backup(MethodView):
        @blp.response(200, BackupDocument)
        @blp.doc(**AUTH_DOC)
        @blp.documents(401, 403, 404)
        def get(self, tournament_id: str) -> Any:
            """The whole tournament as a backup, for its director only.

            401 without the director token, 403 with another. Every entry of its log as
            the store keeps it, players' e-mail addresses and the hashes of a league's
            reporting tokens included, but no director token. `POST …/import` makes a
            copy from it."""
            director_token()  # 401 without one
            held = held_store().read(ledger_of(fmt), tournament_id)
            read_by_director(held)  # 403 with another tournament's
            return backup_document(held)

    @blp.route("/import")
    class Import(MethodView):
        @blp.arguments(BackupDocument)
        @blp.response(201, imported_out)
        @blp.doc(**{HEADERS: [IDEMPOTENCY_KEY]})
        @blp.documents(409, 429)
        def post(self, document: dict[str, Any]) -> Any:
            """A new tournament from a backup: a new id and director token, the rest the same.

            The backup is `GET …/{id}/backup`'s, from this instance or another. The copy has
            the same log, state, history, standings and revision; its director token is
            shown only here (the old one does not work on the copy). Every entry is decided
            again by this format's rules, its input checked as its request's was; the first
            refused fails the import (422 naming it, `/log/<index>`) and nothing is written.
            `Idempotency-Key` as for a create."""
            ledger = ledger_of(fmt)
            backup = read_backup(ledger, document)
            restoring.check_requests(ledger, backup)
            state = replay(ledger, backup.log, restoring.replayer(ledger))
            held, token = restore(held_store(), ledger, backup, state)
            location = url_for(resource.read_endpoint, tournament_id=held.id)
            answer = {"id": held.id, "tournament": shape(held), "token": token}
            return answer, 201, {"Location": location}
