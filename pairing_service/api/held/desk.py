"""The director's desk and a scorekeeper's phone page, in the browser: the day of a held
event run without curl.

``/events/<format>/<id>/desk#token=…``: the director's token arrives in the link's fragment,
which the browser never sends; the page's script (``widget/desk.js``) keeps it in the tab's
session storage (the newest link's token wins), clears it from the address bar, and makes
every write through the same JSON API as any client, with ``If-Match`` (the ETag of the
last read) and an ``Idempotency-Key`` made once per intended action and sent again when
the same action is retried after a lost answer, so a retry on venue Wi-Fi does no harm.
On it: check-in before the first round (the absent dropped in one action), start a round,
the round's tables with missing results first, a result entered or corrected (positions
follow scores; what a correction changed is shown in words), close, undo beside the
history, late entries, reinstatements, the sheet and slips, and scorekeeper links with
their QR codes, issued and revoked.

``/events/<format>/<id>/scorekeeper#token=…``: the round's tables with one form each, for
the scorekeeper's token (the same script, in its scorekeeper's role).

Server-rendered HTML around the existing API, no build step: the pages hold no data of
their own (the script reads the API), so nothing here is personal. A format has them when
its registry entry (``formats.py``) names its desk (:class:`DeskPage`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from flask import Blueprint, Response, abort, render_template, send_from_directory
from marshmallow import Schema, fields, validate

from ...engine.event_log import STORE_KINDS
from ..widget import CACHE, WIDGET_DIR
from .blueprint import held_store
from .links import held_formats

if TYPE_CHECKING:
    from ..formats import Format

bp = Blueprint("desk", __name__, template_folder="../templates")


@dataclass(frozen=True)
class DeskPage:
    """A held format's desk and scorekeeper's page (its registry entry's ``desk``): how a
    result is entered there (``entry``: the script's form for it, ``widget/desk.js``) and
    the format's ``PUT …/settings`` body (``settings``), from which the desk's settings
    form is drawn, so that a setting a format adds appears there without a change here
    (None: no settings form). The page writes to the format's collection, its blueprint's
    ``url_prefix``."""

    entry: str  # "tables", "race", "scores" or "boards"
    settings: type[Schema] | None = None


@dataclass(frozen=True)
class SettingField:
    """One setting as the desk's form asks for it: a number (within its range), one of
    its choices, yes or no; the read answers its value under the same name."""

    name: str
    kind: str  # "number", "choice" or "flag"
    description: str
    choices: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None


def setting_fields(schema: type[Schema]) -> list[SettingField]:
    """The settings of ``schema`` a form can ask for; lists (Scrabble's prizes, repeats by
    round) stay with the API, whose documentation the form links."""
    found = []
    for name, field in schema().fields.items():
        about = str(field.metadata.get("description", ""))
        ranges = [v for v in field.validators if isinstance(v, validate.Range)]
        choices = [v for v in field.validators if isinstance(v, validate.OneOf)]
        if isinstance(field, fields.Boolean):
            found.append(SettingField(name, "flag", about))
        elif isinstance(field, fields.Integer | fields.Float):
            low, high = (ranges[0].min, ranges[0].max) if ranges else (None, None)
            found.append(SettingField(name, "number", about, low=low, high=high))
        elif isinstance(field, fields.String) and choices:
            found.append(SettingField(name, "choice", about, tuple(map(str, choices[0].choices))))
    return found


def _settings_form(desk: DeskPage) -> list[SettingField]:
    return [] if desk.settings is None else setting_fields(desk.settings)


def _format(format_path: str) -> tuple[Format, DeskPage, str]:
    """The app's held format of this path with a desk, the desk, and its collection."""
    fmt = held_formats().by_path.get(format_path)
    if fmt is None or fmt.desk is None or fmt.held is None:
        abort(404)
    return fmt, fmt.desk, str(fmt.held.blueprint.url_prefix)


def _render(role: str, format_path: str, tournament_id: str) -> Response:
    fmt, desk, collection = _format(format_path)
    if held_store().revision_of(tournament_id) is None:
        abort(404)  # a browser gets the not-found page (errors.py)
    kind = fmt.title or fmt.name.replace("_", " ")
    page = f"/events/{format_path}/{tournament_id}"
    response = Response(
        render_template(
            "desk.html",
            role=role,
            kind=kind[:1].upper() + kind[1:],
            api=f"{collection}/{tournament_id}",
            entry=desk.entry,
            page=page,
            store_kinds=" ".join(sorted(STORE_KINDS)),  # entries undo passes over
            settings=_settings_form(desk) if role == "director" else [],
        )
    )
    # The page names no data; the script reads it. Not cached: a token lives beside it.
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.get("/events/<format_path>/<tournament_id>/desk")
def director_desk(format_path: str, tournament_id: str) -> Response:
    return _render("director", format_path, tournament_id)


@bp.get("/events/<format_path>/<tournament_id>/scorekeeper")
def scorekeeper_page(format_path: str, tournament_id: str) -> Response:
    return _render("scorekeeper", format_path, tournament_id)


def _script(name: str) -> Response:
    response = send_from_directory(WIDGET_DIR, name, mimetype="text/javascript")
    response.headers["Cache-Control"] = CACHE
    return response


@bp.get("/events/desk.js")
def desk_script() -> Response:
    return _script("desk.js")


@bp.get("/events/desk-core.js")
def desk_core_script() -> Response:
    """What the desks and the scorekeeper's page share: the token, the API's writes."""
    return _script("desk-core.js")


@bp.get("/events/round-clock.js")
def clock_script() -> Response:
    """The time left on a round's clock, ticking (the public page and the desk)."""
    return _script("round-clock.js")
