"""How a round is paired: one cost for every method (Swiss, KOTH, seeded, random, the prize
races, the advisor's fallback and its rest of the field).

Each method names its **ideal pairing** (Swiss: the top half of each win group against the
bottom half; KOTH: 1-2, 3-4; seeded: the top half by rating against the bottom half; the
prize races: KOTH among the racers) and the matching looks for the pairing closest to it
that a director would post. A game's cost has three levels, compared in this order:

1. **back to back**: the two players met in the previous round (tsh never pairs one; a
   principle may ask for it, the prize race, and then says so);
2. **past the allowance**: each meeting beyond the director's repeat allowance (tsh's
   repeats argument to ``pair``, ``koth``, ``ns``), per event or per range of rounds;
3. **weighed**: how far each player is from their ideal opponent, in ranks, squared (a
   player sent twenty places down costs 400, one moved by one place 1), plus each earlier
   meeting's weight, which grows with the number of meetings and with how recent the last
   one was (``repeat_weight``).

Repeats within the allowance are a cost, not a wall: late in a long event every pair at
the top has met two or three times, and directors pair the leaders by rank anyway
(``../shared/notes/field-facts.md``: real boards with a top-10 player are a median 2.9
ranks apart over the last 8 rounds of 12 divisions, 2.6 on the 100 cuts of
``bench/real_held_rounds.py``; 3rd and 4th meetings accepted to keep
the race for 1st head to head). A lexicographic "no repeat first" sends the leaders of an
18-31-round event to the bottom of the field with six rounds to go. The weights were
chosen on those divisions (``bench/real_held_rounds.py``, ``docs/benchmarks.md``, "The
round's cost"): a second meeting long ago costs about as much as moving both players of a
game three or four places from their ideal opponents (2 x 3.5 squared), one two rounds
ago or a third meeting about six places each. Lighter weights paired more repeats than
the directors did (560 against their 516 over 100 cuts); heavier ones pulled the top
boards apart (top-10 gap 2.7-3.0 against the directors' 2.6) for few repeats saved.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..matching import Indices, min_cost_perfect_matching_arrays
from .standings import Standings

DEFAULT_REPEATS_ALLOWED = 2  # a pair may meet a 2nd or 3rd time at a weighed cost
MAX_REPEATS_ALLOWED = 15  # the matchings' ceiling for meetings of one pair
# A repeat's weight by the pair's earlier meetings (1, 2, 3, 4 or more), in squared ranks.
REPEAT_WEIGHTS: tuple[int, ...] = (0, 24, 60, 100, 150)
REPEAT_WEIGHT_STEP = 60  # each meeting beyond the table's last
# Recency: the weight is multiplied by (ago + RECENCY) / ago, ``ago`` the rounds since the
# pair last met (5 times as much straight after, 3 times two rounds after, 1.25 times
# sixteen rounds after).
RECENCY = 4
MAX_DISPLACEMENT = 64  # ranks: beyond, one more place away changes nothing
# Per game: back-to-back (0 or 1), meetings past the allowance, the weighed cost.
CEILINGS = (1, MAX_REPEATS_ALLOWED, 2 * MAX_DISPLACEMENT**2 + 2000)
MAX_AGO = 100  # rounds since a meeting, kept as int8


def repeat_weight(meetings: int, ago: int, last_round: bool = False) -> int:
    """The weighed cost of pairing two players who have met ``meetings`` times, the last
    ``ago`` rounds ago (1: the previous round); in the event's last round, one per
    earlier meeting (``RepeatPolicy.last_round``)."""
    one = repeat_weights(np.array([meetings], np.int64), np.array([ago], np.int64), last_round)
    return int(one[0])


def repeat_weights(meetings: Indices, ago: Indices, last_round: bool = False) -> Indices:
    """``repeat_weight`` of many pairs at once."""
    if last_round:
        counted: Indices = np.maximum(meetings, 0)
        return counted
    last = len(REPEAT_WEIGHTS) - 1
    table = np.asarray(REPEAT_WEIGHTS, np.int64)
    met = np.maximum(meetings, 0)
    base = table[np.minimum(met, last)] + REPEAT_WEIGHT_STEP * np.maximum(met - last, 0)
    ago = np.maximum(ago, 1)
    found: Indices = np.where(met > 0, base * (ago + RECENCY) // ago, 0)
    return found


@dataclass(frozen=True, slots=True)
class RepeatPolicy:
    """The repeat allowance: how many earlier meetings a pair may have and be paired at
    the weighed cost only (``allowance`` 2: a 4th meeting is past it).

    ``last_round``: the event's last round, where a repeat within the allowance is only a
    tie-break between pairings equally close to the ideal (one per earlier meeting). A
    repeat's weight keeps the rounds to come varied; after the last round there are none,
    and directors pair the last round by rank, third meetings and all: on the real
    divisions' final rounds the full weights spread the top ten boards 2.4-2.6 ranks apart
    against the directors' 2.0 (``bench/real_final_rounds.py``), the tie-break 2.0."""

    allowance: int = DEFAULT_REPEATS_ALLOWED
    last_round: bool = False

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
        """One game's cost with both players at their ideal: back-to-back, past the
        allowance, the weighed cost of its earlier meetings."""
        met = standings.meetings(a, b)
        if not met:
            return 0, 0, 0
        ago = rounds_since(standings, a, b)
        return int(ago == 1), self.excess(met), repeat_weight(met, ago, self.last_round)

    def closest_pairs(self, standings: Standings, players: Sequence[str]) -> list[tuple[str, str]]:
        """An even list of players paired among themselves, KOTH (1-2, 3-4 in rank order)
        at the least cost."""
        if not players:
            return []
        ordered = sorted(players, key=standings.rank)
        return pair_closest(Meetings(standings), self, ordered, None)

    def pairing_cost(
        self,
        standings: Standings,
        pairs: Sequence[tuple[str, str]],
        outsider_ranks: Sequence[int],
        outsider: str,
    ) -> tuple[int, int, int]:
        """A pairing's cost on the three levels, its players KOTH by rank: a pair's
        weighed cost is its rank gap beyond neighbours, squared, plus its repeats'.

        A player facing ``outsider`` (someone who cannot be a victor, chosen later) is
        costed as playing the highest-ranked of them, the next such player the next, and
        so on (``outsider_ranks``, ascending): their meetings are not known yet, but
        leaving them out would make sending a contender away look free."""
        rank = standings.rank
        rematches = excess = weighed = 0
        facing = sorted(rank(a if b == outsider else b) for a, b in pairs if outsider in (a, b))
        for mine, theirs in zip(facing, outsider_ranks, strict=False):
            weighed += displaced(abs(theirs - mine) - 1)
        for a, b in pairs:
            if outsider in (a, b):
                continue
            back, over, repeats = self.pair_cost(standings, a, b)
            rematches += back
            excess += over
            weighed += repeats + displaced(abs(rank(a) - rank(b)) - 1)
        return rematches, excess, weighed


def displaced(ranks: int) -> int:
    """The weighed cost of a game whose two players are each ``ranks`` from their ideal
    opponent."""
    return 2 * one_displaced(ranks)


def one_displaced(ranks: int) -> int:
    """One player's share of ``displaced``: choosing an opponent for one player from a
    pool in order of preference, ``ranks`` places past the first, on the scale of a
    repeat's weight."""
    moved = min(max(ranks, 0), MAX_DISPLACEMENT)
    return moved * moved


def rounds_since(standings: Standings, a: str, b: str) -> int:
    """Rounds since ``a`` and ``b`` last met, by the longer of their records (1: the
    previous round); 0 when they have not met."""
    found = 0
    for player, opponent in ((a, b), (b, a)):
        opponents = standings.player(player).opponents
        for back, other in enumerate(reversed(opponents), start=1):
            if other == opponent:
                found = back if not found else min(found, back)
                break
    return found


class Meetings:
    """Previous meetings of one field's players, looked up for many pairs at once by the
    players' positions in the standings (dense: a field has at most a few thousand): how
    often each pair met, and how many rounds ago they last did."""

    def __init__(self, standings: Standings) -> None:
        self.position = position = standings.positions
        size = len(standings)
        # One pass over the records: each earlier game as (player, opponent, rounds ago).
        rows: list[int] = []
        columns: list[int] = []
        agos: list[int] = []
        for at, player in enumerate(standings.ranked):
            opponents = player.opponents
            played = len(opponents)
            for index, other in enumerate(opponents):
                there = position.get(other) if other is not None else None
                if there is not None:
                    rows.append(at)
                    columns.append(there)
                    agos.append(played - index)
        row = np.array(rows, np.int64)
        column = np.array(columns, np.int64)
        ago = np.minimum(np.array(agos, np.int64), MAX_AGO)
        # Meetings: the larger of the two players' own records of the pair, as
        # ``standings.meetings`` counts them (a one-sided record counts); past the cost
        # levels' ceilings the exact number does not matter. Counted over the records'
        # entries, not over every cell: a 400-player field has 160,000 cells and a few
        # thousand entries.
        cells = size * size
        keys, counts = np.unique(row * size + column, return_counts=True)
        mirrored = (keys % size) * size + keys // size
        at = np.minimum(np.searchsorted(keys, mirrored), max(len(keys) - 1, 0))
        theirs = np.where(keys[at] == mirrored, counts[at], 0) if len(keys) else counts
        larger = np.minimum(np.maximum(counts, theirs), 127)
        met = np.zeros(cells, np.int8)
        met[keys] = larger
        met[mirrored] = larger
        self._counts = met.reshape(size, size)
        # Rounds since the pair last met, the more recent by either record (a late
        # entrant's record is shorter): each pair's entries sorted by (pair, rounds ago),
        # the first of each pair the least.
        both = np.concatenate([row * size + column, column * size + row])
        ranked = np.sort(both * (MAX_AGO + 1) + np.concatenate([ago, ago]))
        pair = ranked // (MAX_AGO + 1)
        first = np.ones(len(ranked), bool)
        first[1:] = pair[1:] != pair[:-1]
        latest = np.zeros(cells, np.int8)
        latest[pair[first]] = ranked[first] % (MAX_AGO + 1)
        self._ago = latest.reshape(size, size)

    def positions_of(self, players: Sequence[str]) -> Indices:
        return np.array([self.position[p] for p in players], np.int64)

    def repeats(self, firsts: Indices, seconds: Indices) -> Indices:
        """How often each pair of positions has met (``standings.meetings``)."""
        return self._counts[firsts, seconds].astype(np.int64)

    def rounds_ago(self, firsts: Indices, seconds: Indices) -> Indices:
        """Rounds since each pair last met (``rounds_since``; 0: never)."""
        return self._ago[firsts, seconds].astype(np.int64)

    def back_to_back(self, firsts: Indices, seconds: Indices) -> Indices:
        """1 where the pair met in the previous round (``standings.back_to_back``)."""
        found: Indices = (self._ago[firsts, seconds] == 1).astype(np.int64)
        return found

    def levels(
        self, policy: RepeatPolicy, firsts: Indices, seconds: Indices
    ) -> tuple[Indices, Indices, Indices]:
        """Per pair of positions: back to back, meetings past the allowance, and the
        weighed cost of the earlier meetings."""
        repeats = self.repeats(firsts, seconds)
        ago = self.rounds_ago(firsts, seconds)
        return (
            (ago == 1).astype(np.int64),
            policy.excess_of(repeats),
            repeat_weights(repeats, ago, policy.last_round),
        )


def displacement(
    firsts: Indices, seconds: Indices, ideal: Indices, places: Indices | None = None
) -> Indices:
    """Per candidate pair (positions in the method's order), how far each player is from
    their ideal opponent (``ideal[i]``: player i's, -1 for none), squared and summed: a
    Swiss or seeded round (the top half against the bottom half) transposes within a half
    before it crosses one. ``places``: each position's place in the whole order, where
    the players are a part of it (default: the positions themselves)."""
    if places is None:
        places = np.arange(len(ideal), dtype=np.int64)
    ideal_place = np.where(ideal >= 0, places[ideal], 0)
    away_a = np.where(ideal[firsts] >= 0, np.abs(places[seconds] - ideal_place[firsts]), 0)
    away_b = np.where(ideal[seconds] >= 0, np.abs(places[firsts] - ideal_place[seconds]), 0)
    away_a = np.minimum(away_a, MAX_DISPLACEMENT)
    away_b = np.minimum(away_b, MAX_DISPLACEMENT)
    found: Indices = away_a * away_a + away_b * away_b
    return found


def koth_distance(firsts: Indices, seconds: Indices) -> Indices:
    """Per candidate pair (positions in rank order), KOTH's distance: the ranks between
    the two players, squared, for each of them (``displaced``): 1-3, 2-4 (4) before 1-4,
    2-3 (8) when 1-2 cannot be, as KOTH pairs each player with the nearest left."""
    between = np.minimum(np.maximum(np.abs(seconds - firsts) - 1, 0), MAX_DISPLACEMENT)
    found: Indices = 2 * between * between
    return found


def game_costs(
    meetings: Meetings,
    policy: RepeatPolicy,
    positions: Indices,
    firsts: Indices,
    seconds: Indices,
    distance: Indices,
) -> NDArray[np.int64]:
    """The three levels (the module's) of candidate pairs ``firsts``-``seconds`` (indices in
    the method's order; ``positions``: each one's place in the standings; ``distance``:
    each pair's distance from the method's ideal, ``displacement`` or ``koth_distance``),
    one row each."""
    back, past, repeats = meetings.levels(policy, positions[firsts], positions[seconds])
    return np.column_stack([back, past, distance + repeats]).astype(np.int64)


def koth_ideal(size: int) -> Indices:
    """KOTH's ideal opponents: 1-2, 3-4, ... (positions 0-1, 2-3, ...)."""
    found: Indices = np.arange(size, dtype=np.int64) ^ 1
    if size % 2:
        found[-1] = -1
    return found


def halves_ideal(size: int) -> Indices:
    """The top half against the bottom half: 1 v n/2+1, 2 v n/2+2, ..."""
    half = size // 2
    found: Indices = np.concatenate([np.arange(half, 2 * half), np.arange(half)]).astype(np.int64)
    if size % 2:
        found = np.append(found, -1)
    return found


WINDOW = 8  # candidates within this distance of a player and of their ideal opponent
MIN_FRESH = 4  # ... widened until each has this many they have not met
WHOLE_LIMIT = 120  # up to this many players, every pair is a candidate


def candidate_pairs(
    meetings: Meetings, positions: Indices, ideal: Indices
) -> tuple[Indices, Indices]:
    """Candidate pairs (i < j, in the method's order): every pair up to ``WHOLE_LIMIT``
    players; above, each player's ``WINDOW`` neighbours either side of themselves and of
    their ideal opponent, widened until they have ``MIN_FRESH`` they have not met."""
    size = len(positions)
    if size <= WHOLE_LIMIT:
        firsts, seconds = np.triu_indices(size, 1)
        return firsts.astype(np.int64), seconds.astype(np.int64)
    rows = np.arange(size)
    offsets = np.arange(-WINDOW, WINDOW + 1)
    centres = [rows, np.where(ideal >= 0, ideal, rows)]
    owners = np.concatenate([np.repeat(rows, len(offsets)) for _ in centres])
    others = np.concatenate([(c[:, None] + offsets).ravel() for c in centres])
    inside = (others >= 0) & (others < size) & (others != owners)
    owners, others = owners[inside], others[inside]
    fresh = np.bincount(
        owners, weights=meetings.repeats(positions[owners], positions[others]) == 0, minlength=size
    )
    extra: list[int] = []
    for a in np.flatnonzero(fresh < MIN_FRESH).tolist():
        count, reach = int(fresh[a]), WINDOW + 1
        while count < MIN_FRESH and reach < size:
            for b in (a - reach, a + reach):
                if 0 <= b < size:
                    extra.append(min(a, b) * size + max(a, b))
                    count += not meetings.repeats(positions[[a]], positions[[b]])[0]
            reach += 1
    keys = np.unique(
        np.concatenate(
            [np.minimum(owners, others) * size + np.maximum(owners, others), np.array(extra)]
        ).astype(np.int64)
    )
    return keys // size, keys % size


def pair_closest(
    meetings: Meetings,
    policy: RepeatPolicy,
    order: Sequence[str],
    ideal: Indices | None,
    places: Indices | None = None,
) -> list[tuple[str, str]]:
    """A perfect matching of ``order`` (even) at the least cost: the pairing closest to
    the ideal one (``ideal``: each player's ideal opponent, by index in ``order``; None:
    KOTH, ``order`` in rank order) that avoids back-to-back rematches and meetings past
    the allowance where it can. Without history it is the ideal pairing. ``places``:
    ``displacement``'s, where ``order`` is a part of the field's order."""
    size = len(order)
    if size == 0:
        return []
    positions = meetings.positions_of(order)
    firsts, seconds = candidate_pairs(
        meetings, positions, koth_ideal(size) if ideal is None else ideal
    )
    distance = (
        koth_distance(firsts, seconds)
        if ideal is None
        else displacement(firsts, seconds, ideal, places)
    )
    costs = game_costs(meetings, policy, positions, firsts, seconds, distance)
    matched = min_cost_perfect_matching_arrays(size, firsts, seconds, costs, CEILINGS)
    return [(order[a], order[b]) for a, b in matched]
