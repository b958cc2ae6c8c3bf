"""What the held Scrabble request schemas load (their ``post_load``): typed requests, in the
engine's own types where it has them (:class:`EventSettings`, an :class:`Entrant`), which
the routes hand the engine."""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal

from ...engine.scrabble.held.checks import MAX_ROUNDS
from ...engine.scrabble.held.log_events import (
    Entrant,
    EventSettings,
    Method,
    PairingSystem,
    RepeatsFor,
)
from ..held.requests import UNSENT, Unsent, sent_or

Prizes = tuple[Decimal | None, ...]


@dataclass(frozen=True)
class NewScrabbleEvent:
    """An event to create: its name, players and settings."""

    name: str | None
    players: tuple[Entrant, ...]
    settings: EventSettings


@dataclass(frozen=True)
class RoundStart:
    """How to pair the next round; each None: the default schedule's."""

    method: Method | None = None
    repeats_allowed: int | None = None
    seed: int | None = None


@dataclass(frozen=True)
class GameEntered:
    """A game's result: both scores (with any penalties), or who forfeited (and its
    spread, None: the event's bye spread)."""

    scores: tuple[int, int] | None
    forfeit: str | None
    spread: int | None
    penalties: tuple[int, int] | None


@dataclass(frozen=True)
class ScrabbleSettingsChange:
    """The settings a settings write names; those it leaves out are :data:`UNSENT` (a null
    ``spread_cap`` sent is a value: uncapped)."""

    rounds: int | Unsent = UNSENT
    spread_cap: int | Unsent | None = UNSENT
    bye_spread: int | Unsent = UNSENT
    repeats_allowed: int | Unsent = UNSENT
    repeats_by_round: tuple[RepeatsFor, ...] | Unsent = UNSENT
    victors: int | Unsent = UNSENT
    seed: int | Unsent = UNSENT
    pairing_system: PairingSystem | Unsent = UNSENT
    prizes: Prizes | Unsent = UNSENT

    def applied(self, now: EventSettings) -> EventSettings:
        """``now`` with the settings named changed. ``victors`` named without ``prizes``
        makes the places equal from now on (a request gives one or the other)."""
        kept_prizes = now.prizes if self.victors is UNSENT else None
        return replace(
            now,
            rounds=sent_or(self.rounds, now.rounds),
            spread_cap=sent_or(self.spread_cap, now.spread_cap),
            bye_spread=sent_or(self.bye_spread, now.bye_spread),
            repeats_allowed=sent_or(self.repeats_allowed, now.repeats_allowed),
            repeats_by_round=sent_or(self.repeats_by_round, now.repeats_by_round),
            victors=sent_or(self.victors, now.victors),
            seed=sent_or(self.seed, now.seed),
            pairing_system=sent_or(self.pairing_system, now.pairing_system),
            prizes=sent_or(self.prizes, kept_prizes),
        )


@dataclass(frozen=True)
class TshImport:
    """An event to continue from a tsh division file: its name, the file, the rounds
    planned (None: one more than the file has played) and the other settings as a create
    gives them."""

    name: str | None
    tsh: str
    rounds: int | None
    spread_cap: int | None
    bye_spread: int
    repeats_allowed: int
    victors: int
    seed: int
    pairing_system: PairingSystem
    prizes: Prizes | None

    def settings(self, played: int) -> EventSettings:
        """The event's settings, for a file of ``played`` rounds."""
        return EventSettings(
            min(MAX_ROUNDS, played + 1) if self.rounds is None else self.rounds,
            self.spread_cap,
            self.bye_spread,
            self.repeats_allowed,
            self.victors,
            self.seed,
            self.prizes,
            pairing_system=self.pairing_system,
        )
