"""Held tournaments: an append-only log of the director's actions, folded into a state.

Every format the service holds keeps a tournament the same way. The director's actions
(created, round started, result entered, result corrected, player dropped, round closed,
...) are :class:`Action` values: a kind and JSON data, which record a typed event (one
frozen dataclass per kind, ``engine/<format>/log_events.py``; their JSON is written once, in
``event_codec.py``). The log stores them in order as
:class:`Entry` values, numbered 1, 2, 3, ... and stamped by the store. A format's
:class:`Ledger` is pure: it decides, from the state, whether an action may happen now and
what exactly it records (a round's seating, a table's strikes), and it folds the log back
into the state. The state is never stored; it is always the fold of the log.

Nothing is ever removed from the log. A correction is a new action that names what it
replaces. Undo is a new action too: ``undone`` names the entry it cancels, and the fold
skips both. Undo always takes back the latest action still in effect, so undoing twice
goes back two steps, and the state after an undo is one the tournament really had.

A few entries are the store's, not the format's: ``token_replaced`` records that the
director token was replaced (never the token or its hash). The fold passes over them and
undo never takes them back: undoing a replacement would bring a token back to life that
its holder meant to retire.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import ClassVar, Generic, TypeVar

from .errors import Conflict, NotFound
from .event_codec import JSON, EventCodec, LogEvent, omitted_when, to_json
from .ranking import ordinal

CREATED = "created"
UNDONE = "undone"
TOKEN_REPLACED = "token_replaced"
SCOREKEEPER_ADDED = "scorekeeper_added"
SCOREKEEPER_REVOKED = "scorekeeper_revoked"
CLOCK_STARTED = "clock_started"
CLOCK_STOPPED = "clock_stopped"
# The store's entries: no format folds or undoes them.
STORE_KINDS = frozenset(
    {TOKEN_REPLACED, SCOREKEEPER_ADDED, SCOREKEEPER_REVOKED, CLOCK_STARTED, CLOCK_STOPPED}
)
DIRECTOR = "director"  # the actor of every action taken with the director token
SCOREKEEPER = "scorekeeper"  # a scorekeeper's actor is "scorekeeper <number>"

State = TypeVar("State")


@dataclass(frozen=True)
class Undone(LogEvent):
    """Undo: takes back the entry numbered ``entry`` (of kind ``kind``)."""

    logged_as = UNDONE
    entry: int
    kind: str


@dataclass(frozen=True)
class TokenReplaced(LogEvent):
    """The store's record that a new director token was issued (never which)."""

    logged_as = TOKEN_REPLACED


@dataclass(frozen=True)
class ScorekeeperAdded(LogEvent):
    """The store's record that the director issued scorekeeper ``number`` a token that
    enters results (of round ``round`` only, when it names one). Never the token, nor the
    name the director gave them: the history is public."""

    logged_as = SCOREKEEPER_ADDED
    number: int
    round: int | None = omitted_when(None)


@dataclass(frozen=True)
class ScorekeeperRevoked(LogEvent):
    """The store's record that scorekeeper ``number``'s token no longer works."""

    logged_as = SCOREKEEPER_REVOKED
    number: int


@dataclass(frozen=True)
class ClockStarted(LogEvent):
    """The director started (or started again) round ``round``'s clock: it runs for
    ``minutes`` and ends at ``ends_at`` (ISO 8601, UTC). Timing, not the tournament's
    state: no format folds it; the round's clock is read from the log (:func:`clock_of`)."""

    logged_as = CLOCK_STARTED
    round: int
    minutes: int
    ends_at: str


@dataclass(frozen=True)
class ClockStopped(LogEvent):
    """The director stopped round ``round``'s clock."""

    logged_as = CLOCK_STOPPED
    round: int


def scorekeeper_actor(number: int) -> str:
    """Who the log says made a write with scorekeeper ``number``'s token."""
    return f"{SCOREKEEPER} {number}"


@dataclass(frozen=True)
class Creation(LogEvent):
    """The first entry of every log; each format's adds its settings and players."""

    logged_as = CREATED


@dataclass(frozen=True)
class ListedPlayer:
    """A player as a creation lists them."""

    id: str
    name: str | None


def players_named(created: dict[str, JSON]) -> dict[str, JSON]:
    """Upcast a creation whose players have no ``name`` (an unnamed player: None)."""
    players = [{"name": None, **player} for player in created["players"]]
    return {**created, "players": players}


@dataclass(frozen=True)
class Action:
    """One director action: what the log records (``data`` holds JSON values only).

    ``event`` is the same action typed, when it is at hand (an action just decided, or an
    entry the store read through its format's ledger); else the ledger decodes ``data``.
    """

    kind: str
    data: Mapping[str, JSON]
    event: LogEvent | None = field(default=None, compare=False, repr=False)

    @staticmethod
    def of(event: LogEvent) -> Action:
        """The action that records ``event``."""
        return Action(event.logged_as, to_json(event), event)


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


def is_correction(action: Action) -> bool:
    """Whether ``action`` replaces a different result that stands (a table's, a game's, a
    board's): every format logs it as ``<what>_corrected``, keeping the one replaced as
    ``was``."""
    return action.kind.endswith("_corrected")


class NothingToUndo(Conflict):
    """Undo with no action left to take back (only the creation is in effect)."""


def undone_by(log: Sequence[Entry]) -> dict[int, int]:
    """The entries taken back: their seq -> the seq of the undo that took them back."""
    return {int(e.data["entry"]): e.seq for e in log if e.kind == UNDONE}


def in_effect(log: Sequence[Entry]) -> list[Entry]:
    """The entries the state is folded from: neither undone nor an undo."""
    cancelled = undone_by(log)
    return [e for e in log if e.kind != UNDONE and e.seq not in cancelled]


def undo(log: Sequence[Entry], target: int | None = None) -> Action | None:
    """The action that takes back the latest action still in effect (the store's own
    entries, such as a replaced token, are never taken back).

    ``target`` names the entry the caller means to take back, so that a retried or
    doubled undo cannot take back a second action, nor one that came in between (another
    scorekeeper's result): None when it is already undone (the retry is a no-op),
    Conflict when it is not the latest action in effect, NotFound when there is none."""
    undoable = [e for e in in_effect(log)[1:] if e.kind not in STORE_KINDS]
    if target is not None:
        if target in undone_by(log):
            return None
        if not any(e.seq == target for e in log):
            raise NotFound(f"there is no entry {target} in this tournament's history")
        if not undoable or undoable[-1].seq != target:
            latest = (
                f"the latest is entry {undoable[-1].seq} ({undoable[-1].kind})"
                if undoable
                else "only the creation is in effect"
            )
            raise Conflict(
                f"entry {target} is not the latest action still in effect: {latest}; "
                "nothing was undone"
            )
    if not undoable:
        raise NothingToUndo("there is nothing to undo: only the creation is in effect")
    return Action.of(Undone(undoable[-1].seq, undoable[-1].kind))


def standing_changes(
    before: Sequence[tuple[str, str]],
    after: Sequence[tuple[str, str]],
    measure: str,
    table: str = "standings",
    names: Mapping[str, str] | None = None,
) -> list[str]:
    """What a correction changed in a standings table, in words.

    ``before`` and ``after`` are (player, figure) rows in standings order; the answer
    names each player whose ``measure`` changed ("strikes of Ann Lee: 12 → 18"), then every
    place that changed ("standings order: Ann Lee 2nd → 4th, Bo 4th → 2nd"): by the label
    ``names`` gives them (``engine/names.py``), else by id.
    """
    called = names or {}
    was = dict(before)
    lines = [
        f"{measure} of {called.get(player, player)}: {was[player]} → {figure}"
        for player, figure in after
        if player in was and was[player] != figure
    ]
    old_place = {player: place for place, (player, _) in enumerate(before, start=1)}
    moved = [
        f"{called.get(player, player)} {ordinal(old_place[player])} → {ordinal(place)}"
        for place, (player, _) in enumerate(after, start=1)
        if player in old_place and old_place[player] != place
    ]
    if moved:
        lines.append(f"{table} order: " + ", ".join(moved))
    return lines


def changed(changes: Sequence[str]) -> str:
    """A correction's changes, as its history summary ends with them."""
    return "".join(f"; {line}" for line in changes)


class Ledger(ABC, Generic[State]):
    """A format's rules for its log: start from the creation, apply each later action.

    Subclasses decide actions (methods returning :class:`Action`, raising the engine's
    errors when the state does not allow them) and fold them (``start`` and
    ``_apply_event``), dispatching on the typed events of their ``events`` codec.
    ``apply`` may assume the action was decided by this ledger on the state it is given.
    (The hooks' names start with ``_``: the service times each public method of a ledger
    as engine work, and these run inside them.)
    """

    format: ClassVar[str]
    events: ClassVar[EventCodec]  # the format's events, by the kind they are logged as

    @abstractmethod
    def start(self, created: Entry) -> State:
        """The state right after the tournament was created."""

    def apply(self, state: State, entry: Entry) -> None:
        """Move ``state`` on by one action of the log (in place)."""
        self._apply_event(state, self._event(entry.action), entry.actor)

    @abstractmethod
    def _apply_event(self, state: State, event: LogEvent, actor: str) -> None:
        """Move ``state`` on by ``event``, taken by ``actor`` (in place)."""

    @abstractmethod
    def clone(self, state: State) -> State:
        """A copy of ``state`` that ``apply`` can move on without changing ``state``
        (the store keeps folded states between requests and never lets them change)."""

    def describe(self, action: Action) -> str:
        """The action in plain words, for the history a director reads."""
        return self._describe_event(self._event(action))

    @abstractmethod
    def _describe_event(self, event: LogEvent) -> str:
        """The event in plain words."""

    def _describe_named(self, event: LogEvent, names: Mapping[str, str]) -> str:
        """The event in plain words, each player by the label ``names`` gives them (by id
        where it gives none); a format whose words name players overrides it."""
        return self._describe_event(event)

    def _event(self, action: Action) -> LogEvent:
        """The typed event an action records (read from its data when not at hand)."""
        if action.event is not None:
            return action.event
        return self.events.decode(action.kind, action.data)

    def actor(self, state: State, token_hash: str) -> str | None:
        """Who else may write with this token (its SHA-256), if anyone: a league's
        players report their own games. Only writes that allow it ask."""
        return None

    def public(self, action: Action) -> Mapping[str, JSON]:
        """The action's data as anyone reading the history sees it: without secrets and
        without personal data (an e-mail address, anything else a player gives but
        their name)."""
        return action.data

    def for_director(self, action: Action) -> Mapping[str, JSON]:
        """The action's data as the tournament's director sees it: without secrets, with
        the personal data players gave the director."""
        return self.public(action)

    def fold(self, log: Sequence[Entry]) -> State:
        live = in_effect(log)
        if not live or live[0].kind != CREATED:
            raise ValueError(f"a {self.format} log must begin with its creation")
        state = self.start(live[0])
        for entry in live[1:]:
            if entry.kind not in STORE_KINDS:
                self.apply(state, entry)
        return state

    def summary(self, action: Action, names: Mapping[str, str] | None = None) -> str:
        """Plain words for any action of this format's log, undo included; players by the
        labels ``names`` gives them (the names the organiser typed: ``engine/names.py``),
        else by id."""
        match self._event(action):
            case Undone(entry=entry, kind=kind):
                return f"Undid action {entry} ({kind})"
            case TokenReplaced():
                return "A new director token was issued; the one before it no longer works"
            case ScorekeeperAdded(number=number, round=None):
                return f"Scorekeeper {number} was issued a token that enters results"
            case ScorekeeperAdded(number=number, round=round_number):
                return (
                    f"Scorekeeper {number} was issued a token that enters results "
                    f"of round {round_number}"
                )
            case ScorekeeperRevoked(number=number):
                return f"Scorekeeper {number}'s token was revoked"
            case ClockStarted(round=number, minutes=minutes, ends_at=ends_at):
                ends = datetime.fromisoformat(ends_at).strftime("%H:%M UTC")
                return f"Round {number}'s clock started: {minutes} minutes, ending at {ends}"
            case ClockStopped(round=number):
                return f"Round {number}'s clock was stopped"
            case event:
                return self._describe_named(event, names or {})


def format_events(what: str, *events: type[LogEvent]) -> EventCodec:
    """The codec of a format's log: its own events and the store's (undo, a new token,
    scorekeepers); ``what`` names the log in errors ("a strikes log")."""
    store_events = (
        Undone,
        TokenReplaced,
        ScorekeeperAdded,
        ScorekeeperRevoked,
        ClockStarted,
        ClockStopped,
    )
    return EventCodec(what, *store_events, *events)


def read_action(ledger: Ledger[State], kind: str, data: Mapping[str, JSON]) -> Action:
    """A stored entry's action, with its typed event: folds and histories of the same
    entry never decode it again. (A function, not a method: the service times a ledger's
    public methods, once per request, not once per entry read.)"""
    return Action(kind, data, ledger.events.decode(kind, data))
