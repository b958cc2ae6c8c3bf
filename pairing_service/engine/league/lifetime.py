"""Lifetime standings: league points by division, a higher division's point first.

One point in a higher division is worth more than any number in a lower one, so players
rank by their points in Division 1, then Division 2, and so on (a tuple compared in order).
Season winners: whoever won the one league of Division 1 each season.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ..ranking import rank_by


@dataclass(frozen=True)
class SeasonLeague:
    season: int
    league: str  # "<division>-<letter>"
    standings: tuple[tuple[str, Fraction], ...]  # (player, league points), final order

    @property
    def division(self) -> int:
        return int(self.league.split("-", 1)[0])


@dataclass
class LifetimeLine:
    player: str
    by_division: dict[int, Fraction] = field(default_factory=dict)
    seasons: int = 0
    rank: int = 0
    name: str | None = None  # the player's display name, where one is known

    def key(self, divisions: int) -> tuple[Fraction, ...]:
        return tuple(self.by_division.get(d, Fraction(0)) for d in range(1, divisions + 1))


@dataclass(frozen=True)
class Lifetime:
    standings: list[LifetimeLine]
    season_winners: list[tuple[int, str]]


def lifetime(leagues: Sequence[SeasonLeague]) -> Lifetime:
    lines: dict[str, LifetimeLine] = {}
    seasons: dict[str, set[int]] = {}
    for league in leagues:
        for player, points in league.standings:
            line = lines.setdefault(player, LifetimeLine(player))
            line.by_division[league.division] = (
                line.by_division.get(league.division, Fraction(0)) + points
            )
            seasons.setdefault(player, set()).add(league.season)
    for player, line in lines.items():
        line.seasons = len(seasons[player])
    deepest = max((lg.division for lg in leagues), default=1)
    ordered = []
    for rank, line in rank_by(
        list(lines.values()), lambda ln: ln.key(deepest), lambda ln: ln.player
    ):
        line.rank = rank
        ordered.append(line)
    winners = sorted(
        (lg.season, lg.standings[0][0]) for lg in leagues if lg.division == 1 and lg.standings
    )
    return Lifetime(ordered, winners)
