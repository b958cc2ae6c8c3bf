"""Concurrent writers against a real gunicorn with several workers, on both databases.

Results for every table of a 60-player round are entered at once, each table three times
from different clients: every request succeeds, and each player ends with exactly one
result row. Every other held format likewise (Diagonal Race, held Scrabble events, Puffing
Billy, Meeple League): each game or board written three times at once is logged once.
Tournaments created at once are all kept. Workers starting together on a fresh database
migrate it once.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.support import workloads
from tests.support.servers import call, results_logged_per_player

pytestmark = pytest.mark.slow


def test_concurrent_results_are_all_kept_once(gunicorn_server):
    base, database_url = gunicorn_server
    players = [{"id": f"P{i:02d}"} for i in range(60)]
    status, created = call(base, "POST", "/v1/strikes/tournaments", {"players": players, "seed": 3})
    assert status == 201
    tid, token = created["id"], created["token"]
    status, rnd = call(base, "POST", f"/v1/strikes/tournaments/{tid}/rounds", token=token)
    assert status == 201 and len(rnd["tables"]) == 12

    def enter(table):
        body = {
            "results": [{"player": p, "score": 100 - 7 * i} for i, p in enumerate(table["players"])]
        }
        path = f"/v1/strikes/tournaments/{tid}/rounds/1/tables/{table['table']}"
        return call(base, "PUT", path, body, token)

    jobs = [table for table in rnd["tables"] for _ in range(3)]
    with ThreadPoolExecutor(max_workers=24) as pool:
        answers = list(pool.map(enter, jobs))
    assert [status for status, _ in answers] == [200] * len(jobs), answers

    per_player = results_logged_per_player(database_url, tid)
    assert sorted(per_player) == [p["id"] for p in players]
    assert set(per_player.values()) == {1}

    status, closed = call(
        base, "POST", f"/v1/strikes/tournaments/{tid}/rounds/1/close", token=token
    )
    assert status == 200 and closed["status"] == "closed"
    status, read = call(base, "GET", f"/v1/strikes/tournaments/{tid}")
    assert sum(s["strikes"] for s in read["standings"]) == 12 * 60  # 0+6+12+18+24 a table


def test_concurrent_creates_and_round_starts(gunicorn_server):
    base, _ = gunicorn_server
    players = [{"id": f"P{i}"} for i in range(20)]

    def create(_):
        return call(base, "POST", "/v1/strikes/tournaments", {"players": players})

    with ThreadPoolExecutor(max_workers=16) as pool:
        created = list(pool.map(create, range(16)))
    assert [status for status, _ in created] == [201] * 16
    ids = {body["id"] for _, body in created}
    assert len(ids) == 16

    # Many starts of the same round at once: exactly one wins, the rest are 409.
    tid, token = created[0][1]["id"], created[0][1]["token"]

    def start(_):
        return call(base, "POST", f"/v1/strikes/tournaments/{tid}/rounds", token=token)[0]

    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = sorted(pool.map(start, range(8)))
    assert statuses == [201] + [409] * 7


@pytest.mark.parametrize(
    ("fmt", "size"), [("diagonal", 30), ("scrabble", 60), ("puffing_billy", 60), ("league", 28)]
)
def test_concurrent_writes_to_every_format_are_logged_once(gunicorn_server, fmt, size):
    base, database_url = gunicorn_server
    held = workloads.create(base, fmt, size)
    jobs = [key for key in held.writes for _ in range(3)]

    def enter(key):
        path, body = held.writes[key]
        return call(base, "PUT", path, body, held.token)[0]

    with ThreadPoolExecutor(max_workers=24) as pool:
        statuses = list(pool.map(enter, jobs))
    assert statuses == [200] * len(jobs)
    assert workloads.logged(database_url, held) == {key: 1 for key in held.writes}
    shown = workloads.shown(base, held)
    assert shown == {key: workloads.expected(held, key) for key in held.writes}
    assert workloads.finish(base, held)[0] == 200
