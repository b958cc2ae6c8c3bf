"""What every format's engine raises for input its rules cannot apply to."""

from __future__ import annotations

from collections.abc import Hashable, Sequence


class FieldError(ValueError):
    """Input the rules cannot apply to; ``field`` is a slash path into the input (the API
    answers a 422 whose JSON Pointer is built from it)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message


def first_repeat(items: Sequence[Hashable]) -> int | None:
    """The index of the first item that appeared before, or None."""
    seen: set[Hashable] = set()
    for index, item in enumerate(items):
        if item in seen:
            return index
        seen.add(item)
    return None


def refuse_repeats(
    items: Sequence[str], field: str, error: type[FieldError], suffix: str = ""
) -> None:
    """Raise ``error`` at ``<field>/<index><suffix>`` for the first id listed twice."""
    index = first_repeat(items)
    if index is not None:
        raise error(f"{field}/{index}{suffix}", f"{items[index]!r} is listed twice")


class Conflict(Exception):
    """The held tournament's state does not allow this now (a 409); the message says why."""


class NotFound(Exception):
    """No such round, table, game, board or player in this tournament (a 404)."""
