"""Benchmark: a held Meeple League organisation, five seasons of about 300 players.

Through the HTTP layer in-process (Flask test client, SQLite file store): each season the
organiser opens sign-ups and signs everyone up at once; about 90 % of last season's
players come back, a few who sat a season out return, and new players fill the field up
to about 300. The season is formed by Steps 1-7 from the service's own record (timed),
every game is reported by its winner with their reporting token (each report timed),
a league table is read after every 10th report (timed), and the season is closed.

Targets: formation of a season <= 1 s; median report and median table read <= 20 ms.
Run: ``python bench/bench_league.py`` (``--quick``: two seasons).
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from typing import Any

from pairing_service import create_app

TARGET_FORMATION_S = 1.0
TARGET_MS = 20.0
FIELD = 300


def timed(call: Any, *args: Any, **kwargs: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    answer = call(*args, **kwargs)
    assert answer.status_code in (200, 201), answer.get_json()
    return answer.get_json(), (time.perf_counter() - started) * 1000


def main() -> int:
    seasons = 2 if "--quick" in sys.argv else 5
    rng = random.Random(2026)
    app = create_app(
        {"DATABASE_URL": f"sqlite:///{tempfile.mkdtemp()}/league.sqlite3", "WRITE_RATE_LIMIT": ""}
    )
    client = app.test_client()
    created = client.post("/v1/league/organisations", json={"code": "AGR"}).get_json()
    base, auth = (
        f"/v1/league/organisations/{created['id']}",
        {"Authorization": f"Bearer {created['token']}"},
    )
    skill: dict[str, float] = {}
    ever: list[str] = []
    last: list[str] = []
    rows = []
    reports: list[float] = []
    reads: list[float] = []
    met = True
    for number in range(1, seasons + 1):
        staying = [p for p in last if rng.random() < 0.9]
        resting = [p for p in ever if p not in last]
        returning = [p for p in resting if rng.random() < 0.3]
        fresh = [
            f"P{len(ever) + i:04d}" for i in range(max(0, FIELD - len(staying) - len(returning)))
        ]
        for p in fresh:
            skill[p] = rng.gauss(0, 1)
        ever += fresh
        field = staying + returning + fresh
        rng.shuffle(field)
        client.post(base + "/seasons", headers=auth)
        body = {"players": [{"id": p, "laurels": rng.choice([0, 0, 0, 1, 2])} for p in field]}
        timed(client.post, f"{base}/seasons/{number}/signups", json=body, headers=auth)
        formed, formation_ms = timed(client.post, f"{base}/seasons/{number}/form", headers=auth)
        tokens = {t["player"]: t["token"] for t in formed["reporting_tokens"]}
        season_reports: list[float] = []
        for league in formed["leagues"]:
            path = f"{base}/seasons/{number}/leagues/{league['league']}"
            for game in client.get(path).get_json()["games"]:
                ranked = sorted(game["seats"], key=lambda p: -(skill[p] + rng.gauss(0, 1)))
                scores = sorted((rng.randint(60, 180) for _ in ranked), reverse=True)
                results = [
                    {"player": p, "score": s, "position": i + 1}
                    for i, (p, s) in enumerate(zip(ranked, scores, strict=True))
                ]
                _, ms = timed(
                    client.put,
                    f"{path}/games/{game['game']}",
                    json={"results": results},
                    headers={"Authorization": f"Bearer {tokens[ranked[0]]}"},
                )
                season_reports.append(ms)
                if len(season_reports) % 10 == 0:
                    reads.append(timed(client.get, path)[1])
        _, close_ms = timed(client.post, f"{base}/seasons/{number}/close", headers=auth)
        reports += season_reports
        met &= formation_ms <= TARGET_FORMATION_S * 1000
        rows.append(
            f"| {number} | {len(field)} | {len(returning)} | {len(formed['leagues'])} | "
            f"{formation_ms:.0f} | {len(season_reports)} | "
            f"{statistics.median(season_reports):.1f} | {max(season_reports):.1f} | "
            f"{close_ms:.0f} |"
        )
        last = field
    _, lifetime_ms = timed(client.get, base + "/lifetime")
    met &= statistics.median(reports) <= TARGET_MS and statistics.median(reads) <= TARGET_MS
    print(
        "| season | players | returners | leagues | formation ms | reports | report p50 ms | "
        "report max ms | close ms |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print("\n".join(rows))
    print(
        f"\nAll {len(reports)} reports: median {statistics.median(reports):.1f} ms, worst "
        f"{max(reports):.1f} ms. League table reads ({len(reads)}): median "
        f"{statistics.median(reads):.1f} ms, worst {max(reads):.1f} ms. Lifetime standings "
        f"after {seasons} seasons: {lifetime_ms:.0f} ms."
    )
    print(
        f"\nTargets: formation <= {TARGET_FORMATION_S:.0f} s; median report and table read "
        f"<= {TARGET_MS:.0f} ms."
    )
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
