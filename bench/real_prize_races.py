"""Prize races in the last three rounds of real events: the service's pairing next to the
real director's.

For every real division whose final round is on file (``bench/real_divisions.py``'s
``FINALS``, in ``../shared/data/scrabble-real``; an absent file is skipped) and each of its
last three rounds R:

- the standings before R are the real results of rounds 1..R-1, read by the service's tsh
  reader (``read_division(text, R - 1)``);
- the paid places are the division's known prize places (the catalogue's ``paid``),
  capped at 8 (the advisor's maximum); where they are not known, graded
  places 1-3. Every place pays differently (amounts ``null``);
- ``place_race`` with the rounds left (R included) gives, for each boundary b between
  paying places (1st/2nd, ..., the money line after the last paid place), the players who
  can still finish on either side of it: its contenders for ``victors = b``. A **racer**
  is a player who plays round R and races for at least one boundary;
- the round is paired twice: as the director really paired it (from the file; a forfeit
  or unplayed round is no game) and by ``advise(..., prizes=...)`` with the rounds left,
  the spread cap (the director's where the catalogue knows it: 250 at the Chumphaesuksa
  club, 700 in e4c5_tournament1; 500, tsh's default, elsewhere), players marked ``off``
  who did not play R as withdrawn with their ``off`` spread as the known result of each
  round left, and the default repeat allowance.

Each pairing is measured on the same racers (``tally``): **head to head**, a racer whose
opponent is a racer with a paid place both can still reach (``Reach``: from the best
place open to each to the worst they are certain of, or out of the money); **same
boundary**, the stricter reading, the two race for one boundary (the game can move one
across it past the other); **bye**; **out of the money**, the opponent cannot reach a
paid place; **no game**, the racer did not play (real forfeits of players not marked off:
the service pairs them). A racer who plays a settled player, or a racer whose places do
not overlap theirs, is none of these.

Run: ``python bench/real_prize_races.py [--json OUT] [FILES]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.real_divisions import DIVISIONS, FINALS, REAL, missing, published  # noqa: E402
from bench.real_final_rounds import real_final_round  # noqa: E402

LAST_ROUNDS = 3
MAX_PAID = 8  # the advisor's MAX_VICTORS
UNKNOWN_PAID = 3
DEFAULT_CAP = 500  # tsh's assumption where the director's cap is not known

Game = tuple[str, ...]  # two ids, or one for a bye


def paid_places(name: str) -> tuple[int, str]:
    """Places paid for this division (capped at the advisor's 8), and where they come from."""
    known = DIVISIONS[name].paid if name in DIVISIONS else None
    if known is not None:
        if known > MAX_PAID:
            return MAX_PAID, f"{known} known, capped at {MAX_PAID}"
        return known, "known"
    return UNKNOWN_PAID, "unknown: 1-3 assumed"


def spread_cap(name: str) -> int:
    known = DIVISIONS[name].spread_cap if name in DIVISIONS else None
    return known or DEFAULT_CAP


@dataclass
class Tally:
    """One pairing of a round, measured on the round's racers."""

    racers: int = 0
    head_to_head: int = 0  # opponent a racer with a paid place both can still reach
    same_boundary: int = 0  # opponent a racer for one boundary both race for
    bye: int = 0
    out_of_money: int = 0  # opponent cannot reach a paid place
    no_game: int = 0  # did not play (a real forfeit)
    back_to_back: int = 0  # playing the opponent of the round before (any opponent)

    def add(self, other: Tally) -> None:
        for name in asdict(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def share(self) -> float | None:
        return self.head_to_head / self.racers if self.racers else None


@dataclass
class RoundRaces:
    round: int
    rounds_left: int
    boundaries: dict[int, list[int]]  # boundary b -> ranks of the players racing for it
    service: Tally
    real: Tally
    ms: float
    problem: str | None = None  # the advisor's refusal (then paired among those who play)
    service_games: list[list[str]] = field(default_factory=list)
    real_games: list[list[str]] = field(default_factory=list)


@dataclass
class DivisionRaces:
    file: str
    players: int
    rounds: int
    paid: int
    paid_source: str
    cap: int
    rounds_measured: list[RoundRaces] = field(default_factory=list)

    def total(self, side: str) -> Tally:
        out = Tally()
        for r in self.rounds_measured:
            out.add(getattr(r, side))
        return out


def tally(
    games: Iterable[Game],
    racers: Sequence[str],
    reach: Mapping[str, tuple[int, int]],
    boundaries: Mapping[int, Sequence[str]],
    back_to_back: Callable[[str, str], bool] | None = None,
) -> Tally:
    """How a pairing treats the racers. ``reach``: each player in reach of the money ->
    (best place, worst place they are certain of, ``paid + 1`` when they may miss the
    money); ``boundaries``: b -> the racers for boundary b."""
    opponent: dict[str, str] = {}
    byes: set[str] = set()
    for game in games:
        if len(game) == 1:
            byes.add(game[0])
        else:
            a, b = game
            opponent[a], opponent[b] = b, a
    racing = set(racers)
    paid = max(boundaries) if boundaries else 0
    crossing: dict[str, set[int]] = {}
    for place, players in boundaries.items():
        for p in players:
            crossing.setdefault(p, set()).add(place)
    out = Tally(racers=len(racing))
    for p in racing:
        if p in byes:
            out.bye += 1
            continue
        if p not in opponent:
            out.no_game += 1
            continue
        o = opponent[p]
        if back_to_back is not None and back_to_back(p, o):
            out.back_to_back += 1
        if o not in reach:
            out.out_of_money += 1
            continue
        if o not in racing:
            continue  # a settled player
        (best_p, worst_p), (best_o, worst_o) = reach[p], reach[o]
        if max(best_p, best_o) <= min(worst_p, worst_o, paid):
            out.head_to_head += 1
        if crossing[p] & crossing[o]:
            out.same_boundary += 1
    return out


@dataclass
class AdvisedRound:
    """Round ``number`` of a division as the service advises it: the standings before it
    (``standings``: every player; ``among``: those who play, when the advisor was asked
    of them alone), who sits it out, the places paid, the cap, the rounds left."""

    standings: Any  # Standings
    playing: list[str]
    known: dict[str, int]  # off players sitting the round out, with their off spread
    prizes: Any  # PrizePlaces
    cap: int
    rounds_left: int
    advice: Any  # Advice
    among: Any  # the standings the advice was given on (``standings`` unless refused)
    ms: float  # the advice's time
    problem: str | None = None  # the advisor's refusal (then paired among those who play)


def advised_round(text: str, name: str, number: int, table: Any, final: int) -> AdvisedRound:
    """The service's advice for round ``number`` (module docs: the standings before it,
    the paid places, the cap, off players sitting out)."""
    from pairing_service.engine.scrabble import (
        InvalidStandings,
        PrizePlaces,
        Standings,
        advise,
    )
    from pairing_service.engine.scrabble.tsh import parse_lines, read_division

    before = read_division(text, number - 1)
    standings = Standings.from_players(list(before.players))
    lines = {str(p.number): p for p in parse_lines(text)}

    def played(pid: str) -> bool:
        opponents = lines[pid].opponents
        return len(opponents) >= number and bool(opponents[number - 1])

    # Off players who did not play this round sit it out with their off spread.
    known = {p: s for p, s in before.withdrawn.items() if not played(p)}
    withdrawn = frozenset(known)
    playing = [p for p in standings.ids if p not in withdrawn]
    paid, _ = paid_places(name)
    cap = spread_cap(name)
    rounds_left = final - number + 1
    prizes = PrizePlaces((None,) * paid)
    started = time.perf_counter()
    try:
        advice = advise(
            standings,
            table,
            max_spread_per_game=cap,
            rounds_left=rounds_left,
            withdrawn=withdrawn,
            known_results=known,
            prizes=prizes,
        )
        ms = (time.perf_counter() - started) * 1000
        return AdvisedRound(
            standings, playing, known, prizes, cap, rounds_left, advice, standings, ms
        )
    except InvalidStandings as refused:
        # Refused (a player sitting out who may or may not finish in the money): paired as
        # a held event pairs it, the advisor given only the players who play.
        kept = set(playing)
        among = Standings.from_players(
            [
                replace(
                    standings.player(p),
                    opponents=tuple(
                        o if o in kept else None for o in standings.player(p).opponents
                    ),
                )
                for p in playing
            ]
        )
        advice = advise(
            among,
            table,
            max_spread_per_game=cap,
            rounds_left=rounds_left,
            prizes=prizes,
        )
        ms = (time.perf_counter() - started) * 1000
        return AdvisedRound(
            standings, playing, known, prizes, cap, rounds_left, advice, among, ms, str(refused)
        )


def measure_round(text: str, name: str, number: int, table: Any, final: int) -> RoundRaces:
    """Round ``number`` of a division: its races, and both pairings measured."""
    from pairing_service.engine.scrabble.contention import contention
    from pairing_service.engine.scrabble.prize_places import place_race

    advised = advised_round(text, name, number, table, final)
    standings, known = advised.standings, advised.known
    withdrawn = frozenset(known)
    playing, cap, rounds_left = advised.playing, advised.cap, advised.rounds_left
    paid = advised.prizes.paid
    race = place_race(standings, advised.prizes, cap, rounds_left, known)
    by_boundary = {
        b: [
            p
            for p in contention(standings, b, cap, rounds_left, known).contenders
            if p not in withdrawn
        ]
        for b in range(1, paid + 1)
    }
    racers = [p for p in playing if any(p in ps for ps in by_boundary.values())]
    reach = {r.player: (r.best, r.worst or paid + 1) for r in race.reach}
    real = real_final_round(text, number)
    service: list[Game] = [tuple(g.players) for g in advised.advice.games]
    rank = standings.rank
    return RoundRaces(
        round=number,
        rounds_left=rounds_left,
        boundaries={b: sorted(map(rank, ps)) for b, ps in by_boundary.items()},
        service=tally(service, racers, reach, by_boundary, standings.back_to_back),
        real=tally(real, racers, reach, by_boundary, standings.back_to_back),
        ms=round(advised.ms, 1),
        problem=advised.problem,
        service_games=[list(g) for g in service],
        real_games=[list(g) for g in real],
    )


def measure_division(path: Path, table: Any) -> DivisionRaces:
    from pairing_service.engine.scrabble.tsh import read_division

    text = path.read_text(encoding="utf-8")
    whole = read_division(text)
    final = whole.rounds
    paid, source = paid_places(path.name)
    result = DivisionRaces(
        path.name, len(whole.players), final, paid, source, spread_cap(path.name)
    )
    for number in range(max(2, final - LAST_ROUNDS + 1), final + 1):
        result.rounds_measured.append(measure_round(text, path.name, number, table, final))
    return result


# --- the report ----------------------------------------------------------------------------


def _share(t: Tally) -> str:
    return "-" if t.share is None else f"{t.head_to_head}/{t.racers} ({100 * t.share:.0f} %)"


def _ordinal(place: int) -> str:
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place if place < 20 else place % 10, 'th') }"


def _boundary_words(r: RoundRaces, paid: int) -> str:
    parts = []
    for b, ranks in r.boundaries.items():
        if ranks:
            where = "money line" if b == paid else f"{_ordinal(b)}/{_ordinal(b + 1)}"
            parts.append(f"{where}: {','.join(map(str, ranks))}")
    return "; ".join(parts) or "no race"


def report(results: Sequence[DivisionRaces]) -> str:
    out = [
        "| division | paid (source) | cap | round (left) | racers | head to head svc / real "
        "| same boundary svc / real | bye svc / real | out of the money svc / real "
        "| no game real | back-to-back svc / real | advise ms |",
        "|" + "---|" * 12,
    ]
    for d in results:
        for r in d.rounds_measured:
            s, real = r.service, r.real
            out.append(
                f"| {d.file} | {d.paid} ({d.paid_source}) | {d.cap} | {r.round} "
                f"({r.rounds_left}){' refused*' if r.problem else ''} | {s.racers} "
                f"| {s.head_to_head} / {real.head_to_head} "
                f"| {s.same_boundary} / {real.same_boundary} | {s.bye} / {real.bye} "
                f"| {s.out_of_money} / {real.out_of_money} | {real.no_game} "
                f"| {s.back_to_back} / {real.back_to_back} | {r.ms:.0f} |"
            )
    out += [
        "",
        "Per division, the last three rounds together:",
        "",
        "| division | racers | head to head svc | head to head real "
        "| bye or out of the money svc / real | no game real |",
        "|---|---:|---|---|---|---:|",
    ]
    overall_s, overall_r = Tally(), Tally()
    for d in results:
        s, real = d.total("service"), d.total("real")
        overall_s.add(s)
        overall_r.add(real)
        out.append(
            f"| {d.file} | {s.racers} | {_share(s)} | {_share(real)} "
            f"| {s.bye + s.out_of_money} / {real.bye + real.out_of_money} | {real.no_game} |"
        )
    out.append(
        f"| all | {overall_s.racers} | {_share(overall_s)} | {_share(overall_r)} "
        f"| {overall_s.bye + overall_s.out_of_money} / "
        f"{overall_r.bye + overall_r.out_of_money} | {overall_r.no_game} |"
    )
    with_race = [d for d in results if d.total("real").racers]
    shares = [(d.total("service").share or 0.0, d.total("real").share or 0.0) for d in with_race]
    times = [r.ms for d in results for r in d.rounds_measured]
    if shares:
        out += [
            "",
            f"Head-to-head share over the {len(shares)} divisions with a race: median "
            f"{100 * statistics.median(s for s, _ in shares):.0f} % service / "
            f"{100 * statistics.median(r for _, r in shares):.0f} % real, worst "
            f"{100 * min(s for s, _ in shares):.0f} % / {100 * min(r for _, r in shares):.0f} %. "
            f"Divisions where the service's share is below the director's: "
            + (
                ", ".join(d.file for d, (s, r) in zip(with_race, shares, strict=True) if s < r)
                or "none"
            )
            + ".",
        ]
    refused = [
        f"{d.file} round {r.round}: {r.problem}"
        for d in results
        for r in d.rounds_measured
        if r.problem
    ]
    out += [
        f"*refused, then paired among the players who play (as a held event does): {w}"
        for w in refused
    ]
    if times:
        out.append(
            f"advise over {len(times)} rounds: median {statistics.median(times):.0f} ms, "
            f"worst {max(times):.0f} ms."
        )
    out += ["", "The races (ranks before the round, for each boundary):", ""]
    for d in results:
        for r in d.rounds_measured:
            out.append(f"- {d.file} round {r.round}: {_boundary_words(r, d.paid)}")
    return "\n".join(out)


def run(files: Sequence[Path]) -> list[DivisionRaces]:
    from pairing_service.rules import load_rules

    table = load_rules().scrabble
    return [measure_division(path, table) for path in files if path.exists()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="write every measure to this file")
    parser.add_argument(
        "files", nargs="*", type=Path, help=f"default: the finals on file in {REAL}"
    )
    args = parser.parse_args(argv)
    files = args.files or [REAL / name for name in FINALS if (REAL / name).exists()]
    if not files:
        print(missing() or f"no division files in {REAL}", file=sys.stderr)
        return 1
    results = run(files)
    return published(report(results), results, args.json)


if __name__ == "__main__":
    sys.exit(main())
