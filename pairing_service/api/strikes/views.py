"""What a strikes tournament's reads show besides its schemas: a round's seating as a
table (its CSV, text and event page) and the standings' columns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...engine.strikes.ledger import HeldEvent
from ...store import Held
from ..held.printables import Table
from ..held.views import round_state
from .schemas import (
    RoundView,
    StandingOut,
)

STANDING_COLUMNS = [name for name in StandingOut().fields if name != "strikes_exact"]


def seating_table(held: Held[HeldEvent], number: int) -> Table:
    """A round's seating to print or import: a line per seat (byes last), with the result
    once entered."""
    shown = RoundView(held, number)
    entrants = held.state.entrants
    header = ["table", "group", "player", "name", "place", "score", "strikes"]
    rows: list[Sequence[Any]] = []
    for table in shown.tables:
        result = {s.player: s for s in table.result or []}
        for player in table.players:
            got = result.get(player)
            place, score, strikes = (got.place, got.score, got.strikes) if got else (None,) * 3
            rows.append(
                [table.at, table.group, player, entrants[player].name, place, score, strikes]
            )
    rows += [["bye", None, p, entrants[p].name, None, None, None] for p in shown.round.byes()]
    rnd = shown.round
    name = held.name or "Strikes tournament"
    title = f"{name}: round {number} ({rnd.kind}), {round_state(rnd.closed)}"
    return Table(title, header, rows)


# What the log routes and the director's list use (the registry, ../formats.py, names it).
