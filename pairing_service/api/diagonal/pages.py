"""What a Diagonal Race event's pages show besides its read (``api/held/pages.py``): each
round's pairings, its winner and settings in words; and its desk (``api/held/desk.py``),
where a game's result is entered."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..held.desk import DeskPage
from ..held.pages import EventPages, game_slips, late_entry_words
from .schemas import RaceSettingsIn
from .views import pairing_table


def winners(public: Mapping[str, Any], labels: Mapping[str, str]) -> list[str]:
    """The players whose standing's status is ``winner``, by their labels."""
    return [
        labels.get(row["player"], row["player"])
        for row in public.get("standings") or ()
        if isinstance(row, Mapping) and row.get("status") == "winner"
    ]


def settings_words(public: Mapping[str, Any]) -> list[str]:
    """How a late entrant starts."""
    if "late_entry_losses" not in public:
        return []
    return [late_entry_words(public["late_entry_losses"], "losses")]


PAGES = EventPages(
    pairing_table,
    winners=winners,
    settings=settings_words,
    slips=game_slips(("won (tick)", "pieces left")),
)
DESK = DeskPage("race", RaceSettingsIn)
