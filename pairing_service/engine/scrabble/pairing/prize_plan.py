"""The final round's plan when places pay differently (``prize_places.py``).

What a careful director does with graded prizes, as tsh's ChewPair pairs each prize's
contenders among themselves:

1. players who can still move between paying tiers play each other KOTH (neighbours in
   rank: the race for each place head to head), by the pairing policy (no back-to-back
   rematch or meeting past the allowance where a neighbour can be swapped);
2. an odd racer left over plays, in this order, the highest-ranked player racing for the
   money line, the highest-ranked settled player, or (only when nobody else is left) the
   highest-ranked player who cannot reach a paid place: a racer never gets the bye or a
   non-contender while someone in the prize race is free;
3. players racing only for the last paid place are paired by the seed's principles, with
   the paid places as the victors (the fallback's outcome-engine search), as the seed asks
   where places are equal;
4. settled players (their tier fixed) are Gibsonized; the bye and everyone else as in
   every plan (``completion.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..prize_places import PlaceRace, PrizePlaces, ordinal
from ..standings import Standings
from .plans import Plan, RuleUsed
from .policy import RepeatPolicy

PRIZE_RULE_ID = "prize places"


def prize_plan(
    standings: Standings,
    race: PlaceRace,
    prizes: PrizePlaces,
    withdrawn: frozenset[str],
    policy: RepeatPolicy,
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
    warnings: list[str] = []
    odd = racing.pop() if len(racing) % 2 else None
    fixed = policy.closest_pairs(standings, racing)
    reasons = {pair: _race_reason(standings, race, pair) for pair in fixed}
    if odd is not None:
        partner, why = _odd_racer_partner(standings, race, odd, line, settled, playing, policy)
        if why:
            warnings.append(why)
        if partner is not None:
            line = [p for p in line if p != partner]
            settled = [p for p in settled if p != partner]
            pair = (odd, partner)
            fixed.append(pair)
            reasons[pair] = (
                f"prize places: #{standings.rank(odd)}, the last player racing for a place, "
                f"plays #{standings.rank(partner)}"
            )
    rule = RuleUsed(
        id=PRIZE_RULE_ID,
        source="prizes",
        method="place races head to head",
        text=(
            "Players who can still move between prize places play each other KOTH (the race "
            "for each place head to head); those racing only for the last paid place are "
            "paired by the principles GP1-GP4 with the paid places as victors; players whose "
            "place is settled are Gibsonized; everyone else is paired Swiss."
        ),
        reading=prizes.describe() + (f", {rounds_left} rounds left" if rounds_left > 1 else ""),
    )
    plan = Plan(
        rule=rule,
        gibsonized=tuple(settled),
        fixed=fixed,
        group=tuple(line),
        group_method="principled",
        victors=victors,
        cap=cap,
        rounds_left=rounds_left,
        fixed_reasons=reasons,
    )
    return plan, warnings


def _race_reason(standings: Standings, race: PlaceRace, pair: tuple[str, str]) -> str:
    """The places the two race for: from the better of their best places down to the
    better of their worst (or the money line, when both may miss it)."""
    reach = {r.player: r for r in race.reach}
    a, b = sorted(pair, key=standings.rank)
    top = max(reach[a].best, reach[b].best)
    bottoms = [w for w in (reach[a].worst, reach[b].worst) if w is not None]
    if not bottoms:
        places = f"places from {ordinal(top)} down to the money line"
    elif min(bottoms) <= top:
        places = ordinal(top)
    else:
        places = f"places {ordinal(top)} to {ordinal(min(bottoms))}"
    return f"prize places: #{standings.rank(a)} and #{standings.rank(b)} race for {places}"


def _odd_racer_partner(
    standings: Standings,
    race: PlaceRace,
    odd: str,
    line: Sequence[str],
    settled: Sequence[str],
    playing: set[str],
    policy: RepeatPolicy,
) -> tuple[str | None, str | None]:
    """The odd racer's opponent (module docs, step 2), and a warning when it has to be
    someone who cannot reach a paid place; None when nobody else plays (the odd racer
    then takes the bye of an odd field)."""
    taken = set(race.racing) | set(line) | set(settled)
    outsiders = [p for p in standings.ids if p in playing and p not in taken]
    for pool in (line, settled):
        if pool:
            return min(pool, key=lambda p: _cost(standings, policy, odd, p)), None
    if not outsiders:
        return None, (
            f"{standings.tag(odd)} races for a prize place but everyone else who plays is "
            "paired in the race: takes the bye"
        )
    partner = min(outsiders, key=lambda p: _cost(standings, policy, odd, p))
    return partner, (
        f"{standings.tag(odd)} races for a prize place but nobody else in the prize race is "
        "free: plays the highest-ranked player who cannot reach a paid place"
    )


def _cost(
    standings: Standings, policy: RepeatPolicy, player: str, opponent: str
) -> tuple[int, int, int, int]:
    back, over, met = policy.pair_cost(standings, player, opponent)
    return back, over, standings.rank(opponent), met
