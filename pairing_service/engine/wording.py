"""Words every format's answers share: a count with its noun in the right number, a
number as players write it."""

from __future__ import annotations

from fractions import Fraction

# Nouns whose plural is not the singular and an "s".
_PLURALS = {"loss": "losses", "rematch": "rematches", "byes": "byes"}


def counted(count: int | Fraction, noun: str) -> str:
    """``1 game``, ``2 games``, ``0 games``: the count and its noun, singular for one."""
    return f"{count} {noun if count == 1 else _PLURALS.get(noun, noun + 's')}"


def number_text(value: float) -> str:
    """A number as players write it: 1990, not 1990.0 (a fraction as given: 1875.5)."""
    return str(int(value)) if value.is_integer() else str(value)
