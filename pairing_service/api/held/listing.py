"""The tournaments a director holds: ``GET /v1/held`` and ``POST /v1/held/lookup``, the
tournaments of every held format whose director tokens the caller presents. The formats
listed, and how, come from the registry (``formats.py``): :func:`listing_blueprint`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import url_for
from flask.views import MethodView
from marshmallow import Schema, fields, post_load, validate

from ...store import HeldRow
from ..errors import problem
from .blueprint import HeldBlueprint, HeldResource, held_store, ledger_of
from .director_token import AUTH_DOC, MAX_TOKEN_LENGTH, director_token
from .requests import Lookup

MAX_LOOKUP_TOKENS = 50


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

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> Lookup:
        return Lookup(tuple(data["tokens"]))


class HeldLinksOut(Schema):
    self = fields.String(required=True, metadata={"description": "The tournament."})
    history = fields.String(required=True)
    export = fields.String(required=True)


class ListedOut(Schema):
    """A listed tournament; :func:`listing_blueprint` names the formats it may be of."""

    token = fields.Integer(
        required=True,
        metadata={"description": "Which of the tokens presented holds it (from 0)."},
    )
    id = fields.String(required=True)
    format = fields.String(required=True)
    name = fields.String(allow_none=True, required=True)
    created_at = fields.DateTime(required=True)
    revision = fields.Integer(required=True)
    status = fields.String(required=True)  # its words: listing_blueprint's ``statuses``
    links = fields.Nested(HeldLinksOut, required=True)


def listed(row: HeldRow, index: int, held: Mapping[str, HeldResource]) -> dict[str, Any] | None:
    """A tournament as the list shows it (None for a format this service does not list)."""
    shown = held.get(row.format)
    if shown is None:
        return None
    tournament = held_store().read(ledger_of(row.format), row.id)
    page = url_for(shown.read_endpoint, tournament_id=row.id)
    return {
        "token": index,
        "id": row.id,
        "format": row.format,
        "name": row.name,
        "created_at": row.created_at,
        "revision": tournament.revision,
        "status": shown.status(tournament),
        "links": {"self": page, "history": f"{page}/history", "export": f"{page}/export"},
    }


def held_list(tokens: Sequence[str], held: Mapping[str, HeldResource]) -> dict[str, Any]:
    """The tournaments whose director token the caller presented; nothing about others."""
    found = [
        item
        for index, row in held_store().held_by(tokens)
        if (item := listed(row, index, held)) is not None
    ]
    matched = {tokens[item["token"]] for item in found}
    return {
        "tournaments": found,
        "unmatched": [i for i, token in enumerate(tokens) if token not in matched],
    }


def listing_blueprint(held: Mapping[str, HeldResource], statuses: str) -> HeldBlueprint:
    """The listing of the held formats ``held`` (by name, in the order the document names
    them), whose status words ``statuses`` describes (``formats.status_description``). Made
    for each app, as its formats may differ (the tests add one)."""
    listing = HeldBlueprint(
        "held",
        __name__,
        url_prefix="/v1/held",
        description="The tournaments of every format that a director holds, found by the "
        "director tokens they present.",
    )

    class HeldListedOut(ListedOut):
        format = fields.String(required=True, validate=validate.OneOf(list(held)))
        status = fields.String(required=True, metadata={"description": statuses})

    class HeldListOut(Schema):
        tournaments = fields.List(fields.Nested(HeldListedOut), required=True)
        unmatched = fields.List(
            fields.Integer(),
            required=True,
            metadata={"description": "The tokens presented (from 0) that hold no tournament."},
        )

    @listing.route("")
    class HeldList(MethodView):
        @listing.response(200, HeldListOut)
        @listing.doc(**AUTH_DOC)
        @listing.documents(401, 403)
        def get(self) -> Any:
            """The tournament (of any format) that the `Authorization: Bearer` token directs
            (403 when it directs none). For several tokens at once, `POST /v1/held/lookup`."""
            found = held_list([director_token()], held)
            if not found["tournaments"]:
                return problem(403, "this token directs no tournament")
            return found

    @listing.route("/lookup")
    class HeldLookup(MethodView):
        @listing.arguments(TokensIn)
        @listing.response(200, HeldListOut)
        @listing.documents(429)
        def post(self, body: Lookup) -> Any:
            """The tournaments (of every format) that a director holds, by the director tokens
            they present in the body (never in the URL, which logs keep): each with its
            format, name, status and links, and which token holds it. Tokens that hold
            nothing are listed as unmatched; nothing is said about anyone else's tournaments.
            Counted with the writes by the rate limit, as it tries tokens."""
            return held_list(body.tokens, held)

    return listing
