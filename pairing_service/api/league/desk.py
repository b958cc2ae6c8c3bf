"""The league organiser's desk: ``/events/league/<id>/desk#token=…``, a season run from the
browser as the other formats' desks run their events (``api/held/desk.py``; the token and the
writes: ``widget/desk-core.js``). Open a season, sign players up (names typed one a line,
namesakes warned of), form it (the letters the service could not mail shown with each
player's token filled in), enter or correct any game (positions follow the scores), read
the letters with tokens filled in, reissue one player's reporting token, close the
season, and undo beside the history. A page of the league's own: its registry entry
(``formats.py``, ``own_pages``) registers it, and names no ``desk`` of the held formats'."""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, send_from_directory

from ...engine.event_log import STORE_KINDS
from ..held.blueprint import held_store
from ..widget import CACHE, WIDGET_DIR

bp = Blueprint("league_desk", __name__, template_folder="../templates")


@bp.get("/events/league/<tournament_id>/desk")
def organiser_desk(tournament_id: str) -> Response:
    if held_store().revision_of(tournament_id) is None:
        abort(404)  # a browser gets the not-found page (errors.py)
    page = f"/events/league/{tournament_id}"
    response = Response(
        render_template(
            "league_desk.html",
            api=f"/v1/league/organisations/{tournament_id}",
            positions="/v1/league/positions",
            page=page,
            store_kinds=" ".join(sorted(STORE_KINDS)),
        )
    )
    # The page names no data; the script reads it. Not cached: a token lives beside it.
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.get("/events/league-desk.js")
def organiser_desk_script() -> Response:
    response = send_from_directory(WIDGET_DIR, "league-desk.js", mimetype="text/javascript")
    response.headers["Cache-Control"] = CACHE
    return response
