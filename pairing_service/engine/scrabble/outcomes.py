"""Final-round outcomes: who can still become a victor, who is certain, and why.

A final standing is (half-wins, spread range). A game's margin is unknown: a win moves a
player's spread by +1..+M, a loss by -M..-1, a draw by 0, where M is ``max_spread_per_game``
or, when that is not given, unbounded (so a tie on wins may go either way on spread).
A bye counts as a win worth ``BYE_SPREAD`` (tsh's default). Ranges are treated per player,
so the result is conservative: "certain" is never claimed when margins could undo it.

- ``q`` is surely above ``p`` when it has more wins, or equal wins and a spread floor above
  ``p``'s ceiling.
- ``q`` may finish level with or above ``p`` when it has more wins, or equal wins and a
  spread ceiling at least ``p``'s floor.
- ``p`` is certainly a victor when fewer than ``victors`` others may finish level with or
  above it; ``p`` can be a victor when fewer than ``victors`` others are surely above it.

Only "relevant" players matter for who the victors are: anyone who cannot become a victor
has at least ``victors`` players surely above, so never displaces a relevant player.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import product

from .standings import Standings

UNBOUNDED = 10**9  # larger than any spread the API admits (|spread| <= 10**6)
BYE_SPREAD = 50
MAX_ENUMERATED_UNITS = 8  # 3**8 = 6,561 outcomes at the most


class Result(Enum):
    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


@dataclass(frozen=True, slots=True)
class Final:
    """A player's final record in one outcome: half-wins and the spread range."""

    half_wins: int
    spread_low: int
    spread_high: int


def final_after(half_wins: int, spread: int, result: Result | None, cap: int | None) -> Final:
    """``result`` None means a bye."""
    margin = cap if cap is not None else UNBOUNDED
    if result is None:
        return Final(half_wins + 2, spread + BYE_SPREAD, spread + BYE_SPREAD)
    if result is Result.WIN:
        return Final(half_wins + 2, spread + 1, spread + margin)
    if result is Result.DRAW:
        return Final(half_wins + 1, spread, spread)
    return Final(half_wins, spread - margin, spread - 1)


def finals_after(
    standings: Standings, players: Sequence[str], result: Result, cap: int | None
) -> dict[str, Final]:
    """Each player's final record if they all get the same result."""
    return {
        pid: final_after(standings.player(pid).half_wins, standings.player(pid).spread, result, cap)
        for pid in players
    }


def surely_above(q: Final, p: Final) -> bool:
    return q.half_wins > p.half_wins or (
        q.half_wins == p.half_wins and q.spread_low > p.spread_high
    )


def may_reach(q: Final, p: Final) -> bool:
    return q.half_wins > p.half_wins or (
        q.half_wins == p.half_wins and q.spread_high >= p.spread_low
    )


@dataclass(frozen=True)
class Contention:
    """Pairing-independent view: who can still be a victor, and who already is."""

    contenders: tuple[str, ...]  # can become a victor, not yet certain (rank order)
    clinched: tuple[str, ...]  # a victor whatever the results (rank order)

    @property
    def relevant(self) -> tuple[str, ...]:
        return self.clinched + self.contenders


def contention(standings: Standings, victors: int, cap: int | None) -> Contention:
    """Pairing-independent contention in O(n log n).

    Counts, for each player p, the others surely above p's best finish (a win by the cap)
    and those that may reach p's worst finish (a loss by the cap), with the same
    inequalities as ``surely_above`` and ``may_reach`` applied to ``final_after``.
    """
    margin = cap if cap is not None else UNBOUNDED
    spreads_by_wins: dict[int, list[int]] = {}
    for player in standings.ranked:
        spreads_by_wins.setdefault(player.half_wins, []).append(player.spread)
    for spreads in spreads_by_wins.values():
        spreads.sort()
    wins_sorted = sorted(spreads_by_wins)
    count_at = {w: len(spreads_by_wins[w]) for w in wins_sorted}

    def count_with_more_wins(than: int) -> int:
        return sum(count_at[w] for w in wins_sorted[bisect_right(wins_sorted, than) :])

    contenders: list[str] = []
    clinched: list[str] = []
    for p in standings.ranked:
        # Surely above p's best: more than p.hw + 2 wins, or exactly that many and a spread
        # floor (q.s - M) above p's ceiling (p.s + M).
        level = spreads_by_wins.get(p.half_wins + 2, [])
        above = count_with_more_wins(p.half_wins + 2) + (
            len(level) - bisect_right(level, p.spread + 2 * margin)
        )
        if above >= victors:
            continue
        # May reach p's worst: q.hw + 2 > p.hw, or equal and q.s + M >= p.s - M.
        below = spreads_by_wins.get(p.half_wins - 2, [])
        catchers = (count_with_more_wins(p.half_wins - 2) - 1) + (
            len(below) - bisect_left(below, p.spread - 2 * margin)
        )
        (clinched if catchers < victors else contenders).append(p.id)
    return Contention(
        contenders=tuple(sorted(contenders, key=standings.rank)),
        clinched=tuple(sorted(clinched, key=standings.rank)),
    )


_VERBS = {Result.WIN: "wins", Result.DRAW: "draws", Result.LOSS: "loses", None: "has the bye"}


class Standing(Enum):
    CERTAIN = "certain"
    POSSIBLE = "possible"
    OUT = "out"


@dataclass(frozen=True)
class Outcome:
    """One combination of results for the games that matter, and where it leaves everyone."""

    results: Mapping[str, Result | None]  # None: bye
    standing: Mapping[str, Standing]

    def describe(self, standings: Standings) -> str:
        return ", ".join(f"{standings.tag(pid)} {_VERBS[r]}" for pid, r in self.results.items())


@dataclass(frozen=True)
class OutcomeTable:
    """Every outcome of a pairing for the relevant players."""

    relevant: tuple[str, ...]
    outcomes: tuple[Outcome, ...]


def enumerate_outcomes(
    standings: Standings,
    victors: int,
    cap: int | None,
    pairs: Sequence[tuple[str, str]],
    bye: str | None,
    relevant: Sequence[str],
) -> OutcomeTable | None:
    """All outcomes of the games that involve a relevant player (None if too many)."""
    relevant_set = set(relevant)
    units: list[tuple[str, str | None]] = []  # (player, opponent-if-relevant)
    for a, b in pairs:
        if a in relevant_set and b in relevant_set:
            units.append((a, b))
        elif a in relevant_set:
            units.append((a, None))
        elif b in relevant_set:
            units.append((b, None))
    if len(units) > MAX_ENUMERATED_UNITS:
        return None
    opposite = {Result.WIN: Result.LOSS, Result.LOSS: Result.WIN, Result.DRAW: Result.DRAW}
    outcomes: list[Outcome] = []
    for combo in product(tuple(Result), repeat=len(units)):
        results: dict[str, Result | None] = {}
        for (player, opponent), result in zip(units, combo, strict=True):
            results[player] = result
            if opponent is not None:
                results[opponent] = opposite[result]
        if bye in relevant_set and bye is not None:
            results[bye] = None
        finals = {
            pid: final_after(
                standings.player(pid).half_wins, standings.player(pid).spread, results[pid], cap
            )
            for pid in relevant
            if pid in results
        }
        standing: dict[str, Standing] = {}
        for pid, mine in finals.items():
            others = [f for q, f in finals.items() if q != pid]
            if sum(1 for f in others if may_reach(f, mine)) < victors:
                standing[pid] = Standing.CERTAIN
            elif sum(1 for f in others if surely_above(f, mine)) < victors:
                standing[pid] = Standing.POSSIBLE
            else:
                standing[pid] = Standing.OUT
        outcomes.append(Outcome(results=results, standing=standing))
    return OutcomeTable(relevant=tuple(p for p in relevant), outcomes=tuple(outcomes))
