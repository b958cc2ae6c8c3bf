"""Benchmark: final-round advice (``POST /v1/scrabble/final-round``) through the HTTP layer.

Every request goes through the Flask test client in-process (``create_app`` with a
scratch SQLite file and no write rate limit), so request parsing, marshmallow validation,
the engine and JSON serialisation all count. Request bodies are encoded before the clock
starts; the answer is read inside the timing.

Simulated fields (ten seeds per size, three with ``--quick``): a Swiss event whose players
are rated N(1500, 200); each round sorts by wins, then spread (then player number) and pairs
1 v 2, 3 v 4, ...; an odd player out gets a bye (a win, +50 spread). A game is drawn with
probability 0.5 % (half a win each, no spread), otherwise won by the Elo probability
P(a beats b) = 1 / (1 + 10^((rb - ra) / 400)) by a margin of int(|N(0, 90)|) + 1. The event
has 7 rounds for 32 players, 9 for 100, 12 for 400 and 15 for 2,000: every round but the
last is played, and the request asks for the final round's advice, with each player's
previous opponents in round order (``null`` for a bye), names, two victors and
``max_spread_per_game`` 500 (tsh's assumption).

Adversarial fields, at 32 and 400 players, built without randomness: the same number of
rounds played, each player's opponents a Swiss-like schedule without repeats (in round m
the player ranked i + 1 met the one ranked (i XOR m) + 1, so neighbours in the standings
have met), and spreads falling by 3 a rank (within a win group, everyone is within reach
under the cap). Wins are assigned, not played out:

- leading group: the top eighth, quarter or half of the field (three fields) tied a game
  ahead of everyone else, the rest spread down the lower win counts;
- tied wins: everyone on the same wins; one player a win ahead of all the others; one
  player half a win ahead and the bottom eighth a win behind (three fields).

Timing: each field is requested three times and the fastest counts (after one warm-up
request on a field that is not measured). Reported per row: median and worst over its
fields, the median time of the engine call alone (``advise`` on the standings the API
builds, with the same arguments; fastest of three), the median number of contenders, and
the number of principle verdicts answered ``unverified``.

At 400 players the request is also split into its parts, each timed alone on the same
fields (fastest of three): *validation* (the strict JSON parse and ``FinalRoundIn``'s load,
with one schema instance as the API keeps it), *standings* (``standings_of``: the engine's
model of the field, which also checks the history's consistency), *serialisation*
(``final_round_answer_of``, ``FinalRoundOut``'s dump and the JSON encoding). The target is
the issue's "validation plus serialisation": their sum as a median share of the request.
Everything outside the engine call (the standings, Flask's dispatch, metrics and the
request log too) is reported beside it, as a share of the request, not as a target.

Targets (exit 0 only when all are met): median <= 5 ms at 32 players (worst <= 20 ms),
<= 50 ms at 400 (worst <= 100 ms), <= 500 ms at 2,000 (worst <= 1,000 ms). The issue asks
for "ten seeds per size, plus adversarial fields", reported as "the median and the worst
field", so the times are held per size over *every* field of that size (the simulated ones
and the adversarial ones together: 16 fields at 32 and 400 players, 10 at 2,000), and to
the simulated fields alone (the events the issue measured); every adversarial field is
thereby held to the size's worst-field time. Each adversarial row's own median is reported
beside them, against the same times, as the stricter per-row reading (not a target).
Validation plus serialisation <= 20 % of the request at 400 (median over the simulated
fields); no ``unverified`` verdict on the simulated fields (the adversarial fields' count
is reported, not a target). 100 players: reported only.

Run: ``python bench/bench_scrabble.py`` (``--quick``: three seeds per size).
"""

from __future__ import annotations

import json
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.scrabble_fields import ADVERSARIAL, ROUNDS, Body, simulated_field
from pairing_service import create_app
from pairing_service.api.parsing import strict_json_loads
from pairing_service.api.scrabble.answer_schemas import FinalRoundOut
from pairing_service.api.scrabble.tool_schemas import FinalRoundIn
from pairing_service.api.scrabble.tools import advise_field, final_round_answer_of, standings_of
from pairing_service.engine.scrabble.rule_table import RuleTable

URL = "/v1/scrabble/final-round"
REPEATS = 3
ADVERSARIAL_SIZES = (32, 400)
# players -> (median ms, worst ms)
TIME_TARGETS_MS: dict[int, tuple[float, float]] = {
    32: (5.0, 20.0),
    400: (50.0, 100.0),
    2000: (500.0, 1000.0),
}
SHARE_TARGET = 0.20
SHARE_SIZE = 400


# --- measurement ----------------------------------------------------------------------


@dataclass(eq=False)  # rows are told apart by identity (``row in adversarial``)
class Row:
    label: str
    size: int
    request_ms: list[float]
    contenders: list[int]
    unverified: int
    engine_ms: list[float]
    validation_ms: list[float] = field(default_factory=list)
    standings_ms: list[float] = field(default_factory=list)
    serialisation_ms: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.request_ms)

    @property
    def worst(self) -> float:
        return max(self.request_ms)


def fastest(run: Callable[[], Any]) -> tuple[float, Any]:
    best, answer = float("inf"), None
    for _ in range(REPEATS):
        start = time.perf_counter()
        answer = run()
        best = min(best, (time.perf_counter() - start) * 1000)
    return best, answer


def engine_call(body: Body, table: RuleTable) -> Callable[[], Any]:
    """``advise`` as the API calls it (``advise_field``), on the standings the API builds
    from the validated body (outside the timing)."""
    loaded = FinalRoundIn().load(body)
    field = standings_of(loaded)
    return lambda: advise_field(field, loaded.options, table)


def measure_parts(app: Flask, row: Row, data: bytes, table: RuleTable) -> None:
    """Validation, the standings and serialisation of one field, each timed alone."""
    text = data.decode()
    load, dump = FinalRoundIn(), FinalRoundOut()  # one instance each, as the API keeps them
    ms, loaded = fastest(lambda: load.load(strict_json_loads(text)))
    row.validation_ms.append(ms)
    ms, built = fastest(lambda: standings_of(loaded))
    row.standings_ms.append(ms)
    advice = advise_field(built, loaded.options, table)
    with app.app_context():
        ms, _ = fastest(
            lambda: app.json.dumps(dump.dump(final_round_answer_of(built, advice, loaded, None)))
        )
    row.serialisation_ms.append(ms)


def measure(app: Flask, label: str, size: int, bodies: list[Body]) -> Row:
    client = app.test_client()
    table: RuleTable = app.extensions["pairing_rules"].scrabble
    row = Row(label, size, [], [], 0, [])
    for body in bodies:
        data = json.dumps(body).encode()

        def post(data: bytes = data) -> Any:
            answer = client.post(URL, data=data, content_type="application/json")
            answer.get_data()
            return answer

        ms, answer = fastest(post)
        assert answer.status_code == 200, answer.get_data(as_text=True)[:500]
        advice = answer.get_json()
        row.request_ms.append(ms)
        row.contenders.append(len(advice["contenders"]))
        row.unverified += sum(v["status"] == "unverified" for v in advice["principles"])
        row.engine_ms.append(fastest(engine_call(body, table))[0])
        if size == SHARE_SIZE and label.startswith("simulated"):
            measure_parts(app, row, data, table)
    return row


def main() -> int:
    quick = "--quick" in sys.argv
    seeds = range(3 if quick else 10)
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": f"sqlite:///{tempfile.mkdtemp()}/b.sqlite3",
            "WRITE_RATE_LIMIT": "",
        }
    )
    warm = app.test_client().post(URL, json=simulated_field(32, 999))
    assert warm.status_code == 200, warm.get_data(as_text=True)[:500]

    simulated: dict[int, Row] = {}
    rows: list[Row] = []
    for size in ROUNDS:
        bodies = [simulated_field(size, seed) for seed in seeds]
        simulated[size] = measure(app, f"simulated Swiss, {ROUNDS[size]} rounds", size, bodies)
        rows.append(simulated[size])
    adversarial: list[Row] = []
    for kind, (what, build) in ADVERSARIAL.items():
        for size in ADVERSARIAL_SIZES:
            adversarial.append(measure(app, f"{kind}: {what}", size, build(size)))
    rows += adversarial

    # Every field of a size together: the issue's "ten seeds per size, plus adversarial
    # fields" with "the median and the worst field".
    every_size: dict[int, Row] = {}
    for size in TIME_TARGETS_MS:
        of_size = [row for row in rows if row.size == size]
        every_size[size] = Row(
            f"every field of the size ({' + '.join(str(len(r.request_ms)) for r in of_size)})",
            size,
            [ms for r in of_size for ms in r.request_ms],
            [c for r in of_size for c in r.contenders],
            sum(r.unverified for r in of_size),
            [ms for r in of_size for ms in r.engine_ms],
        )

    machine = f"{platform.machine()} {platform.processor() or ''}".strip()
    print(f"machine: {machine}, Python {platform.python_version()}")
    print(
        "| fields | players | n | median ms | worst ms | target median / worst ms | "
        "engine alone median ms | contenders (median) | unverified | time met |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|:---:|")
    verdicts: list[tuple[str, bool]] = []
    stricter: list[tuple[str, bool]] = []
    for row in [*rows, *every_size.values()]:
        target = TIME_TARGETS_MS.get(row.size)
        if target is None:
            shown, met = "-", "-"
        else:
            shown = f"{target[0]:.0f} / {target[1]:.0f}"
            median_ok, worst_ok = row.median <= target[0], row.worst <= target[1]
            if row in adversarial:  # held by the size's worst; its median is reported
                met = "worst yes" if worst_ok else "worst NO"
                met += f" (median {'within' if median_ok else 'over'})"
            else:
                met = "yes" if median_ok and worst_ok else "NO"
        print(
            f"| {row.label} | {row.size} | {len(row.request_ms)} | {row.median:.1f} | "
            f"{row.worst:.1f} | {shown} | {statistics.median(row.engine_ms):.1f} | "
            f"{statistics.median(row.contenders):.0f} | "
            f"{row.unverified} | {met} |"
        )
    for row in [*every_size.values(), *simulated.values(), *adversarial]:
        if row.size not in TIME_TARGETS_MS:
            continue
        median_target, worst_target = TIME_TARGETS_MS[row.size]
        if row in every_size.values():
            name = f"every field ({len(row.request_ms)})"
        elif row in simulated.values():
            name = "simulated"
        else:
            name = row.label.split(":")[0]
        median_verdict = (
            f"{name}, {row.size} players: median {row.median:.1f} ms <= {median_target:.0f} ms",
            row.median <= median_target,
        )
        (stricter if row in adversarial else verdicts).append(median_verdict)
        verdicts.append(
            (
                f"{name}, {row.size} players: worst {row.worst:.1f} ms <= {worst_target:.0f} ms",
                row.worst <= worst_target,
            )
        )
    share_row = simulated[SHARE_SIZE]
    median = statistics.median

    def share_of(parts: list[float]) -> float:
        return median(p / whole for p, whole in zip(parts, share_row.request_ms, strict=True))

    literal = [
        v + s for v, s in zip(share_row.validation_ms, share_row.serialisation_ms, strict=True)
    ]
    outside = [w - e for w, e in zip(share_row.request_ms, share_row.engine_ms, strict=True)]
    share = share_of(literal)
    verdicts.append(
        (
            f"validation + serialisation at {SHARE_SIZE} players: {100 * share:.1f} % of the "
            f"request (median request {share_row.median:.1f} ms; validation "
            f"{median(share_row.validation_ms):.1f} ms, serialisation "
            f"{median(share_row.serialisation_ms):.1f} ms) <= {100 * SHARE_TARGET:.0f} %",
            share <= SHARE_TARGET,
        )
    )
    reported = (
        f"everything outside the engine call at {SHARE_SIZE} players: "
        f"{100 * share_of(outside):.1f} % of the request (engine alone "
        f"{median(share_row.engine_ms):.1f} ms; building the standings "
        f"{median(share_row.standings_ms):.1f} ms)"
    )
    unverified = sum(row.unverified for row in simulated.values())
    verdicts.append(
        (f"unverified verdicts on the simulated fields: {unverified} = 0", unverified == 0)
    )
    print()
    for text, ok in verdicts:
        print(f"- {'met' if ok else 'MISSED'}: {text}")
    for text, ok in stricter:
        print(f"- reported, per-row reading: {text}: {'within' if ok else 'OVER'}")
    adversarial_unverified = sum(row.unverified for row in adversarial)
    print(f"- reported: {reported}")
    print(f"- reported: unverified verdicts on the adversarial fields: {adversarial_unverified}")
    return 0 if all(ok for _, ok in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
