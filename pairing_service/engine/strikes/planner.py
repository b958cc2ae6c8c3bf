"""Planner: simulate whole events to see how long a field and threshold will run.

Each simulated event seats players by the table plans (random seating; seating quality does
not change how strikes accrue when results are random), gives every table a uniformly random
finishing order without ties, and eliminates at the threshold, until the seed's ending.
Seeded: the same arguments give the same report.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from .data import GameKind, StrikesRules
from .plans import round_type, table_plan
from .scoring import Finish, score_table
from .seating import Contestant, seat
from .winners import decide

MAX_ROUNDS = 200  # far beyond any real event; stops a pathological threshold


@dataclass(frozen=True)
class PlanReport:
    events: int
    rounds: Counter[int]  # rounds played -> events
    games_per_player: Counter[int]  # games played -> players (over all events)
    winner_games: Counter[int]  # games the winner(s) played -> winners
    mean_rounds: float
    mean_games_per_player: float
    shared_wins: int  # events ending with dual or co-winners

    def rounds_percentile(self, fraction: float) -> int:
        ordered = sorted(self.rounds.elements())
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def simulate(
    players: int,
    game: GameKind,
    threshold: int,
    rules: StrikesRules,
    *,
    two_player_games: bool = False,
    events: int = 200,
    seed: int = 0,
) -> PlanReport:
    rng = random.Random(seed)
    rounds: Counter[int] = Counter()
    games: Counter[int] = Counter()
    winner_games: Counter[int] = Counter()
    shared = 0
    for _ in range(events):
        played, per_player, winners = _one_event(
            players, game, threshold, rules, two_player_games, rng
        )
        rounds[played] += 1
        games.update(per_player.values())
        winner_games.update(per_player[w] for w in winners)
        shared += len(winners) > 1
    total_players = players * events
    return PlanReport(
        events=events,
        rounds=rounds,
        games_per_player=games,
        winner_games=winner_games,
        mean_rounds=statistics.fmean(rounds.elements()),
        mean_games_per_player=sum(g * c for g, c in games.items()) / total_players,
        shared_wins=shared,
    )


def _one_event(
    players: int,
    game: GameKind,
    threshold: int,
    rules: StrikesRules,
    two_player_games: bool,
    rng: random.Random,
) -> tuple[int, Counter[str], tuple[str, ...]]:
    strikes = {f"P{i}": Fraction(0) for i in range(players)}
    alive = list(strikes)
    per_player: Counter[str] = Counter({p: 0 for p in strikes})
    for number in range(1, MAX_ROUNDS + 1):
        plan = table_plan(
            len(alive), round_type(number), game, rules, two_player_games=two_player_games
        )
        # One random plan, as the seed deals: seating quality does not change how strikes
        # accrue when results are random.
        seating = seat(
            [Contestant(p, strikes[p]) for p in alive],
            (),
            plan,
            rules.detrimental_points,
            strategy="best_of_random",
            plans=1,
            seed=rng.randrange(2**32),
        )
        tables = []
        for table in seating.tables:
            places = list(range(1, len(table.players) + 1))
            rng.shuffle(places)
            scored = score_table(
                [Finish(p, place=pl) for p, pl in zip(table.players, places, strict=True)],
                rules.strikes_by_place,
            )
            for entry in scored:
                strikes[entry.player] += entry.strikes
                per_player[entry.player] += 1
            tables.append(scored)
        byes = list(seating.byes)
        ending = decide(tables, byes, strikes, threshold, two_player_games=two_player_games)
        if ending.finished:
            return number, per_player, ending.winners
        alive = [p for p in alive if strikes[p] < threshold]
    return MAX_ROUNDS, per_player, ()
