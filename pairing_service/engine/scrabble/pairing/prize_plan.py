"""The final round's plan when places pay differently (``prize_places.py``).

What a careful director does with graded prizes, as tsh's ChewPair pairs each prize's
contenders among themselves:

1. the prize race is matched once: the racers (who can cross a boundary between paying
   tiers), the money-line contenders, the settled players and as many of the
   highest-ranked players out of the money as there are racers. Only the racers' games
   are kept, so only they cost: no back-to-back rematch, no meeting past the allowance,
   then as few players as possible facing someone who races for none of their places
   (the race for each place head to head), then KOTH (the smallest sum of rank gaps pairs
   neighbours), then fewest meetings. When two rivals met last round, each takes the
   nearest player whose own race the game does not break, and the other races stay head
   to head;
2. players racing only for the last paid place and not in a racer's game are paired by
   the seed's principles, with the paid places as victors (the fallback's outcome-engine
   search), as the seed asks where places are equal; settled players not in a racer's
   game are Gibsonized (each other, a lone one the bye or the highest non-contender);
3. a racer gets the bye only when every player who plays races: with an odd pool the
   lowest-ranked non-racer sits the matching out.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...matching import Indices, every_pair, min_cost_perfect_matching_arrays
from ..prize_places import PlaceRace, PrizePlaces, ordinal
from ..standings import Standings
from .plans import Plan, RuleUsed
from .policy import MAX_REPEATS_ALLOWED
from .swiss import SwissMemo

PRIZE_RULE_ID = "prize places"
# A race larger than this is matched over each player's nearest ranks only, as the
# fallback does (a blossom over every pair of hundreds of players takes too long).
WHOLE_RACE_LIMIT = 128
NEAREST_IN_RACE = 8


def prize_plan(
    standings: Standings,
    race: PlaceRace,
    prizes: PrizePlaces,
    withdrawn: frozenset[str],
    swiss: SwissMemo,
    cap: int | None,
    rounds_left: int,
    victors: int,
) -> tuple[Plan, list[str]]:
    """The plan, and what it warns of. ``victors``: the paid places left to the players
    who play (``withdrawals.field_of``)."""
    playing = set(standings.ids) - withdrawn
    racing = [p for p in race.racing if p in playing]
    line = [p for p in race.line if p in playing]
    settled = [p for p in race.settled if p in playing]
    in_race = [*racing, *line, *settled]
    # The highest-ranked players out of the money, one for each racer: a racer whose race
    # cannot be kept (their rival met them last round) plays one of them rather than
    # break someone else's race too.
    outsiders = [p for p in standings.ids if p in playing and p not in set(in_race)]
    pool = sorted([*in_race, *outsiders[: len(racing)]], key=standings.rank)
    warnings: list[str] = []
    if len(pool) % 2:
        spare = [p for p in pool if p not in set(racing)]
        if spare:
            pool.remove(max(spare, key=standings.rank))
        else:
            left_out = pool.pop()
            warnings.append(
                f"{standings.tag(left_out)} races for a prize place but everyone else who "
                "plays is paired in the race: takes the bye"
            )
    racers = set(racing)
    fixed = [
        pair for pair in _race_matching(standings, race, pool, racers, swiss) if racers & set(pair)
    ]
    used = {p for pair in fixed for p in pair}
    reasons = {pair: _race_reason(standings, race, pair) for pair in fixed}
    rule = RuleUsed(
        id=PRIZE_RULE_ID,
        source="prizes",
        method="place races head to head",
        text=(
            "Players who can still move between prize places play each other KOTH (the race "
            "for each place head to head), avoiding back-to-back rematches; those racing only "
            "for the last paid place are paired by the principles GP1-GP4 with the paid places "
            "as victors; players whose place is settled are Gibsonized; everyone else is "
            "paired Swiss."
        ),
        reading=prizes.describe() + (f", {rounds_left} rounds left" if rounds_left > 1 else ""),
    )
    plan = Plan(
        rule=rule,
        gibsonized=tuple(p for p in settled if p not in used),
        fixed=fixed,
        group=tuple(p for p in line if p not in used),
        group_method="principled",
        victors=victors,
        cap=cap,
        rounds_left=rounds_left,
        fixed_reasons=reasons,
    )
    return plan, warnings


def _race_matching(
    standings: Standings,
    race: PlaceRace,
    pool: Sequence[str],
    racers: set[str],
    swiss: SwissMemo,
) -> list[tuple[str, str]]:
    """The prize race matched (module docs, step 1); ``pool`` is even, in rank order.
    ``racers``: kept for the reasons; every player in a race counts on the race level."""
    size = len(pool)
    if size == 0:
        return []
    if size <= WHOLE_RACE_LIMIT:
        firsts, seconds = every_pair(size)
    else:
        firsts, seconds = _nearest_pairs(size)
    boundaries = sorted({b for found in race.races.values() for b in found})
    bit = {b: 1 << i for i, b in enumerate(boundaries)}
    masks = np.array([sum(bit[b] for b in race.races.get(p, ())) for p in pool], np.int64)
    racing = (masks != 0).astype(np.int64)  # in a race: between tiers, or for the money
    in_play = np.array([p in racers for p in pool], bool)
    shared = (masks[firsts] & masks[seconds]) != 0
    broken = np.where(shared, 0, racing[firsts] + racing[seconds])
    meetings = swiss.meetings_of(standings)
    at = meetings.positions_of(pool)
    repeats = meetings.repeats(at[firsts], at[seconds])
    ranks = np.array([standings.rank(p) for p in pool], np.int64)
    # Only a racer's game is kept (``prize_plan``): the others cost nothing, so that games
    # the plan throws away never steer whom a racer plays.
    kept = (in_play[firsts] | in_play[seconds]).astype(np.int64)[:, None]
    costs = kept * np.column_stack(
        [
            meetings.back_to_back(at[firsts], at[seconds]),
            swiss.policy.excess_of(repeats),
            broken,
            np.abs(ranks[firsts] - ranks[seconds]),
            repeats,
        ]
    ).astype(np.int64)
    ceilings = (1, MAX_REPEATS_ALLOWED, 2, len(standings), MAX_REPEATS_ALLOWED)
    matched = min_cost_perfect_matching_arrays(size, firsts, seconds, costs, ceilings)
    return [(pool[i], pool[j]) for i, j in matched]


def _nearest_pairs(size: int) -> tuple[Indices, Indices]:
    """Each player with the ``NEAREST_IN_RACE`` ranks below them in the race (neighbours
    alone hold a perfect matching, so the matching always has an answer)."""
    firsts, seconds = every_pair(size)
    near = seconds - firsts <= NEAREST_IN_RACE
    return firsts[near], seconds[near]


def _race_reason(standings: Standings, race: PlaceRace, pair: tuple[str, str]) -> str:
    """The places the two race for: from the better of their best places down to the
    better of their worst (or the money line, when both may miss it); or, when they race
    for nothing in common, who each is (the matching kept as many races as it could)."""
    reach = {r.player: r for r in race.reach}
    a, b = sorted(pair, key=standings.rank)
    tags = f"#{standings.rank(a)} and #{standings.rank(b)}"
    if not race.races.get(a, frozenset()) & race.races.get(b, frozenset()):
        return (
            f"prize places: #{standings.rank(a)} ({_kind(race, a)}) plays "
            f"#{standings.rank(b)} ({_kind(race, b)}): no rival in a race of theirs was left "
            "free by the pairing that keeps the most races head to head"
        )
    top = max(reach[a].best, reach[b].best)
    bottoms = [w for w in (reach[a].worst, reach[b].worst) if w is not None]
    if not bottoms:
        places = f"places from {ordinal(top)} down to the money line"
    elif min(bottoms) <= top:
        places = ordinal(top)
    else:
        places = f"places {ordinal(top)} to {ordinal(min(bottoms))}"
    return f"prize places: {tags} race for {places}"


def _kind(race: PlaceRace, player: str) -> str:
    if player in race.racing:
        return "racing for a prize place"
    if player in race.line:
        return "racing for the money line"
    if player in race.settled:
        return "settled in the money"
    return "out of the money"
