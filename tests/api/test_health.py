"""Health checks never wait behind request work: ``/healthz`` and ``/readyz`` pass the gate
that bounds a worker's reads, and ``/readyz`` asks the database on a connection of its
own, not from the pool the requests share."""

from __future__ import annotations

import threading
import time

from pairing_service.store import make_engine
from tests.support.held_events import strikes_event


def test_readyz_answers_while_every_pooled_connection_is_taken(app, client):
    store = app.extensions["pairing_store"]
    store.engine = make_engine(
        store.engine.url.render_as_string(hide_password=False),
        pool_size=1,
        max_overflow=0,
        pool_timeout=20,
    )
    held = store.engine.connect()  # a read of a busy event holds the pool's every connection
    try:
        began = time.monotonic()
        ready = client.get("/readyz")
        assert ready.status_code == 200, ready.get_json()
        assert time.monotonic() - began < 5
    finally:
        held.close()
        store.engine.dispose()


def test_health_checks_pass_a_worker_whose_reads_are_all_running(app, client):
    base, _ = strikes_event(client)
    gate = app.wsgi_app._gate_here()
    taken = 0
    while gate.acquire(blocking=False):  # every slot held: reads of slow events run
        taken += 1
    answered: list[int] = []
    waiting = threading.Thread(target=lambda: answered.append(client.get(base).status_code))
    try:
        waiting.start()
        assert client.get("/healthz").status_code == 200
        assert client.get("/readyz").status_code == 200
        waiting.join(0.5)
        assert not answered  # the read waits for a slot
    finally:
        for _ in range(taken):
            gate.release()
    waiting.join(10)
    assert answered == [200]
