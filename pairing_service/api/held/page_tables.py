"""The tables of the event pages (``pages.py``) in words: players by name as they
know themselves, namesakes told apart, the rows "find your table" finds (case and accents
folded), and the columns a phone has room for."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import request

from ...engine.names import folded, labels, namesakes
from ...engine.wording import number_text

# Counts whose zero tells a player nothing (no rematch, no penalty): a column of zeros only
# takes room a phone lacks (a Scrabble round's boards fit 360 px without them).
QUIET_ZEROS = frozenset({"repeat", "penalty a", "penalty b"})


@dataclass(frozen=True)
class ShownTable:
    """A table as the page shows it: cells in words, and which rows hold the player asked
    for (``?name=``)."""

    title: str
    header: list[str]
    rows: list[list[str]]
    found: list[bool]

    @property
    def shown_columns(self) -> list[int]:
        """The columns with something in them: a round's scores, still empty while it is
        played, take no room on a phone (the slips still ask for them), nor do counts that
        are zero in every row (``QUIET_ZEROS``)."""
        return [
            i
            for i, column in enumerate(self.header)
            if any(row[i] and not (column in QUIET_ZEROS and row[i] == "0") for row in self.rows)
        ]

    @property
    def first_found(self) -> int | None:
        return next((i for i, found in enumerate(self.found) if found), None)


def player_names(
    page: Mapping[str, Any], header: Sequence[str], rows: Sequence[Sequence[Any]]
) -> dict[str, str]:
    """Player id -> name, from the public read's standings and the standings table (where
    names are given)."""
    found: dict[str, str] = {}
    for row in page.get("standings") or ():
        if isinstance(row, Mapping) and row.get("name") and isinstance(row.get("player"), str):
            found[row["player"]] = row["name"]
    if "player" in header and "name" in header:
        at, name = header.index("player"), header.index("name")
        for cells in rows:
            if isinstance(cells[at], str) and cells[at] and cells[name]:
                found.setdefault(cells[at], str(cells[name]))
    return found


def player_ratings(page: Mapping[str, Any]) -> dict[str, str]:
    """Player id -> rating as players write it, where the read gives ratings."""
    return {
        row["player"]: number_text(float(row["rating"]))
        for row in page.get("standings") or ()
        if isinstance(row, Mapping) and isinstance(row.get("rating"), int | float)
    }


def player_labels(names: Mapping[str, str], ratings: Mapping[str, str]) -> dict[str, str]:
    """How the page names each player: by name alone, or with the number they were entered
    under where that is a number players know (a tsh file's player numbers, which tsh
    prints beside names); namesakes told apart by their rating where theirs differ, else
    by their id; a player without a name by their id."""
    told = labels(names)  # the history's words: a namesake or a tsh number with its id
    for _, ids in namesakes(names.items()):
        rated = [ratings.get(player) for player in ids]
        if None not in rated and len(set(rated)) == len(rated):  # a page shows what players know
            told.update({player: f"{names[player]} ({ratings[player]})" for player in ids})
    return told


def _cell(value: Any, labels: Mapping[str, str]) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else ""
    text = str(value)
    # Only text names a player: a rank, a game number or a count that reads like an id
    # (a tsh import's players are numbered 1, 2, ...) stays a number.
    return labels[text] if isinstance(value, str) and text in labels else text


def shown_table(
    title: str,
    header: Sequence[str],
    rows: Sequence[Sequence[Any]],
    labels: Mapping[str, str],
    found_in: int | None = None,
) -> ShownTable:
    """The table in words; a row is found where a cell holds the name asked for, its case
    and accents folded ("jose" finds José), in the cell of column ``found_in`` where given
    (a list by name marks the player's own line)."""
    # A name column repeats what the player columns now show.
    kept = [i for i, column in enumerate(header) if column != "name"]
    wanted = folded(request.args.get("name", ""))
    cells = [[_cell(row[i], labels) for i in kept] for row in rows]
    searched = [row if found_in is None else [row[found_in]] for row in cells]
    found = [bool(wanted) and any(wanted in folded(cell) for cell in row) for row in searched]
    return ShownTable(title, [header[i].replace("_", " ") for i in kept], cells, found)
