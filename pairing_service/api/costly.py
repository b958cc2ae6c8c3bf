"""A budget for costly computations: at most ``COSTLY_CONCURRENCY`` of them at once on
this machine, whichever worker serves them.

The stateless simulators (``/v1/strikes/plan``, ``/v1/diagonal/simulate``) take seconds
each and need no token: eight clients looping on one would hold every worker and leave
result entry unanswered. A view marked :func:`costly` runs only while it holds one of
``COSTLY_CONCURRENCY`` slots; with none free it answers at once 503 ``busy`` with
Retry-After, so the other workers stay free for results and reads.

A slot is an exclusive ``flock`` on one of N files in ``COSTLY_SLOTS_DIR``: the kernel
releases it when the request ends or its worker dies, and it holds across the workers of
one machine (a per-process counter would not). Written here because no well-kept library
offers a cross-process, non-blocking slot with that release guarantee; ``fcntl`` is the
standard library's.

``COSTLY_CONCURRENCY`` (env ``PAIRING_COSTLY_CONCURRENCY``): default half the workers
(``WEB_CONCURRENCY``), at least 1.
"""

from __future__ import annotations

import fcntl
import functools
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from flask import Flask, current_app

from .workers import serving_workers

F = TypeVar("F", bound=Callable[..., Any])
BUSY_RETRY_SECONDS = 5


class Busy(Exception):
    """Every slot for costly computations is taken (a 503)."""

    def __init__(self, slots: int) -> None:
        super().__init__(slots)
        self.slots = slots


def default_concurrency() -> int:
    return max(1, serving_workers() // 2)


def default_slots_dir() -> str:
    return str(Path(tempfile.gettempdir()) / f"pairing-advisor-costly-{os.getuid()}")


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
    config["COSTLY_SLOTS_DIR"] = config["COSTLY_SLOTS_DIR"] or default_slots_dir()


def costly(view: F) -> F:
    """Run the view only while it holds a slot for costly computations."""

    @functools.wraps(view)
    def limited(*args: Any, **kwargs: Any) -> Any:
        config = current_app.config
        with slot(config["COSTLY_SLOTS_DIR"], config["COSTLY_CONCURRENCY"]):
            return view(*args, **kwargs)

    return limited  # type: ignore[return-value]
