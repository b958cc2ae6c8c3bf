"""tsh interchange of a held Scrabble event (``docs/tsh.md``): the event as a tsh division
file (``GET …/{id}/tsh``) and as tsh's web ``tourney.js`` (``GET …/{id}/tourney.js``), and a
new event from a tsh division file, to continue in the service an event started in tsh
(``POST /v1/scrabble/events/import-tsh``).

The import's log is the event's own, every action decided by the rules as the director's
are (``ScrabbleLedger.imported``): the creation, each round played as tsh paired and scored
it, each withdrawn player's withdrawal. It is checked as a backup is (each action decided
again, each request's input loaded through its schema) and written in one transaction,
with a director token answered once, as a create does.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Response, request
from flask.views import MethodView
from marshmallow import fields, post_load, validate

from ...engine.errors import FieldError, Rule
from ...engine.event_log import Entry
from ...engine.scrabble.held.checks import MAX_ROUNDS, InvalidEvent
from ...engine.scrabble.held.tourney_js import tourney_js
from ...engine.scrabble.held.tsh_export import division_file
from ...engine.scrabble.held.tsh_import import read_tsh_event
from ...engine.scrabble.tsh import TshError
from ...store.backup import Backup, BackupRefused, replay, restore
from ..held.blueprint import TOURNAMENT, held_store, made
from ..held.conditions import HEADERS, IDEMPOTENCY_KEY
from ..held.schemas import event_name
from ..parsing import StrictParser, list_fields, query_parameters, text_fields, tsh_division
from .backup import BACKUP
from .events import ROUTES, blp
from .requests import TshImport
from .schemas import ScrabbleEventCreatedOut, ScrabbleEventIn, kept_prizes
from .tool_schemas import TSH_BODY, PaidPlacesIn

IMPORT_TSH_LENGTH = 2_000_000  # a whole event: 1,000 players, 50 rounds
# The final round's text/plain body, with the import's length: blank is a 400 there too.
TSH_FILE = {**TSH_BODY, "maxLength": IMPORT_TSH_LENGTH}
EXAMPLE = (
    "Able, Ann 1800 2 3 0 ; 420 390 50\n"
    "Baker, Bob 1750 1 0 3 ; 380 50 410\n"
    "Cole, Cat 1700 0 1 2 ; 50 401 380\n"
)


def _setting(name: str) -> fields.Field[Any]:
    """The create's field ``name`` (its bounds and default), for the import's options."""
    declared: fields.Field[Any] = ScrabbleEventIn._declared_fields[name]
    return declared


class TshImportIn(PaidPlacesIn):
    name = event_name()
    tsh = fields.String(
        required=True,
        validate=validate.Length(1, IMPORT_TSH_LENGTH),
        metadata={
            "description": "The tsh division file (.t). Or send the file as text/plain, "
            "the other fields in the query string."
        },
    )
    rounds = fields.Integer(
        strict=True,
        validate=validate.Range(1, MAX_ROUNDS),
        metadata={
            "description": "The rounds planned, those of the file included (default: one "
            "more than the file has played)."
        },
    )
    # The file keeps the scores as played; tsh's cap is in its configuration: give it here.
    spread_cap = _setting("spread_cap")
    bye_spread = _setting("bye_spread")
    repeats_allowed = _setting("repeats_allowed")
    victors = _setting("victors")
    seed = _setting("seed")
    pairing_system = _setting("pairing_system")

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> TshImport:
        return TshImport(
            data.get("name"),
            data["tsh"],
            data.get("rounds"),
            data["spread_cap"],
            data["bye_spread"],
            data["repeats_allowed"],
            data["victors"],
            data["seed"],
            data["pairing_system"],
            kept_prizes(data),
        )


IMPORT_PARSER = StrictParser(
    readers={"text/plain": tsh_division},
    text_fields=text_fields(TshImportIn),
    list_fields=list_fields(TshImportIn),
)

IMPORT_DOC = {
    HEADERS: [IDEMPOTENCY_KEY, *query_parameters(TshImportIn)],
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {
                "schema": TshImportIn,
                "example": {"tsh": EXAMPLE, "rounds": 5, "spread_cap": 300},
            },
            "text/plain": {"schema": TSH_FILE, "example": EXAMPLE},
        },
    },
}


@blp.route("/import-tsh")
class ImportTsh(MethodView):
    @blp.response(201, ScrabbleEventCreatedOut)
    @blp.doc(**IMPORT_DOC)
    @blp.documents(422, 429)
    def post(self) -> Any:
        """Continue an event started in tsh: a new event from its division file (`.t`).

        Send the file as `text/plain` (options in the query string) or as JSON `tsh`,
        with the rounds planned, the spread cap, the bye's spread, the repeat allowance,
        the victors (or prizes), the seed and the pairing system as at creation. The file
        keeps its games' scores as played (tsh keeps its `spread_cap` in its
        configuration, not the file): give the event's `spread_cap` for the standings to
        count it. Players are the file's lines
        (id the tsh number, name and rating as written); each round with results is a round as tsh
        paired and scored it (`method` `tsh`), byes, forfeits and unplayed rounds as tsh
        wrote them (opponent 0); a player marked `off` is withdrawn. The next round is
        paired by the service (`POST …/rounds`), the default schedule's or the director's
        method. A file the service cannot hold is a 422 naming `tsh` and the line.
        The answer carries the director token, once; `Idempotency-Key` as for a create."""
        body: TshImport = IMPORT_PARSER.parse(TshImportIn(), request, location="json")
        try:
            tsh = read_tsh_event(body.tsh)
        except TshError as exc:
            raise InvalidEvent(("tsh",), str(exc), rule=Rule.TSH_FILE) from exc
        settings = body.settings(played=len(tsh.rounds))
        ledger = ROUTES.ledger()
        rounds = [(r.games, r.sat_out) for r in tsh.rounds]
        try:
            actions = ledger.imported(settings, tsh.players, rounds, tsh.withdrawn)
        except InvalidEvent as refused:
            if refused.at[:1] == ("rounds",):
                raise
            raise InvalidEvent(("tsh",), refused.message, rule=Rule.TSH_FILE) from refused
        now = datetime.now(UTC)
        log = tuple(Entry(seq, action, now) for seq, action in enumerate(actions, start=1))
        backup = Backup(ledger.format, body.name, now, len(log), log)
        try:  # what a backup of it must pass to be restored
            BACKUP.check_requests(ledger, backup)
            state = replay(ledger, log, BACKUP.replayer(ledger))
        except BackupRefused as refused:
            raise FieldError(("tsh",), refused.message, rule=Rule.TSH_FILE) from refused
        held, token = restore(held_store(), ledger, backup, state)
        return made(ROUTES.view(held, token), f"{blp.name}.Tournament", tournament_id=held.id)


def _attachment(text: str, mimetype: str, filename: str) -> Response:
    return Response(
        text,
        mimetype=mimetype,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@blp.route(TOURNAMENT + "/tsh")
class DivisionFile(MethodView):
    @blp.doc(
        responses={
            "200": {
                "description": "The event as a tsh division file (`.t`).",
                "content": {"text/plain": {"schema": {"type": "string"}}},
            }
        }
    )
    @blp.documents(404)
    def get(self, tournament_id: str) -> Any:
        """The event as a tsh division file (`.t`): a line per player in rating order,
        `NAME RATING opponents ; scores` (a bye or forfeit is opponent 0 scoring its spread,
        an unplayed round 0 scoring 0; a withdrawn player is marked `off 0`; every game's
        scores as played: tsh keeps the spread cap in its configuration, and counts it
        as it reads the file). tsh and the service's own reader
        (`POST /v1/scrabble/final-round` as `text/plain` with `spread_cap`,
        `POST /v1/scrabble/events/import-tsh` with `spread_cap`) read it to the event's
        standings."""
        held = held_store().read(ROUTES.ledger(), tournament_id)
        return _attachment(division_file(held.state), "text/plain", f"scrabble-{held.id}.t")


@blp.route(TOURNAMENT + "/tourney.js")
class TourneyJs(MethodView):
    @blp.doc(
        responses={
            "200": {
                "description": "The event as tsh's web `tourney.js`.",
                "content": {"text/javascript": {"schema": {"type": "string"}}},
            }
        }
    )
    @blp.documents(404)
    def get(self, tournament_id: str) -> Any:
        """The event as tsh's web `tourney.js`: `newt={...};`, one division `A` whose
        players (by tsh number, as in the `.t` export) carry `name`, `rating`, `pairings`,
        `scores` and `etc` (`off` for a withdrawn player), as tsh writes it for
        scoreboards and wall charts."""
        held = held_store().read(ROUTES.ledger(), tournament_id)
        text = tourney_js(held.state, held.name)
        return _attachment(text, "text/javascript", f"scrabble-{held.id}.tourney.js")
