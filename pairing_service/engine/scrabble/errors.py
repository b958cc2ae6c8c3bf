"""Small, precise exceptions of the Scrabble engine."""

from __future__ import annotations

from ..errors import FieldError


class ScrabbleEngineError(Exception):
    """Base of every error the Scrabble engine raises on purpose."""


class InvalidStandings(ScrabbleEngineError, FieldError):
    """Standings that cannot be paired as given. ``field`` is a slash path into the input."""


class InvalidRuleTable(ScrabbleEngineError, ValueError):
    """The rule table data does not describe a usable table."""
