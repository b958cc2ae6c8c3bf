"""Scorekeepers: tokens a director issues that enter results and nothing else.

At a venue several people enter results. Handing them the director token lets each of
them undo, close rounds, drop players or replace the token. A scorekeeper's token
enters results (a strikes table's, a Diagonal Race game's, a Puffing Billy board's: the
writes marked ``writes(results=True)``), of every round or of the one round it names, and
is refused 403 everywhere else; the director revokes it when the shift ends. The history
names ``scorekeeper <number>`` as the actor of each result entered with one.

``POST …/{id}/scorekeepers`` issues one (the token answered once), ``GET`` lists them,
``DELETE …/scorekeepers/{number}`` revokes one: all with the director token.
``GET …/scorekeepers/me`` with a scorekeeper's own token answers what that token may enter
(its number, its round, whether it was revoked), for the scorekeeper's phone page; it never
names another token or the director's label. Added by
:func:`add_scorekeeper_routes` for the formats whose registry entry says they enter
results (``formats.py``).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import segno
from flask.views import MethodView
from marshmallow import Schema, fields, post_load, validate

from ...store import WrongToken
from .blueprint import TOURNAMENT, HeldResource, held_store, ledger_of, made
from .director_token import AUTH_DOC, director_token
from .links import scorekeeper_link
from .requests import NewScorekeeper
from .views import ReadOut

MAX_ROUND = 100000  # as the round routes' paths allow


class ScorekeeperOut(ReadOut):
    """Reads a :class:`Scorekeeper` (or a mapping of its fields)."""

    number = fields.Integer(
        required=True,
        metadata={
            "description": "1, 2, 3, … in this tournament: the history names "
            "`scorekeeper <number>` as the actor of each result they enter."
        },
    )
    name = fields.String(required=True)
    round = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "The one round whose results the token enters; null: every."},
    )
    created_at = fields.DateTime(required=True)
    revoked_at = fields.DateTime(allow_none=True, required=True)


class OwnScorekeeperOut(ReadOut):
    """What a scorekeeper's own token may enter (for their phone page)."""

    number = fields.Integer(required=True)
    round = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "The one round whose results the token enters; null: every."},
    )
    revoked = fields.Boolean(
        required=True, metadata={"description": "Revoked: the token enters nothing now."}
    )


class IssuedScorekeeperOut(ScorekeeperOut):
    tournament = fields.String(required=True)
    token = fields.String(
        required=True,
        metadata={
            "description": "The scorekeeper's bearer token, shown only here: it enters "
            "results and nothing else."
        },
    )
    link = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "description": "The scorekeeper's phone page with the token in its fragment, "
            "to hand over (null where the format has no such page yet); from "
            "PAIRING_PUBLIC_URL when set."
        },
    )
    qr = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The link as a QR code (an SVG data URI) to show a phone."},
    )


class ScorekeepersOut(ReadOut):
    scorekeepers = fields.List(fields.Nested(ScorekeeperOut), required=True)


class BoardScorekeeperIn(Schema):
    """A scorekeeper of a format whose results have no rounds (Puffing Billy's boards)."""

    name = fields.String(
        required=True,
        validate=validate.Length(1, 80),
        metadata={"description": "Who they are to the director (shown to the director only)."},
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> NewScorekeeper:
        return NewScorekeeper(data["name"], data.get("round"))  # ScorekeeperIn's round


class ScorekeeperIn(BoardScorekeeperIn):
    round = fields.Integer(
        validate=validate.Range(1, MAX_ROUND),
        metadata={"description": "Only this round's results; without it, every round's."},
    )


def add_scorekeeper_routes(fmt: str, resource: HeldResource, by_round: bool) -> None:
    """The scorekeeper routes of format ``fmt`` (``by_round``: its results belong to rounds,
    so a token may be limited to one). Once per blueprint, as the log routes."""
    blp = resource.blueprint
    if blp.has_scorekeeper_routes:
        return
    blp.has_scorekeeper_routes = True

    issue_in = ScorekeeperIn if by_round else BoardScorekeeperIn

    @blp.route(TOURNAMENT + "/scorekeepers")
    class Scorekeepers(MethodView):
        @blp.response(200, ScorekeepersOut)
        @blp.doc(**AUTH_DOC)
        @blp.documents(401, 403, 404)
        def get(self, tournament_id: str) -> Any:
            """The tournament's scorekeepers, revoked ones too (never their tokens), for its
            director (401 without the director token, 403 with another)."""
            token = director_token()
            held_store().check_director(tournament_id, token)
            listed = held_store().scorekeepers_of(ledger_of(fmt), tournament_id)
            return {"scorekeepers": listed}

        @blp.arguments(issue_in)
        @blp.response(201, IssuedScorekeeperOut)
        @blp.writes()
        def post(self, body: NewScorekeeper, tournament_id: str) -> Any:
            """Issue a scorekeeper a token that enters results (of `round` only, when
            given) and nothing else: no undo, closing, late entries, drops, settings or
            tokens (403). Shown once; with an `Idempotency-Key`, a retry answers the same
            token."""
            held, added, token = held_store().add_scorekeeper(
                ledger_of(fmt), tournament_id, director_token(), body.name, body.round
            )
            link = scorekeeper_link(fmt, held.id, token)
            qr = None if link is None else segno.make(link, error="m").svg_data_uri(scale=4)
            answer = {
                **asdict(added),
                "tournament": held.id,
                "token": token,
                "link": link,
                "qr": qr,
            }
            return made(answer, f"{blp.name}.Scorekeepers", tournament_id=held.id)

    @blp.route(TOURNAMENT + "/scorekeepers/me")
    class OwnScorekeeper(MethodView):
        @blp.response(200, OwnScorekeeperOut)
        @blp.doc(**AUTH_DOC)
        @blp.documents(401, 403, 404)
        def get(self, tournament_id: str) -> Any:
            """What the scorekeeper's token sent may enter: its number, its round (null:
            every round) and whether it was revoked. 403 for a token that is no
            scorekeeper's of this tournament (the director's included)."""
            found = held_store().scorekeeper_holding(
                ledger_of(fmt), tournament_id, director_token()
            )
            if found is None:
                raise WrongToken(tournament_id)
            return {
                "number": found.number,
                "round": found.round,
                "revoked": found.revoked_at is not None,
            }

    @blp.route(TOURNAMENT + "/scorekeepers/<int(min=1, max=100000):number>")
    class ScorekeeperResource(MethodView):
        @blp.response(200, ScorekeeperOut)
        @blp.writes()
        def delete(self, tournament_id: str, number: int) -> Any:
            """Revoke scorekeeper `number`'s token: from now on it is refused (403). The
            results it entered stand. Revoking again changes nothing."""
            _, revoked = held_store().revoke_scorekeeper(
                ledger_of(fmt), tournament_id, director_token(), number
            )
            return revoked
