"""What a strikes tournament's pages show besides its read (``api/held/pages.py``): each
round's seating, its winners and settings in words; and its desk (``api/held/desk.py``),
where a result is entered per table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..held.desk import DeskPage
from ..held.page_tables import ShownTable
from ..held.pages import EventPages, Slip, late_entry_words
from .schemas import TournamentSettingsIn
from .views import seating_table


def winners(public: Mapping[str, Any], _: Mapping[str, str]) -> list[str]:
    """The winners by name, as the read names them (``winner_names``)."""
    return [str(name) for name in public.get("winner_names") or ()]


def settings_words(public: Mapping[str, Any]) -> list[str]:
    """Where a player is eliminated, and how a late entrant starts."""
    shown = []
    if "threshold" in public:
        shown.append(f"A player is eliminated at {public['threshold']} strikes.")
    if "late_entry_strikes" in public:
        shown.append(late_entry_words(public["late_entry_strikes"], "strikes"))
    return shown


def table_slips(table: ShownTable) -> list[Slip]:
    """A slip per table of the round, a line per seat asking the place and score; none
    for the byes."""
    at, player = table.header.index("table"), table.header.index("player")
    grouped: dict[str, list[str]] = {}
    for row in table.rows:
        if row[at] != "bye":
            grouped.setdefault(row[at], []).append(row[player])
    asked = ("place", "score")
    return [Slip(f"Table {label}", players, asked) for label, players in grouped.items()]


PAGES = EventPages(seating_table, winners=winners, settings=settings_words, slips=table_slips)
DESK = DeskPage("tables", TournamentSettingsIn)
