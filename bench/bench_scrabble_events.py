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
every round of every event; back-to-back rematches, and those the advisor kept for a race
(the round's rule says so); the most meetings of one pair (the event's allowance, 2 by
default, allows a third meeting: at most 3 where nothing else could be paired); how the
byes were spread (nobody with two while someone has none, before the final round whose
bye the advisor gives a player out of contention); games between players who had met, in
the rounds before the advisor's (weighed against rank distance: ``cost.py``).

Targets (exit 0 only when met): median pairing time <= 50 ms at 400 players; no
back-to-back rematch but those kept for a race; no pair past the allowance; byes spread.

With ``--prizes``: events of 32, 100 and 400 players paying five graded places
(``PRIZES``: 1000, 500, 250, 100, 50), so the default schedule pairs the last three rounds
with the advisor (``held/schedule.py``: each place's race head to head). The advisor
rounds' pairing time is reported apart (median and worst), with the rounds whose advisor
pairing the held event changed to avoid a back-to-back rematch ("swapped"). Target: the
advisor rounds' median <= 50 ms at 400 players, with the others above.

Run: ``python bench/bench_scrabble_events.py [--prizes] [--quick]`` (``--quick``: one seed
per size).
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
PRIZE_SIZES = ((32, 7), (100, 9), (400, 12))
PRIZES = [1000, 500, 250, 100, 50]  # five places, each paying differently


@dataclass
class Report:
    players: int
    rounds: int
    times: list[float] = field(default_factory=list)  # ms, every round of every event
    advisor_times: list[float] = field(default_factory=list)  # ms, the advisor's rounds
    swapped: int = 0  # advisor rounds whose games the held event swapped (back-to-back)
    back_to_back: int = 0
    kept_back_to_back: int = 0  # the advisor kept them for a race (its rule says so)
    most_meetings: int = 0
    early_repeats: int = 0  # games between players who had met, before the advisor's rounds
    advisor_repeats: int = 0  # the same in the advisor's rounds (its allowance permits them)
    allowance: int = 0
    byes_spread: bool = True


def run_event(
    client, players: int, rounds: int, seed: int, report: Report, prizes: list | None = None
) -> None:
    rng = random.Random(seed)
    ratings = {f"P{i}": max(0, round(rng.gauss(1500, 200))) for i in range(players)}
    body = {
        "name": f"bench {players}",
        "players": [{"id": p, "rating": r} for p, r in ratings.items()],
        "rounds": rounds,
    }
    if prizes is not None:
        body["prizes"] = prizes
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
        if paired["method"] == "advisor":
            report.advisor_times.append(report.times[-1])
            report.swapped += "swapped" in (paired["rule"] or "")
        games = {frozenset(g["players"]) for g in paired["games"]}
        repeats = sum(met[g] > 0 for g in games)
        if paired["method"] == "advisor":
            report.advisor_repeats += repeats
        else:
            report.early_repeats += repeats
        report.back_to_back += len(games & last)
        rule = paired["rule"] or ""
        if "kept head to head" in rule and ("back to back" in rule or "straight after" in rule):
            report.kept_back_to_back += len(games & last)
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
    prizes = PRIZES if "--prizes" in sys.argv else None
    sizes = PRIZE_SIZES if prizes else SIZES
    seeds = range(1 if quick else 3)
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": f"sqlite:///{tempfile.mkdtemp()}/b.sqlite3",
            "WRITE_RATE_LIMIT": "",
        }
    )
    client = app.test_client()
    run_event(client, 100, 3, 999, Report(100, 3), prizes)  # warm-up (imports, caches)
    met = True
    advisor = (
        "| advisor rounds | advisor p50 ms | advisor worst ms | swapped | repeats in them "
        if prizes
        else ""
    )
    early = "repeats in the Swiss rounds" if prizes else "repeats before the final"
    print(
        "| players | rounds | events | pairing p50 ms | worst ms "
        + advisor
        + f"| back-to-back | {early} | most meetings (allowed) | byes spread |"
    )
    print("|---:|---:|---:|---:|---:|" + ("---:|" * 5 if prizes else "") + "---:|---:|---:|:---:|")
    for players, rounds in sizes:
        report = Report(players, rounds)
        for seed in seeds:
            run_event(client, players, rounds, seed, report, prizes)
        median = statistics.median(report.times)
        shown = ""
        if prizes:
            advised = report.advisor_times
            shown = (
                f"| {len(advised)} | {statistics.median(advised):.1f} | {max(advised):.1f} "
                f"| {report.swapped} | {report.advisor_repeats} "
            )
        print(
            f"| {players} | {rounds} | {len(seeds)} | {median:.1f} | {max(report.times):.1f} "
            f"{shown}| {report.back_to_back} ({report.kept_back_to_back} for a race) "
            f"| {report.early_repeats} | "
            f"{report.most_meetings} ({1 + report.allowance}) | "
            f"{'yes' if report.byes_spread else 'no'} |"
        )
        met &= report.back_to_back == report.kept_back_to_back and report.byes_spread
        met &= report.most_meetings <= 1 + report.allowance
        if players == 400:
            met &= median <= 50
            if prizes:
                met &= statistics.median(report.advisor_times) <= 50
    print("targets met" if met else "targets NOT met")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
