"""The service's Prometheus instruments, in one place every layer may import.

Flask-free on purpose: the store counts its writes here without importing the web layer.
``api/metrics.py`` records requests and engine time into them and serves ``/metrics``.

Under gunicorn, prometheus_client's multiprocess mode (``PROMETHEUS_MULTIPROC_DIR``, set
by ``gunicorn.conf.py``) keeps each worker's values in a file of that folder, and
``/metrics`` adds up every worker's, so whichever worker answers a scrape, every request
is counted once. Without it (one process, the tests) the values live in memory.
"""

from __future__ import annotations

from prometheus_client import Counter, Histogram

# Seconds. The service's answers range from well under a millisecond (a read) to seconds
# (a 2,000-player final round), so the buckets start lower than prometheus_client's.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

# Requests answered are this histogram's _count: one observation a request, where a
# separate counter would cost a second update on every request for the same number.
REQUEST_SECONDS = Histogram(
    "pairing_http_request_duration_seconds",
    "Time from the request's arrival in Flask to its answer, by method, route (the URL "
    "rule, never the path) and status; its _count counts the requests answered.",
    ["method", "route", "status"],
    buckets=BUCKETS,
)
ENGINE_SECONDS = Histogram(
    "pairing_engine_seconds",
    "Time in the rules engine, by format: a stateless endpoint's handler between validation "
    "and serialisation; a held format's ledger (fold, decisions, apply).",
    ["format"],
    buckets=BUCKETS,
)
STORE_WRITES = Counter(
    "pairing_store_writes",
    "Actions committed to held tournaments' logs (creations included), by format and kind.",
    ["format", "action"],
)
