"""A strikes event's records: its settings, entrants, rounds and seats, as the ledger
folds them from the log (``event.py`` holds the rules that move the event on)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from ..event_codec import omitted_when
from .data import GameKind
from .scoring import Scored
from .seating import Seating, Strategy

RoundKind = Literal["random", "split", "tiebreak"]


# The strikes a late entrant starts with (the seed has no rule; the director chooses): the
# most of any player still in (the default: joining late never puts anyone behind a player
# who played the rounds missed), their mean, or the fewest.
LateStart = Literal["most", "mean", "fewest"]
LATE_STARTS: tuple[LateStart, ...] = ("most", "mean", "fewest")


def late_start(counts: Sequence[Fraction], rule: LateStart) -> Fraction:
    """What a late entrant starts with, of the counts of the players still in."""
    if not counts:
        return Fraction(0)
    if rule == "fewest":
        return min(counts)
    if rule == "mean":
        return sum(counts, Fraction(0)) / len(counts)
    return max(counts)


@dataclass(frozen=True)
class Settings:
    game: GameKind
    threshold: int
    two_player_games: bool
    strategy: Strategy
    plans: int
    seed: int
    # Logs from before this setting have none: the most. (omitted_when makes a field.)
    late_entry: LateStart = omitted_when("most")  # noqa: RUF009


@dataclass(frozen=True)
class Entrant:
    id: str
    name: str | None = None
    dropped_before_round: int | None = None  # dropped after round N-1 closed


@dataclass(frozen=True)
class Seat:
    player: str
    table: int | None  # None: a bye
    group: int = 1


@dataclass
class Round:
    number: int
    kind: RoundKind
    closed: bool
    seats: list[Seat]
    results: dict[int, list[Scored]] = field(default_factory=dict)  # table -> result
    detrimental_points: int = 0

    def tables(self) -> dict[int, list[str]]:
        tables: dict[int, list[str]] = {}
        for s in self.seats:
            if s.table is not None:
                tables.setdefault(s.table, []).append(s.player)
        return tables

    def byes(self) -> list[str]:
        return [s.player for s in self.seats if s.table is None]

    def players(self) -> list[str]:
        return [s.player for s in self.seats]


@dataclass(frozen=True)
class NewRound:
    number: int
    kind: RoundKind
    seats: list[Seat]
    seating: Seating | None  # None for the tiebreak game
