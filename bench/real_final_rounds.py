"""The service's final round next to the real director's, on real tsh divisions.

Every real division whose final round is on file (``bench/real_divisions.py``'s
``FINALS``, in ``../shared/data/scrabble-real``) is cut before its final round and sent to
``POST /v1/scrabble/final-round`` as a tsh file (``text/plain``, ``?after=N``), through
Flask's test client in-process, with a director's defaults:
``max_spread_per_game`` 500 (tsh's), ``victors`` 2 (the default) and 5 (a guess at the
places a real event pays). The answer is compared with the final round the director
really paired, read from the same file:

- mean rank gap on the top 10 boards (a board is a game; boards are ordered by the rank
  of their higher-ranked player);
- back-to-back rematches (the pair met in the round before) and 3rd / 4th-or-later
  meetings, over the whole field;
- top three: which of the players ranked 1-3 play each other, and each one's opponent;
- contenders sent away: players of the answer's ``contenders`` whose opponent is neither
  a contender nor Gibsonized, measured on both pairings with the answer's contenders;
- the answer's time.

A real final round's forfeits and unplayed rounds (opponent 0 with no positive score) are
no game; a withdrawn player (``off``) is not paired by the service either. A division the
service refuses is reported with its status and problem title.

Run: ``python bench/real_final_rounds.py [--json OUT]``. tsh's web output keeps whole
divisions in ``tourney.js``; ``python bench/real_final_rounds.py convert TOURNEY_JS
DIVISION > NAME.t`` writes one as a division file (see ``division_text``).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # this checkout's service, not another installed one
    sys.path.insert(0, str(ROOT))

from bench.real_divisions import FINALS, REAL, missing, published  # noqa: E402

FINAL_ROUND = "/v1/scrabble/final-round"
VICTORS = (2, 5)
MAX_SPREAD = 500
TOP_BOARDS = 10
SHOWN_BOARDS = 6

Game = tuple[str, ...]  # two ids, or one for a bye


# --- tourney.js -> .t ---------------------------------------------------------------------


class _JsReader:
    """A JavaScript object literal as Python values: what tsh writes into ``tourney.js``
    (JSON with ``undefined``), and the same reformatted (bare keys, single quotes,
    trailing commas). ``undefined`` and ``null`` read as None."""

    _NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
    _NAME = re.compile(r"[A-Za-z_$][\w$]*")
    _ESCAPES: ClassVar[dict[str, str]] = {
        "b": "\b",
        "f": "\f",
        "n": "\n",
        "r": "\r",
        "t": "\t",
        "v": "\v",
        "0": "\0",
    }

    def __init__(self, text: str, start: int = 0) -> None:
        self.text = text
        self.at = start

    def _space(self) -> None:
        text = self.text
        while self.at < len(text):
            if text[self.at].isspace():
                self.at += 1
            elif text.startswith("//", self.at):
                end = text.find("\n", self.at)
                self.at = len(text) if end < 0 else end
            elif text.startswith("/*", self.at):
                self.at = text.index("*/", self.at) + 2
            else:
                return

    def _peek(self) -> str:
        self._space()
        if self.at >= len(self.text):
            raise ValueError("the object literal ends early")
        return self.text[self.at]

    def value(self) -> Any:
        char = self._peek()
        if char == "{":
            return self._object()
        if char == "[":
            return self._array()
        if char in "\"'":
            return self._string()
        number = self._NUMBER.match(self.text, self.at)
        if number:
            self.at = number.end()
            word = number.group()
            return float(word) if any(c in word for c in ".eE") else int(word)
        name = self._NAME.match(self.text, self.at)
        if name:
            self.at = name.end()
            literals = {"undefined": None, "null": None, "true": True, "false": False}
            if name.group() in literals:
                return literals[name.group()]
        raise ValueError(f"unexpected text at {self.at}: {self.text[self.at : self.at + 20]!r}")

    def _string(self) -> str:
        quote = self.text[self.at]
        self.at += 1
        out: list[str] = []
        while True:
            char = self.text[self.at]
            self.at += 1
            if char == quote:
                return "".join(out)
            if char != "\\":
                out.append(char)
                continue
            escaped = self.text[self.at]
            self.at += 1
            if escaped == "u":
                out.append(chr(int(self.text[self.at : self.at + 4], 16)))
                self.at += 4
            else:
                out.append(self._ESCAPES.get(escaped, escaped))

    def _object(self) -> dict[str, Any]:
        self.at += 1
        out: dict[str, Any] = {}
        while self._peek() != "}":
            if self._peek() in "\"'":
                key = self._string()
            else:
                name = self._NAME.match(self.text, self.at) or self._NUMBER.match(
                    self.text, self.at
                )
                if name is None:
                    raise ValueError(f"expected a key at {self.at}")
                key = name.group()
                self.at = name.end()
            if self._peek() != ":":
                raise ValueError(f"expected ':' at {self.at}")
            self.at += 1
            out[key] = self.value()
            if self._peek() == ",":
                self.at += 1
        self.at += 1
        return out

    def _array(self) -> list[Any]:
        self.at += 1
        out: list[Any] = []
        while self._peek() != "]":
            if self._peek() == ",":  # a hole
                out.append(None)
                self.at += 1
                continue
            out.append(self.value())
            if self._peek() == ",":
                self.at += 1
        self.at += 1
        return out


def read_tourney_js(text: str) -> dict[str, Any]:
    """The ``newt`` object of a tsh ``tourney.js`` (or the bare object)."""
    assignment = re.search(r"\bnewt\s*=\s*", text)
    start = assignment.end() if assignment else text.index("{")
    return _JsReader(text, start).value()


def _words(values: Any) -> str:
    items = values if isinstance(values, list) else [values]
    return " ".join("00" if v is None else str(v) for v in items)


def division_text(newt: dict[str, Any], division: str) -> str:
    """One division of a ``tourney.js`` as a tsh division file, as tsh writes one: per
    player (in id order) ``name rating opponents; scores``, then each of the player's
    ``etc`` sections (``p12``, ``off``, ``board``, ...) as ``; key values``, keys sorted.
    Names, ratings, opponents and scores are kept as they are; a value tsh left
    undefined is written ``00``."""
    wanted = next(d for d in newt["divisions"] if str(d["name"]).upper() == division.upper())
    players = [p for p in wanted["players"] if p is not None]
    lines = []
    for number, player in enumerate(players, start=1):
        if player["id"] != number:
            raise ValueError(f"player ids are not 1..n: {player['id']} at {number}")
        line = f"{player['name']} {player['rating']} {_words(player['pairings'])}".rstrip()
        line += f"; {_words(player['scores'])}".rstrip()
        for key, values in sorted((player.get("etc") or {}).items()):
            line += f"; {key} {_words(values)}".rstrip()
        lines.append(line)
    return "\n".join(lines) + "\n"


# --- the real final round, and the measures ------------------------------------------------


@dataclass
class Measures:
    """One pairing of the final round, measured on the standings before it."""

    games: list[list[str]]
    boards: str  # the top boards by rank, "1-4 2-3 ..."
    top_gap: float | None  # mean rank gap on the top 10 boards
    back_to_back: int
    third: int  # pairs meeting for the 3rd time
    fourth_plus: int  # 4th time or later
    top3: str  # the games among ranks 1-3, "2-3", or "-"
    top3_opponents: str  # "1-9 2-3 3-2"
    sent_away: int | None  # contenders paired with a non-contender (None: no contenders)


@dataclass
class Run:
    victors: int
    status: int
    seconds: float
    problem: str | None = None
    contenders: int = 0
    gibsonized: int = 0
    rule: str | None = None
    same_games: int | None = None  # the service's games (and bye) the director also made
    service: Measures | None = None
    real: Measures | None = None


@dataclass
class Result:
    file: str
    players: int
    rounds: int
    active: int  # players the service pairs (not withdrawn)
    real_absent: int  # players with no game and no bye in the real final round
    runs: list[Run] = field(default_factory=list)


def real_final_round(text: str, final: int) -> list[Game]:
    """The games of round ``final`` as the file records them (a bye only with a positive
    score; forfeits and unplayed rounds are no game)."""
    from pairing_service.engine.scrabble.tsh import parse_lines

    games: list[Game] = []
    for p in parse_lines(text):
        if len(p.opponents) < final:
            continue
        if p.off is not None and not p.opponents[final - 1]:  # withdrawn: tsh's bye, no game
            continue
        opponent = p.opponents[final - 1]
        score = p.scores[final - 1] if len(p.scores) >= final else None
        if opponent and p.number < opponent:
            games.append((str(p.number), str(opponent)))
        elif opponent == 0 and score is not None and score > 0:
            games.append((str(p.number),))
    return games


def measure(
    games: Iterable[Game],
    standings: Any,
    previous: dict[str, str],
    contenders: set[str],
    gibsonized: set[str],
) -> Measures:
    rank = standings.rank
    ordered = sorted(games, key=lambda g: min(map(rank, g)))
    pairs = [tuple(sorted(g, key=rank)) for g in ordered if len(g) == 2]
    top = pairs[:TOP_BOARDS]
    meetings = [standings.meetings(a, b) for a, b in pairs]

    def board(game: Game) -> str:
        ranks = sorted(map(rank, game))
        return f"{ranks[0]}-{ranks[1]}" if len(ranks) == 2 else f"{ranks[0]}-bye"

    opponent = {a: b for a, b in pairs} | {b: a for a, b in pairs}
    top_ids = [standings.at_rank(r).id for r in (1, 2, 3) if r <= len(standings)]
    among = [f"{rank(a)}-{rank(b)}" for a, b in pairs if a in top_ids and b in top_ids]
    opponents = " ".join(
        f"{rank(p)}-{rank(opponent[p]) if p in opponent else 'x'}" for p in top_ids
    )
    paired = contenders & set(opponent)
    away = sum(1 for p in paired if opponent[p] not in contenders | gibsonized)
    return Measures(
        games=[list(g) for g in ordered],
        boards=" ".join(board(g) for g in ordered[:SHOWN_BOARDS]),
        top_gap=round(statistics.mean(rank(b) - rank(a) for a, b in top), 2) if top else None,
        back_to_back=sum(1 for a, b in pairs if previous.get(a) == b),
        third=sum(1 for m in meetings if m == 2),
        fourth_plus=sum(1 for m in meetings if m >= 3),
        top3=" ".join(among) or "-",
        top3_opponents=opponents,
        sent_away=away if contenders else None,
    )


def bench_file(client: Any, path: Path, repeats_allowed: int | None = None) -> Result:
    from pairing_service.engine.scrabble import Standings
    from pairing_service.engine.scrabble.tsh import parse_lines, read_division

    text = path.read_text(encoding="utf-8")
    whole = read_division(text)
    final = whole.rounds
    before = read_division(text, final - 1)
    standings = Standings.from_players(list(before.players))
    previous = {
        str(p.number): str(p.opponents[final - 2])
        for p in parse_lines(text)
        if final >= 2 and p.opponents[final - 2]
    }
    real = real_final_round(text, final)
    active = len(whole.players) - len(before.withdrawn)
    result = Result(
        path.name,
        len(whole.players),
        final,
        active,
        active - sum(len(g) for g in real),
    )
    for victors in VICTORS:
        query = {"after": final - 1, "victors": victors, "max_spread_per_game": MAX_SPREAD}
        if repeats_allowed is not None:
            query["repeats_allowed"] = repeats_allowed
        started = time.perf_counter()
        response = client.post(
            FINAL_ROUND, data=text, content_type="text/plain", query_string=query
        )
        seconds = time.perf_counter() - started
        body = response.get_json()
        run = Run(victors, response.status_code, round(seconds, 3))
        result.runs.append(run)
        if response.status_code != 200:
            run.problem = (body or {}).get("title", response.status) + (
                f": {body.get('detail')}" if body and body.get("detail") else ""
            )
            continue
        contenders, gibsonized = set(body["contenders"]), set(body["gibsonized"])
        run.contenders, run.gibsonized = len(contenders), len(gibsonized)
        run.rule = body["rule"]["id"]
        games = [tuple(g["players"]) for g in body["pairings"]]
        run.service = measure(games, standings, previous, contenders, gibsonized)
        run.real = measure(real, standings, previous, contenders, gibsonized)
        run.same_games = len({frozenset(g) for g in games} & {frozenset(g) for g in real})
    return result


# --- the report ----------------------------------------------------------------------------


def _median(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return round(statistics.median(present), 2) if present else None


def _cell(value: Any) -> str:
    return "-" if value is None else str(value)


def report(results: Sequence[Result]) -> str:
    out: list[str] = []
    header = (
        "| division | players | rounds | victors | rule | contenders | gap top 10 svc / real "
        "| back-to-back svc / real | 3rd svc / real | 4th+ svc / real | top 3 svc / real "
        "| sent away svc / real | same games | ms |"
    )
    out += [header, "|" + "---|" * 14]
    for r in results:
        for run in r.runs:
            if run.service is None or run.real is None:
                out.append(
                    f"| {r.file} | {r.players} | {r.rounds} | {run.victors} | refused "
                    f"{run.status}: {run.problem} | | | | | | | | | {run.seconds * 1000:.0f} |"
                )
                continue
            s, real = run.service, run.real
            out.append(
                f"| {r.file} | {r.players} | {r.rounds} | {run.victors} | {run.rule} "
                f"| {run.contenders} | {_cell(s.top_gap)} / {_cell(real.top_gap)} "
                f"| {s.back_to_back} / {real.back_to_back} | {s.third} / {real.third} "
                f"| {s.fourth_plus} / {real.fourth_plus} | {s.top3} / {real.top3} "
                f"| {_cell(s.sent_away)} / {_cell(real.sent_away)} "
                f"| {run.same_games} of {len(real.games)} | {run.seconds * 1000:.0f} |"
            )
    out += ["", "Top boards by rank (service, victors 2 | service, victors 5 | real director):", ""]
    for r in results:
        runs = {run.victors: run for run in r.runs}
        shown = [
            runs[v].service.boards if runs[v].service else f"refused {runs[v].status}"
            for v in VICTORS
        ]
        real = next((run.real.boards for run in r.runs if run.real), "-")
        absent = f" ({r.real_absent} without a game in the real round)" if r.real_absent else ""
        out.append(f"- {r.file}: `{shown[0]}` | `{shown[1]}` | `{real}`{absent}")
    out += ["", "Medians over divisions:", ""]
    out.append(
        "| victors | gap top 10 svc / real | back-to-back svc / real | 3rd svc / real "
        "| 4th+ svc / real | sent away svc / real | top 3 play each other svc / real |"
    )
    out.append("|" + "---|" * 7)
    for victors in VICTORS:
        runs = [run for r in results for run in r.runs if run.victors == victors and run.real]

        def pair(metric: str, runs: list[Run] = runs) -> str:
            svc = _median(getattr(run.service, metric) for run in runs)
            real = _median(getattr(run.real, metric) for run in runs)
            return f"{_cell(svc)} / {_cell(real)}"

        h2h_svc = sum(1 for run in runs if run.service and run.service.top3 != "-")
        h2h_real = sum(1 for run in runs if run.real.top3 != "-")
        out.append(
            f"| {victors} | {pair('top_gap')} | {pair('back_to_back')} | {pair('third')} "
            f"| {pair('fourth_plus')} | {pair('sent_away')} | {h2h_svc} / {h2h_real} "
            f"of {len(runs)} |"
        )
    times = [run.seconds for r in results for run in r.runs]
    refused = [
        f"{r.file} (victors {run.victors})" for r in results for run in r.runs if run.problem
    ]
    out += [
        "",
        f"Answer time over {len(times)} answers: median {statistics.median(times) * 1000:.0f} ms, "
        f"worst {max(times) * 1000:.0f} ms. Refused: {', '.join(refused) or 'none'}.",
    ]
    return "\n".join(out)


def run_bench(files: Sequence[Path], repeats_allowed: int | None = None) -> list[Result]:
    from pairing_service import create_app

    with tempfile.TemporaryDirectory() as scratch:
        app = create_app(
            {"TESTING": True, "SQLITE_PATH": f"{scratch}/db.sqlite3", "WRITE_RATE_LIMIT": ""}
        )
        client = app.test_client()
        client.post(FINAL_ROUND, json={"players": [{"id": "A", "wins": 1, "spread": 0}]})
        return [bench_file(client, path, repeats_allowed) for path in files]


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["convert"]:
        convert = argparse.ArgumentParser(prog="real_final_rounds.py convert")
        convert.add_argument("tourney_js", type=Path)
        convert.add_argument("division")
        args = convert.parse_args(argv[1:])
        newt = read_tourney_js(args.tourney_js.read_text(encoding="utf-8"))
        sys.stdout.write(division_text(newt, args.division))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="write every measure to this file")
    parser.add_argument(
        "--repeats-allowed", type=int, help="the request's repeats_allowed (default: the service's)"
    )
    parser.add_argument(
        "files", nargs="*", type=Path, help=f"default: the finals on file in {REAL}"
    )
    args = parser.parse_args(argv)
    files = args.files or [REAL / name for name in FINALS if (REAL / name).exists()]
    if not files:
        print(missing() or f"no division files in {REAL}", file=sys.stderr)
        return 1
    results = run_bench(files, args.repeats_allowed)
    return published(report(results), results, args.json)


if __name__ == "__main__":
    sys.exit(main())
