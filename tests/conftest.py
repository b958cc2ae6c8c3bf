from __future__ import annotations

import os
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from pairing_service import create_app
from pairing_service.engine.scrabble import Player, Standings, advise
from pairing_service.engine.scrabble.pairing.advisor import Advice
from pairing_service.rules import load_rules

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"


def seed_text(name: str) -> str:
    """A seed's text from ``../shared/seeds``; the test skips, saying where it looked, when
    the seeds are not beside the project (CI always has them there)."""
    path = SEEDS / name
    if not path.exists():
        pytest.skip(f"the seed text is not at {path}")
    return path.read_text(encoding="utf-8")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """schemathesis names each operation's test after it (``test_x[GET /healthz]``) but
    gives them all the function's node id. pytest-xdist schedules by node id and would run
    only the first of them: give each the node id its name says."""
    for item in items:
        if not isinstance(item, pytest.Function) or not item.nodeid.endswith(item.originalname):
            continue
        if item.name.startswith(item.originalname + "[") and item.name.endswith("]"):
            params = item.name[len(item.originalname) + 1 : -1]
            if hasattr(item, "_id"):  # pytest 9 builds the node id from this
                item._id = item._id.with_params(params)
            else:  # pytest 8 keeps it as text
                item._nodeid = f"{item.nodeid}[{params}]"


@pytest.fixture(scope="session")
def rules():
    return load_rules()


POSTGRES_URL = os.environ.get(
    "PAIRING_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


@pytest.fixture(scope="session")
def postgres_server() -> str:
    """The PostgreSQL server of the tests; in CI (CI=true) it must be there."""
    engine = create_engine(POSTGRES_URL)
    try:
        with engine.connect():
            pass
    except OperationalError as exc:
        reason = f"PostgreSQL is not reachable at {POSTGRES_URL}: {exc.orig}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason + " (CI=true: the PostgreSQL tests must run)")
        pytest.skip(reason)
    finally:
        engine.dispose()
    return POSTGRES_URL


@pytest.fixture()
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A database URL whose tables live in a fresh schema, dropped afterwards."""
    schema = f"test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(postgres_server)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    yield f"{postgres_server}?options=-csearch_path%3D{schema}"
    with admin.begin() as conn:
        conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/pairing.sqlite3"
    return request.getfixturevalue("postgres_url")


def make_app(database_url: str):
    return create_app({"TESTING": True, "DATABASE_URL": database_url})


@pytest.fixture()
def app(tmp_path):
    app = make_app(f"sqlite:///{tmp_path}/pairing.sqlite3")
    yield app
    app.extensions["pairing_store"].engine.dispose()


@pytest.fixture()
def store_app(database_url):
    """The app on each database: SQLite and PostgreSQL."""
    app = make_app(database_url)
    yield app
    app.extensions["pairing_store"].engine.dispose()


@pytest.fixture()
def client(app):
    return app.test_client()


def field(
    *rows: tuple[float, int], opponents: dict[int, list[int | None]] | None = None
) -> Standings:
    """Standings from (wins, spread) rows in rank order; ids are P1, P2, ... by input order.

    ``opponents`` maps a 1-based input position to previous opponents' positions (None: bye).
    """
    opponents = opponents or {}
    players = [
        Player(
            id=f"P{i}",
            half_wins=int(wins * 2),
            spread=spread,
            name=f"Player {i}",
            opponents=tuple(None if o is None else f"P{o}" for o in opponents.get(i, [])),
        )
        for i, (wins, spread) in enumerate(rows, start=1)
    ]
    return Standings.from_players(players)


def rank_pairs(standings: Standings, advice: Advice) -> list[tuple[int, ...]]:
    """Games as tuples of ranks, in board order (byes last)."""
    return [tuple(standings.rank(p) for p in game.players) for game in advice.games]


def run(rules, standings: Standings, **options) -> tuple[Advice, list[tuple[int, ...]]]:
    advice = advise(standings, rules.scrabble, **options)
    return advice, rank_pairs(standings, advice)


def assert_complete(standings: Standings, advice: Advice) -> None:
    seen: list[str] = []
    for game in advice.games:
        seen.extend(game.players)
        assert len(game.players) == (1 if game.bye else 2)
    assert sorted(seen) == sorted(standings.ids)
    assert sum(g.bye for g in advice.games) == len(standings) % 2


def principle(advice: Advice, gp: str) -> tuple[str, str]:
    verdict = next(v for v in advice.principles if v.id == gp)
    return verdict.status, verdict.reason


def ids(standings: Standings, ranks: Sequence[int]) -> list[str]:
    return [standings.at_rank(r).id for r in ranks]


def assert_problem(response, status: int, pointer: str | None = None) -> dict:
    """An RFC 9457 problem with this status; ``pointer`` must be among its field errors."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["status"] == status and body["title"] and body["type"] and "detail" in body
    if pointer is not None:
        assert pointer in [e["pointer"] for e in body.get("errors", [])], body
    return body
