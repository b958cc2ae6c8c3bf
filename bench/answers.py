"""Every answer of the service on a fixed corpus, recorded to compare two versions of it.

A change meant to leave behaviour alone (a refactoring, a speed-up) is shown to do so by
recording the corpus before and after and comparing: ``record`` writes each request's
status and answer to a JSON file, ``compare`` lists every request whose answer differs.
Everything goes through the HTTP API (Flask's test client, in-process), so any version of
the service can answer the same questions, whatever its modules are called.

The corpus (``--part``):

- ``scrabble``: the benchmark's fields (``scrabble_fields.py``: simulated Swiss events of
  32, 100, 400 and 2,000 players and the adversarial fields), asked for the final round;
  ``--random N`` (default 919) random events of 2-40 players with random options
  (victors, spread cap, rounds left, ``prefer``, ``list_outcomes``, ``tsh_commands``), each
  asked for the final round, then audited with the advised pairing and with a random one;
  a tenth of them also as text, and as CSV; the tsh files under ``tests/data`` after every
  round, with tsh commands.
- ``held``: every held tournament in the SQLite files under ``--logs DIR`` (run the test
  suite with ``--basetemp DIR`` to keep the logs it writes), each read through its routes:
  the tournament, its history, its export (JSON, CSV, text), and every round, board or
  season with its tables as JSON and text. A copy of each file is read, never the file.

Run: ``python bench/answers.py record --part scrabble before.json``, change the code,
record again, then ``python bench/answers.py compare before.json after.json`` (exit 1 when
anything differs).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from scrabble_fields import (
    ADVERSARIAL,
    ROUNDS,
    Body,
    Record,
    leading_group,
    simulated_field,
    tied_wins,
)

FINAL_ROUND = "/v1/scrabble/final-round"
AUDIT = "/v1/scrabble/audit"
TSH_FILES = Path(__file__).resolve().parents[1] / "tests" / "data"
RANDOM_FIELDS = 919
SHOWN_DIFFERENCES = 20

Answer = dict[str, Any]


# --- the Scrabble corpus -----------------------------------------------------------------


def random_event(rng: random.Random) -> Body:
    """A random event before its last round: Swiss-like rounds with some disorder (so
    players meet again), draws, byes, optional names and options."""
    size = rng.choice([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 20, 24, 31, 40])
    played = rng.randint(1, 12)
    record = Record(size)
    for _ in range(played):
        wins, spread = record.half_wins, record.spread
        order = sorted(range(size), key=lambda i: (-wins[i] - rng.random() * 3, -spread[i]))
        if size % 2:
            record.bye(order.pop(rng.randrange(len(order)) if rng.random() < 0.3 else -1))
        for a, b in zip(order[::2], order[1::2], strict=True):
            record.paired(a, b)
            if rng.random() < 0.03:
                record.draw(a, b)
                continue
            winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
            record.win(winner, loser, rng.randint(1, 250))
    body = record.body()
    for player in body["players"]:
        if rng.random() >= 0.5:
            del player["name"]
    body |= {
        "victors": rng.choice([1, 2, 2, 2, 3, 4]),
        "max_spread_per_game": rng.choice([None, 250, 500]),
        "prefer": rng.choice(["table", "principles"]),
    }
    if rng.random() < 0.2:
        body["rounds_left"] = rng.randint(2, 3)
    if rng.random() < 0.2:
        body["list_outcomes"] = True
    if rng.random() < 0.2:
        body["tsh_commands"] = True
        body["round"] = played + 1
    return body


def random_pairing(rng: random.Random, body: Body) -> list[dict[str, list[str]]]:
    ids = [p["id"] for p in body["players"]]
    rng.shuffle(ids)
    games = [{"players": ids[i : i + 2]} for i in range(0, len(ids) - 1, 2)]
    if len(ids) % 2:
        games.append({"players": [ids[-1]]})
    return games


def as_csv(body: Body) -> str:
    return "".join(f"{p['id']},{p['wins']},{p['spread']}\n" for p in body["players"])


def scrabble_requests(random_fields: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """(key, test-client keyword arguments) for every request of the Scrabble corpus;
    an audit's pairing may be ``"advised"``, filled in from the answer before it."""
    seeds = {32: range(10), 100: range(3), 400: range(3), 2000: range(1)}
    for size in ROUNDS:
        for seed in seeds[size]:
            yield f"simulated {size} #{seed}", {"json": simulated_field(size, seed)}
    for size in (32, 400):
        for name, (_, build) in ADVERSARIAL.items():
            for index, body in enumerate(build(size)):
                yield f"adversarial {size} {name} #{index}", {"json": body}
    yield "leading group 32/2", {"json": leading_group(32, 2)}
    yield "tied wins 32 #1", {"json": tied_wins(32, 1)}
    rng = random.Random(20261126)
    for index in range(random_fields):
        body = random_event(rng)
        key = f"random #{index}"
        yield key, {"json": body}
        audit = {k: v for k, v in body.items() if k not in ("tsh_commands",)}
        yield f"{key} audit advised", {"json": dict(audit, pairings="advised")}
        yield f"{key} audit random", {"json": dict(audit, pairings=random_pairing(rng, body))}
        if index % 10 == 0:
            yield f"{key} text", {"json": body, "headers": {"Accept": "text/plain"}}
            query = {"victors": body["victors"]}
            yield f"{key} csv", {"data": as_csv(body), "content_type": "text/csv", "query": query}
    for path in sorted(TSH_FILES.glob("*.t")):
        text = path.read_text(encoding="utf-8")
        for after in range(0, 40):
            query = {"after": after, "tsh_commands": "true"}
            yield (
                f"tsh {path.name} after {after}",
                {
                    "data": text,
                    "content_type": "text/plain",
                    "query": query,
                    "headers": {"Accept": "application/json"},
                },
            )
        yield (
            f"tsh {path.name} text",
            {
                "data": text,
                "content_type": "text/plain",
                "headers": {"Accept": "text/plain"},
            },
        )


def answer_of(response: Any) -> Answer:
    if response.mimetype in ("application/json", "application/problem+json"):
        return {"status": response.status_code, "json": response.get_json()}
    return {"status": response.status_code, "text": response.get_data(as_text=True)}


def record_scrabble(random_fields: int) -> dict[str, Answer]:
    from pairing_service import create_app

    with tempfile.TemporaryDirectory() as scratch:
        app = create_app(
            {"TESTING": True, "SQLITE_PATH": f"{scratch}/db.sqlite3", "WRITE_RATE_LIMIT": ""}
        )
        client = app.test_client()
        answers: dict[str, Answer] = {}
        advised: list[dict[str, list[str]]] = []
        for key, request in scrabble_requests(random_fields):
            request = dict(request)
            url = FINAL_ROUND
            if "pairings" in request.get("json", {}):
                url = AUDIT
                if request["json"]["pairings"] == "advised":
                    request["json"] = dict(request["json"], pairings=advised)
            query = request.pop("query", None)
            response = client.post(url, query_string=query, **request)
            answers[key] = answer_of(response)
            body = answers[key].get("json") or {}
            if url == FINAL_ROUND:
                advised = [{"players": game["players"]} for game in body.get("pairings", [])]
        app.extensions["pairing_store"].engine.dispose()
    return answers


# --- the held corpus ---------------------------------------------------------------------

READ_ROOT = {
    "strikes": "/v1/strikes/tournaments/{}",
    "diagonal": "/v1/diagonal/events/{}",
    "puffing_billy": "/v1/puffing-billy/events/{}",
    "league": "/v1/league/organisations/{}",
}
NUMBERED = {  # the parts read one by one until the first that is not there
    "strikes": ["/rounds/{}"],
    "diagonal": ["/rounds/{}"],
    "puffing_billy": ["/boards/{}"],
    "league": ["/seasons/{}", "/seasons/{}/letters"],
}
MOST_PARTS = 60


def held_reads(client: Any, fmt: str, root: str) -> Iterator[tuple[str, Any]]:
    yield "", client.get(root)
    yield "/history", client.get(root + "/history")
    for wanted in ("json", "csv", "text"):
        yield (
            f"/export?format={wanted}",
            client.get(root + "/export", query_string={"format": wanted}),
        )
    if fmt == "league":
        yield "/lifetime", client.get(root + "/lifetime")
    for part in NUMBERED[fmt]:
        for number in range(1, MOST_PARTS + 1):
            path = root + part.format(number)
            response = client.get(path)
            yield part.format(number), response
            if response.status_code == 404:
                break
            yield part.format(number) + " text", client.get(path, headers={"Accept": "text/plain"})
            if fmt == "league" and part == "/seasons/{}" and response.status_code == 200:
                for name in sorted(league_names(response.get_json())):
                    league = f"{part.format(number)}/leagues/{name}"
                    yield league, client.get(root + league)


def league_names(season: Any) -> set[str]:
    """The league names a season's read mentions (wherever it lists them)."""
    found: set[str] = set()
    if isinstance(season, dict):
        for key, value in season.items():
            if key in ("league", "name") and isinstance(value, str) and "-" in value:
                found.add(value)
            found |= league_names(value)
    elif isinstance(season, list):
        for item in season:
            found |= league_names(item)
    return found


def record_held(logs: Path) -> dict[str, Answer]:
    from sqlalchemy import create_engine, text

    from pairing_service import create_app

    answers: dict[str, Answer] = {}
    for path in sorted(logs.rglob("*.sqlite3")):
        with tempfile.TemporaryDirectory() as scratch:
            copy = Path(scratch) / "copy.sqlite3"
            shutil.copyfile(path, copy)
            url = f"sqlite:///{copy}"
            peek = create_engine(url)
            try:
                with peek.connect() as conn:
                    rows = conn.execute(text("SELECT id, format FROM tournaments")).all()
            except Exception:  # a file of another test: no tournaments table
                rows = []
            finally:
                peek.dispose()
            if not rows:
                continue
            app = create_app({"TESTING": True, "DATABASE_URL": url, "WRITE_RATE_LIMIT": ""})
            client = app.test_client()
            where = str(path.relative_to(logs))
            for tournament_id, fmt in sorted(rows):
                if fmt not in READ_ROOT:
                    continue
                root = READ_ROOT[fmt].format(tournament_id)
                for suffix, response in held_reads(client, fmt, root):
                    answers[f"{where} {fmt} {tournament_id}{suffix}"] = answer_of(response)
            app.extensions["pairing_store"].engine.dispose()
    return answers


# --- compare -----------------------------------------------------------------------------


def comparable(answer: Any) -> Any:
    """The answer without what differs on every request: a problem's ``instance`` (the
    request's id)."""
    if isinstance(answer, dict):
        return {k: comparable(v) for k, v in answer.items() if k != "instance"}
    if isinstance(answer, list):
        return [comparable(v) for v in answer]
    return answer


def compare(before: dict[str, Answer], after: dict[str, Answer]) -> int:
    missing = sorted(set(before) - set(after))
    added = sorted(set(after) - set(before))
    changed = sorted(
        k for k in set(before) & set(after) if comparable(before[k]) != comparable(after[k])
    )
    print(
        f"{len(before)} answers before, {len(after)} after: {len(changed)} differ, "
        f"{len(missing)} missing, {len(added)} new"
    )
    for key in changed[:SHOWN_DIFFERENCES]:
        print(
            f"- {key}\n  before: {json.dumps(before[key])[:400]}\n  after:  "
            f"{json.dumps(after[key])[:400]}"
        )
    for key in missing[:SHOWN_DIFFERENCES]:
        print(f"- missing: {key}")
    for key in added[:SHOWN_DIFFERENCES]:
        print(f"- new: {key}")
    return 1 if changed or missing or added else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    record = commands.add_parser("record", help="record the corpus's answers to a file")
    record.add_argument("out", type=Path)
    record.add_argument("--part", choices=["scrabble", "held", "all"], default="all")
    record.add_argument("--random", type=int, default=RANDOM_FIELDS, help="random fields")
    record.add_argument("--logs", type=Path, help="a folder of SQLite files (held part)")
    against = commands.add_parser("compare", help="compare two recordings")
    against.add_argument("before", type=Path)
    against.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "compare":
        before = json.loads(args.before.read_text())
        after = json.loads(args.after.read_text())
        return compare(before, after)
    answers: dict[str, Answer] = {}
    if args.part in ("scrabble", "all"):
        answers |= record_scrabble(args.random)
    if args.part in ("held", "all"):
        if args.logs is None:
            parser.error("the held part reads the logs under --logs DIR")
        answers |= record_held(args.logs)
    args.out.write_text(json.dumps(answers, sort_keys=True))
    print(f"{len(answers)} answers recorded in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
