"""Puffing Billy scoring for train-game tournaments (seed 004)."""

from .event import Board, EventResult, Standing, standings
from .scoring import (
    BoardEntry,
    BoardRules,
    FinalsScoring,
    InvalidBoard,
    Method,
    ScoredEntry,
    score_board,
)

__all__ = [
    "Board",
    "BoardEntry",
    "BoardRules",
    "EventResult",
    "FinalsScoring",
    "InvalidBoard",
    "Method",
    "ScoredEntry",
    "Standing",
    "score_board",
    "standings",
]
