"""gunicorn settings: workers from WEB_CONCURRENCY, bind from HOST and PORT, logs to stdout.

Prometheus metrics from every worker: prometheus_client's multiprocess mode keeps each
worker's values in a file of PROMETHEUS_MULTIPROC_DIR, and /metrics adds them up. The
folder is this server's own (a new temporary one unless the variable names one), set
before any worker imports the app, and emptied when the server starts so that counts
begin at zero; a worker that exits leaves its counts behind, as Prometheus counters need.
"""

import glob
import multiprocessing
import os
import shutil
import tempfile

# This machine only unless HOST says otherwise (0.0.0.0: the room; the Docker image sets it).
bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", min(4, multiprocessing.cpu_count() * 2)))
# The app logs every request as one JSON line, with its id and without the query
# (api/observe.py); gunicorn's access log would repeat it, query included. GUNICORN_ACCESS_LOG=-
# turns it on (to stdout).
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# Body size is bounded by the app (PAIRING_MAX_CONTENT_LENGTH); bound header sizes here.
limit_request_line = 8190
limit_request_fields = 100

METRICS_DIR_PREFIX = "pairing-metrics-"
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix=METRICS_DIR_PREFIX)


def on_starting(server):
    """Start the metrics from zero: files left by an earlier server would count again."""
    folder = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    os.makedirs(folder, exist_ok=True)
    for stale in glob.glob(os.path.join(folder, "*.db")):
        os.remove(stale)


def child_exit(server, worker):
    """prometheus_client's bookkeeping for a worker that exited (its live gauges go)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    """Remove the metrics folder if this file made it (a reload re-reads this file)."""
    folder = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    if os.path.basename(folder).startswith(METRICS_DIR_PREFIX):
        shutil.rmtree(folder, ignore_errors=True)
