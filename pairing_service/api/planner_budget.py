"""The stateless planners (``/v1/strikes/seating``, ``/v1/diagonal/round``,
``/v1/league/schedule``, ``/v1/scrabble/final-round``, ``/v1/scrabble/audit``) in the
costly-work budget (``costly.py``), waiting a moment for a slot.

A planner's search takes tens of milliseconds, no token, and eight clients looping on the
seating held every worker. Each now runs only while holding one of the budget's slots,
as the simulators do; but where a simulation takes seconds and is answered 503 ``busy``
at once, a planner waits up to ``SLOT_WAIT_SECONDS`` for a slot (a slot frees within
tens of milliseconds), asking again every ``SLOT_POLL_SECONDS``, and only then answers
503 ``busy`` with Retry-After. Answered at once, the clients looping on it asked again at
once: 260 refusals a second, each a parsed body, took the CPU that results and health
checks needed. Waiting, they hold a parked greenlet each and nothing else.

Built on ``costly.slot`` as it is (its slots, their folder and their number).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any, TypeVar

from flask import current_app

from .costly import Busy, slot

F = TypeVar("F", bound=Callable[..., Any])
SLOT_WAIT_SECONDS = 2.0
SLOT_POLL_SECONDS = 0.02


def planner(view: F) -> F:
    """Run the view only while it holds a costly-work slot, waiting for one a moment."""

    @functools.wraps(view)
    def limited(*args: Any, **kwargs: Any) -> Any:
        config = current_app.config
        deadline = time.monotonic() + SLOT_WAIT_SECONDS
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
