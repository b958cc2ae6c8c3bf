"""A budget for costly computations: at most ``COSTLY_CONCURRENCY`` of them at once in
this instance of the service, whichever of its workers serves them.

The stateless simulators (``/v1/strikes/plan``, ``/v1/diagonal/simulate``) take seconds
each and need no token: eight clients looping on one would hold every worker and leave
result entry unanswered. A view marked :func:`costly` runs only while it holds one of
``COSTLY_CONCURRENCY`` slots; with none free it answers at once 503 ``busy`` with
Retry-After, so the other workers stay free for results and reads.

The stateless planners (``/v1/strikes/seating``, ``/v1/diagonal/round``,
``/v1/league/schedule``, ``/v1/scrabble/final-round``, ``/v1/scrabble/audit``) are in the
same budget (:func:`planner`). A planner's search takes tens of milliseconds, no token, and
eight clients looping on the seating held every worker. Where a simulation takes seconds
and is answered 503 ``busy`` at once, a planner waits up to ``SLOT_WAIT_SECONDS`` for a
slot (one frees within tens of milliseconds), asking again every ``SLOT_POLL_SECONDS``,
and only then answers 503 ``busy``: answered at once, the clients looping on it asked
again at once (260 refusals a second, each a parsed body, took the CPU that results and
health checks needed); waiting, they hold a parked greenlet each and nothing else.

A slot is an exclusive ``flock`` on one of N files in ``COSTLY_SLOTS_DIR``: the kernel
releases it when the request ends or its worker dies, and it holds across the workers of
one instance (a per-process counter would not). The folder is the instance's own: made
by the app factory, in gunicorn's master (``preload_app``) before the workers are forked
from it, and removed when that process exits; so two servers on one machine (a practice
one and the live one, or two test runs) never take each other's slots. A folder named in
the setting is shared by every instance given it, as the operator chose.

Written here because no well-kept library offers a cross-process, non-blocking slot with
that release guarantee; ``fcntl`` is the standard library's.

``COSTLY_CONCURRENCY`` (env ``PAIRING_COSTLY_CONCURRENCY``): default half the workers
(``WEB_CONCURRENCY``), at least 1.
"""

from __future__ import annotations

import atexit
import fcntl
import functools
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from flask import Flask, current_app

from .workers import serving_workers

F = TypeVar("F", bound=Callable[..., Any])
BUSY_RETRY_SECONDS = 5
SLOT_WAIT_SECONDS = 2.0
SLOT_POLL_SECONDS = 0.02


class Busy(Exception):
    """Every slot for costly computations is taken (a 503)."""

    def __init__(self, slots: int) -> None:
        super().__init__(slots)
        self.slots = slots


def default_concurrency() -> int:
    return max(1, serving_workers() // 2)


SLOTS_DIR_PREFIX = "pairing-advisor-costly-"


def instance_slots_dir() -> str:
    """A new folder for this instance's slots, removed when the process that made it
    exits (not when a worker forked from it does: the others still hold slots there)."""
    folder = tempfile.mkdtemp(prefix=SLOTS_DIR_PREFIX)
    maker = os.getpid()

    def remove() -> None:
        if os.getpid() == maker:
            shutil.rmtree(folder, ignore_errors=True)

    atexit.register(remove)
    return folder


@contextmanager
def slot(folder: str, slots: int) -> Iterator[None]:
    """Hold one of ``slots`` slots in ``folder`` while the block runs; Busy when none is free."""
    os.makedirs(folder, mode=0o700, exist_ok=True)
    for number in range(slots):
        descriptor = os.open(os.path.join(folder, f"slot-{number}"), os.O_CREAT | os.O_RDWR, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(descriptor)
            continue
        try:
            yield
        finally:
            os.close(descriptor)  # closing releases the lock
        return
    raise Busy(slots)


def init_costly(app: Flask) -> None:
    """Settle the settings' defaults."""
    config = app.config
    config["COSTLY_CONCURRENCY"] = int(config["COSTLY_CONCURRENCY"] or default_concurrency())
    config["COSTLY_SLOTS_DIR"] = config["COSTLY_SLOTS_DIR"] or instance_slots_dir()


def _within_budget(view: F, wait_seconds: Callable[[], float]) -> F:
    """The view, run only while it holds a slot; waiting up to ``wait_seconds()`` for one."""

    @functools.wraps(view)
    def limited(*args: Any, **kwargs: Any) -> Any:
        config = current_app.config
        deadline = time.monotonic() + wait_seconds()
        while True:
            running = False
            try:
                with slot(config["COSTLY_SLOTS_DIR"], config["COSTLY_CONCURRENCY"]):
                    running = True
                    return view(*args, **kwargs)
            except Busy:
                if running or time.monotonic() >= deadline:
                    raise
            time.sleep(SLOT_POLL_SECONDS)  # a greenlet's sleep under gevent

    return limited  # type: ignore[return-value]


def costly(view: F) -> F:
    """Run the view only while it holds a slot for costly computations; busy at once."""
    return _within_budget(view, lambda: 0.0)


def planner(view: F) -> F:
    """Run a planner only while it holds a slot, waiting for one a moment."""
    # Read when called, so that a test may shorten the wait.
    return _within_budget(view, lambda: SLOT_WAIT_SECONDS)
