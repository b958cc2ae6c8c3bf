"""The public page of every held event, for players on their phones, and the director's
printable sheet with the page's QR code.

``/events/<format>/<id>``: where the event stands, the current round's tables with "find
your table" by name (``?name=``) (a Scrabble round also listed by name, alphabetically:
each player's game and opponent), the standings as the export prints them, and every
round's tables (``?round=N``). While a round is open the page reloads itself every minute
(a ``refresh`` meta tag: no script, so it works under the service's Content-Security-
Policy and on any phone). ``/events/<format>/<id>/sheet`` is the page to pin up: the QR
code of the event's page (``segno``, a well-kept QR library, as inline SVG) and the current
round's tables in large type (a Scrabble round by name too); ``…/slips`` the round's
result slips, one per table or game, with boxes for places and scores, to print and hand
out.

"Find your table" folds case and accents; the form's action jumps to the first match
(``#found``). Players are named as they know themselves (namesakes by rating, else id);
the players entered are listed before any result (a league's sign-ups until its leagues
are formed). A page under ``/events/`` that is not there is an HTML page for a browser
(``errors.py``).

The page shows what the format's public read (``GET /v1/...``) answers, through the same
schema, so it holds nothing a public read does not: names and results, no e-mail. Every
held format in the app's registry has these pages; what else its page shows (a round's
tables, the round by name, links, the players entered, winners, settings and statuses in
words) its entry says (:class:`EventPages`, from ``api/<format>/pages.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import segno
from flask import Blueprint, Response, abort, render_template, request

from ...store import Held
from ..public_url import absolute, link_warning
from .blueprint import held_store, ledger_of
from .links import held_formats
from .page_tables import ShownTable, player_labels, player_names, player_ratings, shown_table
from .printables import Table

if TYPE_CHECKING:
    from ..formats import Format

bp = Blueprint("event_pages", __name__, template_folder="../templates")

RoundTable = Callable[[Held[Any], int], Table]  # round n's tables, as its CSV prints them


@dataclass(frozen=True)
class Slip:
    """A result slip: one table or game of the round, its players, boxes to fill in."""

    label: str
    players: list[str]
    boxes: tuple[str, ...]  # what each player's line asks for


def game_slips(boxes: tuple[str, ...]) -> Callable[[ShownTable], list[Slip]]:
    """A slip per game of the round (a line per player of its ``player`` columns, each
    asking for ``boxes``), none for a bye: the formats whose rounds are games."""

    def slips(table: ShownTable) -> list[Slip]:
        header = table.header
        at = header.index("game")
        seats = [i for i, column in enumerate(header) if column.startswith("player")]
        games = [row for row in table.rows if row[at] != "bye"]
        return [Slip(f"Game {row[at]}", [row[i] for i in seats], boxes) for row in games]

    return slips


@dataclass(frozen=True)
class EventPages:
    """What a held format's event page shows besides its read and standings (its registry
    entry's ``pages``; nothing, by default)."""

    # A format run round by round: a round's tables as their CSV prints them (the page's
    # round, the sheet's and the slips').
    round_table: RoundTable | None = None
    # The round listed by name too (alphabetical: each player's game and opponent), beside
    # the round's games by board.
    by_name: RoundTable | None = None
    # Pages of its own the event links to, as (title, address): a league's seasons.
    links: Callable[[Held[Any]], list[tuple[str, str]]] | None = None
    # The players entered, listed before any result while its standings have nobody (a
    # league's sign-ups until its leagues are formed), or None.
    entered: Callable[[Held[Any]], ShownTable | None] | None = None
    # The winner(s), as its public read says them, by their labels (given player id ->
    # label): none until there are.
    winners: Callable[[Mapping[str, Any], Mapping[str, str]], list[str]] | None = None
    # The director's settings its public read answers, in words.
    settings: Callable[[Mapping[str, Any]], list[str]] | None = None
    # Its own statuses in words, as (status, words), besides the round formats'
    # (STATUS_WORDS). Pairs, not a dict: a Format stays hashable.
    status_words: tuple[tuple[str, str], ...] = ()
    # The round's result slips to print, from its round table (``game_slips``, or the
    # format's own); none without.
    slips: Callable[[ShownTable], list[Slip]] | None = None


REFRESH_SECONDS = 60
# A tournament's status in words (its format's own, ``EventPages.status_words``, beside
# these); any other with its underscores as spaces.
STATUS_WORDS = {
    "registered": "Registered: the first round has not started",
    "round_open": "A round is being played",
    "between_rounds": "Between rounds",
    "finished": "Finished",
}


def late_entry_words(start: str, counted: str) -> str:
    """A late entrant's start (``most``, ``mean`` or ``fewest``) of what is ``counted``
    (strikes, losses) in words, for a format's settings on its page."""
    starts = {"most": "the most", "mean": "the mean", "fewest": "the fewest"}
    return f"A late entrant starts with {starts[start]} {counted} of the players still in."


def _held(format_path: str, tournament_id: str) -> tuple[Format, Held[Any]]:
    fmt = held_formats().by_path.get(format_path)
    if fmt is None:
        abort(404)
    return fmt, held_store().read(ledger_of(fmt.name), tournament_id)


def _page(format_path: str, tournament_id: str) -> dict[str, Any]:
    """What both pages show: the event, where it stands, its rounds and standings."""
    fmt, held = _held(format_path, tournament_id)
    resource = fmt.held
    assert resource is not None  # held_formats holds only held formats
    public = resource.read_schema().dump(resource.shape(held))
    header, rows = resource.standings(held)
    names = player_labels(player_names(public, header, rows), player_ratings(public))
    status = resource.status(held)
    current = public.get("current_round")
    rounds = list(range(1, current + 1)) if isinstance(current, int) else []
    asked = request.args.get("round", type=int)
    number = asked if asked in rounds else (rounds[-1] if rounds else None)
    shows = fmt.pages
    round_table = by_name = None
    if number is not None and shows.round_table is not None:
        table = shows.round_table(held, number)
        round_table = shown_table(table.title, table.header, table.rows, names)
    if number is not None and shows.by_name is not None:
        table = shows.by_name(held, number)
        by_name = shown_table(table.title, table.header, table.rows, names, found_in=0)
    kind = fmt.title or fmt.name.replace("_", " ").title()
    return {
        "title": held.name or kind,
        "format": kind[:1].upper() + kind[1:],
        "status": _status_words(shows, status),
        "finished": status == "finished",
        "clock": _clock_words(public.get("clock")),
        "winners": [] if shows.winners is None else shows.winners(public, names),
        "settings": [] if shows.settings is None else shows.settings(public),
        "refresh": REFRESH_SECONDS if status == "round_open" else None,
        "rounds": rounds,
        "number": number,
        "round_table": round_table,
        "by_name": by_name,
        "standings": shown_table("Standings", header, rows, names),
        "signed_up": None if shows.entered is None else shows.entered(held),
        "name": request.args.get("name", ""),
        "links": [] if shows.links is None else shows.links(held),
        "page_url": absolute(f"/events/{format_path}/{tournament_id}"),
        "link_warning": link_warning(),
    }


def _status_words(shows: EventPages, status: str) -> str:
    words = dict(shows.status_words).get(status) or STATUS_WORDS.get(status)
    return words or status.replace("_", " ")


def _clock_words(clock: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The round's clock as the page says it without a script (in UTC, with the minutes
    left when the page was made; ``round-clock.js`` ticks it in local time)."""
    if not clock:
        return None
    ends = datetime.fromisoformat(clock["ends_at"])
    left = max(0, math.ceil((ends - datetime.now(UTC)).total_seconds() / 60))
    return {
        "round": clock["round"],
        "ends_at": clock["ends_at"],
        "words": f"Round {clock['round']} ends at {ends:%H:%M} UTC: {left} minutes left",
    }


@bp.get("/events/<format_path>/<tournament_id>/slips")
def result_slips(format_path: str, tournament_id: str) -> Response:
    """The round's result slips to print and hand out (``?round=N``; the latest)."""
    page = _page(format_path, tournament_id)
    table, slips = page["round_table"], held_formats().by_path[format_path].pages.slips
    if table is None or slips is None:
        abort(404)
    return Response(render_template("slips.html", slips=slips(table), **page))


@bp.get("/events/<format_path>/<tournament_id>")
def event_page(format_path: str, tournament_id: str) -> Response:
    return Response(render_template("event.html", **_page(format_path, tournament_id)))


@bp.get("/events/<format_path>/<tournament_id>/sheet")
def event_sheet(format_path: str, tournament_id: str) -> Response:
    page = _page(format_path, tournament_id)
    qr = segno.make(page["page_url"], error="m")
    return Response(
        render_template("event_sheet.html", qr=qr.svg_data_uri(scale=6, border=2), **page)
    )
