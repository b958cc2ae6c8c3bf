"""Diagonal Race tournaments for race games (seed 002)."""

from .event import (
    Entrant,
    GameResult,
    InvalidRound,
    Record,
    RoundPlan,
    Tally,
    check_history,
    plan_round,
    tally,
)
from .pattern import diagonal_games, diagonal_step, pair_round
from .simulate import SimulationReport, simulate, win_probability

__all__ = [
    "Entrant",
    "GameResult",
    "InvalidRound",
    "Record",
    "RoundPlan",
    "SimulationReport",
    "Tally",
    "check_history",
    "diagonal_games",
    "diagonal_step",
    "pair_round",
    "plan_round",
    "simulate",
    "tally",
    "win_probability",
]
