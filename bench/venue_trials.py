"""The venue trials, 80 of each (``tests/support/venue_trials.py``), through a real gunicorn
with four workers, on SQLite and on PostgreSQL: an answer lost and the write sent again
(result, create, round start, token rotation, undo), two scorekeepers entering one table
at once, an undo racing a result, a result on a stale If-Match. Prints, per trial and
format, the trials run and the failures (an acknowledged result lost, doubled or silently
replaced; a retried write acting twice). Run:
``python bench/venue_trials.py [--trials 80] [--postgres postgresql://…]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.http_client import HttpClient
from tests.support.servers import free_port, start_gunicorn, wait_ready
from tests.support.venue_trials import run_trials

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def fresh_postgres(url: str) -> str:
    """A schema of its own in the database, as the tests make one."""
    from sqlalchemy import create_engine, text

    schema = f"trials_{uuid.uuid4().hex[:8]}"
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    engine.dispose()
    return f"{url}?options=-csearch_path%3D{schema}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=80)
    parser.add_argument("--postgres", default=POSTGRES)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    databases = {
        "SQLite": f"sqlite:///{folder}/trials.sqlite3",
        "PostgreSQL": fresh_postgres(args.postgres),
    }
    for name, url in databases.items():
        port, log = free_port(), folder / f"gunicorn-{name}.log"
        server = start_gunicorn(url, port, log)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_ready(base, server, log)
            began = time.monotonic()
            failures = run_trials(HttpClient(base), args.trials)
            seconds = time.monotonic() - began
        finally:
            server.terminate()
            server.wait(timeout=30)
        print(f"## {name}: {sum(len(f) for f in failures.values())} failures, {seconds:.0f} s")
        print("| trial | format | trials | failures |\n|---|---|---:|---:|")
        for (trial, fmt), failed in failures.items():
            print(f"| {trial} | {fmt} | {args.trials} | {len(failed)} |")
            for error in failed[:3]:
                print(f"|  | {error[:100]} | | |")


if __name__ == "__main__":
    main()
