"""The fallback's pairing of the contention group: a weighted matching whose costs follow
GP1-GP4 (then repeats) seeds the judge's search for the pairing that best keeps the
principles (``engine_choice``)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from ...matching import Indices, every_pair, min_cost_perfect_matching_arrays
from ..contention import Contention, Final, Result, finals_after
from ..cost import CEILINGS, Meetings, RepeatPolicy, game_costs, koth_distance
from ..game import Game
from ..judge.candidates import OUTSIDER
from ..judge.comparison import Judge
from ..judge.field_scores import FieldTables
from ..plans import Plan
from ..standings import Standings

# The fallback's matching over a contention group larger than this takes as candidates
# each player's NEAREST_PARTNERS ranks either side of its ideal partners, not every pair
# (a blossom over every pair of 2,000 players takes minutes).
WHOLE_GROUP_LIMIT = 128
NEAREST_PARTNERS = 8
# Searches from the chosen pairing's own neighbours when not every pairing was compared.
LOCAL_SEARCH_PASSES = 3


def engine_choice(
    standings: Standings,
    contention: Contention,
    group: list[str],
    joiner: str | None,
    bye: str | None,
    plan: Plan,
    games: Sequence[Game],
    meetings: Meetings,
    policy: RepeatPolicy,
    tables: FieldTables | None = None,
) -> tuple[list[tuple[str, str]], bool]:
    """The contention group's pairing that best keeps GP1 > GP2 > GP3 > GP4.

    Games already made (Gibsonized players) stay in every candidate; each contender plays
    another contender or someone who cannot be a victor (``OUTSIDER``). The weighted
    matching's answer over the group (with ``joiner`` making it even) seeds the search;
    among the pairings the principles score alike, the pairing policy chooses.
    """
    relevant = set(contention.relevant)
    fixed = _made_games(games, relevant)
    even = group + ([joiner] if joiner is not None else [])
    start = [
        _as_judged(pair, relevant)
        for pair in _principled_pairs(
            standings, contention, even, plan.victors, plan.cap, meetings, policy, plan.rounds_left
        )
    ]
    judge = Judge(standings, contention, bye, plan.victors, plan.cap, plan.rounds_left, tables)
    outsider_ranks = [standings.rank(p) for p in standings.ids if p not in relevant]

    def cost(pairs: Sequence[tuple[str, str]]) -> tuple[int, int, int]:
        return policy.pairing_cost(standings, pairs, outsider_ranks, OUTSIDER)

    tied, exhaustive = judge.best_ties(start, fixed=fixed, players=group)
    # The pairing policy chooses among pairings the principles score alike (the first,
    # the matching's answer, when they are alike on it too).
    chosen = min(tied, key=cost)
    members = set(group)
    for _ in range(LOCAL_SEARCH_PASSES if not exhaustive else 0):
        # The standard candidates are the seed's neighbours; the verdicts compare the
        # chosen pairing's own (its swaps, its rescues), which can do better: search
        # from the chosen one until nothing ranks above it.
        own = [pair for pair in chosen if pair[0] in members or pair[1] in members]
        around, _ = judge.best_ties(own, fixed=fixed, players=group)
        better = min(around, key=cost)
        if not judge.ranks_above(better, chosen):
            break
        chosen = better
    return [pair for pair in chosen if pair[0] in members or pair[1] in members], exhaustive


def _made_games(games: Sequence[Game], relevant: set[str]) -> list[tuple[str, str]]:
    """The games already made that hold a contender, as the judge takes them: the
    contender first, an opponent who cannot be a victor as ``OUTSIDER``."""
    made = [g.players for g in games if not g.bye]
    return [(a, b if b in relevant else OUTSIDER) for a, b in made if a in relevant] + [
        (b, OUTSIDER) for a, b in made if a not in relevant and b in relevant
    ]


def _as_judged(pair: tuple[str, str], relevant: set[str]) -> tuple[str, str]:
    """A pair of the matching as the judge takes it: a player who cannot be a victor is
    ``OUTSIDER`` (of two such players, the second stands for the pair)."""
    a, b = pair
    if b in relevant:
        return a, b
    return (a, OUTSIDER) if a in relevant else (b, OUTSIDER)


def _principled_pairs(
    standings: Standings,
    contention: Contention,
    group: Sequence[str],
    victors: int,
    cap: int | None,
    meetings: Meetings,
    policy: RepeatPolicy,
    rounds_left: int = 1,
) -> list[tuple[str, str]]:
    """The fallback's weighted matching over the contention group (see module docs),
    its costs computed for every candidate pair at once."""
    ordered = sorted(group, key=standings.rank)
    size = len(ordered)
    span = size - 1
    leader = np.array([standings.games_behind(p) == 0 for p in ordered], bool)
    relevant = set(contention.relevant)
    contender = np.array([p in relevant for p in ordered], bool)
    if size <= WHOLE_GROUP_LIMIT:
        firsts, seconds = every_pair(size)  # i < j: the first is the higher-ranked
    else:
        firsts, seconds = _near_ideal_pairs(size, int(leader.sum()), np.flatnonzero(~contender))
    final = rounds_left == 1
    # GP1, GP3 and GP4 judge the final round; with rounds left the contenders are paired
    # by rank (KOTH at the round's cost), never top against bottom.
    gp1 = final & (int(leader.sum()) >= 2) & (leader[firsts] != leader[seconds])
    # GP2: the outsider who fills an odd group should face the lowest contender.
    gp2 = np.where(
        ~contender[firsts],
        span - seconds,
        np.where(~contender[seconds], span - firsts, 0),
    )
    gp3 = final * (span * span - (seconds - firsts) ** 2)
    if final:
        winning = finals_after(standings, contention.relevant, Result.WIN, cap)
        gp4 = DrawSharing(standings, winning, ordered, victors, cap).of_pairs(firsts, seconds)
    else:
        gp4 = np.zeros(len(firsts), bool)
    at = meetings.positions_of(ordered)
    distance = koth_distance(firsts, seconds) * (not final)
    policy_levels = game_costs(meetings, policy, at, firsts, seconds, distance)
    costs = np.column_stack([gp1, gp2, gp3, gp4, policy_levels]).astype(np.int64)
    ceilings = (1, size, span * span, 1, *CEILINGS)
    matched = min_cost_perfect_matching_arrays(size, firsts, seconds, costs, ceilings)
    return [(ordered[i], ordered[j]) for i, j in matched]


def _near_ideal_pairs(size: int, leaders: int, outsiders: Indices) -> tuple[Indices, Indices]:
    """Candidate pairs (i < j, ascending) of a large group in rank order: each player with
    the ``NEAREST_PARTNERS`` ranks either side of itself, of its mirror in the group (top
    against bottom, GP3) and of its mirror in its own block (leaders among themselves, GP1;
    the rest among themselves); an outsider (GP2) with everyone. Its rank neighbours alone
    hold a perfect matching, so the matching always has an answer."""
    rows = np.arange(size)
    block_mirror = np.where(rows < leaders, leaders - 1 - rows, leaders + size - 1 - rows)
    centres = np.stack([rows, size - 1 - rows, block_mirror], axis=1)
    reach = np.arange(-NEAREST_PARTNERS, NEAREST_PARTNERS + 1)
    around = (centres[:, :, None] + reach).reshape(size, -1)
    mine = np.repeat(rows, around.shape[1])
    partners = around.ravel()
    if len(outsiders):
        mine = np.concatenate([mine, np.repeat(outsiders, size)])
        partners = np.concatenate([partners, np.tile(rows, len(outsiders))])
    inside = (partners >= 0) & (partners < size) & (partners != mine)
    low, high = np.minimum(mine, partners)[inside], np.maximum(mine, partners)[inside]
    keys = np.unique(low * size + high)
    return keys // size, keys % size


class DrawSharing:
    """Which games a draw turns into two victors, whatever anyone else does.

    A draw between a and b makes both victors when, for each of them, fewer than
    ``victors - 1`` others (the opponent takes one of the places) can reach their record
    after winning their own games. ``winning`` holds every relevant player's record after a
    win. A drawn record does not depend on the opponent, so each player's count of
    ``winning`` records that reach it is taken once (sorted spreads per win total, as
    ``contention`` counts) and a pair only takes its own two players out of it: O(n log n)
    to build and O(1) a pair, where counting per pair made the fallback's matching O(n^3).
    """

    def __init__(
        self,
        standings: Standings,
        winning: Mapping[str, Final],
        players: Sequence[str],
        victors: int,
        cap: int | None,
    ) -> None:
        self._places = victors - 1
        drawn = finals_after(standings, players, Result.DRAW, cap)
        highs: dict[int, list[int]] = {}
        for final in winning.values():
            highs.setdefault(final.half_wins, []).append(final.spread_high)
        for spreads in highs.values():
            spreads.sort()
        reached_by = [
            sum(len(s) for w, s in highs.items() if w > mine.half_wins)
            + len(level)
            - bisect_left(level, mine.spread_low)
            for mine in drawn.values()
            for level in [highs.get(mine.half_wins, [])]
        ]
        # Per player (``players``' order): the drawn record, the winning one (if relevant).
        self._reached_by = np.array(reached_by, np.int64)
        self._drawn_wins = np.array([f.half_wins for f in drawn.values()], np.int64)
        self._drawn_low = np.array([f.spread_low for f in drawn.values()], np.int64)
        won = [winning.get(p) for p in players]
        self._relevant = np.array([f is not None for f in won], bool)
        self._won_wins = np.array([-1 if f is None else f.half_wins for f in won], np.int64)
        self._won_high = np.array([0 if f is None else f.spread_high for f in won], np.int64)

    def _reaches(self, winner: Indices, drawer: Indices) -> NDArray[np.bool_]:
        """Whether ``winner``'s winning record may reach ``drawer``'s drawn one."""
        wins, mine = self._won_wins[winner], self._drawn_wins[drawer]
        level = (wins == mine) & (self._won_high[winner] >= self._drawn_low[drawer])
        reaches: NDArray[np.bool_] = self._relevant[winner] & ((wins > mine) | level)
        return reaches

    def _others_reaching(self, player: Indices, opponent: Indices) -> Indices:
        return (
            self._reached_by[player]
            - self._reaches(player, player)
            - self._reaches(opponent, player)
        )

    def of_pairs(self, firsts: Indices, seconds: Indices) -> NDArray[np.bool_]:
        """Per pair of positions in ``players``: a draw makes both victors."""
        return (self._others_reaching(firsts, seconds) < self._places) & (
            self._others_reaching(seconds, firsts) < self._places
        )
