"""Pairings in words, as directors write them ("1-4, 2-3")."""

from __future__ import annotations

from collections.abc import Sequence

from ..standings import Standings


def games_text(standings: Standings, pairs: Sequence[tuple[str, str]]) -> str:
    """The games by rank, as directors write them ("1-4, 2-3"); an opponent left open
    (any player who cannot be a victor) is "x", said once at the end."""
    rank = standings.rank
    shown = [f"{rank(a)}-{rank(b) if b in standings else 'x'}" for a, b in pairs]
    open_opponent = any(b not in standings for _, b in pairs)
    return ", ".join(shown) + (" (x: any player who cannot be a victor)" if open_opponent else "")


def pair_set_text(standings: Standings, pairs: frozenset[frozenset[str]]) -> str:
    """A set of games (a bye is a one-player game) by rank, as in ``games_text``."""
    shown = sorted(sorted(standings.rank(p) for p in pair) for pair in pairs)
    return ", ".join(
        "-".join(str(r) for r in pair) if len(pair) == 2 else f"{pair[0]}-bye" for pair in shown
    )
