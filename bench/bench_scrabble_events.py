"""Benchmark: Scrabble events held by the service, run through the API from round 1 to the
last with the default schedule (seeded round 1, Swiss in the middle, the advisor last).

Every request goes through the Flask test client in-process (``create_app`` with a scratch
SQLite file and no write rate limit), so parsing, validation, the store's transaction, the
engine and serialisation all count. Players are rated N(1500, 200); a game is won by the
Elo probability P(a beats b) = 1 / (1 + 10^((rb - ra) / 400)) by a margin of
int(|N(0, 90)|) + 1 (scores 350 + margin against 350), 0.5 % of games drawn. Events: 32
players over 7 rounds, 100 over 9 and 400 over 12, three seeds each (one with ``--quick``);
33 players over 7 rounds too, for the byes of an odd field.

Measured per size: each round's pairing (``POST …/rounds``) time, median and worst over
every round of every event; back-to-back rematches; the most meetings of one pair (the
schedule allows a second meeting in the final round only: at most 2); how the byes were
spread (nobody with two while someone has none, before the final round whose bye the
advisor gives a player out of contention); games between players who had met, before the
final round (the schedule's Swiss rounds allow none where the field can avoid them).

Targets (exit 0 only when met): median pairing time <= 50 ms at 100 players; no
back-to-back rematch; no pair past the allowance; byes spread.

Run: ``python bench/bench_scrabble_events.py`` (``--quick``: one seed per size).
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field

from pairing_service import create_app

BASE = "/v1/scrabble/events"
SIZES = ((32, 7), (33, 7), (100, 9), (400, 12))


@dataclass
class Report:
    players: int
    rounds: int
    times: list[float] = field(default_factory=list)  # ms, every round of every event
    back_to_back: int = 0
    most_meetings: int = 0
    early_repeats: int = 0  # games between players who had met, before the final round
    allowance: int = 0
    byes_spread: bool = True


def run_event(client, players: int, rounds: int, seed: int, report: Report) -> None:
    rng = random.Random(seed)
    ratings = {f"P{i}": max(0, round(rng.gauss(1500, 200))) for i in range(players)}
    body = {
        "name": f"bench {players}",
        "players": [{"id": p, "rating": r} for p, r in ratings.items()],
        "rounds": rounds,
    }
    created = client.post(BASE, json=body).get_json()
    base, headers = f"{BASE}/{created['id']}", {"Authorization": f"Bearer {created['token']}"}
    report.allowance = created["repeats_allowed"]
    met: Counter[frozenset[str]] = Counter()
    last: set[frozenset[str]] = set()
    byes: Counter[str] = Counter()
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        answer = client.post(f"{base}/rounds", headers=headers)
        paired = answer.get_json()
        report.times.append((time.perf_counter() - start) * 1000)
        assert answer.status_code == 201, paired
        games = {frozenset(g["players"]) for g in paired["games"]}
        if number < rounds:
            report.early_repeats += sum(met[g] > 0 for g in games)
        report.back_to_back += len(games & last)
        last = games
        met.update(games)
        if paired["bye"] is not None:
            if number < rounds and byes[paired["bye"]] > 0 and len(byes) < players:
                report.byes_spread = False
            byes[paired["bye"]] += 1
        for game in paired["games"]:
            a, b = game["players"]
            chance = 1 / (1 + 10 ** ((ratings[b] - ratings[a]) / 400))
            margin = int(abs(rng.gauss(0, 90))) + 1
            if rng.random() < 0.005:
                scores = [400, 400]
            elif rng.random() < chance:
                scores = [350 + margin, 350]
            else:
                scores = [350, 350 + margin]
            url = f"{base}/rounds/{number}/games/{game['game']}"
            put = client.put(url, json={"scores": scores}, headers=headers)
            assert put.status_code == 200, put.get_json()
        closed = client.post(f"{base}/rounds/{number}/close", headers=headers)
        assert closed.status_code == 200, closed.get_json()
    report.most_meetings = max(report.most_meetings, max(met.values()))


def main() -> int:
    quick = "--quick" in sys.argv
    seeds = range(1 if quick else 3)
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": f"sqlite:///{tempfile.mkdtemp()}/b.sqlite3",
            "WRITE_RATE_LIMIT": "",
        }
    )
    client = app.test_client()
    run_event(client, 100, 3, 999, Report(100, 3))  # warm-up (first imports, caches)
    met = True
    print(
        "| players | rounds | events | pairing p50 ms | worst ms | back-to-back | "
        "repeats before the final | most meetings (allowed) | byes spread |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|:---:|")
    for players, rounds in SIZES:
        report = Report(players, rounds)
        for seed in seeds:
            run_event(client, players, rounds, seed, report)
        median = statistics.median(report.times)
        print(
            f"| {players} | {rounds} | {len(seeds)} | {median:.1f} | {max(report.times):.1f} | "
            f"{report.back_to_back} | {report.early_repeats} | "
            f"{report.most_meetings} ({1 + report.allowance}) | "
            f"{'yes' if report.byes_spread else 'no'} |"
        )
        met &= report.back_to_back == 0 and report.byes_spread
        met &= report.most_meetings <= 1 + report.allowance
        if players == 100:
            met &= median <= 50
    print("targets met" if met else "targets NOT met")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
