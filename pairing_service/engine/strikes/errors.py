"""Small, precise exceptions of the strikes engine."""

from __future__ import annotations

from ..errors import EngineError, FieldError


class StrikesError(EngineError):
    """Base of every error the strikes engine raises on purpose."""


class InvalidInput(StrikesError, FieldError):
    """Input the rules cannot apply to, at ``at`` in the input."""


class NoTablePlan(InvalidInput):
    """No table plan seats this many players with this game."""


class InvalidStrikesRules(StrikesError, ValueError):
    """The rules data does not describe usable strikes, points or table plans."""
