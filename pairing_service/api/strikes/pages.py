"""What a strikes tournament's pages show besides its read (``api/held/pages.py``): each
round's seating, its winners and settings in words; and its desk (``api/held/desk.py``),
where a result is entered per table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..held.desk import DeskPage
from ..held.pages import EventPages, late_entry_words
from .events import seating_table
from .schemas import TournamentSettingsIn


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


PAGES = EventPages(seating_table, winners=winners, settings=settings_words)
DESK = DeskPage("tables", TournamentSettingsIn)
