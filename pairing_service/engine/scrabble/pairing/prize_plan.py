"""The round's plan when places pay differently (``prize_places.py``).

What a careful director does with graded prizes, as tsh's ChewPair pairs each prize's
contenders among themselves:

1. the prize race is matched once: the racers (who can cross a boundary between paying
   tiers), the money-line contenders, the settled players (their place is certain) and
   as many of the highest-ranked players in no race as there are racers and settled
   players. Only the racers' and the settled players' games are kept, so only they cost,
   in this order: a settled player facing anyone in a race (Gibsonization broken: a
   settled player plays the highest-ranked player in no race, never a racer); players
   facing someone who races for none of their places (the race for each place head to
   head: the principle comes before the repeat policy, so a race is kept even as a
   meeting past the allowance or straight after the last one, and the round's reasons
   say so); then the round's cost (``cost.py``: back-to-back rematches, meetings past
   the allowance, KOTH distance weighed against repeats). When two rivals cannot meet,
   each takes the nearest player whose own race the game does not break. Each game's
   reason is said from the finished pairing (``explain.boards.prize_reason``);
2. players racing only for the last paid place (the money line) are in the race's
   matching like the racers: the race for the money is kept head to head too; the
   principles GP1-GP4 are judged with the paid places as victors;
3. in an odd field a lone settled player takes the bye (tsh's rule; completion's step 2,
   unless they have had more byes than a player in no race); a racer gets the bye only
   when every player who plays races: with an odd pool the lowest-ranked player in no
   race sits the matching out.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...matching import Indices, every_pair, min_cost_perfect_matching_arrays
from ..cost import CEILINGS, game_costs, koth_distance
from ..plans import Plan, RuleUsed
from ..prize_places import PlaceRace, PrizePlaces
from ..standings import Standings
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
    field_size = len(playing)
    # A lone settled player in an odd field takes the bye (tsh's rule; completion's step 2
    # gives it, or a second bye to nobody): they are left to the Gibsonized step.
    lone = settled[-1] if field_size % 2 and len(settled) % 2 else None
    gibsonized = [p for p in settled if p != lone]
    pool, warnings = _race_pool(standings, playing, racing, line, settled, gibsonized)
    # The race for the money line is kept head to head like the others: real directors
    # pair it so (in every real division, when 1st was settled, 2nd-4th raced head to
    # head), where the principles' search over those players sent them to the players
    # below when the racers' games had settled their chances either way.
    kept_players = {*racing, *line, *gibsonized}
    fixed = [
        pair
        for pair in _race_matching(standings, race, pool, kept_players, set(gibsonized), swiss)
        if kept_players & set(pair)
    ]
    used = {p for pair in fixed for p in pair}
    rule = RuleUsed(
        id=PRIZE_RULE_ID,
        source="prizes",
        method="place races head to head",
        text=(
            "Players who can still move between prize places, or in or out of the money, play "
            "each other KOTH: the race for each place head to head, before the repeat policy "
            "(a race is kept even as a repeat past the allowance or straight after the last "
            "game, and its reason says so); players whose place is settled are Gibsonized "
            "(the highest-ranked player in no race, never a racer); everyone else is paired "
            "Swiss."
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
    )
    return plan, warnings


def _race_pool(
    standings: Standings,
    playing: set[str],
    racing: list[str],
    line: list[str],
    settled: list[str],
    gibsonized: list[str],
) -> tuple[list[str], list[str]]:
    """The players the races are matched among, by rank, and what that warns of."""
    in_race = {*racing, *line}
    # The highest-ranked players in no race, one for each player racing (for a place or
    # the money line) and each settled player: a settled player plays one of them, never
    # a racer; a racer whose race cannot be kept plays one rather than break someone
    # else's race too. (Too few of them and an odd race's last racer would be left to
    # face a settled player.)
    outsiders = [p for p in standings.ids if p in playing and p not in in_race and p not in settled]
    pool = sorted(
        [*racing, *line, *gibsonized, *outsiders[: len(in_race) + len(gibsonized)]],
        key=standings.rank,
    )
    warnings: list[str] = []
    if len(pool) % 2:
        spare = [p for p in pool if p not in in_race and p not in settled]
        if spare:
            pool.remove(max(spare, key=standings.rank))
        else:
            left_out = pool.pop()
            warnings.append(
                f"{standings.tag(left_out)} races for a prize place but everyone else who "
                "plays is paired in the race: takes the bye"
            )
    return pool, warnings


def _race_matching(
    standings: Standings,
    race: PlaceRace,
    pool: Sequence[str],
    kept: set[str],
    settled: set[str],
    swiss: SwissMemo,
) -> list[tuple[str, str]]:
    """The prize race matched (module docs, step 1); ``pool`` is even, in rank order.
    Only the games of ``kept`` players (the racers and the settled) cost."""
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
    # A race is broken by an opponent who does not race for the best place a player races
    # for: it weighs by that place's stake (the race for 1st before the race for the
    # money line: "the highest ranked ones should remain in contention", GP2), less the
    # stake of the best place the two still race for together (#1 racing for 1st against
    # a player who can only reach 2nd keeps part of #1's race). 0 in no race.
    paid = max(boundaries, default=0)
    # By a boundary's bit, from 1 (0: no race shared, or nobody racing at all).
    stakes = np.array([0, *(paid + 1 - b for b in boundaries)], np.int64)
    stake = np.array(
        [paid + 1 - min(race.races[p]) if race.races.get(p) else 0 for p in pool], np.int64
    )
    racing = stake > 0
    shared = masks[firsts] & masks[seconds]
    lowest = shared & -shared  # the best place both race for, as its bit
    together = stakes[np.where(shared != 0, np.log2(np.maximum(lowest, 1)).astype(np.int64) + 1, 0)]
    broken = (stake[firsts] - together) + (stake[seconds] - together)
    is_settled = np.array([p in settled for p in pool], bool)
    # A settled player facing a racer: Gibsonization broken, whatever else it saves.
    gibson = (is_settled[firsts] & racing[seconds]) | (is_settled[seconds] & racing[firsts])
    meetings = swiss.meetings_of(standings)
    at = meetings.positions_of(pool)
    policy = game_costs(meetings, swiss.policy, at, firsts, seconds, koth_distance(firsts, seconds))
    in_play = np.array([p in kept for p in pool], bool)
    # Only a kept player's game is kept (``prize_plan``): the others cost nothing on the
    # levels that choose a racer's opponent, so that games the plan throws away never
    # steer whom a racer plays; they cost their distance on a last level of their own,
    # which only breaks ties (thousands of games of equal cost slowed the blossom a
    # hundredfold when most of a 400-player field races).
    kept_game = (in_play[firsts] | in_play[seconds]).astype(np.int64)[:, None]
    levels = np.column_stack([gibson, broken, policy]).astype(np.int64)
    thrown = (1 - kept_game[:, 0]) * np.minimum(policy[:, -1], CEILINGS[-1])
    costs = np.column_stack([kept_game * levels, thrown])
    ceilings = (1, 2 * paid, *CEILINGS, CEILINGS[-1])
    matched = min_cost_perfect_matching_arrays(size, firsts, seconds, costs, ceilings)
    return [(pool[i], pool[j]) for i, j in matched]


def _nearest_pairs(size: int) -> tuple[Indices, Indices]:
    """Each player with the ``NEAREST_IN_RACE`` ranks below them in the race (neighbours
    alone hold a perfect matching, so the matching always has an answer), built directly:
    every pair of a 2,000-player pool would take 32 MB for a few thousand kept."""
    firsts = np.repeat(np.arange(size, dtype=np.int64), NEAREST_IN_RACE)
    seconds = firsts + np.tile(np.arange(1, NEAREST_IN_RACE + 1, dtype=np.int64), size)
    inside = seconds < size
    return firsts[inside], seconds[inside]
