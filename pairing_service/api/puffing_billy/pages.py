"""What a Puffing Billy event's pages show besides its read (``api/held/pages.py``): its
stage, champions and settings in words; and its desk (``api/held/desk.py``), where a
board's scores are entered."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..held.desk import DeskPage
from ..held.pages import EventPages
from .schemas import SettingsIn

FINALS_SCORING = {
    "winner_margin": "placement, and the winner's margin over the runner-up",
    "close_play": "the preliminaries' method (placement and close-play bonuses)",
    "placement_only": "placement only, ties broken by the preliminary rank",
}
STAGES = (("preliminary", "Preliminary boards"), ("final", "The final"))


def champions(public: Mapping[str, Any], labels: Mapping[str, str]) -> list[str]:
    """The champions (``champions``: none until the final is closed), by their labels."""
    return [labels.get(player, player) for player in public.get("champions") or ()]


def settings_words(public: Mapping[str, Any]) -> list[str]:
    """Which boards the preliminaries count, and how boards of the final score."""
    shown = []
    if "preliminary_boards_counted" in public:
        counted = public["preliminary_boards_counted"]
        boards = "every board" if counted is None else f"each player's best {counted} boards"
        shown.append(f"The preliminaries count {boards}.")
    if public.get("finals_scoring") in FINALS_SCORING:
        shown.append(f"Boards of the final score {FINALS_SCORING[public['finals_scoring']]}.")
    return shown


PAGES = EventPages(winners=champions, settings=settings_words, status_words=STAGES)
DESK = DeskPage("boards", SettingsIn)
