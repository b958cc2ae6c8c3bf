"""A Meeple League's tables to print or import (CSV, text): a league's games, a seat a
line; its standings; the organisation's lifetime standings and status (the log routes'
and the director's list's)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from ...engine.league import Line
from ...engine.league.organisation import Organisation
from ...engine.ranking import decimal_text
from ...store import Held
from ..held.printables import Table
from .views import LeaguePage


def games_table(held: Held[Organisation], number: int, name: str) -> Table:
    """A league's games to print or import: a line a seat, in starting-seat order, with
    the result once reported."""
    league = held.state.season(number).league(name)
    header = ["game", "name", "seat", "player", "score", "position", "dropped_out"]
    rows: list[Sequence[Any]] = []
    for number_of_game, game in sorted(league.games.items()):
        results = {r.player: r for r in game.results or ()}
        for seat, player in enumerate(game.seats, start=1):
            got = results.get(player)
            rows.append(
                [
                    number_of_game,
                    game.name,
                    seat,
                    player,
                    got.score if got else None,
                    got.position if got else None,
                    got.dropped_out if got else None,
                ]
            )
    title = f"{held.state.code} Meeple League, season {number}, league {name}: games"
    return Table(title, header, rows)


# A league table's columns as CSV and text: each column's name and its cell of a line.
STANDINGS_COLUMNS: tuple[tuple[str, Callable[[Line], Any]], ...] = (
    ("rank", lambda line: line.rank),
    ("player", lambda line: line.player),
    ("name", lambda line: line.name),
    ("league_points", lambda line: decimal_text(line.league_points)),
    ("games", lambda line: line.games),
    ("dropped_out", lambda line: line.dropouts),
    ("wins", lambda line: line.wins),
    ("seconds", lambda line: line.seconds),
    ("thirds", lambda line: line.thirds),
    ("winner_share", lambda line: decimal_text(line.winner_share, 4)),
    ("margin", lambda line: line.margin),
    ("total_score", lambda line: line.total_score),
    ("head_to_head", lambda line: line.head_to_head),
    ("previous_rank", lambda line: None if line.previous_rank is None else line.previous_rank + 1),
    ("ahead_on", lambda line: line.ahead_on),
)


def standings_rows(held: Held[Organisation], number: int, name: str) -> Table:
    """A league's table to print or import: a line a player, best first, with names,
    points as decimals, every tiebreak value, and what put each above the next."""
    lines = LeaguePage.of(held, number, name).standings
    header = [column for column, _ in STANDINGS_COLUMNS]
    rows: list[Sequence[Any]] = [[cell(line) for _, cell in STANDINGS_COLUMNS] for line in lines]
    title = f"{held.state.code} Meeple League, season {number}, league {name}: table"
    return Table(title, header, rows)


def organisation_status(held: Held[Organisation]) -> str:
    """The latest season's status (signup, running, closed), or no_season."""
    latest = held.state.latest
    return latest.status if latest is not None else "no_season"


def standings_table(held: Held[Organisation]) -> tuple[list[str], list[Sequence[Any]]]:
    """The lifetime standings: rank, player, seasons, then points by division."""
    result = held.state.lifetime()
    divisions = sorted({d for line in result.standings for d in line.by_division})
    header = ["rank", "player", "name", "seasons", *(f"division_{d}" for d in divisions)]
    rows: list[Sequence[Any]] = [
        [
            line.rank,
            line.player,
            line.name,
            line.seasons,
            *(decimal_text(line.by_division.get(d, Fraction(0))) for d in divisions),
        ]
        for line in result.standings
    ]
    return header, rows
