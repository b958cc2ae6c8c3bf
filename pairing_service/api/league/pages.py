"""A Meeple League organisation's public pages, server-rendered like the other formats'
event pages (``pages.py``): readable at 360 px, printable, names and results only.

- ``/events/league/<id>/seasons/<n>``: the season: where it stands, how it records a game
  with a seat empty, each league's table (names, points as decimals like 30.5, every
  tiebreak value, what put each player above the next) and its schedule of games with the
  results reported. The organisation's page (``/events/league/<id>``) links each season.
- ``/events/league/<id>/seasons/<n>/report``: a player's report page, which their letter
  links to: ``?league=1-A#token=…``. The token stays in the URL's fragment, which the
  browser never sends: the page's script hands it to the ``<league-report>`` widget
  (``widget/league-report-page.js``), which reports a game with it; beside it, the
  league's table (``<league-standings>``) shows the report at once.

The organisation's own page is the held formats' (``api/held/pages.py``): :data:`PAGES`
gives it the seasons' links (:func:`season_links`) and the players signed up before a
season's leagues are formed (:func:`signed_up`).

Both show what the public reads (``GET /v1/league/organisations/…``) answer: no e-mail.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, render_template, request, send_from_directory, url_for

from ...engine.league.history import short_words
from ...engine.league.organisation import Organisation
from ...engine.league.season import HeldGame, Season
from ...engine.ranking import decimal_text, ordinal
from ...store import Held
from ..held.blueprint import held_store
from ..held.page_tables import ShownTable, player_labels, shown_table
from ..held.pages import EventPages
from ..widget import CACHE, WIDGET_DIR
from .events import leagues, standings_rows

bp = Blueprint("league_pages", __name__, template_folder="../templates")

SEASON_PAGE = "/events/league/<hex32:tournament_id>/seasons/<int(min=1, max=10000):number>"
SEASON_WORDS = {
    "signup": "Sign-ups are open: the leagues are not formed yet",
    "running": "The season is being played",
    "closed": "Closed",
}


def season_links(held: Held[Organisation]) -> list[tuple[str, str]]:
    """Each season's page, latest first, as (title, address): the organisation's page
    lists them."""
    return [
        (
            f"Season {season.number}: {SEASON_WORDS[season.status].split(':')[0].lower()}",
            url_for("league_pages.season_page", tournament_id=held.id, number=season.number),
        )
        for season in reversed(held.state.seasons)
    ]


def signed_up(held: Held[Organisation]) -> ShownTable | None:
    """The players signed up for a season whose leagues are not formed yet, by name in
    sign-up order: the organisation's page lists them before any game is played (its
    standings have nobody until then). Names only, as the public read gives them."""
    organisation = held.state
    if not organisation.seasons:
        return None
    season = organisation.seasons[-1]
    if season.status != "signup" or not season.signups:
        return None
    names = {p: signup.name or p for p, signup in season.signups.items()}
    labels = player_labels(names, {})
    title = f"Signed up for season {season.number}"
    return shown_table(title, ["player"], [[player] for player in season.signups], labels)


def _read(tournament_id: str, number: int) -> tuple[Held[Organisation], Season]:
    held = held_store().read(leagues(), tournament_id)
    seasons = held.state.seasons
    if not 1 <= number <= len(seasons):
        abort(404)
    return held, seasons[number - 1]


def _result_text(game: HeldGame, names: dict[str, str]) -> str:
    if game.results is None:
        return "not reported yet"
    ordered = sorted(game.results, key=lambda r: (r.dropped_out, r.position))
    return ", ".join(
        f"{'left' if r.dropped_out else ordinal(r.position)} {names.get(r.player, r.player)} "
        f"{r.score}"
        for r in ordered
    )


def _league_tables(held: Held[Organisation], season: Season) -> list[dict[str, Any]]:
    org = held.state
    shown = []
    for league in season.leagues.values():
        table = standings_rows(held, season.number, league.name)
        names = {p: org.name_of(p, season.number) or p for p in league.players}
        labels = player_labels({p: name for p, name in names.items() if name != p}, {})
        standings: ShownTable = shown_table("Table", table.header, table.rows, labels)
        games = [
            [
                str(number),
                game.name,
                ", ".join(labels.get(p, p) for p in game.seats),
                _result_text(game, names),
            ]
            for number, game in sorted(league.games.items())
        ]
        reported = sum(game.results is not None for game in league.games.values())
        shown.append(
            {
                "name": league.name,
                "division": league.division,
                "reported": reported,
                "games_count": len(league.games),
                "standings": standings,
                "games": ShownTable(
                    "Games",
                    ["game", "name", "seats (seat 1 starts)", "result"],
                    games,
                    [False] * len(games),
                ),
            }
        )
    return shown


@bp.get(SEASON_PAGE)
def season_page(tournament_id: str, number: int) -> Response:
    """A season's public page: its leagues' tables and schedules."""
    held, season = _read(tournament_id, number)
    org = held.state
    title = f"{held.name or org.code + ' Meeple League'}: season {number}"
    winner = org.name_of(season.winner, number) or season.winner if season.winner else None
    page = render_template(
        "league_season.html",
        title=title,
        status=SEASON_WORDS[season.status],
        setting=short_words(season.short_games),
        winner=winner,
        leagues=_league_tables(held, season),
        running=season.status == "running",
        organisation_url=f"/events/league/{held.id}",
        report_url=url_for("league_pages.report_page", tournament_id=held.id, number=number),
        points=decimal_text,
    )
    return Response(page)


@bp.get(SEASON_PAGE + "/report")
def report_page(tournament_id: str, number: int) -> Response:
    """A player's page to report a game (``?league=``; the token in the fragment)."""
    held, season = _read(tournament_id, number)
    asked = request.args.get("league", "")
    league = asked if asked in season.leagues else ""
    title = f"{held.name or held.state.code + ' Meeple League'}: season {number}"
    page = render_template(
        "league_report.html",
        title=title,
        organisation=held.id,
        season=number,
        league=league,
        leagues=list(season.leagues),
        running=season.status == "running",
        setting=short_words(season.short_games),
        season_url=url_for("league_pages.season_page", tournament_id=held.id, number=number),
    )
    return Response(page)


PAGES = EventPages(links=season_links, entered=signed_up)


@bp.get("/events/league/report-page.js")
def report_script() -> Response:
    """The report page's script: the token from the fragment into ``<league-report>``."""
    response = send_from_directory(WIDGET_DIR, "league-report-page.js", mimetype="text/javascript")
    response.headers["Cache-Control"] = CACHE
    return response
