"""The Meeple League data (``rules/meeple_league.yaml``) as a typed object."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class LeagueRules:
    league_points: Mapping[int, tuple[Fraction, ...]]
    league_size: int
    relegated: int
    games_per_player: int
    seven_player_grid: tuple[tuple[int, ...], ...]

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> LeagueRules:
        try:
            rules = cls(
                league_points={
                    int(k): tuple(Fraction(str(v)) for v in values)
                    for k, values in data["league_points"].items()
                },
                league_size=int(data["league_size"]),
                relegated=int(data["relegated"]),
                games_per_player=int(data["games_per_player"]),
                seven_player_grid=tuple(
                    tuple(int(p) for p in g) for g in data["seven_player_grid"]
                ),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"malformed Meeple League rules: {exc!r}") from exc
        for size, points in rules.league_points.items():
            if len(points) != size or list(points) != sorted(points, reverse=True):
                raise ValueError(f"league points for {size} players must fall, one per place")
        return rules
