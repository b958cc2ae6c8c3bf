"""Swiss pairing by win group, avoiding repeats.

The seed defines Swiss as "the top half of each win group against the bottom half, in
corresponding order". Win groups are paired from the top down. Each group (with any
players floated into it from above) is one minimum-cost perfect matching whose levels are
the pairing policy's (``policy.py``): back-to-back rematches, meetings past the repeat
allowance, players floated down, the distance from the ideal Swiss partner, and earlier
meetings within the allowance. Extra "float" places let the matching send players down to
the next group, which it does only when that saves a rematch or a meeting past the
allowance (or, for an odd group, for exactly one player: the lowest-ranked by
preference). Floaters play the top of the
group they land in. The bottom group cannot float anyone, so any repeat it cannot avoid
stays there.

Large groups (over ``COMPLETE_LIMIT`` players) use a candidate window around each player's
ideal partner instead of every pair, widened for any player who would otherwise have fewer
than ``MIN_FRESH`` opponents they have not met; this keeps 2,000-player fields fast. Costs
are computed for all candidate pairs at once (numpy), with previous meetings looked up in
one sorted table per field (``Meetings``).

Rematches and meetings past the allowance are minimised over the whole field, as director
programs do: pairing group by group cannot see that one in a lower group (the bottom one
floats nobody) would go away if a player of a higher group floated down. So when the
group-by-group pairing has one, the whole field is paired again as one matching whose
levels are: back-to-back rematches, meetings past the allowance, distance between win
groups, distance from the Swiss order (the bottom of a group meets the top of the next),
earlier meetings; that pairing is taken when it has fewer rematches (or as many and fewer
meetings past the allowance). Up to ``WHOLE_LIMIT`` players
it considers every pair, so no pairing of these players has fewer repeats; above, it
covers the field from two win groups above the highest repeat down, with each player's
neighbours in rank order (widened until they have ``MIN_FRESH`` fresh ones) and the
group-by-group pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import groupby

import numpy as np
from numpy.typing import NDArray

from ...matching import Indices, every_pair, min_cost_perfect_matching_arrays
from ..standings import Standings
from .policy import RepeatPolicy

COMPLETE_LIMIT = 48
WINDOW = 6
MIN_FRESH = 4
# Per-edge ceilings of the cost levels: back-to-back, past the allowance, floats, Swiss
# distance, earlier meetings.
CEILINGS = (1, 15, 3, 255, 15)
EXTRA_FLOATS = 2
WHOLE_LIMIT = 120
NEIGHBOURS = 12
LOOKUP_GROUPS = 2
# Whole-field levels: back-to-back, past the allowance, win groups apart, Swiss distance,
# earlier meetings.
WHOLE_CEILINGS = (1, 15, 15, 1023, 15)


GroupKey = tuple[tuple[str, ...], tuple[str, ...], bool]


class Meetings:
    """Previous meetings of one field's players, looked up for many pairs at once by the
    players' positions in the standings (dense: a field has at most a few thousand)."""

    def __init__(self, standings: Standings) -> None:
        self.position = position = standings.positions
        size = len(standings)
        met = np.array(
            [(position[a], position[b], count) for a, b, count in standings.meeting_counts()],
            np.int64,
        ).reshape(-1, 3)
        # Past the cost levels' ceilings the exact number of meetings does not matter.
        self._counts = np.zeros((size, size), np.int8)
        self._counts[met[:, 0], met[:, 1]] = np.minimum(met[:, 2], 127)
        self._previous = np.zeros((size, size), np.int8)
        for at, player in enumerate(standings.ranked):
            last = standings.last_opponent(player.id)
            if last is not None:
                self._previous[at, position[last]] = self._previous[position[last], at] = 1

    def positions_of(self, players: Sequence[str]) -> Indices:
        return np.array([self.position[p] for p in players], np.int64)

    def repeats(self, firsts: Indices, seconds: Indices) -> Indices:
        """How often each pair of positions has met (``standings.meetings``)."""
        return self._counts[firsts, seconds].astype(np.int64)

    def back_to_back(self, firsts: Indices, seconds: Indices) -> Indices:
        """1 where the pair met in the previous round (``standings.back_to_back``)."""
        return self._previous[firsts, seconds].astype(np.int64)


@dataclass
class SwissMemo:
    """Swiss pairings already made on one field's standings under one repeat policy. An
    alternative pairing of the contenders usually leaves the same players to the Swiss, or
    different players at the top and the same lower win groups (with the same players
    floated into them)."""

    policy: RepeatPolicy = field(default_factory=RepeatPolicy)
    fields: dict[frozenset[str], list[tuple[str, str]]] = field(default_factory=dict)
    groups: dict[GroupKey, tuple[list[tuple[str, str]], list[str]]] = field(default_factory=dict)
    meetings: Meetings | None = None

    def meetings_of(self, standings: Standings) -> Meetings:
        if self.meetings is None:
            self.meetings = Meetings(standings)
        return self.meetings


def pair_swiss(
    standings: Standings, player_ids: Sequence[str], memo: SwissMemo | None = None
) -> list[tuple[str, str]]:
    """Pair an even number of players Swiss by win group; pairs come out in rank order.
    ``memo`` keeps the pairings of this field's standings for the next call."""
    memo = memo if memo is not None else SwissMemo()
    key = frozenset(player_ids)
    if key not in memo.fields:
        memo.fields[key] = _pair_swiss(standings, player_ids, memo)
    return list(memo.fields[key])


def _pair_swiss(
    standings: Standings, player_ids: Sequence[str], memo: SwissMemo
) -> list[tuple[str, str]]:
    ordered = sorted(player_ids, key=standings.rank)
    if len(ordered) % 2:
        raise ValueError("Swiss pairing needs an even number of players")
    groups = [
        list(members)
        for _, members in groupby(ordered, key=lambda pid: standings.player(pid).half_wins)
    ]
    pairs: list[tuple[str, str]] = []
    carried: list[str] = []
    for index, group in enumerate(groups):
        is_last = index == len(groups) - 1
        group_key = (tuple(carried), tuple(group), is_last)
        if group_key not in memo.groups:
            memo.groups[group_key] = _pair_group(
                memo.meetings_of(standings), memo.policy, carried, group, is_last
            )
        group_pairs, carried = memo.groups[group_key]
        pairs.extend(group_pairs)
    if carried:  # unreachable: the bottom group floats nobody
        raise AssertionError(f"players left unpaired: {carried}")
    if any(_repeat_cost(standings, memo.policy, pairs)):
        pairs = _fewer_repeats(standings, ordered, pairs, memo.meetings_of(standings), memo.policy)
    return sorted(pairs, key=lambda pair: min(standings.rank(pair[0]), standings.rank(pair[1])))


def _fewer_repeats(
    standings: Standings,
    ordered: list[str],
    pairs: list[tuple[str, str]],
    meetings: Meetings,
    policy: RepeatPolicy,
) -> list[tuple[str, str]]:
    """The group-by-group pairs, or the whole field's matching when it has fewer rematches
    or meetings past the allowance.

    Above ``WHOLE_LIMIT`` players the matching covers the field from ``LOOKUP_GROUPS`` win
    groups above the highest group with such a game down to the bottom (and whoever the
    group-by-group pairs bring in); the pairs above stand.
    """
    tail = ordered
    if len(ordered) > WHOLE_LIMIT:
        wins = [standings.player(p).half_wins for p in ordered]
        levels = sorted(set(wins), reverse=True)
        first = min(
            levels.index(standings.player(a).half_wins)
            for pair in pairs
            if any(_repeat_cost(standings, policy, [pair]))
            for a in pair
        )
        floor = levels[max(0, first - LOOKUP_GROUPS)]
        members = {p for p, w in zip(ordered, wins, strict=True) if w <= floor}
        members |= {q for pair in pairs if members & set(pair) for q in pair}
        tail = [p for p in ordered if p in members]
    inside = set(tail)
    kept = [pair for pair in pairs if pair[0] not in inside]
    mine = [pair for pair in pairs if pair[0] in inside]
    groups = [
        list(members_)
        for _, members_ in groupby(tail, key=lambda pid: standings.player(pid).half_wins)
    ]
    whole = _pair_whole_field(meetings, policy, tail, groups, mine)
    if _repeat_cost(standings, policy, whole) < _repeat_cost(standings, policy, mine):
        return kept + whole
    return pairs


def _repeat_cost(
    standings: Standings, policy: RepeatPolicy, pairs: Sequence[tuple[str, str]]
) -> tuple[int, int]:
    """Back-to-back rematches among the pairs, then their meetings past the allowance."""
    costs = [policy.pair_cost(standings, a, b) for a, b in pairs]
    return sum(c[0] for c in costs), sum(c[1] for c in costs)


def _met_costs(
    meetings: Meetings,
    policy: RepeatPolicy,
    positions: Indices,
    firsts: Indices,
    seconds: Indices,
) -> tuple[Indices, Indices, Indices]:
    """Back-to-back rematches, meetings past the allowance and earlier meetings of the
    candidate pairs."""
    at_first, at_second = positions[firsts], positions[seconds]
    repeats = meetings.repeats(at_first, at_second)
    rematch = np.where(repeats > 0, meetings.back_to_back(at_first, at_second), 0)
    return rematch, policy.excess_of(repeats), repeats


def _pair_whole_field(
    meetings: Meetings,
    policy: RepeatPolicy,
    ordered: list[str],
    groups: list[list[str]],
    by_groups: Sequence[tuple[str, str]],
) -> list[tuple[str, str]]:
    """One matching over every player (see the module's doc)."""
    size = len(ordered)
    positions = meetings.positions_of(ordered)
    index = {pid: i for i, pid in enumerate(ordered)}
    group_of = np.repeat(np.arange(len(groups)), [len(g) for g in groups])
    group_size = np.repeat([len(g) for g in groups], [len(g) for g in groups])
    place = np.concatenate([np.arange(len(g)) for g in groups])  # position in the win group

    given = [(min(index[a], index[b]), max(index[a], index[b])) for a, b in by_groups]
    keys = [np.array([a * size + b for a, b in given], np.int64)]
    if size <= WHOLE_LIMIT:
        firsts, seconds = every_pair(size)
        keys.append(firsts * size + seconds)
    else:
        keys.append(_neighbours(meetings, positions))
    candidates = np.unique(np.concatenate(keys))
    firsts, seconds = candidates // size, candidates % size
    rematch, excess, repeats = _met_costs(meetings, policy, positions, firsts, seconds)
    group_a, group_b = group_of[firsts], group_of[seconds]
    half = np.maximum(group_size[firsts] // 2, 1)
    same_half = (place[firsts] < half) == (place[seconds] < half)
    within = np.abs(np.abs(place[firsts] - place[seconds]) - half) + np.where(same_half, half, 0)
    upper = np.where(group_a < group_b, firsts, seconds)
    lower = np.where(group_a < group_b, seconds, firsts)
    across = (group_size[upper] - 1 - place[upper]) + place[lower]
    distance = np.where(group_a == group_b, within, across)
    costs = np.stack([rematch, excess, np.abs(group_a - group_b), distance, repeats], axis=1)
    matched = min_cost_perfect_matching_arrays(size, firsts, seconds, costs, WHOLE_CEILINGS)
    return [(ordered[a], ordered[b]) for a, b in matched]


def _neighbours(meetings: Meetings, positions: Indices) -> Indices:
    """Keys (a * size + b, a < b) of each player's ``NEIGHBOURS`` neighbours on each side
    in rank order, widened until they have ``MIN_FRESH`` they have not met."""
    size = len(positions)
    reach = np.arange(1, min(NEIGHBOURS, size - 1) + 1)
    rows = np.arange(size)
    around = np.concatenate([rows[:, None] - reach, rows[:, None] + reach], axis=1)
    inside = (around >= 0) & (around < size)
    mine_rows = np.broadcast_to(rows[:, None], around.shape)[inside]
    mine = around[inside]
    fresh = np.bincount(
        mine_rows,
        weights=meetings.repeats(positions[mine_rows], positions[mine]) == 0,
        minlength=size,
    )
    extra: list[int] = []
    for a in np.nonzero(fresh < MIN_FRESH)[0].tolist():
        count, far = int(fresh[a]), NEIGHBOURS + 1
        while far < size and count < MIN_FRESH:
            for b in (a - far, a + far):
                if 0 <= b < size:
                    extra.append(min(a, b) * size + max(a, b))
                    count += not meetings.repeats(positions[[a]], positions[[b]])[0]
            far += 1
    lows, highs = np.minimum(mine_rows, mine), np.maximum(mine_rows, mine)
    return np.concatenate([lows * size + highs, np.array(extra, np.int64)])


def _pair_group(
    meetings: Meetings, policy: RepeatPolicy, carried: list[str], group: list[str], is_last: bool
) -> tuple[list[tuple[str, str]], list[str]]:
    members = carried + group
    size = len(members)
    floats = 0 if is_last else size % 2 + EXTRA_FLOATS
    if is_last and size % 2:
        raise AssertionError("the bottom group is odd")
    n_carried = len(carried)
    # Ideal Swiss pairs among the group's own players left after the floaters take the top.
    block = size - n_carried - (size % 2 if not is_last else 0)
    half = max(block // 2, 1)
    positions = meetings.positions_of(members)
    swiss_pairs = _ideal_pairs(size, n_carried, half, is_last)
    if swiss_pairs is not None:
        firsts, seconds = swiss_pairs
        rematch, excess, _ = _met_costs(meetings, policy, positions, firsts, seconds)
        if not rematch.any() and not excess.any():
            # No rematch and no meeting past the allowance: the Swiss pairs are the
            # matching's unique optimum (the only ones at no distance; meetings within
            # the allowance come after distance).
            pairs = [(members[a], members[b]) for a, b in zip(firsts, seconds, strict=True)]
            return pairs, members[2 * len(pairs) :]
    return _matched_group(meetings, policy, members, positions, n_carried, half, floats)


@lru_cache(maxsize=512)
def _ideal_pairs(
    size: int, n_carried: int, half: int, is_last: bool
) -> tuple[Indices, Indices] | None:
    """A group's Swiss pairs at no distance in ``_group_edges``' terms: a player carried
    in plays the group's top, the group's own players top half against bottom half, and
    an odd group floats its lowest. They cost nothing but the one float an odd group must
    make, and they are the only pairing at no distance, so when none of them is a repeat
    they are the matching's unique optimum (most groups of a real field). None where no
    pairing is at no distance (two or more carried in, or pairs that do not fit)."""
    odd = size % 2 if not is_last else 0
    own = size - 2 * n_carried - odd  # the group's own players left to pair
    if n_carried > 1 or own < 0 or own not in (0, 2 * half):
        return None
    tops = np.arange(2 * n_carried, 2 * n_carried + own // 2)
    firsts = np.concatenate([np.arange(n_carried), tops]).astype(np.int64)
    seconds = np.concatenate([np.arange(n_carried) + n_carried, tops + half]).astype(np.int64)
    for array in (firsts, seconds):
        array.setflags(write=False)
    return firsts, seconds


def _matched_group(
    meetings: Meetings,
    policy: RepeatPolicy,
    members: list[str],
    positions: Indices,
    n_carried: int,
    half: int,
    floats: int,
) -> tuple[list[tuple[str, str]], list[str]]:
    """``_pair_group``'s matching: the group's pairs and the players it floats down."""
    size = len(members)
    if size <= COMPLETE_LIMIT:
        firsts, seconds, costs, pair_count = _complete_group(size, n_carried, half, floats)
        costs = costs.copy()
    else:
        pair_firsts, pair_seconds = _window_candidates(meetings, positions, n_carried, half)
        firsts, seconds, costs = _group_edges(
            pair_firsts, pair_seconds, size, n_carried, half, floats
        )
        pair_count = len(pair_firsts)
    players = slice(0, pair_count)
    costs[players, 0], costs[players, 1], costs[players, 4] = _met_costs(
        meetings, policy, positions, firsts[players], seconds[players]
    )
    matched = min_cost_perfect_matching_arrays(size + floats, firsts, seconds, costs, CEILINGS)
    pairs: list[tuple[str, str]] = []
    floated: list[str] = []
    for a, b in matched:
        if b < size:
            pairs.append((members[a], members[b]))
        elif a < size:
            floated.append(members[a])
    floated.sort(key=meetings.position.__getitem__)
    return pairs, floated


@lru_cache(maxsize=512)
def _complete_group(
    size: int, n_carried: int, half: int, floats: int
) -> tuple[Indices, Indices, NDArray[np.int64], int]:
    """``_group_edges`` over every pair of a group: they depend only on its shape, and the
    same shapes recur in every field (read-only: callers copy the costs to fill them in)."""
    edges = _group_edges(*every_pair(size), size, n_carried, half, floats)
    for array in edges:
        array.setflags(write=False)
    return (*edges, size * (size - 1) // 2)


def _group_edges(
    firsts: Indices, seconds: Indices, size: int, n_carried: int, half: int, floats: int
) -> tuple[Indices, Indices, NDArray[np.int64]]:
    """A group's candidate edges and their cost levels but the meetings (levels 0, 1 and 4,
    left 0): the player pairs ``firsts``-``seconds`` (a < b) first, then the float places."""
    # Carried players (floated in from above) come first: two of them are kept apart,
    # one plays the group's top; the group's own keep top half against bottom half
    # (transposing within a half before crossing).
    own_first, own_second = firsts - 2 * n_carried, seconds - 2 * n_carried
    same_half = (own_first < half) == (own_second < half)
    distance = np.where(
        seconds < n_carried,
        half + seconds - firsts,
        np.where(
            firsts < n_carried,
            np.abs(seconds - n_carried - firsts),
            np.abs(np.abs(own_first - own_second) - half) + np.where(same_half, half, 0),
        ),
    )
    zeros = np.zeros_like(distance)
    parts = [np.stack([zeros, zeros, zeros, distance, zeros], axis=1)]
    edge_firsts, edge_seconds = [firsts], [seconds]
    if floats:
        # Any player may float (once more for one already floated), the lowest first;
        # spare float places match each other at no cost.
        player = np.repeat(np.arange(size), floats)
        place = np.tile(np.arange(size, size + floats), size)
        again = (player < n_carried).astype(np.int64)
        none = np.zeros_like(player)
        parts.append(np.stack([none, none, 1 + again, size - 1 - player, none], axis=1))
        edge_firsts.append(player)
        edge_seconds.append(place)
        spare_a, spare_b = np.triu_indices(floats, 1)
        parts.append(np.zeros((len(spare_a), len(CEILINGS)), np.int64))
        edge_firsts.append(spare_a + size)
        edge_seconds.append(spare_b + size)
    return (
        np.concatenate(edge_firsts).astype(np.int64),
        np.concatenate(edge_seconds).astype(np.int64),
        np.concatenate(parts).astype(np.int64),
    )


def _window_candidates(
    meetings: Meetings, positions: Indices, n_carried: int, half: int
) -> tuple[Indices, Indices]:
    """Pairs (a < b, sorted) near each player's ideal partner and near the player, widened
    for a player with fewer than ``MIN_FRESH`` they have not met."""
    size = len(positions)
    offsets = np.arange(-WINDOW, WINDOW + 1)
    rows = np.arange(size)
    chosen = []
    for shift in (0, half, -half):  # the player, and (not carried) the ideal partners
        near = rows if shift == 0 else rows[n_carried:]
        columns = (near + shift)[:, None] + offsets
        owners = np.broadcast_to(near[:, None], columns.shape)
        inside = (columns >= 0) & (columns < size) & (columns != owners)
        chosen.append(owners[inside] * size + columns[inside])
    own = np.unique(np.concatenate(chosen))  # each player's own choices, by player
    owner, other = own // size, own % size
    fresh = np.bincount(
        owner, weights=meetings.repeats(positions[owner], positions[other]) == 0, minlength=size
    )
    extra: list[int] = []
    for a in np.nonzero(fresh < MIN_FRESH)[0].tolist():
        start, stop = np.searchsorted(owner, [a, a + 1])
        mine = set(other[start:stop].tolist())
        count, reach = int(fresh[a]), WINDOW + 1
        while count < MIN_FRESH and reach < size:
            for b in (a - reach, a + reach, a + half + reach, a - half - reach):
                if 0 <= b < size and b != a and b not in mine:
                    mine.add(b)
                    extra.append(min(a, b) * size + max(a, b))
                    count += not meetings.repeats(positions[[a]], positions[[b]])[0]
            reach += 1
    keys = np.unique(
        np.concatenate(
            [np.minimum(owner, other) * size + np.maximum(owner, other), np.array(extra, np.int64)]
        )
    ).astype(np.int64)
    return keys // size, keys % size
