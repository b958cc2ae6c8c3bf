"""Scrabble final-round pairing for events with several victors (seed 003)."""

from .advisor import Advice, Game, RuleUsed, advise
from .errors import InvalidRuleTable, InvalidStandings, ScrabbleEngineError
from .standings import Player, Standings, half_wins_of
from .table import RuleTable

__all__ = [
    "Advice",
    "Game",
    "InvalidRuleTable",
    "InvalidStandings",
    "Player",
    "RuleTable",
    "RuleUsed",
    "ScrabbleEngineError",
    "Standings",
    "advise",
    "half_wins_of",
]
