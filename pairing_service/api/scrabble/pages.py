"""What a held Scrabble event's pages show besides its read (``api/held/pages.py``): each
round's games by board and by name; and its desk (``api/held/desk.py``), where a game's
scores are entered."""

from __future__ import annotations

from ..held.desk import DeskPage
from ..held.pages import EventPages, game_slips
from .schemas import ScrabbleSettingsIn
from .views import pairing_table, pairings_by_name

PAGES = EventPages(pairing_table, pairings_by_name, slips=game_slips(("score",)))
DESK = DeskPage("scores", ScrabbleSettingsIn)
