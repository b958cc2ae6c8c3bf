"""Scrabble final-round pairing for events with several victors (seed 003).

Grouped by job; docs/scrabble.md ("Where the code is") lists the modules in the order a
request meets them.

- At the top: the standings, the errors, the seed's ``rule_table``, ``contention`` (final
  records and who can still become a victor), the ``checker`` (a proposed pairing judged,
  its outcomes listed) and the tsh division files.
- ``judge/``: the principles GP1-GP4 for one pairing, the counts tables that score many
  pairings at once, the outcome engine's proofs, and the comparison that gives verdicts.
- ``pairing/``: ``advise`` and the pairing steps: the plan, the completed pairing, the
  fallback, the board and rest Swiss.
- ``explain/``: the wording: what each player needs, the trade-offs, the reasons.
"""

from .checker import Audit, audit, list_outcomes, read_pairing
from .contention import Result
from .errors import InvalidRuleTable, InvalidStandings, ScrabbleEngineError
from .game import Game
from .judge.principles import Need, Verdict
from .judge.proof import Outcome
from .pairing.advisor import MAX_VICTORS, PREFERENCES, Advice, SeedNote, advise
from .pairing.recommendation import Alternative
from .plans import RuleUsed
from .prize_places import PlaceRace, PrizePlaces, Reach
from .rule_table import RuleTable
from .standings import Player, Standings, half_wins_of

__all__ = [
    "MAX_VICTORS",
    "PREFERENCES",
    "Advice",
    "Alternative",
    "Audit",
    "Game",
    "InvalidRuleTable",
    "InvalidStandings",
    "Need",
    "Outcome",
    "PlaceRace",
    "Player",
    "PrizePlaces",
    "Reach",
    "Result",
    "RuleTable",
    "RuleUsed",
    "ScrabbleEngineError",
    "SeedNote",
    "Standings",
    "Verdict",
    "advise",
    "audit",
    "half_wins_of",
    "list_outcomes",
    "read_pairing",
]
