"""Small, precise exceptions of the strikes engine."""

from __future__ import annotations


class StrikesError(Exception):
    """Base of every error the strikes engine raises on purpose."""


class InvalidInput(StrikesError, ValueError):
    """Input the rules cannot apply to. ``field`` is a slash path into the input."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message


class NoTablePlan(InvalidInput):
    """No table plan seats this many players with this game."""


class InvalidStrikesRules(StrikesError, ValueError):
    """The rules data does not describe usable strikes, points or table plans."""
