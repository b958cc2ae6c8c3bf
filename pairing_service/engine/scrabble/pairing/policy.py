"""The director's cost: how the advisor chooses among pairings the principles score alike.

The principles GP1-GP4 come first, proven by the outcome engine. Among pairings they
score the same, every path (a table row, the fallback's contention group, a contender's
opponent from outside contention, the rest of the field) uses the same order, taken from
what director programs and real directors do (``docs/scrabble.md``, "Pairing policy"):

1. no back-to-back rematch (tsh never pairs one; COP weighs it heavily);
2. no meeting beyond the **repeat allowance** (tsh's ``koth``/``ns`` repeats argument): a
   pair that has already met more than ``allowance`` times costs one per meeting past it;
3. rank closeness: players who can still move between places play the nearest rank
   (KOTH), the rest Swiss within win groups (top half against bottom half);
4. fewest earlier meetings within the allowance.

The allowance is the director's (``repeats_allowed``); its default, 2, pairs a second or
third meeting rather than give up rank order and avoids a fourth where an equal pairing
can: in the last round of a long event most top players have met once or twice, and
directors pair them by rank anyway (field facts: real final rounds accept 6-12 repeats on
the top ten boards and 3rd or 4th meetings; on the 12 real divisions of
``tests/data/real`` the directors made a median of 2 third meetings, and allowance 2
brings the service's top-ten rank gap from 2.2 to 2.0 against their 1.7, docs/benchmarks.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...matching import Edge, Indices, min_cost_perfect_matching
from ..judge.candidates import OUTSIDER
from ..standings import Standings

DEFAULT_REPEATS_ALLOWED = 2
MAX_REPEATS_ALLOWED = 15  # the matchings' ceiling for meetings of one pair


@dataclass(frozen=True, slots=True)
class RepeatPolicy:
    """The repeat allowance: how many earlier meetings a pair may have and be paired at
    no cost beyond the last tie-break."""

    allowance: int = DEFAULT_REPEATS_ALLOWED

    def __post_init__(self) -> None:
        if not 0 <= self.allowance <= MAX_REPEATS_ALLOWED:
            raise ValueError(f"repeats_allowed must be between 0 and {MAX_REPEATS_ALLOWED}")

    def excess(self, meetings: int) -> int:
        """Meetings past the allowance (a fourth meeting under allowance 2 costs one)."""
        return max(0, meetings - self.allowance)

    def excess_of(self, meetings: Indices) -> Indices:
        """``excess`` of many pairs at once."""
        found: Indices = np.maximum(meetings - self.allowance, 0)
        return found

    def pair_cost(self, standings: Standings, a: str, b: str) -> tuple[int, int, int]:
        """One game's cost on the policy's meeting levels: back-to-back, past the
        allowance, earlier meetings."""
        met = standings.meetings(a, b)
        return int(bool(met) and standings.back_to_back(a, b)), self.excess(met), met

    def closest_pairs(self, standings: Standings, players: Sequence[str]) -> list[tuple[str, str]]:
        """An even list of players paired among themselves: no back-to-back rematch or
        meeting past the allowance where avoidable, then closest rank (KOTH: the smallest
        sum of rank gaps pairs neighbours), then fewest meetings."""
        if not players:
            return []
        ordered = sorted(players, key=standings.rank)
        edges: list[Edge] = []
        for i, a in enumerate(ordered):
            for j in range(i + 1, len(ordered)):
                b = ordered[j]
                back, over, met = self.pair_cost(standings, a, b)
                gap = abs(standings.rank(a) - standings.rank(b))
                edges.append((i, j, (back, over, gap, met)))
        ceilings = (1, MAX_REPEATS_ALLOWED, len(standings), MAX_REPEATS_ALLOWED)
        matched = min_cost_perfect_matching(len(ordered), edges, ceilings)
        return [(ordered[i], ordered[j]) for i, j in matched]

    def pairing_cost(
        self,
        standings: Standings,
        pairs: Sequence[tuple[str, str]],
        outsider_ranks: Sequence[int],
    ) -> tuple[int, int, int, int]:
        """A pairing's cost in the policy's order: back-to-back rematches, meetings past
        the allowance, rank distance (KOTH: the closer the better), earlier meetings.

        A contender facing ``OUTSIDER`` (someone who cannot be a victor, chosen later) is
        costed as playing the highest-ranked of them, the next contender the next, and so
        on (``outsider_ranks``, ascending): their meetings are not known yet, but leaving
        them out would make sending a contender away look free."""
        rank = standings.rank
        rematches = excess = distance = met = 0
        facing = sorted(
            (rank(a if b == OUTSIDER else b) for a, b in pairs if OUTSIDER in (a, b)),
        )
        for mine, theirs in zip(facing, outsider_ranks, strict=False):
            distance += abs(theirs - mine)
        for a, b in pairs:
            if OUTSIDER in (a, b):
                continue
            back, over, meetings = self.pair_cost(standings, a, b)
            rematches += back
            excess += over
            met += meetings
            distance += abs(rank(a) - rank(b))
        return rematches, excess, distance, met
