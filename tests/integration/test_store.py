"""The store: migrations match the schema, writes are whole or nothing, on both databases."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import func, select

from pairing_service.engine.event_log import NothingToUndo
from pairing_service.engine.strikes import Finish
from pairing_service.engine.strikes.ledger import StrikesLedger
from pairing_service.engine.strikes.records import Entrant, Settings
from pairing_service.store import Conditions, TournamentNotFound, WrongToken, normalise_url, schema

SETTINGS = Settings("5-4-3", 35, False, "optimize", 30, 5)


@pytest.fixture()
def store(store_app):
    return store_app.extensions["pairing_store"]


@pytest.fixture()
def strikes(rules):
    return StrikesLedger(rules.strikes)


def create(store, strikes, players=8):
    created = strikes.created(SETTINGS, [Entrant(f"P{i}") for i in range(players)])
    return store.create(strikes, "Club night", created)


def log_rows(store, tournament_id: str) -> int:
    with store.engine.connect() as conn:
        return conn.execute(
            select(func.count())
            .select_from(schema.log)
            .where(schema.log.c.tournament_id == tournament_id)
        ).scalar_one()


def test_migrations_create_exactly_the_schema(store):
    store.migrate()  # a second run changes nothing
    with store.engine.connect() as conn:
        differences = compare_metadata(MigrationContext.configure(conn), schema.metadata)
    assert differences == []


def test_a_failed_write_changes_nothing(store, strikes, monkeypatch):
    from pairing_service.store import HeldStore

    held, token = create(store, strikes)
    held, _ = store.write(strikes, held.id, token, strikes.start_round)
    players = held.state.round(1).tables()[1]
    finishes = [Finish(p, score=i) for i, p in enumerate(players)]
    store.write(strikes, held.id, token, lambda e: strikes.enter_result(e, 1, 1, finishes))
    # A store whose requests name revision 3 (If-Match), as the API's would.
    naming = HeldStore(store.engine, conditions=lambda: Conditions(True, frozenset({3})))
    before = naming.read(strikes, held.id)  # kept: the failed write must not change it

    def broken_fold(state, entry):
        raise RuntimeError("the disk is full")

    # The correction (one that names its revision) is appended and the revision bumped,
    # then the write fails.
    monkeypatch.setattr(strikes, "apply", broken_fold)
    corrected = [Finish(p, score=-i) for i, p in enumerate(players)]
    with pytest.raises(RuntimeError):
        naming.write(strikes, held.id, token, lambda e: strikes.enter_result(e, 1, 1, corrected))
    monkeypatch.undo()
    assert naming.read(strikes, held.id).state.round(1).results == before.state.round(1).results
    after = store.read(strikes, held.id)
    assert after.revision == before.revision == 3
    assert after.log == before.log
    assert after.state.round(1).results == before.state.round(1).results
    assert log_rows(store, held.id) == 3


def test_an_identical_write_appends_nothing(store, strikes):
    held, token = create(store, strikes)
    held, _ = store.write(strikes, held.id, token, strikes.start_round)
    players = held.state.round(1).tables()[1]
    finishes = [Finish(p, score=10 * i) for i, p in enumerate(players)]
    for _ in range(3):
        store.write(strikes, held.id, token, lambda e: strikes.enter_result(e, 1, 1, finishes))
    assert [e.kind for e in store.read(strikes, held.id).log] == [
        "created",
        "round_started",
        "result_entered",
    ]


def test_undo_takes_back_the_latest_action_and_keeps_it_in_the_log(store, strikes):
    held, token = create(store, strikes)
    with pytest.raises(NothingToUndo):
        store.undo(strikes, held.id, token)
    store.write(strikes, held.id, token, strikes.start_round)
    held, undo = store.undo(strikes, held.id, token)
    assert undo.data == {"entry": 2, "kind": "round_started"}
    assert held.state.latest is None
    assert [e.kind for e in held.log] == ["created", "round_started", "undone"]
    assert store.read(strikes, held.id).state.latest is None
    # The round can start again; undo of only the creation is refused.
    held, _ = store.write(strikes, held.id, token, strikes.start_round)
    assert held.state.latest.number == 1 and held.revision == 4
    store.undo(strikes, held.id, token)
    with pytest.raises(NothingToUndo):
        store.undo(strikes, held.id, token)
    assert log_rows(store, held.id) == 5


def test_tokens_ids_and_formats_are_checked(store, strikes, rules):
    from pairing_service.engine.diagonal.ledger import RaceLedger

    held, token = create(store, strikes)
    with pytest.raises(WrongToken):
        store.write(strikes, held.id, token + "x", strikes.start_round)
    with pytest.raises(TournamentNotFound):
        store.read(strikes, "f" * 32)
    with pytest.raises(TournamentNotFound):  # a strikes tournament is no Diagonal event
        store.read(RaceLedger(), held.id)
    assert store.read(strikes, held.id).state.latest is None
    assert log_rows(store, held.id) == 1


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgres://u@h/db", "postgresql+psycopg://u@h/db"),
        ("postgresql://u@h/db", "postgresql+psycopg://u@h/db"),
        ("postgresql+psycopg://u@h/db", "postgresql+psycopg://u@h/db"),
        ("sqlite:///x.db", "sqlite:///x.db"),
    ],
)
def test_database_urls_use_the_installed_driver(given, expected):
    assert normalise_url(given) == expected


def test_the_default_database_is_a_sqlite_file(tmp_path, monkeypatch):
    from pairing_service import create_app

    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("PAIRING_DATABASE_URL", raising=False)
    app = create_app({"SQLITE_PATH": str(tmp_path / "sub" / "events.sqlite3")})
    engine = app.extensions["pairing_store"].engine
    assert engine.dialect.name == "sqlite"
    assert (tmp_path / "sub" / "events.sqlite3").exists()
    engine.dispose()


def test_kept_states_never_change_and_never_go_stale(store, strikes):
    """Each process keeps folded states by revision; writes change their own copy, and a
    write from another process (another store on the database) is seen at once."""
    from pairing_service.store import HeldStore

    held, token = create(store, strikes)
    store.write(strikes, held.id, token, strikes.start_round)
    before = store.read(strikes, held.id)  # kept
    players = before.state.round(1).tables()[1]
    finishes = [Finish(p, score=i) for i, p in enumerate(players)]
    after, _ = store.write(
        strikes, held.id, token, lambda e: strikes.enter_result(e, 1, 1, finishes)
    )
    assert before.state.round(1).results == {}  # the kept state was not changed
    assert after.state is not before.state and 1 in after.state.round(1).results
    other_worker = HeldStore(store.engine)
    second = [Finish(p, score=i) for i, p in enumerate(before.state.round(1).tables()[2])]
    other_worker.write(strikes, held.id, token, lambda e: strikes.enter_result(e, 1, 2, second))
    seen = store.read(strikes, held.id)
    assert seen.revision == 4 and sorted(seen.state.round(1).results) == [1, 2]
    assert seen.state.round(1).results[1] == after.state.round(1).results[1]
    assert sorted(after.state.round(1).results) == [1]
    # A read of what a write kept is that very state; folding the log gives the same.
    assert store.read(strikes, held.id) is seen
    fresh = HeldStore(store.engine).read(strikes, held.id)
    assert fresh.log == seen.log and fresh.state.standings() == seen.state.standings()


def test_a_rotations_retry_is_answered_within_its_window_only(store, strikes, monkeypatch):
    """The retry of a rotation, sent with the token it replaced, finds the rotation by its
    key (as every write's retry does) and answers the same new token for minutes after it:
    from the state this store kept and from the log another store reads."""
    from datetime import timedelta

    from pairing_service.store import HeldStore, tokens
    from pairing_service.store.write_keys import ROTATION_RETRY_WINDOW

    key = "a-rotation-key-of-a-client"
    held, token = create(store, strikes)
    _, new = store.replace_token(strikes, held.id, token, key)
    rotated = tokens.now()
    seconds = timedelta(seconds=5)
    for after, answered in (
        (timedelta(0), True),
        (ROTATION_RETRY_WINDOW - seconds, True),
        (ROTATION_RETRY_WINDOW + seconds, False),
    ):
        later = rotated + after
        monkeypatch.setattr("pairing_service.store.director_tokens.now", lambda t=later: t)
        for each in (store, HeldStore(store.engine)):
            if answered:
                assert each.replace_token(strikes, held.id, token, key)[1] == new
            else:
                with pytest.raises(WrongToken):
                    each.replace_token(strikes, held.id, token, key)
    monkeypatch.undo()
    with pytest.raises(WrongToken):  # another key is no retry
        store.replace_token(strikes, held.id, token, "another-rotation-key-of-a-client")
    assert [e.kind for e in store.read(strikes, held.id).log].count("token_replaced") == 1
