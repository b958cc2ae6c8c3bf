"""The store asks the conditions it was built with, and tells the observer it was built
with, at every read and write: nothing is set on it later (``store/store_base.py``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine

from pairing_service.engine.strikes.ledger import StrikesLedger
from pairing_service.engine.strikes.records import Entrant, Settings
from pairing_service.store import Conditions, HeldStore, StaleRevision, make_engine

SETTINGS = Settings("5-4-3", 35, False, "optimize", 30, 5)


@pytest.fixture()
def engine(tmp_path) -> Iterator[Engine]:
    engine = make_engine(f"sqlite:///{tmp_path}/pairing.sqlite3")
    HeldStore(engine).migrate()
    yield engine
    engine.dispose()


@pytest.fixture()
def strikes(rules) -> StrikesLedger:
    return StrikesLedger(rules.strikes)


def created(strikes: StrikesLedger):
    return strikes.created(SETTINGS, [Entrant(f"P{i}") for i in range(8)])


def test_the_conditions_given_at_construction_are_the_ones_asked(engine, strikes):
    asked: list[Conditions] = []

    def on_revision_9() -> Conditions:
        asked.append(Conditions(names=True, revisions=frozenset({9})))
        return asked[-1]

    held, token = HeldStore(engine).create(strikes, "Club night", created(strikes))
    store = HeldStore(engine, conditions=on_revision_9)
    with pytest.raises(StaleRevision) as refused:
        store.write(strikes, held.id, token, strikes.start_round)
    assert refused.value.revision == 1 and asked
    assert HeldStore(engine).read(strikes, held.id).revision == 1  # nothing written


def test_the_observer_given_at_construction_is_told_every_revision(engine, strikes):
    seen: list[tuple[str, int]] = []
    store = HeldStore(engine, observe=lambda tournament, at: seen.append((tournament, at)))
    held, token = store.create(strikes, "Club night", created(strikes))
    store.read(strikes, held.id)  # folded
    store.write(strikes, held.id, token, strikes.start_round)
    store.read(strikes, held.id)  # kept
    assert seen == [(held.id, 1), (held.id, 1), (held.id, 2), (held.id, 2)]


def test_a_store_built_with_neither_asks_no_conditions_and_tells_no_one(engine, strikes):
    store = HeldStore(engine)
    held, token = store.create(strikes, "Club night", created(strikes))
    after, entry = store.write(strikes, held.id, token, strikes.start_round)
    assert after.revision == 2 and entry is not None
    assert not hasattr(store, "conditions") and not hasattr(store, "observe")
