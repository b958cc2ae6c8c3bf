"""What ``gunicorn.conf.py`` does to the server itself: Linux-only pieces kept testable here.

- ``die_with_parent``: a worker asks the kernel for SIGTERM when its master dies, so a
  master killed outright (SIGKILL, the OOM killer) leaves no worker serving unsupervised
  and holding the port against the next server.
- ``stop_signals_stop``: a new worker inherits its master's signal handlers, which only
  queue a signal for the master's loop; until gunicorn installs the worker's own, a SIGTERM
  (a shutdown while the worker boots) would be lost and the master wait out its whole
  graceful timeout. The default action, dying, is right for a worker not yet serving.
- ``settle_threads``: threads started while the app loads in the master (the rate
  limiter's expiry timer) finish there before any worker is forked; under gevent they are
  greenlets, which a fork would otherwise carry into the first worker half-alive.
- ``hide_server_header``: no ``Server: gunicorn`` on the answers (what runs the service is
  nobody's business).

Importing this module imports the package (``pairing_service/__init__.py``, prometheus_client
with it), so ``gunicorn.conf.py`` imports it only once gevent has patched the standard
library and PROMETHEUS_MULTIPROC_DIR is set.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def set_parent_death_signal(sig: int = signal.SIGTERM) -> bool:
    """prctl(PR_SET_PDEATHSIG, sig) for this process; False where it is not available."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):  # not Linux
        return False
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    prctl.restype = ctypes.c_int
    return bool(prctl(PR_SET_PDEATHSIG, int(sig), 0, 0) == 0)


def die_with_parent(parent: int, sig: int = signal.SIGTERM) -> None:
    """Have ``sig`` sent to this process when ``parent`` dies; exit now if it already has.

    The signal follows the death of the process that forked this one. A parent that died
    between the fork and the prctl would never send it: this process then has a new
    parent, and exits at once instead of serving unsupervised.
    """
    set_parent_death_signal(sig)
    if os.getppid() != parent:
        os._exit(0)


def stop_signals_stop() -> None:
    """SIGTERM, SIGINT and SIGQUIT back to their default action (end the process)."""
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_DFL)


def settle_threads(timeout: float = 2.0) -> list[str]:
    """Wait (``timeout`` in all) for this process's other threads to end; the names of
    those still running, which a fork will not carry into the child."""
    deadline = time.monotonic() + timeout
    for thread in threading.enumerate():
        if thread is not threading.current_thread():
            thread.join(max(0.0, deadline - time.monotonic()))
    return [t.name for t in threading.enumerate() if t is not threading.current_thread()]


def hide_server_header() -> None:
    """Drop the ``Server`` line from the headers gunicorn writes before the app's own."""
    from gunicorn.http import wsgi

    original: Callable[[Any], list[str]] = wsgi.Response.default_headers
    if getattr(original, "hides_server", False):
        return

    def default_headers(self: Any) -> list[str]:
        return [line for line in original(self) if not line.lower().startswith("server:")]

    setattr(default_headers, "hides_server", True)  # noqa: B010
    wsgi.Response.default_headers = default_headers
