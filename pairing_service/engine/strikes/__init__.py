"""Accumulated-strikes elimination tournaments for 3-5 player games (seed 000)."""

from .data import GAME_KINDS, GameKind, StrikesRules
from .errors import InvalidInput, InvalidStrikesRules, NoTablePlan, StrikesError
from .planner import PlanReport, simulate
from .plans import RoundType, TablePlan, round_type, table_plan
from .scoring import Finish, Scored, score_table
from .seating import (
    DEFAULT_PLANS,
    STRATEGIES,
    Contestant,
    SeatedTable,
    Seating,
    Strategy,
    meetings,
    repeat_meetings,
    seat,
)
from .winners import Ending, decide, decide_after_drops, decide_tiebreak, margins_of_victory

__all__ = [
    "DEFAULT_PLANS",
    "GAME_KINDS",
    "STRATEGIES",
    "Contestant",
    "Ending",
    "Finish",
    "GameKind",
    "InvalidInput",
    "InvalidStrikesRules",
    "NoTablePlan",
    "PlanReport",
    "RoundType",
    "Scored",
    "SeatedTable",
    "Seating",
    "Strategy",
    "StrikesError",
    "StrikesRules",
    "TablePlan",
    "decide",
    "decide_after_drops",
    "decide_tiebreak",
    "margins_of_victory",
    "meetings",
    "repeat_meetings",
    "round_type",
    "score_table",
    "seat",
    "simulate",
    "table_plan",
]
