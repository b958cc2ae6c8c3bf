"""Round types and table plans: how many tables of each size, per split group.

For 6-50 players the plan is the seed's table, read from data. Elsewhere one documented
rule extends it (docs/strikes.md, "Table plans"):

- a random round, or one group of a split round, is filled with the fewest tables of the
  smallest size, then the most tables of the largest size (this reproduces every random
  round of both seed tables and every group of their split rounds);
- above 50 players a split round has ceil(players / 20) groups (3 for 51-60, as at 50),
  sizes as equal as possible with the larger groups first;
- 3 to 5 players play one table; 5 players of a 4/3-only game play 3 + 2 when 2-player
  games are allowed, otherwise 4 and a bye; 2 players play one table only when 2-player
  games are allowed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from math import ceil

from .data import GameKind, StrikesRules
from .errors import NoTablePlan

SEED_RANGE = range(6, 51)
PLAYERS_PER_GROUP_ABOVE_SEED = 20


class RoundType(StrEnum):
    RANDOM = "random"
    SPLIT = "split"


def round_type(number: int) -> RoundType:
    """Round 1 random, round 2 split by strikes, then alternating."""
    if number < 1:
        raise ValueError("rounds are numbered from 1")
    return RoundType.SPLIT if number % 2 == 0 else RoundType.RANDOM


@dataclass(frozen=True)
class TablePlan:
    groups: tuple[tuple[int, ...], ...]  # table sizes per group (G1 first), largest first
    byes: int = 0

    @property
    def seated(self) -> int:
        return sum(sum(group) for group in self.groups)


def table_plan(
    players: int,
    kind: RoundType,
    game: GameKind,
    rules: StrikesRules,
    *,
    two_player_games: bool = False,
) -> TablePlan:
    sizes = rules.plans[game].table_sizes
    if players <= max(sizes):
        return _small_field(players, sizes, two_player_games)
    if players == 5:  # 4/3-only game, five left: the seed's two options
        return TablePlan(((3, 2),)) if two_player_games else TablePlan(((4,),), byes=1)
    seed_plan = rules.plans[game].by_players.get(players)
    if seed_plan is not None:
        return TablePlan((seed_plan.random,) if kind is RoundType.RANDOM else seed_plan.split)
    if kind is RoundType.RANDOM:
        return TablePlan((fill_tables(players, sizes),))
    return TablePlan(tuple(fill_tables(size, sizes) for size in split_sizes(players)))


def _small_field(players: int, sizes: tuple[int, ...], two_player_games: bool) -> TablePlan:
    if players >= min(sizes) or (players == 2 and two_player_games):
        return TablePlan(((players,),))
    if players == 2:
        raise NoTablePlan(("players",), "2 players can only play when 2-player games are allowed")
    raise NoTablePlan(("players",), f"{players} players cannot fill a table")


def split_sizes(players: int) -> list[int]:
    groups = max(2, ceil(players / PLAYERS_PER_GROUP_ABOVE_SEED))
    base, extra = divmod(players, groups)
    return [base + 1 if index < extra else base for index in range(groups)]


def fill_tables(players: int, sizes: tuple[int, ...]) -> tuple[int, ...]:
    """Fewest tables of the smallest size, then the most of the largest size."""
    smallest, largest = sizes[-1], sizes[0]
    middle = sizes[1:-1]
    for small_count in range(players // smallest + 1):
        rest = players - small_count * smallest
        for large_count in range(rest // largest, -1, -1):
            remainder = rest - large_count * largest
            if not middle and remainder == 0:
                return (largest,) * large_count + (smallest,) * small_count
            if middle and remainder % middle[0] == 0:
                middle_count = remainder // middle[0]
                return (
                    (largest,) * large_count
                    + (middle[0],) * middle_count
                    + (smallest,) * small_count
                )
    raise NoTablePlan(("players",), f"{players} players cannot be seated at tables of {sizes}")
