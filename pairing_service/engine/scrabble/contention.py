"""Final records and pairing-independent contention: who can still become a victor.

A final standing is (half-wins, spread range). A game's margin is unknown: a win moves a
player's spread by +1..+M, a loss by -M..-1, a draw by 0, where M is ``max_spread_per_game``
or, when that is not given, unbounded (so a tie on wins may go either way on spread).
A bye counts as a win worth ``BYE_SPREAD`` (tsh's default).

- ``q`` is surely above ``p`` when it has more wins, or equal wins and a spread floor above
  ``p``'s ceiling.
- ``q`` may finish level with or above ``p`` when it has more wins, or equal wins and a
  spread ceiling at least ``p``'s floor.
- ``p`` is certainly a victor when fewer than ``victors`` others may finish level with or
  above it; ``p`` can be a victor when fewer than ``victors`` others are surely above it.

A player who sits out the rounds left with a known result (tsh's ``off``: a withdrawn
player scores each later round as a bye or forfeit of a fixed spread; a finalist resting on
byes) has one final record, ``fixed_final``: best and worst are the same. One who can
still finish either side of a victor line is judged by the outcome engine at that record
(``Contention.sitting_out``, ``fixed_moves``).

Only "relevant" players matter for who the victors are: anyone who cannot become a victor
has at least ``victors`` players surely above, so never displaces a relevant player. What a
given pairing does to them is the outcome engine's work (``proof.py``).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from .standings import Standings

UNBOUNDED = 10**9  # larger than any spread the API admits (|spread| <= 10**6)
BYE_SPREAD = 50


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


def fixed_final(half_wins: int, spread: int, per_round: int, rounds: int) -> tuple[int, int]:
    """The final (half-wins, spread) of a player whose ``rounds`` left each score
    ``per_round`` spread: a win when positive, a loss when negative, no result at 0 (as tsh
    counts a bye, a forfeit and an unplayed round: ``docs/tsh.md``)."""
    gained = 2 if per_round > 0 else 0
    return half_wins + gained * rounds, spread + per_round * rounds


def fixed_moves(
    per_round: int, rounds_left: int, cap: int | None
) -> tuple[tuple[int, int], tuple[int, int]]:
    """How the outcome engine moves the record of a player sitting out every round left
    (``fixed_final``), as (half-wins, spread) for its two questions: certain, then
    possible. The engine compares everyone's record after this round and shifts only the
    subject's for the rounds after it (``proof``): in the worst case for a subject, every
    other player wins them all by the margin; in the best, loses them all. A record that
    cannot move is shifted against those instead: down by the wins and margins in the
    worst case, up by the margins in the best."""
    later = max(rounds_left, 1) - 1
    margin = cap if cap is not None else UNBOUNDED
    wins, spread = fixed_final(0, 0, per_round, later + 1)
    return (wins - 2 * later, spread - margin * later), (wins, spread + margin * later)


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
    # Contenders who sit out every round left with a known result, each with the spread a
    # round scores, in rank order: never paired, judged by the outcome engine at their one
    # final record (``withdrawals.field_of``). ``contenders`` and ``relevant`` are the
    # players who play.
    sitting_out: tuple[tuple[str, int], ...] = ()

    @property
    def relevant(self) -> tuple[str, ...]:
        return self.clinched + self.contenders

    @property
    def fixed(self) -> dict[str, int]:
        """The players sitting out, with the spread each round left scores."""
        return dict(self.sitting_out)

    @property
    def judged(self) -> tuple[str, ...]:
        """Every player who can be a victor: those who play, then those sitting out."""
        if not self.sitting_out:
            return self.relevant
        return self.relevant + tuple(p for p, _ in self.sitting_out)


def contention(
    standings: Standings,
    victors: int,
    cap: int | None,
    rounds_left: int = 1,
    fixed: Mapping[str, int] | None = None,
) -> Contention:
    """Pairing-independent contention in O(n log n).

    Counts, for each player p, the others surely above p's best finish (every round left
    won by the cap) and those that may reach p's worst finish (every round lost by the
    cap), with the same inequalities as ``surely_above`` and ``may_reach`` applied to
    ``final_after``. With one round left this is the final round; with more, it is tsh's
    "best possible finish" contention. ``fixed``: players who sit out every round left,
    each round scoring the spread given (``fixed_final``), compared one by one.
    """
    return contention_by_place(standings, (victors,), cap, rounds_left, fixed)[victors]


def contention_by_place(
    standings: Standings,
    places: Sequence[int],
    cap: int | None,
    rounds_left: int = 1,
    fixed: Mapping[str, int] | None = None,
) -> dict[int, Contention]:
    """``contention`` with ``victors`` each of ``places``: the counts do not depend on the
    places, so they are counted once (the prize places' races ask for every place)."""
    counts = _contention_counts(standings, cap, rounds_left, fixed)
    found = {}
    for victors in places:
        contenders = [p for p, above, catchers in counts if above < victors <= catchers]
        clinched = [p for p, above, catchers in counts if above < victors and catchers < victors]
        found[victors] = Contention(
            contenders=tuple(sorted(contenders, key=standings.rank)),
            clinched=tuple(sorted(clinched, key=standings.rank)),
        )
    return found


def _contention_counts(
    standings: Standings,
    cap: int | None,
    rounds_left: int,
    fixed: Mapping[str, int] | None,
) -> list[tuple[str, int, int]]:
    """Per player in rank order: the others surely above their best finish, and those
    who may reach their worst (``contention``)."""
    rounds = max(rounds_left, 1)
    margin = (cap if cap is not None else UNBOUNDED) * rounds
    fixed = fixed or {}
    finals = {
        pid: fixed_final(standings.player(pid).half_wins, standings.player(pid).spread, s, rounds)
        for pid, s in fixed.items()
    }
    spreads_by_wins: dict[int, list[int]] = {}
    for player in standings.ranked:
        if player.id not in finals:
            spreads_by_wins.setdefault(player.half_wins, []).append(player.spread)
    for spreads in spreads_by_wins.values():
        spreads.sort()
    wins_sorted = sorted(spreads_by_wins)
    # Players with more than w half-wins, for every w present: one suffix sum.
    more_than: dict[int, int] = {}
    running = 0
    for wins in reversed(wins_sorted):
        more_than[wins] = running
        running += len(spreads_by_wins[wins])

    def count_with_more_wins(than: int) -> int:
        if than in more_than:
            return more_than[than]
        return sum(len(spreads_by_wins[w]) for w in wins_sorted[bisect_right(wins_sorted, than) :])

    counts: list[tuple[str, int, int]] = []
    for p in standings.ranked:
        if p.id in finals:
            best = worst = finals[p.id]
        else:
            best = (p.half_wins + 2 * rounds, p.spread + margin)
            worst = (p.half_wins, p.spread - margin)
        # The players sitting out, one by one: surely above p's best, or able to reach
        # p's worst (their one final is their floor and their ceiling).
        fixed_above = sum(
            1 for q, final in finals.items() if q != p.id and _beats(final, best, strictly=True)
        )
        fixed_catchers = sum(
            1 for q, final in finals.items() if q != p.id and _beats(final, worst, strictly=False)
        )
        if p.id in finals:
            above = fixed_above + _free_above(spreads_by_wins, best, margin)
            catchers = fixed_catchers + _free_reaching(spreads_by_wins, worst, rounds, margin)
            counts.append((p.id, above, catchers))
            continue
        # Surely above p's best: more than p.hw + 2 wins, or exactly that many and a spread
        # floor (q.s - M) above p's ceiling (p.s + M).
        level = spreads_by_wins.get(p.half_wins + 2 * rounds, [])
        above = (
            fixed_above
            + count_with_more_wins(p.half_wins + 2 * rounds)
            + (len(level) - bisect_right(level, p.spread + 2 * margin))
        )
        # May reach p's worst: q.hw + 2 > p.hw, or equal and q.s + M >= p.s - M.
        below = spreads_by_wins.get(p.half_wins - 2 * rounds, [])
        catchers = (
            fixed_catchers
            + (count_with_more_wins(p.half_wins - 2 * rounds) - 1)
            + (len(below) - bisect_left(below, p.spread - 2 * margin))
        )
        counts.append((p.id, above, catchers))
    return counts


def _beats(final: tuple[int, int], target: tuple[int, int], strictly: bool) -> bool:
    """``final`` is above ``target`` (strictly), or level with or above it."""
    if final[0] != target[0]:
        return final[0] > target[0]
    return final[1] > target[1] if strictly else final[1] >= target[1]


def _free_above(
    spreads_by_wins: Mapping[int, list[int]], target: tuple[int, int], margin: int
) -> int:
    """Players (not sitting out) surely above ``target``: above it even losing every round
    left by the margin."""
    return sum(
        1
        for wins, spreads in spreads_by_wins.items()
        for spread in spreads
        if _beats((wins, spread - margin), target, strictly=True)
    )


def _free_reaching(
    spreads_by_wins: Mapping[int, list[int]], target: tuple[int, int], rounds: int, margin: int
) -> int:
    """Players (not sitting out) who may finish level with or above ``target``, winning
    every round left by the margin."""
    return sum(
        1
        for wins, spreads in spreads_by_wins.items()
        for spread in spreads
        if _beats((wins + 2 * rounds, spread + margin), target, strictly=False)
    )
