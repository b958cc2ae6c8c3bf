"""What a Diagonal Race event's reads show besides its schemas: a round's games as a
table (its CSV and event page) and as a board list (text), and the standings' columns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...engine.diagonal.race_event import RaceEvent
from ...store import Held
from ..held.printables import Table
from ..held.views import round_state
from .schemas import (
    RaceRoundView,
    RaceStandingOut,
)

STANDING_COLUMNS = [name for name in RaceStandingOut().fields if name != "opponents"]


def board_list(held: Held[RaceEvent], number: int) -> str:
    """The round as a director pins it up: one line a game."""
    shown = RaceRoundView(held, number)
    rnd = shown.round

    def who(player: str) -> str:
        name = held.state.racers[player].name
        return f"{name} ({player})" if name else player

    kind = "playoff" if rnd.playoff else f"{rnd.opponents} games each"
    title = f"{held.name or 'Diagonal Race'}: round {number} ({kind}), {round_state(rnd.closed)}"
    lines = [title, ""]
    for game in shown.games:
        a, b = game.players
        result = game.result
        played = f"{result.winner} won, {result.pieces_left} pieces left" if result else "-"
        rematch = "  (rematch)" if game.rematch else ""
        lines.append(f"Game {game.at:>3}  {who(a)} v {who(b)}  {played}{rematch}")
    if shown.eliminated:
        lines += ["", "Out after this round: " + ", ".join(shown.eliminated)]
    return "\n".join(lines) + "\n"


def pairing_table(held: Held[RaceEvent], number: int) -> Table:
    """A round's games to import: a line a game, with the result once entered."""
    shown = RaceRoundView(held, number)
    header = ["game", "player_a", "player_b", "rematch", "winner", "pieces_left"]
    rows: list[Sequence[Any]] = []
    for game in shown.games:
        result = game.result
        winner, pieces_left = (result.winner, result.pieces_left) if result else (None, None)
        rows.append([game.at, *game.players, game.rematch, winner, pieces_left])
    title = f"{held.name or 'Diagonal Race'}: round {number}, {round_state(shown.round.closed)}"
    return Table(title, header, rows)


# What the log routes and the director's list use (the registry, ../formats.py, names it).
