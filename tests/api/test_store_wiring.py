"""The app builds its store with the API's request conditions and observer
(``pairing_service.open_store``, ``api/held/conditions.py``): a write in a request that
sends ``If-Match`` is made on that revision only, and the revision read is the one the
answer's ETag will carry."""

from __future__ import annotations

import pytest
from flask import g

from pairing_service.engine.strikes.ledger import StrikesLedger
from pairing_service.engine.strikes.records import Entrant, Settings
from pairing_service.store import StaleRevision

SETTINGS = Settings("5-4-3", 35, False, "optimize", 30, 5)


def test_the_apps_store_asks_the_request_and_tells_it_the_revision(app):
    store = app.extensions["pairing_store"]
    strikes = StrikesLedger(app.extensions["pairing_rules"].strikes)
    created = strikes.created(SETTINGS, [Entrant(f"P{i}") for i in range(8)])
    held, token = store.create(strikes, "Club night", created)  # outside a request: none
    stale = app.test_request_context(method="POST", headers={"If-Match": '"7"'})
    with stale, pytest.raises(StaleRevision):
        store.write(strikes, held.id, token, strikes.start_round)
    with app.test_request_context(method="POST", headers={"If-Match": '"1"'}):
        written, _ = store.write(strikes, held.id, token, strikes.start_round)
        assert g.held_revision == (held.id, 2) == (written.id, written.revision)
    with app.test_request_context():
        store.read(strikes, held.id)
        assert g.held_revision == (held.id, 2)
