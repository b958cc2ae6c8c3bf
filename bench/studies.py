"""Studies: the simulation tables the docs report, regenerated.

Every cell is one request to the service (Flask test client), so the request bounds must
admit every study the docs report:

- ``diagonal``: the Diagonal Race simulator table of docs/diagonal.md — 300 events, seed 0,
  ratings evenly spaced from 2100 down to 1700, for 12, 24 and 48 players at luck 0 and
  0.5 (``POST /v1/diagonal/simulate``; about 15 s);
- ``planner``: the strikes planner table of docs/strikes.md — 500 events, seed 0, for 12
  to 100 players of 5-4-3 and 4-3 games at 23, 35 and 47 strikes (``POST
  /v1/strikes/plan``; about a minute and a half): mean rounds with the 10th-90th
  percentile, mean games per player, events ending with dual or co-winners.

Each prints its table as the docs show it, then the slowest request's CPU time.
Run: ``python bench/studies.py diagonal`` or ``python bench/studies.py planner``.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pairing_service import create_app

DIAGONAL_EVENTS = 300
DIAGONAL_FIELDS = (12, 24, 48)
LUCKS = (0.0, 0.5)
BEST, WORST = 2100, 1700

PLANNER_EVENTS = 500
GAMES = ("5-4-3", "4-3")
PLANNER_FIELDS = (12, 20, 30, 40, 60, 100)
THRESHOLDS = (23, 35, 47)


def diagonal_request(players: int, luck: float) -> dict[str, Any]:
    """The simulator request of one row of docs/diagonal.md's table."""
    spacing = (BEST - WORST) / (players - 1)
    return {
        "players": [{"id": f"P{i + 1}", "rating": BEST - spacing * i} for i in range(players)],
        "luck": luck,
        "events": DIAGONAL_EVENTS,
        "seed": 0,
    }


def planner_request(game: str, players: int, threshold: int) -> dict[str, Any]:
    """The planner request of one cell of docs/strikes.md's table."""
    return {
        "players": players,
        "game": game,
        "threshold": threshold,
        "events": PLANNER_EVENTS,
        "seed": 0,
    }


DIAGONAL_STUDIES = [diagonal_request(n, luck) for n in DIAGONAL_FIELDS for luck in LUCKS]
PLANNER_STUDIES = [
    planner_request(game, n, threshold)
    for game in GAMES
    for n in PLANNER_FIELDS
    for threshold in THRESHOLDS
]


class Service:
    """Posts the studies' requests, keeping the slowest one's CPU time."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.slowest = (0.0, "")

    def post(self, path: str, body: dict[str, Any], label: str) -> dict[str, Any]:
        started = time.process_time()
        answer = self.client.post(path, json=body)
        self.slowest = max(self.slowest, (time.process_time() - started, label))
        if answer.status_code != 200:
            sys.exit(f"{label}: refused: {answer.get_json()}")
        result: dict[str, Any] = answer.get_json()
        return result


@contextmanager
def service() -> Iterator[Service]:
    with tempfile.TemporaryDirectory() as folder:
        # TESTING: no request log lines among the table's
        app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{folder}/study.sqlite3"})
        posting = Service(app.test_client())
        yield posting
        print()
        print(f"slowest request: {posting.slowest[0]:.1f} CPU s ({posting.slowest[1]})")


def diagonal() -> None:
    print(f"{DIAGONAL_EVENTS} events, ratings evenly spaced from {BEST} down to {WORST}, seed 0:")
    print()
    print(
        "| players | luck | mean rounds | games per player | best player wins "
        "| worst player wins | playoffs |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    with service() as study:
        for body in DIAGONAL_STUDIES:
            players, luck = len(body["players"]), body["luck"]
            answer = study.post("/v1/diagonal/simulate", body, f"{players} players, luck {luck}")
            chances = [p["win_chance"] for p in answer["players"]]
            games = statistics.fmean(p["mean_games"] for p in answer["players"])
            print(
                f"| {players} | {luck:.1f} | {answer['mean_rounds']:.2f} | {games:.2f} "
                f"| {chances[0]:.1%} | {chances[-1]:.1%} | {answer['playoffs']} |",
                flush=True,
            )


def planner() -> None:
    print(f"{PLANNER_EVENTS} events per cell, seed 0:")
    print()
    print("| game | players | " + " | ".join(f"{t} strikes" for t in THRESHOLDS) + " |")
    print("|---|---:|" + "---|" * len(THRESHOLDS))
    with service() as study:
        for game in GAMES:
            for players in PLANNER_FIELDS:
                cells = []
                for threshold in THRESHOLDS:
                    answer = study.post(
                        "/v1/strikes/plan",
                        planner_request(game, players, threshold),
                        f"{game}, {players} players, {threshold} strikes",
                    )
                    shared = answer["shared_wins"] / answer["events"]
                    cells.append(
                        f"{answer['mean_rounds']:.1f} rounds "
                        f"({answer['rounds_p10']}–{answer['rounds_p90']}), "
                        f"{answer['mean_games_per_player']:.1f} games, {shared:.0%} shared"
                    )
                print(f"| {game} | {players} | " + " | ".join(cells) + " |", flush=True)


STUDIES = {"diagonal": diagonal, "planner": planner}


def main() -> int:
    if len(sys.argv) != 2 or sys.argv[1] not in STUDIES:
        print(f"usage: python bench/studies.py {{{','.join(STUDIES)}}}", file=sys.stderr)
        return 2
    STUDIES[sys.argv[1]]()
    return 0


if __name__ == "__main__":
    sys.exit(main())
