"""Each board's reason in words, from the facts the engine holds about the pairing
answered: who races whom for which places, who is certain of what, and what the round's
cost (``cost.py``) weighs when a game is a rematch or is moved off the ideal
pairing (back to back, past the allowance, an earlier meeting).

Every clause states a fact of the answer's own pairing and standings ("#6's only rival
#5 plays #4", "#2 met them last round"), never what a step meant to do: a reason built
from the step that made a game can be contradicted by a later step (a held round's swaps),
one computed from the finished pairing cannot. ``tests/unit/engine/scrabble/
test_board_reasons.py`` checks the claims on the real divisions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from ..cost import RepeatPolicy, rounds_since
from ..prize_places import PlaceRace, ordinal, span_text
from ..standings import Standings, format_half

MAX_RIVALS_NAMED = 4


def _beyond_weight(
    standings: Standings, policy: RepeatPolicy, a: str, b: str
) -> tuple[int, bool, bool]:
    """The earlier meetings of ``a`` and ``b``, and whether pairing them again is back to
    back and past the allowance (the round's cost above its weighed level)."""
    met = standings.meetings(a, b)
    return met, bool(met) and standings.back_to_back(a, b), policy.excess(met) > 0


def meeting_cost(standings: Standings, policy: RepeatPolicy, a: str, b: str) -> str | None:
    """What pairing ``a`` and ``b`` again costs beyond the weighed level, in words:
    "back-to-back rematch", "3rd meeting, past the allowance of 1", or both; None when it
    is neither (a first meeting, or a repeat within the allowance)."""
    met, back, over = _beyond_weight(standings, policy, a, b)
    meeting = f"{ordinal(met + 1)} meeting"
    if back and over:
        return f"{meeting} and back to back, past the allowance of {policy.allowance}"
    if over:
        return f"{meeting}, past the allowance of {policy.allowance}"
    return "back-to-back rematch" if back else None


def kept_despite(
    standings: Standings, policy: RepeatPolicy, a: str, b: str, race: str
) -> str | None:
    """A race kept head to head though the game costs more than its weight: "#1 and #2
    meet a 3rd time, past the allowance of 1: the race for 1st kept head to head"; None
    when the game costs nothing beyond it."""
    met, back, over = _beyond_weight(standings, policy, a, b)
    if not (back or over):
        return None
    tags = " and ".join(f"#{r}" for r in sorted((standings.rank(a), standings.rank(b))))
    allowance = f"past the allowance of {policy.allowance}"
    if back and over:
        meets = f"meet a {ordinal(met + 1)} time, back to back and {allowance}"
    elif over:
        meets = f"meet a {ordinal(met + 1)} time, {allowance}"
    else:
        meets = "meet again straight after their last game"
    return f"{tags} {meets}: {race} kept head to head"


def passed_over(
    standings: Standings,
    policy: RepeatPolicy,
    player: str,
    ideal: str,
    chosen: str | None = None,
) -> str | None:
    """Why ``player`` plays ``chosen`` rather than ``ideal``, the opponent the method
    ranks first for them, when the round's cost is the reason: "#5 met them last round",
    "#5 would be a 4th meeting, past the allowance of 2", "#5 would be a 3rd meeting"
    (more than ``chosen``'s), "#5 met them 3 rounds ago" (more recently than ``chosen``:
    a recent repeat weighs more, except in the last round); None when none of these
    holds (the cost moved them for another game's sake)."""
    met = standings.meetings(player, ideal)
    tag = f"#{standings.rank(ideal)}"
    if not met:
        return None
    if standings.back_to_back(player, ideal):
        return f"{tag} met them last round"
    meeting = f"{tag} would be a {ordinal(met + 1)} meeting"
    if policy.excess(met):
        return f"{meeting}, past the allowance of {policy.allowance}"
    other = 0 if chosen is None else standings.meetings(player, chosen)
    if met > other:
        return meeting
    ago = rounds_since(standings, player, ideal)
    if (
        chosen is not None
        and not policy.last_round
        and ago < rounds_since(standings, player, chosen)
    ):
        return f"{tag} met them {ago} rounds ago"
    return None


def whereabouts(standings: Standings, opponent: Mapping[str, str | None], player: str) -> str:
    """Where ``player`` is in the pairing: "plays #4", "has the bye"."""
    other = opponent[player]
    return "has the bye" if other is None else f"plays #{standings.rank(other)}"


def places_words(boundaries: Iterable[int], paid: int) -> str:
    """Tier boundaries in words, as the places raced for: "1st", "3rd, 4th and the money
    line", "2nd to 4th" (a boundary b: finishing in the top b or not; the last paid place
    is the money line)."""
    found = sorted(set(boundaries))
    inner = [b for b in found if b != paid]
    consecutive = len(inner) >= 3 and inner[-1] - inner[0] == len(inner) - 1
    items = [f"{ordinal(inner[0])} to {ordinal(inner[-1])}"] if consecutive else []
    items = items or [ordinal(b) for b in inner]
    if paid in found:
        items.append("the money line")
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def opponents_of(games: Sequence[Sequence[str]]) -> dict[str, str | None]:
    """Each player of a pairing with their opponent (None: the bye)."""
    found: dict[str, str | None] = {}
    for game in games:
        if len(game) == 1:
            found[game[0]] = None
        else:
            a, b = game
            found[a], found[b] = b, a
    return found


def prize_reason(
    standings: Standings,
    race: PlaceRace,
    policy: RepeatPolicy,
    opponent: Mapping[str, str | None],
    game: Sequence[str],
) -> str | None:
    """The reason of a game (or the bye) of a player in the prize races (``prize_plan``),
    from the finished pairing ``opponent``: the race kept head to head, and at what cost;
    or, for a racer facing someone who races for none of their places, where their rivals
    are; or the place a settled player is certain of, and whom they play. None for a game
    of players in no race and settled in none (its own step says why)."""
    rank = standings.rank
    certain = settled_places(race)
    if len(game) == 1:
        (player,) = game
        if player in certain:
            return f"#{rank(player)} is certain of {certain[player]}: takes the bye"
        return None
    a, b = sorted(game, key=rank)
    shared = race.races.get(a, frozenset()) & race.races.get(b, frozenset())
    if shared:
        places = places_words(shared, race.paid)
        kept = kept_despite(standings, policy, a, b, f"the race for {places}")
        return kept or f"#{rank(a)} and #{rank(b)} race for {places}"
    racer = next((p for p in (a, b) if race.races.get(p)), None)
    if racer is not None:
        return _rivals_elsewhere(standings, race, opponent, racer)
    if a in certain and b in certain:
        return (
            f"#{rank(a)} and #{rank(b)} are certain of {certain[a]} and {certain[b]}: "
            "settled, they play each other"
        )
    settled = a if a in certain else b if b in certain else None
    if settled is None:
        return None
    other = b if settled == a else a
    return f"#{rank(settled)} is certain of {certain[settled]}: plays " + _highest_in_no_race(
        standings, race, policy, opponent, settled, other
    )


def settled_places(race: PlaceRace) -> dict[str, str]:
    """Each settled player with the places they are certain of: "3rd", "3rd or 4th" (a
    tier of places paying alike)."""
    reach = {r.player: r for r in race.reach}
    return {p: span_text(reach[p].best, reach[p].worst or reach[p].best) for p in race.settled}


def _rivals_elsewhere(
    standings: Standings, race: PlaceRace, opponent: Mapping[str, str | None], racer: str
) -> str:
    """A racer facing someone who races for none of their places: where their rivals are
    ("#6's only rival #5 plays #4")."""
    rank = standings.rank
    tag = f"#{rank(racer)}"
    rivals = race.rivals(racer, [p for p in standings.ids if p in opponent])
    if not rivals:
        places = places_words(race.races[racer], race.paid)
        return f"{tag} races for {places}: no rival of theirs plays this round"
    if len(rivals) == 1:
        (rival,) = rivals
        met = " met them last round and" if standings.back_to_back(racer, rival) else ""
        return f"{tag}'s only rival #{rank(rival)}{met} {whereabouts(standings, opponent, rival)}"
    named = [f"#{rank(p)}" for p in rivals[:MAX_RIVALS_NAMED]]
    more = len(rivals) - len(named)
    listed = (
        f"{', '.join(named)} and {more} more"
        if more
        else f"{', '.join(named[:-1])} and {named[-1]}"
    )
    every = "both" if len(rivals) == 2 else "all"
    back = [f"#{rank(p)}" for p in rivals if standings.back_to_back(racer, p)]
    note = f" ({back[0]} met them last round)" if back else ""
    return f"{tag}'s rivals {listed} {every} play elsewhere{note}"


def _highest_in_no_race(
    standings: Standings,
    race: PlaceRace,
    policy: RepeatPolicy,
    opponent: Mapping[str, str | None],
    settled: str,
    other: str,
) -> str:
    """Whom a settled player plays: "#7, the highest-ranked player in no race", or, when
    a higher one is elsewhere, where ("#9, in no race (#7 plays #6)")."""
    rank = standings.rank
    tag = f"#{rank(other)}"
    if race.races.get(other):
        return f"{tag}, who races for {places_words(race.races[other], race.paid)}"
    above = [
        p
        for p in standings.ids[: rank(other) - 1]
        if p != settled and p in opponent and race.in_no_race(p) and p not in race.settled
    ]
    if not above:
        return f"{tag}, the highest-ranked player in no race"
    first = above[0]
    why = passed_over(standings, policy, settled, first, other) or (
        f"#{rank(first)} {whereabouts(standings, opponent, first)}"
    )
    return f"{tag}, in no race ({why})"


def outsider_words(
    standings: Standings,
    policy: RepeatPolicy,
    player: str,
    chosen: str,
    pool: Sequence[str],
    outside: frozenset[str],
    kind: str = "who cannot become a victor",
) -> str:
    """Whom ``player`` plays from ``pool`` (free players of ``kind``, in order of
    preference), in words: "plays #5, the highest-ranked player who cannot become a
    victor", or another and why ("plays #6, who cannot become a victor (#5 met them last
    round)"). ``outside``: every player of ``kind`` who plays, to say "still free" when a
    higher-ranked one plays elsewhere."""
    rank = standings.rank
    tag = f"#{rank(chosen)}"
    if pool and chosen != pool[0]:
        why = passed_over(standings, policy, player, pool[0], chosen)
        return f"plays {tag}, {kind}" + (f" ({why})" if why else "")
    higher = any(p in outside for p in standings.ids[: rank(chosen) - 1] if p != player)
    still = " still free" if higher else ""
    return f"plays {tag}, the highest-ranked player{still} {kind}"


def swiss_reasons(
    standings: Standings,
    policy: RepeatPolicy,
    pairs: Sequence[tuple[str, str]],
    ideal: Mapping[str, str],
) -> list[str]:
    """Each Swiss game's reason (``ideal``: each player's ideal Swiss opponent among the
    players paired, ``swiss.swiss_ideal``): the win group it pairs, or why a player is
    not facing their Swiss opponent ("#9's Swiss opponent #13 met them last round")."""
    rank = standings.rank
    reasons = []
    for a, b in pairs:
        a, b = (a, b) if rank(a) < rank(b) else (b, a)
        if ideal.get(a) == b:
            wins = standings.player(a).half_wins
            group = f"the {format_half(wins)}-win group"
            if wins == standings.player(b).half_wins:
                reasons.append(f"rest Swiss: {group}, top half v bottom half")
            else:
                reasons.append(f"rest Swiss: #{rank(a)} floats down from {group}")
            continue
        why = None
        for player, chosen in ((a, b), (b, a)):
            partner = ideal.get(player)
            found = (
                None if partner is None else passed_over(standings, policy, player, partner, chosen)
            )
            if found is not None:
                why = f"#{rank(player)}'s Swiss opponent {found}"
                break
        reasons.append(
            f"rest Swiss, off the Swiss order: {why}"
            if why
            else "rest Swiss: the nearest to the Swiss order that other games' repeats allow"
        )
    return reasons


def repeat_lines(
    standings: Standings, policy: RepeatPolicy, pairs: Sequence[tuple[str, str]]
) -> list[str]:
    """The round's repeats as one count ("repeats: 6 games between players who have met
    (2nd meetings: 5, 3rd: 1)"; each game's ``repeats`` gives the pair), and a line for
    each game a director must see: a back-to-back rematch, a meeting past the allowance."""
    repeated = [(a, b) for a, b in pairs if standings.meetings(a, b)]
    if not repeated:
        return []
    meetings = Counter(standings.meetings(a, b) + 1 for a, b in repeated)
    counts = [
        f"{ordinal(nth)}{' meetings' if at == 0 else ''}: {count}"
        for at, (nth, count) in enumerate(sorted(meetings.items()))
    ]
    total = len(repeated)
    lines = [
        f"repeats: {total} game{'s' if total > 1 else ''} between players who have met "
        f"({', '.join(counts)})"
    ]
    rank = standings.rank
    costly = []
    for a, b in repeated:
        cost = meeting_cost(standings, policy, a, b)
        if cost is not None:
            x, y = sorted((rank(a), rank(b)))
            costly.append((x, y, cost))
    lines += [f"#{x} and #{y}: {cost}" for x, y, cost in sorted(costly)]
    return lines
