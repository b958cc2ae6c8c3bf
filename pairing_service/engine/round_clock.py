"""A round's clock: the director starts it when a round begins, and the desk and the public
page show the time left. Timing, not the tournament's state: the clock's entries
(``ClockStarted``, ``ClockStopped``) are the store's own, which no format folds, and a
round's clock is read from the log as it stands.

A clock runs for the minutes the director gives, else as long as the event's last clock
ran, else the format's usual length (its routes say it): a director who sets 45 minutes
once has 45 minutes every round after.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from .errors import Conflict
from .event_log import Action, ClockStarted, ClockStopped, Entry

MAX_MINUTES = 600


@dataclass(frozen=True)
class Clock:
    """A round's clock as it runs: when it started and ends, and its length."""

    round: int
    minutes: int
    started_at: datetime
    ends_at: datetime


def clock_of(log: Sequence[Entry], open_round: int | None) -> Clock | None:
    """The clock of ``open_round`` (the round being played; None: none is), if the
    director started it and has not stopped it since: its latest start or stop decides."""
    if open_round is None:
        return None
    for entry in reversed(log):
        event = entry.action.event
        if isinstance(event, ClockStopped) and event.round == open_round:
            return None
        if isinstance(event, ClockStarted) and event.round == open_round:
            return Clock(open_round, event.minutes, entry.at, datetime.fromisoformat(event.ends_at))
    return None


def last_clock_minutes(log: Sequence[Entry]) -> int | None:
    """How long the event's last clock ran: the length its next one runs by default."""
    for entry in reversed(log):
        if isinstance(entry.action.event, ClockStarted):
            return entry.action.event.minutes
    return None


def start_clock(
    log: Sequence[Entry], open_round: int | None, minutes: int | None, now: datetime, usual: int
) -> Action:
    """Start (or start again) the clock of the round being played."""
    if open_round is None:
        raise Conflict("no round is being played: start a round, then its clock")
    length = minutes or last_clock_minutes(log) or usual
    ends = now + timedelta(minutes=length)
    return Action.of(ClockStarted(open_round, length, ends.isoformat()))


def stop_clock(log: Sequence[Entry], open_round: int | None) -> Action | None:
    """Stop the running clock; None when no clock runs (nothing to log)."""
    if clock_of(log, open_round) is None or open_round is None:
        return None
    return Action.of(ClockStopped(open_round))
