"""Words every format's answers share: a count with its noun in the right number."""

from __future__ import annotations

from fractions import Fraction

# Nouns whose plural is not the singular and an "s".
_PLURALS = {"loss": "losses", "rematch": "rematches", "byes": "byes"}


def counted(count: int | Fraction, noun: str) -> str:
    """``1 game``, ``2 games``, ``0 games``: the count and its noun, singular for one."""
    return f"{count} {noun if count == 1 else _PLURALS.get(noun, noun + 's')}"
