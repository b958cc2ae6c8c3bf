"""A held event's rounds before the final, next to the real director's: the last 8 rounds.

For every real division that holds every round as its director paired it
(``bench/real_divisions.py``'s ``DIRECTORS_ROUNDS``: not the five positions, not Albany
2024 B's round robin), cut after each of its last 8 rounds (cuts c = max(1, R - 8) ..
R - 1, R the rounds on file). For each cut:

- the held event is built from the file's first c rounds as ``POST
  /v1/scrabble/events/import-tsh`` builds it (the engine alone: ``read_tsh_event``,
  ``ScrabbleLedger.imported`` folded), with the withdrawals that take effect before round
  c + 1; settings: the rounds planned, the director's spread cap where known (else none),
  the paid places where known (capped at the advisor's 8) as prizes, else the default (2
  victors); every other setting the import's default;
- round c + 1 is paired by the default schedule (``event.plan(table)``), timed;
- the director's round c + 1 is read from the file: pairs who list each other (a player
  with opponent 0 had a bye or forfeit: no game).

Both pairings are measured with the same ranks, the held event's standings before round
c + 1 among the players still in (rank 1 the best):

- **top-10 gap**: mean |rank a - rank b| over the games holding a player ranked 10 or
  better (a bye is no game);
- **top 3 sent down**: a player ranked 1-3 whose service opponent ranks below 12th while
  the director's opponent for them was within 5 ranks;
- **Gibson misses**, by tsh's rule: a player is Gibsonized in 1st place when their lead in
  wins over the next player is greater than the rounds left (this one included), and in
  a paid place k when the k-th player's wins exceed the (k+1)-th's by more than the rounds
  left and the (k-1)-th's exceed the k-th's by as much (settled there). A miss: a
  Gibsonized player paired with a player who can still finish in a paid place, while a
  player in no race had another game. "Can still finish in a paid place" is ``contention``
  for the paid places (the director's cap, else tsh's 500; the rounds left): its
  contenders, never the clinched. The money line is what the Gibson rule protects, and it
  is one set, pairing-independent and defined for every division; ``place_race`` would
  also count a settled player's race for a better place, whose game against a Gibsonized
  player changes nobody's prize;
- **repeats**: games between players who met before; **3rd+**: a third or later
  meeting; **back-to-back**: the pair met in round c;
- the service's time to pair (ms).

Boards are written by rank, best board first (``1-3 2-4 5-9``; ``7-bye``: no game).

Run: ``python bench/real_held_rounds.py [--json OUT] [--divisions a,b]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # this checkout's service, not another installed one
    sys.path.insert(0, str(ROOT))

from bench.real_divisions import (  # noqa: E402
    DIRECTORS_ROUNDS,
    DIVISIONS,
    REAL,
    missing,
    published,
)
from pairing_service.engine.event_log import Entry  # noqa: E402
from pairing_service.engine.scrabble.contention import contention  # noqa: E402
from pairing_service.engine.scrabble.held.event import ScrabbleEvent  # noqa: E402
from pairing_service.engine.scrabble.held.ledger import ScrabbleLedger  # noqa: E402
from pairing_service.engine.scrabble.held.log_events import EventSettings  # noqa: E402
from pairing_service.engine.scrabble.held.tsh_import import TshEvent, read_tsh_event  # noqa: E402
from pairing_service.engine.scrabble.pairing.advisor import MAX_VICTORS  # noqa: E402
from pairing_service.engine.scrabble.rule_table import RuleTable  # noqa: E402
from pairing_service.engine.scrabble.standings import Standings  # noqa: E402
from pairing_service.engine.scrabble.tsh import parse_lines  # noqa: E402

LAST_ROUNDS = 8
TOP = 10  # the top-10 gap's players
TOP_THREE = 3
SENT_DOWN_BELOW = 12  # a top-three player's opponent ranked below this is sent down
NEAR = 5  # ranks apart: the director kept the player near the top
SHOWN_BOARDS = 6
TSH_CAP = 500  # tsh's spread per game where the director's cap is not known
AT = datetime(2026, 1, 1, tzinfo=UTC)  # the log's entry time (no rule reads it)

Pair = tuple[str, str]


@dataclass
class Side:
    """One pairing of round c + 1, measured."""

    boards: str
    top_gap: float | None
    top3: str  # each of ranks 1-3 with their opponent's rank: "1-4 2-3 3-2"
    gibson_misses: list[str]
    repeats: int
    third_plus: int
    back_to_back: int
    games: list[list[str]]


@dataclass
class Cut:
    after: int  # rounds kept: round after + 1 is paired
    rounds_left: int  # this one included
    method: str
    gibsonized: list[int]  # ranks
    service: Side
    director: Side
    sent_down: list[str]  # "#2 v #17 (director #3)"
    ms: float


@dataclass
class HeldDivision:
    file: str
    players: int
    rounds: int
    planned: int
    paid: int  # the places the event was told
    cap: int | None
    cuts: list[Cut] = field(default_factory=list)


def held_event(
    tsh: TshEvent, after: int, settings: EventSettings, table: RuleTable
) -> ScrabbleEvent:
    """The event the import makes of the file's first ``after`` rounds, folded."""
    ledger = ScrabbleLedger(table)
    rounds = [(r.games, r.sat_out) for r in tsh.rounds[:after]]
    leaving = {p: before for p, before in tsh.withdrawn.items() if before <= after + 1}
    actions = ledger.imported(settings, tsh.players, rounds, leaving)
    return ledger.fold([Entry(i, a, AT) for i, a in enumerate(actions, start=1)])


def directors_round(text: str, number: int) -> list[Pair]:
    """Round ``number``'s games as the file has them: pairs who list each other."""
    lines = {p.number: p for p in parse_lines(text)}

    def opponent(n: int) -> int:
        opponents = lines[n].opponents
        return (opponents[number - 1] or 0) if len(opponents) >= number else 0

    return [
        (str(n), str(opponent(n))) for n in lines if opponent(n) > n and opponent(opponent(n)) == n
    ]


def gibsonized(standings: Standings, places: int, rounds_left: int) -> list[str]:
    """tsh's Gibson check on wins alone: settled in place k, k a paid place."""
    wins = [p.half_wins for p in standings.ranked]
    lead = 2 * rounds_left  # half-wins
    found = []
    for k in range(1, min(places, len(wins) - 1) + 1):
        above = k == 1 or wins[k - 2] - wins[k - 1] > lead
        if above and wins[k - 1] - wins[k] > lead:
            found.append(standings.ranked[k - 1].id)
    return found


def measure(
    games: Sequence[Pair],
    standings: Standings,
    met: Counter[frozenset[str]],
    last: set[frozenset[str]],
    gibson: Sequence[str],
    contenders: set[str],
    out_of_race: set[str],
) -> Side:
    rank = standings.rank
    opponent = {a: b for a, b in games} | {b: a for a, b in games}
    idle = [(p,) for p in standings.ids if p not in opponent]
    ordered = sorted([*games, *idle], key=lambda g: min(map(rank, g)))

    def board(game: tuple[str, ...]) -> str:
        ranks = sorted(map(rank, game))
        return "-".join(map(str, ranks)) if len(ranks) == 2 else f"{ranks[0]}-bye"

    top = [abs(rank(a) - rank(b)) for a, b in games if min(rank(a), rank(b)) <= TOP]
    misses = [
        f"#{rank(g)} v #{rank(opponent[g])}"
        for g in gibson
        if opponent.get(g) in contenders
        and any(p in out_of_race for game in games if g not in game for p in game)
    ]
    meetings = [met[frozenset(g)] for g in games]
    return Side(
        boards=" ".join(board(g) for g in ordered[:SHOWN_BOARDS]),
        top_gap=round(statistics.mean(top), 2) if top else None,
        top3=" ".join(
            f"{r}-{rank(opponent[p]) if p in opponent else 'bye'}"
            for r, p in enumerate(standings.ids[:TOP_THREE], start=1)
        ),
        gibson_misses=misses,
        repeats=sum(m >= 1 for m in meetings),
        third_plus=sum(m >= 2 for m in meetings),
        back_to_back=sum(frozenset(g) in last for g in games),
        games=[list(g) for g in games],
    )


def sent_down(standings: Standings, service: Sequence[Pair], director: Sequence[Pair]) -> list[str]:
    """Top-three players the service sends below 12th where the director kept them near."""
    rank = standings.rank
    theirs = [{a: b for a, b in games} | {b: a for a, b in games} for games in (service, director)]
    out = []
    for r, p in enumerate(standings.ids[:TOP_THREE], start=1):
        mine, kept = (rank(t[p]) if p in t else None for t in theirs)
        if (
            mine is not None
            and mine > SENT_DOWN_BELOW
            and kept is not None
            and abs(kept - r) <= NEAR
        ):
            out.append(f"#{r} v #{mine} (director #{kept})")
    return out


def measure_cut(
    text: str, tsh: TshEvent, after: int, settings: EventSettings, table: RuleTable
) -> Cut:
    """Round ``after + 1`` paired by the held event and by the director, both measured."""
    event = held_event(tsh, after, settings, table)
    started = time.perf_counter()
    method, _, _, pairing = event.plan(table)
    ms = (time.perf_counter() - started) * 1000
    standings = event.pairing_standings(event.active())
    rounds_left = settings.rounds - after
    places = min(settings.paid_places, len(standings) - 1)
    cap = settings.spread_cap or TSH_CAP
    race = contention(standings, places, cap, rounds_left)
    contenders = set(race.contenders)
    out_of_race = set(standings.ids) - contenders - set(race.clinched)
    gibson = gibsonized(standings, places, rounds_left)
    met = event.meetings()
    last = {frozenset(g) for g in event.round(after).games}
    director = directors_round(text, after + 1)
    shared = (standings, met, last, gibson, contenders, out_of_race)
    return Cut(
        after=after,
        rounds_left=rounds_left,
        method=method,
        gibsonized=[standings.rank(p) for p in gibson],
        service=measure(pairing.games, *shared),
        director=measure(director, *shared),
        sent_down=sent_down(standings, pairing.games, director),
        ms=round(ms, 1),
    )


def measure_division(path: Path, table: RuleTable) -> HeldDivision:
    """Every cut of one division (``DIVISIONS[path.name]``) measured."""
    known = DIVISIONS[path.name]
    text = path.read_text(encoding="utf-8")
    tsh = read_tsh_event(text)
    paid = min(known.paid, MAX_VICTORS) if known.paid else None
    settings = EventSettings(
        known.planned,
        spread_cap=known.spread_cap,
        prizes=None if paid is None else (None,) * paid,
    )
    result = HeldDivision(
        known.file,
        known.players,
        known.rounds,
        known.planned,
        settings.paid_places,
        known.spread_cap,
    )
    for after in range(max(1, known.rounds - LAST_ROUNDS), known.rounds):
        result.cuts.append(measure_cut(text, tsh, after, settings, table))
    return result


# --- the report ----------------------------------------------------------------------------


def _cell(value: object) -> str:
    return "-" if value is None else str(value)


def _excess(cut: Cut) -> float:
    """How much wider the service's top-10 gap is than the director's."""
    return (cut.service.top_gap or 0.0) - (cut.director.top_gap or 0.0)


HEADER = (
    "| division | round (left) | method | gap svc / dir | top 3 svc / dir | sent down "
    "| Gibson misses svc / dir | repeats svc / dir | 3rd+ svc / dir | back-to-back svc / dir "
    "| boards svc | boards dir | ms |"
)


def _row(cells: Iterable[object]) -> str:
    return "| " + " | ".join(map(str, cells)) + " |"


def _both(cut: Cut, metric: str) -> str:
    """A measure of the service's pairing and of the director's, "svc / dir"."""
    return " / ".join(_cell(getattr(side, metric)) for side in (cut.service, cut.director))


def report(results: Sequence[HeldDivision]) -> str:
    out = [HEADER, "|" + "---|" * (HEADER.count("|") - 1)]
    for d in results:
        for c in d.cuts:
            misses = f"{len(c.service.gibson_misses)} / {len(c.director.gibson_misses)}"
            cells = [d.file, f"{c.after + 1} ({c.rounds_left})", c.method, _both(c, "top_gap")]
            cells += [_both(c, "top3"), "; ".join(c.sent_down) or "-", misses]
            cells += [_both(c, m) for m in ("repeats", "third_plus", "back_to_back")]
            cells += [f"`{c.service.boards}`", f"`{c.director.boards}`", f"{c.ms:.0f}"]
            out.append(_row(cells))
    return "\n".join([*out, "", *summary(results)])


def summary(results: Sequence[HeldDivision]) -> list[str]:
    cuts = [(d, c) for d in results for c in d.cuts]
    if not cuts:
        return ["No cut measured."]

    def median_gap(side: str) -> str:
        gaps = [g for _, c in cuts if (g := getattr(c, side).top_gap) is not None]
        return f"{statistics.median(gaps):.2f}" if gaps else "-"

    def where(d: HeldDivision, c: Cut) -> str:
        return f"{d.file} r{c.after + 1}"

    def listed(items: Iterable[str]) -> str:
        return "; ".join(items) or "none"

    def total(side: str, metric: str) -> int:
        return sum(getattr(getattr(c, side), metric) for _, c in cuts)

    down = [f"{where(d, c)} {s}" for d, c in cuts for s in c.sent_down]
    misses = {
        side: [f"{where(d, c)} {m}" for d, c in cuts for m in getattr(c, side).gibson_misses]
        for side in ("service", "director")
    }
    times = [c.ms for _, c in cuts]
    slowest = max(cuts, key=lambda dc: dc[1].ms)
    worst = sorted(cuts, key=lambda dc: -_excess(dc[1]))[:5]
    lines = [
        f"Cuts: {len(cuts)} in {len(results)} divisions.",
        f"Top-10 gap, median over cuts: service {median_gap('service')}, "
        f"directors {median_gap('director')}.",
        f"Top-three players sent down: {len(down)} in "
        f"{sum(1 for _, c in cuts if c.sent_down)} cuts: {listed(down)}.",
        f"Gibson misses: service {len(misses['service'])} ({listed(misses['service'])}), "
        f"directors {len(misses['director'])} ({listed(misses['director'])}).",
        f"Repeats: service {total('service', 'repeats')}, directors "
        f"{total('director', 'repeats')}; 3rd+ meetings: service "
        f"{total('service', 'third_plus')}, directors {total('director', 'third_plus')}; "
        f"back-to-back rematches: service {total('service', 'back_to_back')}, directors "
        f"{total('director', 'back_to_back')}.",
        f"Time to pair a round: median {statistics.median(times):.0f} ms, worst "
        f"{slowest[1].ms:.0f} ms ({where(*slowest)}).",
        "",
        "Worst cuts (service's top-10 gap above the director's):",
        "",
    ]
    for d, c in worst:
        lines.append(
            f"- {where(d, c)} ({c.rounds_left} left, {c.method}): gap "
            f"{_cell(c.service.top_gap)} / {_cell(c.director.top_gap)}, service "
            f"`{c.service.boards}`, director `{c.director.boards}`"
            + (f"; sent down {'; '.join(c.sent_down)}" if c.sent_down else "")
        )
    return lines


def run(names: Sequence[str], table: RuleTable | None = None) -> list[HeldDivision]:
    if table is None:
        from pairing_service.rules import load_rules

        table = load_rules().scrabble
    paths = [REAL / name for name in names if (REAL / name).exists()]
    if paths:  # warm up: the first pairing loads what later ones reuse
        known = DIVISIONS[paths[0].name]
        text = paths[0].read_text(encoding="utf-8")
        measure_cut(text, read_tsh_event(text), 1, EventSettings(known.planned), table)
    return [measure_division(path, table) for path in paths]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="write every measure to this file")
    parser.add_argument(
        "--divisions", help=f"comma-separated file names (default: {', '.join(DIRECTORS_ROUNDS)})"
    )
    parser.add_argument(
        "--repeat-weights",
        help="what if: the round's cost's weights of a 2nd, 3rd, 4th, 5th meeting "
        "(cost.py REPEAT_WEIGHTS), e.g. 24,60,100,150",
    )
    parser.add_argument("--recency", type=int, help="what if: the round's cost's RECENCY")
    args = parser.parse_args(argv)
    if args.repeat_weights or args.recency:
        from pairing_service.engine.scrabble.pairing import cost

        if args.repeat_weights:
            cost.REPEAT_WEIGHTS = (0, *(int(w) for w in args.repeat_weights.split(",")))
        if args.recency:
            cost.RECENCY = args.recency
    names = DIRECTORS_ROUNDS
    if args.divisions:
        names = tuple(n if n.endswith(".t") else f"{n}.t" for n in args.divisions.split(","))
        unknown = [n for n in names if n not in DIRECTORS_ROUNDS]
        if unknown:
            parser.error(f"not a division with every round paired by its director: {unknown}")
    if missing() is not None:
        print(missing(), file=sys.stderr)
        return 1
    results = run(names)
    return published(report(results), results, args.json)


if __name__ == "__main__":
    sys.exit(main())
