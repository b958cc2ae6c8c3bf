"""Scrabble fields that look like real events, for the benchmarks and the answers corpus.

Simulated fields: a Swiss event whose players are rated N(1500, 200); each round sorts by
wins, then spread (then player number) and pairs 1 v 2, 3 v 4, ...; an odd player out gets
a bye (a win, +50 spread); a game is drawn with probability 0.5 %, otherwise won by the Elo
probability by a margin of int(|N(0, 90)|) + 1. Adversarial fields are built without
randomness (``assigned_field``: spreads falling by 3 a rank, the XOR schedule). Every
field is a ``POST /v1/scrabble/final-round`` body; nothing here imports the service, so
any version of it can be asked the same questions.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from typing import Any

MAX_SPREAD_PER_GAME = 500
VICTORS = 2
ROUNDS = {32: 7, 100: 9, 400: 12, 2000: 15}

Body = dict[str, Any]


def player_id(i: int) -> str:
    return f"P{i + 1:04d}"


def body_of(
    half_wins: Sequence[int], spread: Sequence[int], met: Sequence[list[int | None]]
) -> Body:
    return {
        "players": [
            {
                "id": player_id(i),
                "name": f"Player {i + 1}",
                "wins": half_wins[i] / 2,
                "spread": spread[i],
                "opponents": [None if o is None else player_id(o) for o in met[i]],
            }
            for i in range(len(half_wins))
        ],
        "victors": VICTORS,
        "max_spread_per_game": MAX_SPREAD_PER_GAME,
    }


class Record:
    """An event being played: each player's wins (in halves), spread and opponents (None
    for a bye), by player number from 0."""

    def __init__(self, size: int) -> None:
        self.half_wins = [0] * size
        self.spread = [0] * size
        self.met: list[list[int | None]] = [[] for _ in range(size)]

    def bye(self, player: int) -> None:
        """A bye: a win and +50 spread, as tsh scores it."""
        self.half_wins[player] += 2
        self.spread[player] += 50
        self.met[player].append(None)

    def paired(self, a: int, b: int) -> None:
        self.met[a].append(b)
        self.met[b].append(a)

    def draw(self, a: int, b: int) -> None:
        self.half_wins[a] += 1
        self.half_wins[b] += 1

    def win(self, winner: int, loser: int, margin: int) -> None:
        self.half_wins[winner] += 2
        self.spread[winner] += margin
        self.spread[loser] -= margin

    def body(self) -> Body:
        return body_of(self.half_wins, self.spread, self.met)


def simulated_field(size: int, seed: int) -> Body:
    """A Swiss event of ``ROUNDS[size]`` rounds, every round but the last played."""
    rng = random.Random(size * 1000 + seed)
    rating = [rng.gauss(1500, 200) for _ in range(size)]
    record = Record(size)
    for _ in range(ROUNDS[size] - 1):
        order = sorted(range(size), key=lambda i: (-record.half_wins[i], -record.spread[i], i))
        if size % 2:
            record.bye(order.pop())
        for a, b in zip(order[::2], order[1::2], strict=True):
            record.paired(a, b)
            if rng.random() < 0.005:
                record.draw(a, b)
                continue
            p_a = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 400))
            winner, loser = (a, b) if rng.random() < p_a else (b, a)
            record.win(winner, loser, int(abs(rng.gauss(0, 90))) + 1)
    return record.body()


def assigned_field(half_wins: list[int]) -> Body:
    """Wins given in rank order; spreads falling by 3 a rank; the XOR schedule."""
    size = len(half_wins)
    played = ROUNDS[size] - 1
    assert size % (1 << played.bit_length()) == 0, "the XOR schedule needs a multiple of 2^k"
    assert all(a >= b for a, b in itertools.pairwise(half_wins))
    spread = [3 * (size // 2 - i) for i in range(size)]
    met: list[list[int | None]] = [[i ^ m for m in range(1, played + 1)] for i in range(size)]
    return body_of(half_wins, spread, met)


def leading_group(size: int, leaders: int) -> Body:
    """``leaders`` players tied a game ahead; the rest spread over the lower win counts."""
    played = ROUNDS[size] - 1
    lower = 2 * (played - 2)
    rest = size - leaders
    return assigned_field(
        [lower + 2] * leaders + [lower - (lower * k) // rest for k in range(rest)]
    )


def tied_wins(size: int, variant: int) -> Body:
    """Nearly everyone on the same wins (half the games played, rounded down)."""
    level = 2 * ((ROUNDS[size] - 1) // 2)
    if variant == 0:
        return assigned_field([level] * size)
    if variant == 1:
        return assigned_field([level + 2] + [level] * (size - 1))
    behind = size // 8
    return assigned_field([level + 1] + [level] * (size - 1 - behind) + [level - 2] * behind)


ADVERSARIAL: dict[str, tuple[str, Callable[[int], list[Body]]]] = {
    "leading group": (
        "top 1/8, 1/4, 1/2 tied a game ahead",
        lambda n: [leading_group(n, n // d) for d in (8, 4, 2)],
    ),
    "tied wins": (
        "all level; one a win ahead; one half a win ahead, bottom 1/8 behind",
        lambda n: [tied_wins(n, v) for v in range(3)],
    ),
}
