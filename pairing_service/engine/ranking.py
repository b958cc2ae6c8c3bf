"""Finishing places shared by the formats: competition ranking, given places read, and
places in words (``ordinal``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any, TypeVar

T = TypeVar("T")


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st, ..., 111th, 112th, 121st."""
    teen = 10 <= number % 100 <= 20
    suffix = "th" if teen else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def decimal_text(value: Fraction | int, places: int = 2) -> str:
    """A number as people read it: 30.5 (not 61/2), 6.33 (19/3 to ``places`` decimals,
    half up), 10; exact values live beside it where they matter."""
    step = Decimal(1).scaleb(-places)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    shown = exact.quantize(step, rounding=ROUND_HALF_UP).normalize()
    return f"{shown:f}"


def competition_places(values: Sequence[int], *, higher_is_better: bool) -> list[int]:
    """1 + the number of strictly better values, for each value (1, 2, 2, 4)."""
    sign = -1 if higher_is_better else 1
    keys = [sign * v for v in values]
    return [1 + sum(other < key for other in keys) for key in keys]


def read_places(given: Sequence[int]) -> list[int] | None:
    """Given places as a competition ranking, or None when they are not a ranking.

    Equal numbers tie. Both the standard competition ranking (1, 2, 2, 4) and the dense one
    (1, 2, 2, 3) are read as the same tie for 2nd; anything else (no 1st place, gaps that
    are not a tie) is refused, since a typo there silently changes the scores.
    """
    competition = competition_places(given, higher_is_better=False)
    distinct = sorted(set(given))
    dense = [distinct.index(p) + 1 for p in given]
    return competition if list(given) in (competition, dense) else None


def rank_by(
    rows: Sequence[T], key: Callable[[T], tuple[Any, ...]], name: Callable[[T], str]
) -> list[tuple[int, T]]:
    """Rows best first by ``key`` (larger is better, compared in order), with shared ranks
    for equal keys (1, 2, 2, 4); equal rows keep a stable order by ``name``."""
    ordered = sorted(rows, key=lambda row: (tuple(-value for value in key(row)), name(row)))
    ranked: list[tuple[int, T]] = []
    for index, row in enumerate(ordered):
        level = index and key(row) == key(ordered[index - 1])
        ranked.append((ranked[-1][0] if level else index + 1, row))
    return ranked
