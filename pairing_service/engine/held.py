"""Held tournaments: an append-only log of the director's actions, folded into a state.

Every format the service holds keeps a tournament the same way. The director's actions
(created, round started, result entered, result corrected, player dropped, round closed,
...) are :class:`Action` values: a kind and JSON data. The log stores them in order as
:class:`Entry` values, numbered 1, 2, 3, ... and stamped by the store. A format's
:class:`Ledger` is pure: it decides, from the state, whether an action may happen now and
what exactly it records (a round's seating, a table's strikes), and it folds the log back
into the state. The state is never stored; it is always the fold of the log.

Nothing is ever removed from the log. A correction is a new action that names what it
replaces. Undo is a new action too: ``undone`` names the entry it cancels, and the fold
skips both. Undo always takes back the latest action still in effect, so undoing twice
goes back two steps, and the state after an undo is one the tournament really had.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar, Generic, TypeVar

from .errors import Conflict, NotFound

CREATED = "created"
UNDONE = "undone"
DIRECTOR = "director"  # the actor of every action taken with the director token

State = TypeVar("State")
JSON = Any  # JSON values only: dict, list, str, int, float, bool, None


@dataclass(frozen=True)
class Action:
    """One director action: what the log records (``data`` holds JSON values only)."""

    kind: str
    data: Mapping[str, JSON]


@dataclass(frozen=True)
class Entry:
    """An action as the log holds it."""

    seq: int
    action: Action
    at: datetime
    actor: str = DIRECTOR

    @property
    def kind(self) -> str:
        return self.action.kind

    @property
    def data(self) -> Mapping[str, JSON]:
        return self.action.data


T = TypeVar("T")


def numbered(items: Sequence[T], number: int, what: str) -> T:
    """The item numbered ``number`` (from 1) of a tournament's rounds, seasons, ...;
    NotFound when there is none."""
    if 1 <= number <= len(items):
        return items[number - 1]
    raise NotFound(f"there is no {what} {number}")


class NothingToUndo(Conflict):
    """Undo with no action left to take back (only the creation is in effect)."""


def undone_by(log: Sequence[Entry]) -> dict[int, int]:
    """The entries taken back: their seq -> the seq of the undo that took them back."""
    return {int(e.data["entry"]): e.seq for e in log if e.kind == UNDONE}


def in_effect(log: Sequence[Entry]) -> list[Entry]:
    """The entries the state is folded from: neither undone nor an undo."""
    cancelled = undone_by(log)
    return [e for e in log if e.kind != UNDONE and e.seq not in cancelled]


def undo(log: Sequence[Entry]) -> Action:
    """The action that takes back the latest action still in effect."""
    live = in_effect(log)
    if len(live) <= 1:
        raise NothingToUndo("there is nothing to undo: only the creation is in effect")
    return Action(UNDONE, {"entry": live[-1].seq, "kind": live[-1].kind})


class Ledger(ABC, Generic[State]):
    """A format's rules for its log: start from the creation, apply each later action.

    Subclasses decide actions (methods returning :class:`Action`, raising the engine's
    errors when the state does not allow them) and fold them (``start`` and ``apply``).
    ``apply`` may assume the action was decided by this ledger on the state it is given.
    """

    format: ClassVar[str]

    @abstractmethod
    def start(self, created: Entry) -> State:
        """The state right after the tournament was created."""

    @abstractmethod
    def apply(self, state: State, entry: Entry) -> None:
        """Move ``state`` on by one action of the log (in place)."""

    @abstractmethod
    def clone(self, state: State) -> State:
        """A copy of ``state`` that ``apply`` can move on without changing ``state``
        (the store keeps folded states between requests and never lets them change)."""

    @abstractmethod
    def describe(self, action: Action) -> str:
        """The action in plain words, for the history a director reads."""

    def actor(self, state: State, token_hash: str) -> str | None:
        """Who else may write with this token (its SHA-256), if anyone: a league's
        players report their own games. Only writes that allow it ask."""
        return None

    def public(self, action: Action) -> Mapping[str, JSON]:
        """The action's data as the history shows it (without secrets)."""
        return action.data

    def fold(self, log: Sequence[Entry]) -> State:
        live = in_effect(log)
        if not live or live[0].kind != CREATED:
            raise ValueError(f"a {self.format} log must begin with its creation")
        state = self.start(live[0])
        for entry in live[1:]:
            self.apply(state, entry)
        return state

    def summary(self, action: Action) -> str:
        """Plain words for any action of this format's log, undo included."""
        if action.kind == UNDONE:
            return f"Undid action {action.data['entry']} ({action.data['kind']})"
        return self.describe(action)
