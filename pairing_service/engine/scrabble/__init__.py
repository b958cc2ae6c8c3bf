"""Scrabble final-round pairing for events with several victors (seed 003).

One module per job: ``advisor.advise`` is the way in; docs/scrabble.md ("Where the code
is") lists the modules in the order a request meets them.
"""

from .advisor import Advice, SeedNote, advise
from .audit import Audit, audit, list_outcomes, read_pairing
from .board import Game
from .errors import InvalidRuleTable, InvalidStandings, ScrabbleEngineError
from .plans import RuleUsed
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
