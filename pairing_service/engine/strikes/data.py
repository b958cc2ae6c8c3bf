"""The seed's tables as a typed, validated object, built from ``rules/strikes.yaml``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .errors import InvalidStrikesRules

GameKind = Literal["5-4-3", "4-3"]
GAME_KINDS: tuple[GameKind, ...] = ("5-4-3", "4-3")


@dataclass(frozen=True)
class SeedPlan:
    """One line of a seed table: table sizes of the random round, and of each split group."""

    random: tuple[int, ...]
    split: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class GamePlans:
    table_sizes: tuple[int, ...]  # largest first, e.g. (5, 4, 3)
    by_players: Mapping[int, SeedPlan]


@dataclass(frozen=True)
class StrikesRules:
    strikes_by_place: Mapping[int, tuple[int, ...]]
    thresholds: Mapping[str, int]
    detrimental_points: tuple[int, ...]
    plans: Mapping[str, GamePlans]

    def points_for_meetings(self, times_met: int) -> int:
        """Detrimental points of a pair that met ``times_met`` times (the last entry caps)."""
        return self.detrimental_points[min(times_met, len(self.detrimental_points) - 1)]

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> StrikesRules:
        try:
            strikes = {
                int(size): tuple(int(s) for s in row)
                for size, row in data["strikes_by_place"].items()
            }
            thresholds = {str(k): int(v) for k, v in data["thresholds"].items()}
            points = tuple(int(p) for p in data["detrimental_points"])
            plans = {
                str(game): _game_plans(str(game), spec)
                for game, spec in data["table_plans"].items()
            }
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InvalidStrikesRules(f"malformed strikes rules: {exc!r}") from exc
        for size, row in strikes.items():
            if len(row) != size or list(row) != sorted(row) or row[0] != 0:
                raise InvalidStrikesRules(
                    f"strikes for {size} players must be {size} rising values from 0"
                )
        if points[0] != 0 or list(points) != sorted(points):
            raise InvalidStrikesRules("detrimental points must rise from 0")
        if "default" not in thresholds or min(thresholds.values()) <= 0:
            raise InvalidStrikesRules("thresholds need a positive 'default'")
        if set(plans) != set(GAME_KINDS):
            raise InvalidStrikesRules(f"table plans must be given for {GAME_KINDS}")
        for game in plans.values():
            missing = set(game.table_sizes) - set(strikes)
            if missing:
                raise InvalidStrikesRules(f"no strikes for {sorted(missing)}-player games")
        return cls(strikes, thresholds, points, plans)


def _game_plans(game: str, spec: Mapping[str, Any]) -> GamePlans:
    sizes = tuple(int(s) for s in spec["table_sizes"])
    by_players: dict[int, SeedPlan] = {}
    for players, line in spec["players"].items():
        count = int(players)
        parts = [tuple(int(c) for c in part.split()) for part in str(line).split("|")]
        if any(len(part) != len(sizes) for part in parts) or len(parts) < 3:
            raise InvalidStrikesRules(f"{game} plan for {count} players: malformed {line!r}")
        random, *split = (_tables(sizes, part) for part in parts)
        for label, groups in (("random round", [random]), ("split round", split)):
            if sum(sum(g) for g in groups) != count:
                raise InvalidStrikesRules(
                    f"{game} plan for {count} players: the {label} seats "
                    f"{sum(sum(g) for g in groups)}"
                )
        by_players[count] = SeedPlan(random, tuple(split))
    return GamePlans(sizes, by_players)


def _tables(sizes: tuple[int, ...], counts: tuple[int, ...]) -> tuple[int, ...]:
    """Counts per table size -> the list of table sizes, largest first."""
    return tuple(size for size, count in zip(sizes, counts, strict=True) for _ in range(count))
