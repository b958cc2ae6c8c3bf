"""A game of a pairing (``Game``: its players, a bye, the pair's meetings before, the
reason it was made), and the games as the judge takes them (``pairs_of``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Game:
    players: tuple[str, ...]
    bye: bool
    repeats: int
    reason: str


def pairs_of(games: Sequence[Game]) -> list[tuple[str, str]]:
    """The games as the judge takes them: each game's two players, the bye left out."""
    return [(g.players[0], g.players[1]) for g in games if not g.bye]
