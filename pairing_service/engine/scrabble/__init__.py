"""Scrabble final-round pairing for events with several victors (seed 003)."""

from .advisor import (
    Advice,
    Audit,
    Game,
    RuleUsed,
    SeedNote,
    advise,
    audit,
    list_outcomes,
    read_pairing,
)
from .errors import InvalidRuleTable, InvalidStandings, ScrabbleEngineError
from .standings import Player, Standings, half_wins_of
from .table import RuleTable

__all__ = [
    "Advice",
    "Audit",
    "Game",
    "InvalidRuleTable",
    "InvalidStandings",
    "Player",
    "RuleTable",
    "RuleUsed",
    "ScrabbleEngineError",
    "SeedNote",
    "Standings",
    "advise",
    "audit",
    "half_wins_of",
    "list_outcomes",
    "read_pairing",
]
