"""Simulator: play whole Diagonal Race events between rated players (seeded).

Win probability: the Elo expectation damped for luck, p = luck/2 + (1 - luck) * E, with
E = 1 / (1 + 10^(-(Ra - Rb) / 400)); luck 0 is pure Elo, luck 1 a coin. Pieces left by a
win are drawn from 1..15 (a race game's margin). A playoff (everyone out and level on every
tiebreak) is played as games between the tied players until one remains. Reports rounds
played, games per player and each player's chance to win.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import refuse_repeats
from .event import Entrant, GameResult, InvalidRound, plan_round, tally

MAX_ROUNDS = 100
MAX_PIECES = 15


@dataclass(frozen=True)
class SimulationReport:
    events: int
    rounds: Counter[int]
    mean_rounds: float
    mean_games: dict[str, float]
    win_chance: dict[str, float]
    playoffs: int


def win_probability(a: float, b: float, luck: float) -> float:
    expected = 1 / (1 + 10 ** (-(a - b) / 400))
    return luck / 2 + (1 - luck) * expected


def simulate(
    ratings: Sequence[tuple[str, float]],
    *,
    luck: float = 0.5,
    events: int = 100,
    seed: int = 0,
    first_round_opponents: int = 4,
) -> SimulationReport:
    refuse_repeats([pid for pid, _ in ratings], ("players",), InvalidRound, ("id",))
    rng = random.Random(seed)
    rating = dict(ratings)
    ids = [pid for pid, _ in ratings]
    rounds_played: Counter[int] = Counter()
    games: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    playoffs = 0
    for _ in range(events):
        history, winner, playoff = _one_event(ids, rating, luck, rng, first_round_opponents)
        playoffs += playoff
        rounds_played[len(history)] += 1
        for pid in ids:
            games[pid] += sum(1 for r in history for g in r if pid in g.players)
        if winner is not None:
            wins[winner] += 1
    return SimulationReport(
        events=events,
        rounds=rounds_played,
        mean_rounds=statistics.fmean(rounds_played.elements()),
        mean_games={pid: games[pid] / events for pid in ids},
        win_chance={pid: wins[pid] / events for pid in ids},
        playoffs=playoffs,
    )


def _one_event(
    ids: list[str],
    rating: dict[str, float],
    luck: float,
    rng: random.Random,
    first_round_opponents: int,
) -> tuple[list[list[GameResult]], str | None, bool]:
    """One simulated event: its rounds' results, its winner, and whether a playoff
    decided it."""
    history: list[list[GameResult]] = []
    met: dict[str, list[str]] = {pid: [] for pid in ids}
    losses: dict[str, int] = dict.fromkeys(ids, 0)
    for number in range(1, MAX_ROUNDS + 1):
        entrants = [Entrant(p, rating[p], losses[p], tuple(met[p])) for p in ids]
        plan = plan_round(entrants, first_round_opponents if number == 1 else None)
        results = []
        for a, b in plan.games:
            a_wins = rng.random() < win_probability(rating[a], rating[b], luck)
            results.append(GameResult((a, b), a if a_wins else b, rng.randint(1, MAX_PIECES)))
            met[a].append(b)
            met[b].append(a)
        history.append(results)
        state = tally(ids, history)
        for pid, record in state.records.items():
            losses[pid] = record.losses
        if state.finished:
            winner = state.winners[0] if len(state.winners) == 1 else rng.choice(state.winners)
            return history, winner, False
        if state.playoff:
            return history, _playoff(state.playoff, rating, luck, rng), True
    return history, None, False


def _playoff(tied: list[str], rating: dict[str, float], luck: float, rng: random.Random) -> str:
    alive = list(tied)
    while len(alive) > 1:
        a, b = alive[0], alive[1]
        loser = b if rng.random() < win_probability(rating[a], rating[b], luck) else a
        alive.remove(loser)
    return alive[0]
