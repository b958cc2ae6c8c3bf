"""gunicorn settings: workers from WEB_CONCURRENCY, bind from HOST and PORT, logs to stdout.

Workers are gevent's (GUNICORN_WORKER_CLASS): a client that sends its request slowly, or
never finishes it, costs a greenlet, not a worker; docs/operations.md says why not sync or
gthread. The app is loaded once, in the master, and the workers are forked from it
(preload_app): start-up and a replaced worker take a fork, not an import of the app
(docs/hardening.md has the figures). A worker dies with its master, so a killed master
leaves no orphan holding the port.

Prometheus metrics from every worker: prometheus_client's multiprocess mode keeps each
worker's values in a file of PROMETHEUS_MULTIPROC_DIR, and /metrics adds them up. The
folder is this server's own (a new temporary one unless the variable names one), set
before the app is imported, and emptied when the server starts so that counts begin at
zero; a worker that exits leaves its counts behind, as Prometheus counters need.
"""

import glob
import multiprocessing
import os
import shutil
import signal
import tempfile

worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gevent")
if "gevent" in worker_class.lower():  # gevent, gevent_pywsgi, ...ggevent.GeventWorker
    # Here, in the master, before the app is imported (preload_app): psycopg chooses how it
    # waits for the database when it is imported, and waits without blocking the worker's
    # other clients only if select is patched by then.
    from gevent import monkey

    monkey.patch_all()

METRICS_DIR_PREFIX = "pairing-metrics-"
# prometheus_client reads this when it is imported, with the app, in this process.
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix=METRICS_DIR_PREFIX)
os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)

from pairing_service.serving import (  # noqa: E402
    die_with_parent,
    hide_server_header,
    settle_threads,
    stop_signals_stop,
)

# This machine only unless HOST says otherwise (0.0.0.0: the room; the Docker image sets it).
bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", min(4, multiprocessing.cpu_count() * 2)))
# The app sizes what its workers share without a shared store by it (api/workers.py: a write
# limit counted in memory, the slots of costly computations): set it when chosen here.
os.environ["WEB_CONCURRENCY"] = str(workers)
# Import and build the app once; workers are forks of it (each opens its own database
# connections: store/database.py).
preload_app = True
# The app logs every request as one JSON line, with its id and without the query
# (api/observe.py); gunicorn's access log would repeat it, query included. GUNICORN_ACCESS_LOG=-
# turns it on (to stdout).
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# A stop (SIGTERM) lets requests in flight finish for this long, then cuts them off.
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "30"))
# Body size is bounded by the app (PAIRING_MAX_CONTENT_LENGTH); bound header sizes here.
limit_request_line = 8190
limit_request_fields = 100
# Nothing uses gunicornc; the socket would go in $HOME, which a service user may not have.
control_socket_disable = True

hide_server_header()


def on_starting(server):
    """Start the metrics from zero: files left by an earlier server would count again."""
    for stale in glob.glob(os.path.join(os.environ["PROMETHEUS_MULTIPROC_DIR"], "*.db")):
        os.remove(stale)
    # The master serves nothing: the connections of its migrations go.
    app = server.app.wsgi() if server.cfg.preload_app else None
    if app is not None and "pairing_store" in getattr(app, "extensions", {}):
        app.extensions["pairing_store"].engine.dispose()
    # A fork keeps only the thread that forks: let the app's own (the rate limiter's
    # expiry timer) end here rather than be cut off, or carried into a worker by gevent.
    running = settle_threads()
    if running:
        server.log.warning("Threads still running before forking workers: %s", running)


def post_fork(server, worker):
    """In the new worker: SIGQUIT when the master dies, even by SIGKILL; and a SIGTERM
    before gunicorn sets the worker's handlers ends it (the master's would drop it).

    SIGQUIT is gunicorn's quick shutdown: an orphan has nobody to wait for, and a graceful
    one waits up to graceful_timeout for clients that never finish (a loaded machine saw
    workers outlive their master by more than 5 s). A request cut off rolls back whole."""
    stop_signals_stop()
    die_with_parent(server.pid, signal.SIGQUIT)


def child_exit(server, worker):
    """prometheus_client's bookkeeping for a worker that exited (its live gauges go)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    """Remove the metrics folder if this file made it (a reload re-reads this file)."""
    folder = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    if os.path.basename(folder).startswith(METRICS_DIR_PREFIX):
        shutil.rmtree(folder, ignore_errors=True)
