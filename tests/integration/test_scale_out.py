"""Two gunicorn instances on one PostgreSQL database and one Redis, as ``compose.yaml``
runs N of them behind a load balancer.

Concurrent writes to one tournament of every held format, each write sent three times and
spread over both instances, are all kept once, and both instances read the same result;
the round start raced on both is won once; creations on both are all kept. The write
rate limit, counted in the shared Redis, holds for the two instances together: exactly
the limit's number of writes from one address is accepted whichever instance they reach.
Like the other PostgreSQL and Redis tests, these skip when either is missing, never in CI.

There is no Docker engine here: ``compose.yaml`` is checked as data (its services, health
checks, users, volume and dependencies, and that it sets only settings the service reads).
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import yaml

from pairing_service import DEFAULTS
from tests.support import ROOT, workloads
from tests.support.servers import call, free_port, start_gunicorn, wait_ready

WORKERS_EACH = "2"
Pair = tuple[str, str]  # the two instances' base URLs


@pytest.fixture()
def start_pair(postgres_url: str, request, tmp_path: Path) -> Iterator[Callable[[str], Pair]]:
    """Starts two instances on one fresh PostgreSQL schema and the machine's Redis, with a
    key prefix of their own there, and this write limit; stops them afterwards."""
    redis = request.getfixturevalue("redis_url")  # skips without Redis (never in CI)
    processes = []

    def start(write_limit: str) -> Pair:
        prefix = f"pairing-test-{uuid.uuid4().hex[:12]}"
        bases = []
        for name in ("a", "b"):
            port, log = free_port(), tmp_path / f"gunicorn-{name}.log"
            process = start_gunicorn(
                postgres_url,
                port,
                log,
                WEB_CONCURRENCY=WORKERS_EACH,
                PAIRING_WRITE_RATE_LIMIT=write_limit,
                PAIRING_RATE_LIMIT_STORAGE=redis,
                PAIRING_RATELIMIT_KEY_PREFIX=prefix,
            )
            processes.append((process, log))
            bases.append(f"http://127.0.0.1:{port}")
        for base, (process, log) in zip(bases, processes, strict=True):
            try:
                wait_ready(base, process, log)  # both migrated the fresh schema at once
            except RuntimeError as exc:
                pytest.fail(str(exc))
        return bases[0], bases[1]

    yield start
    for process, log in processes:
        process.terminate()
        process.wait(timeout=30)
        assert "Traceback" not in log.read_text(), log.read_text()


@pytest.mark.slow
def test_concurrent_writes_through_two_instances_are_kept_once(start_pair, postgres_url):
    pair = start_pair("")
    alternate = itertools.cycle(pair)
    formats = (
        ("strikes", 60),
        ("diagonal", 30),
        ("scrabble", 60),
        ("puffing_billy", 60),
        ("league", 28),
    )
    for fmt, size in formats:
        held = workloads.create(pair[0], fmt, size)
        jobs = [(next(alternate), key) for key in held.writes for _ in range(3)]

        def enter(job: tuple[str, int], held: workloads.Held = held) -> int:
            base, key = job
            path, body = held.writes[key]
            return call(base, "PUT", path, body, held.token)[0]

        with ThreadPoolExecutor(max_workers=24) as pool:
            statuses = list(pool.map(enter, jobs))
        assert statuses == [200] * len(jobs), fmt
        assert workloads.logged(postgres_url, held) == {key: 1 for key in held.writes}, fmt
        expected = {key: workloads.expected(held, key) for key in held.writes}
        for base in pair:  # each instance reads what the other wrote, whatever it kept
            assert workloads.shown(base, held) == expected, (fmt, base)
        assert workloads.finish(pair[1], held)[0] == 200, fmt
        revisions = {call(base, "GET", held.base)[1]["revision"] for base in pair}
        assert len(revisions) == 1, (fmt, revisions)


@pytest.mark.slow
def test_creations_and_a_raced_round_start_across_two_instances(start_pair):
    pair = start_pair("")
    players = [{"id": f"P{i}"} for i in range(20)]

    def create(base: str) -> tuple[int, Any]:
        return call(base, "POST", "/v1/strikes/tournaments", {"players": players})

    with ThreadPoolExecutor(max_workers=16) as pool:
        created = list(pool.map(create, [pair[i % 2] for i in range(16)]))
    assert [status for status, _ in created] == [201] * 16
    assert len({body["id"] for _, body in created}) == 16

    tid, token = created[0][1]["id"], created[0][1]["token"]

    def start(base: str) -> int:
        return call(base, "POST", f"/v1/strikes/tournaments/{tid}/rounds", token=token)[0]

    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = sorted(pool.map(start, [pair[i % 2] for i in range(8)]))
    assert statuses == [201] + [409] * 7
    assert {
        call(base, "GET", f"/v1/strikes/tournaments/{tid}")[1]["revision"] for base in pair
    } == {2}


@pytest.mark.slow
def test_the_write_limit_holds_across_two_instances(start_pair, postgres_url):
    limit, tries = 40, 60
    pair = start_pair(f"{limit}/3600")  # a window far longer than the test
    body = {"players": [{"id": p} for p in "abc"]}

    def create(base: str) -> tuple[str, int]:
        return base, call(base, "POST", "/v1/strikes/tournaments", body)[0]

    with ThreadPoolExecutor(max_workers=12) as pool:
        answers = list(pool.map(create, [pair[i % 2] for i in range(tries)]))
    statuses = [status for _, status in answers]
    assert sorted(statuses) == [201] * limit + [429] * (tries - limit)
    for base in pair:  # each instance accepted some and refused some: one count for both
        mine = {status for where, status in answers if where == base}
        assert mine == {201, 429}, base
    assert call(pair[0], "GET", "/healthz")[0] == 200  # reads are not limited

    from sqlalchemy import create_engine, func, select

    from pairing_service.store import normalise_url, schema

    engine = create_engine(normalise_url(postgres_url))
    with engine.connect() as conn:
        kept = conn.execute(select(func.count()).select_from(schema.tournaments)).scalar_one()
    engine.dispose()
    assert kept == limit  # nothing written behind a 429


# --- compose.yaml -------------------------------------------------------------------------


def test_compose_runs_the_service_non_root_on_healthy_postgres_and_redis():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    assert set(services) == {"app", "postgres", "redis"}
    app, postgres, redis = services["app"], services["postgres"], services["redis"]

    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines()
    image_user = [line.split()[1] for line in dockerfile if line.startswith("USER ")][-1]
    assert app["build"] == "." and app["user"].split(":")[0] == image_user
    for name, service in services.items():
        assert str(service.get("user", "root")).split(":")[0] not in ("root", "0"), name
        assert "test" in service["healthcheck"], name
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    assert redis["healthcheck"]["test"][-2:] == ["redis-cli", "ping"]
    assert app["depends_on"] == {
        "postgres": {"condition": "service_healthy"},
        "redis": {"condition": "service_healthy"},
    }

    volume, _, target = postgres["volumes"][0].partition(":")
    assert volume in compose["volumes"] and target == "/var/lib/postgresql/data"

    environment = app["environment"]
    assert environment["DATABASE_URL"].startswith("postgresql://pairing:")
    assert "@postgres:5432/pairing" in environment["DATABASE_URL"]
    assert environment["PAIRING_RATE_LIMIT_STORAGE"].startswith("redis://redis:6379")
    for name in environment:  # only settings the service reads (a typo would be ignored)
        setting = name.removeprefix("PAIRING_")
        assert name in ("DATABASE_URL", "WEB_CONCURRENCY", "LOG_LEVEL") or (
            name.startswith("PAIRING_") and setting in DEFAULTS
        ), name
    # Scalable: no fixed container name, and a host port range for N instances.
    assert "container_name" not in app
    assert [port.split(":")[0] for port in app["ports"]] == ["8000-8009"]
