"""Small, precise exceptions of the Scrabble engine."""

from __future__ import annotations

from ..errors import EngineError, FieldError, Location, Rule


class ScrabbleEngineError(EngineError):
    """Base of every error the Scrabble engine raises on purpose."""


class InvalidStandings(ScrabbleEngineError, FieldError):
    """Standings that cannot be paired as given, at ``at`` in the engine's input; ``player``
    the player at fault, when the engine cannot tell where the input gave them (a
    withdrawal: the API knows whether a player's flag or a tsh file said it)."""

    def __init__(
        self, at: Location, message: str, *, rule: Rule | None = None, player: str | None = None
    ) -> None:
        super().__init__(at, message, rule=rule)
        self.player = player


class InvalidRuleTable(ScrabbleEngineError, ValueError):
    """The rule table data does not describe a usable table."""
