"""What a held Scrabble event's reads show besides its schemas: a round's pairings as a
table by board and by name (its CSV, text and event page), and the standings' columns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...engine.scrabble.held.event import ScrabbleEvent
from ...store import Held
from ..held.printables import Table
from ..held.views import round_state
from .schemas import (
    ScrabbleRoundView,
)

STANDING_COLUMNS = [
    "rank",
    "player",
    "name",
    "rating",
    "wins",
    "losses",
    "spread",
    "games",
    "byes",
    "status",
]


def pairing_table(held: Held[ScrabbleEvent], number: int) -> Table:
    """A round's boards: a line a game, the scores (and penalties) once entered, the bye
    last."""
    shown = ScrabbleRoundView(held, number)
    header = [
        "game",
        "player_a",
        "player_b",
        "repeat",
        "score_a",
        "score_b",
        "penalty_a",
        "penalty_b",
        "forfeit",
    ]
    rows: list[Sequence[Any]] = []
    for game in shown.games:
        result = game.result
        played = result is not None and result.scores is not None
        scores = result.scores if result and result.scores else (None, None)
        penalties = result.penalties if result and played else (None, None)
        rows.append(
            [game.at, *game.players, game.repeat, *scores, *penalties, result and result.forfeit]
        )
    nothing = [None, None, None]
    if shown.round.bye:
        rows.append(
            ["bye", shown.round.bye, None, None, held.state.settings.bye_spread, None, *nothing]
        )
    for player, spread in shown.without_opponent():
        rows.append([sat_out_word(spread), player, None, None, spread, None, *nothing])
    method = shown.round.method
    title = (
        f"{held.name or 'Scrabble'}: round {number} ({method}), {round_state(shown.round.closed)}"
    )
    return Table(title, header, rows)


def sat_out_word(spread: int) -> str:
    """What an imported round's player without an opponent had (tsh's opponent 0, by the
    spread tsh scored): a bye, a forfeit, or no result."""
    return "bye" if spread > 0 else "forfeit" if spread < 0 else "unplayed"


def pairings_by_name(held: Held[ScrabbleEvent], number: int) -> Table:
    """A round's pairings a line a player, alphabetical by name (then id): their game and
    opponent; the bye says so. What a player looks for on the wall or a phone."""
    shown = ScrabbleRoundView(held, number)
    named = {row.player: row.name or row.player for row in held.state.standings()}
    rows: list[Sequence[Any]] = []
    for game in shown.games:
        first, second = game.players
        rows += [[first, game.at, second], [second, game.at, first]]
    if shown.round.bye:
        rows.append([shown.round.bye, "bye", None])
    rows += [[p, sat_out_word(spread), None] for p, spread in shown.without_opponent()]
    rows.sort(key=lambda row: (named.get(row[0], row[0]).casefold(), row[0]))
    title = f"{held.name or 'Scrabble'}: round {number} by name"
    return Table(title, ["player", "game", "opponent"], rows)
