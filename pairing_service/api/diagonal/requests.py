"""What the Diagonal Race request schemas load (their ``post_load``): typed requests, in
the engine's own types where it has them (an :class:`Entrant`, a :class:`GameResult`, a
:class:`Racer`, :class:`RaceSettings`), which the routes hand the engine."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.diagonal.event import Entrant, GameResult
from ...engine.diagonal.log_events import LateLosses, Racer, RaceSettings
from ..held.requests import Unsent


@dataclass(frozen=True)
class RoundRequest:
    """A round to pair: the whole field, the round's number and the opponents each (None:
    as the history says)."""

    players: tuple[Entrant, ...]
    round: int | None
    opponents: int | None


@dataclass(frozen=True)
class ResultsRequest:
    """Every entrant, and each round's games."""

    players: tuple[str, ...]
    rounds: tuple[tuple[GameResult, ...], ...]


@dataclass(frozen=True)
class Rated:
    """A player to simulate, with their rating."""

    id: str
    rating: float


@dataclass(frozen=True)
class SimulationRequest:
    """Whole events to simulate (``POST /v1/diagonal/simulate``)."""

    players: tuple[Rated, ...]
    luck: float
    events: int
    seed: int


@dataclass(frozen=True)
class NewRace:
    """A held event to create: its name, racers (listed in rating order when unrated) and
    settings."""

    name: str | None
    racers: tuple[Racer, ...]
    settings: RaceSettings


@dataclass(frozen=True)
class RaceSettingsChange:
    """The setting a settings write names; left out, it is :data:`UNSENT`."""

    late_entry: LateLosses | Unsent


@dataclass(frozen=True)
class GameWon:
    """A game's result: the winner, and the loser's pieces left."""

    winner: str
    pieces_left: int
