"""Swiss pairing by win group, avoiding repeats.

The seed defines Swiss as "the top half of each win group against the bottom half, in
corresponding order". Win groups are paired from the top down. Each group (with any
players floated into it from above) is one minimum-cost perfect matching whose levels are,
in order: total previous meetings, back-to-back rematches, players floated down, and the
distance from the ideal Swiss partner. Extra "float" places let the matching send players
down to the next group, which it does only when that saves a repeat (or, for an odd group,
for exactly one player: the lowest-ranked by preference). Floaters play the top of the
group they land in. The bottom group cannot float anyone, so any repeat it cannot avoid
stays there.

Large groups (over ``COMPLETE_LIMIT`` players) use a candidate window around each player's
ideal partner instead of every pair, widened for any player who would otherwise have fewer
than ``MIN_FRESH`` opponents they have not met; this keeps 2,000-player fields fast.

Repeats are minimised over the whole field, as director programs do: pairing group by
group cannot see that a repeat in a lower group (the bottom one floats nobody) would go
away if a player of a higher group floated down. So when the group-by-group pairing has a
repeat, the whole field is paired again as one matching whose levels are: previous
meetings, back-to-back rematches, distance between win groups, distance from the Swiss
order (the bottom of a group meets the top of the next); that pairing is taken when it has
fewer repeats (or as many and fewer back-to-back rematches). Up to ``WHOLE_LIMIT`` players
it considers every pair, so no pairing of these players has fewer repeats; above, it
covers the field from two win groups above the highest repeat down, with each player's
neighbours in rank order (widened until they have ``MIN_FRESH`` fresh ones) and the
group-by-group pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import groupby

from ..matching import Cost, Edge, min_cost_perfect_matching
from .standings import Standings

COMPLETE_LIMIT = 48
WINDOW = 6
MIN_FRESH = 4
# Per-edge ceilings of the cost levels: repeats, back-to-back, floats, Swiss distance.
CEILINGS = (15, 1, 3, 255)
EXTRA_FLOATS = 2
WHOLE_LIMIT = 120
NEIGHBOURS = 12
LOOKUP_GROUPS = 2
# Whole-field levels: repeats, back-to-back, win groups apart, Swiss distance.
WHOLE_CEILINGS = (15, 1, 15, 1023)


GroupKey = tuple[tuple[str, ...], tuple[str, ...], bool]


@dataclass
class SwissMemo:
    """Swiss pairings already made on one field's standings. An alternative pairing of the
    contenders usually leaves the same players to the Swiss, or different players at the
    top and the same lower win groups (with the same players floated into them)."""

    fields: dict[frozenset[str], list[tuple[str, str]]] = field(default_factory=dict)
    groups: dict[GroupKey, tuple[list[tuple[str, str]], list[str]]] = field(default_factory=dict)


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
            memo.groups[group_key] = _pair_group(standings, carried, group, is_last)
        group_pairs, carried = memo.groups[group_key]
        pairs.extend(group_pairs)
    if carried:  # unreachable: the bottom group floats nobody
        raise AssertionError(f"players left unpaired: {carried}")
    if _repeat_cost(standings, pairs)[0]:
        pairs = _fewer_repeats(standings, ordered, pairs)
    return sorted(pairs, key=lambda pair: min(standings.rank(pair[0]), standings.rank(pair[1])))


def _fewer_repeats(
    standings: Standings, ordered: list[str], pairs: list[tuple[str, str]]
) -> list[tuple[str, str]]:
    """The group-by-group pairs, or the whole field's matching when it repeats less.

    Above ``WHOLE_LIMIT`` players the matching covers the field from ``LOOKUP_GROUPS`` win
    groups above the highest group with a repeat down to the bottom (and whoever the
    group-by-group pairs bring in); the pairs above stand.
    """
    tail = ordered
    if len(ordered) > WHOLE_LIMIT:
        wins = [standings.player(p).half_wins for p in ordered]
        levels = sorted(set(wins), reverse=True)
        first = min(
            levels.index(standings.player(a).half_wins)
            for pair in pairs
            if standings.meetings(*pair)
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
    whole = _pair_whole_field(standings, tail, groups, mine)
    if _repeat_cost(standings, whole) < _repeat_cost(standings, mine):
        return kept + whole
    return pairs


def _repeat_cost(standings: Standings, pairs: Sequence[tuple[str, str]]) -> tuple[int, int]:
    """Previous meetings of the pairs, then back-to-back rematches among them."""
    repeats = sum(standings.meetings(a, b) for a, b in pairs)
    rematches = sum(standings.back_to_back(a, b) for a, b in pairs)
    return repeats, rematches


def _pair_whole_field(
    standings: Standings,
    ordered: list[str],
    groups: list[list[str]],
    by_groups: Sequence[tuple[str, str]],
) -> list[tuple[str, str]]:
    """One matching over every player (see the module's doc)."""
    size = len(ordered)
    index = {pid: i for i, pid in enumerate(ordered)}
    group_of: list[int] = []
    place: list[int] = []  # position within the win group
    group_size: list[int] = []
    for g, group in enumerate(groups):
        for j in range(len(group)):
            group_of.append(g)
            place.append(j)
            group_size.append(len(group))

    def cost(a: int, b: int) -> Cost:
        pa, pb = ordered[a], ordered[b]
        repeats = standings.meetings(pa, pb)
        rematch = int(standings.back_to_back(pa, pb)) if repeats else 0
        if group_of[a] == group_of[b]:
            half = max(group_size[a] // 2, 1)
            same_half = (place[a] < half) == (place[b] < half)
            distance = abs(abs(place[a] - place[b]) - half) + (half if same_half else 0)
        else:
            upper, lower = (a, b) if group_of[a] < group_of[b] else (b, a)
            distance = (group_size[upper] - 1 - place[upper]) + place[lower]
        return (repeats, rematch, abs(group_of[a] - group_of[b]), distance)

    candidates: set[tuple[int, int]] = {
        (min(index[a], index[b]), max(index[a], index[b])) for a, b in by_groups
    }
    if size <= WHOLE_LIMIT:
        candidates.update((a, b) for a in range(size) for b in range(a + 1, size))
    else:
        for a in range(size):
            fresh, reach = 0, 1
            while reach < size and (reach <= NEIGHBOURS or fresh < MIN_FRESH):
                for b in (a - reach, a + reach):
                    if 0 <= b < size:
                        candidates.add((min(a, b), max(a, b)))
                        fresh += not standings.meetings(ordered[a], ordered[b])
                reach += 1
    edges: list[Edge] = [(a, b, cost(a, b)) for a, b in sorted(candidates)]
    matched = min_cost_perfect_matching(size, edges, WHOLE_CEILINGS)
    return [(ordered[a], ordered[b]) for a, b in matched]


def _pair_group(
    standings: Standings, carried: list[str], group: list[str], is_last: bool
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

    def cost(a: int, b: int) -> Cost:
        pa, pb = members[a], members[b]
        repeats = standings.meetings(pa, pb)
        rematch = int(standings.back_to_back(pa, pb)) if repeats else 0  # needs a meeting
        if a < n_carried and b < n_carried:
            distance = half + abs(a - b)
        elif a < n_carried:
            distance = abs((b - n_carried) - a)
        else:
            ja, jb = a - n_carried - n_carried, b - n_carried - n_carried
            # Keep top half against bottom half (transpose within a half before crossing).
            same_half = (ja < half) == (jb < half)
            distance = abs(abs(ja - jb) - half) + (half if same_half else 0)
        return (repeats, rematch, 0, distance)

    edges: list[Edge] = []
    if size <= COMPLETE_LIMIT:
        for a in range(size):
            for b in range(a + 1, size):
                edges.append((a, b, cost(a, b)))
    else:
        for a, b in sorted(_window_candidates(standings, members, n_carried, half)):
            edges.append((a, b, cost(a, b)))
    float_nodes = range(size, size + floats)
    for a in range(size):
        again = 1 if a < n_carried else 0
        for f in float_nodes:
            edges.append((a, f, (0, 0, 1 + again, size - 1 - a)))
    for f in float_nodes:
        for g in float_nodes:
            if f < g:
                edges.append((f, g, (0, 0, 0, 0)))
    matched = min_cost_perfect_matching(size + floats, edges, CEILINGS)
    pairs: list[tuple[str, str]] = []
    floated: list[str] = []
    for a, b in matched:
        if b < size:
            pairs.append((members[a], members[b]))
        elif a < size:
            floated.append(members[a])
    floated.sort(key=standings.rank)
    return pairs, floated


def _window_candidates(
    standings: Standings, members: list[str], n_carried: int, half: int
) -> set[tuple[int, int]]:
    """Pairs near each player's ideal partner and near the player, widened when needed."""
    size = len(members)
    where = {pid: i for i, pid in enumerate(members)}
    met = [{where[o] for o in standings.met(pid) if o in where} for pid in members]
    candidates: set[tuple[int, int]] = set()
    for a in range(size):
        centres = [a] if a < n_carried else [a, a + half, a - half]
        mine = {
            b
            for centre in centres
            for b in range(max(0, centre - WINDOW), min(size, centre + WINDOW + 1))
            if b != a
        }
        fresh = len(mine - met[a])
        reach = WINDOW + 1
        while fresh < MIN_FRESH and reach < size:
            for b in (a - reach, a + reach, a + half + reach, a - half - reach):
                if 0 <= b < size and b != a and b not in mine:
                    mine.add(b)
                    fresh += b not in met[a]
            reach += 1
        candidates.update((min(a, b), max(a, b)) for b in mine)
    return candidates
