"""Small, precise exceptions of the Scrabble engine."""

from __future__ import annotations


class ScrabbleEngineError(Exception):
    """Base of every error the Scrabble engine raises on purpose."""


class InvalidStandings(ScrabbleEngineError, ValueError):
    """Standings that cannot be paired as given. ``field`` is a slash path into the input."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class InvalidRuleTable(ScrabbleEngineError, ValueError):
    """The rule table data does not describe a usable table."""
