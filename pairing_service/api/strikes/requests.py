"""What the strikes request schemas load (their ``post_load``): typed requests, in the
engine's own types where it has them (a :class:`Finish`, a :class:`Contestant`, an
:class:`Entrant`), which the routes hand the engine."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...engine.strikes import Contestant, Finish, GameKind, RoundType, Strategy
from ...engine.strikes.records import Entrant, LateStart
from ..held.requests import Unsent


@dataclass(frozen=True)
class TableResult:
    """A table's result: every player's finish, as listed."""

    finishes: tuple[Finish, ...]


@dataclass(frozen=True)
class TablesRequest:
    """How many tables for this many players (``POST /v1/strikes/tables``)."""

    players: int
    round_type: RoundType
    game: GameKind
    two_player_games: bool


@dataclass(frozen=True)
class SeatingRequest:
    """A round to seat by least-times-met (``POST /v1/strikes/seating``)."""

    players: tuple[Contestant, ...]
    history: Sequence[Sequence[str]]  # every earlier table, as listed
    round_type: RoundType
    game: GameKind
    two_player_games: bool
    strategy: Strategy
    plans: int
    seed: int


@dataclass(frozen=True)
class PlanRequest:
    """Whole events to simulate (``POST /v1/strikes/plan``)."""

    players: int
    game: GameKind
    threshold: int
    two_player_games: bool
    events: int
    seed: int


@dataclass(frozen=True)
class NewTournament:
    """A tournament to create: its name, entrants and settings (``seed`` None: drawn)."""

    name: str | None
    entrants: tuple[Entrant, ...]
    threshold: int
    game: GameKind
    two_player_games: bool
    strategy: Strategy
    plans: int
    seed: int | None
    late_entry: LateStart


@dataclass(frozen=True)
class SettingsChange:
    """The settings a settings write names; those it leaves out are :data:`UNSENT`."""

    threshold: int | Unsent
    late_entry: LateStart | Unsent
