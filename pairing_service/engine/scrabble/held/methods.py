"""The pairing methods of a held Scrabble event's round, each a pure function of the
standings (``Standings``: players in rank order, with their earlier opponents).

- ``seeded``: by rating, the top half against the bottom half (1 v n/2+1, 2 v n/2+2, ...),
  the usual first round of a rated event;
- ``random``: a seeded shuffle, paired in shuffled order;
- ``swiss``: the engine's Swiss within win groups (``pairing/swiss.py``: top half against
  bottom half of each win group, floats and the whole-field matching to avoid repeats);
- ``koth``: King of the Hill, adjacent ranks (1-2, 3-4, ...);
- ``advisor``: the final-round advisor (``pairing/advisor.py``) on the event's standings;
- ``round_robin``: the round robin's circle (``round_robin.py``), never the standings.

Every method but the advisor's picks the bye first, when the field is odd: the
lowest-ranked player among those with the fewest byes (tsh's default, and so nobody gets a
second bye while someone has none). Seeded, random and KOTH pair by one minimum-cost
perfect matching at the round's cost (``cost.py``): back-to-back rematches,
meetings past the repeat allowance, then the distance from the method's ideal pairing
weighed against the repeats. Without history each gives its ideal pairing exactly.
Before the method, players whose place is settled are Gibsonized
(``gibsonization.py``), in every round but a round robin's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from ..cost import Meetings, RepeatPolicy, halves_ideal, pair_closest
from ..explain.boards import meeting_cost, opponents_of, prize_reason
from ..game import Game
from ..pairing.advisor import Advice, advise
from ..pairing.swiss import SwissMemo, pair_swiss
from ..prize_places import PrizePlaces
from ..rule_table import RuleTable
from ..standings import Standings
from .gibsonization import WITHDRAWN_SPREAD, Gibsonized, Places, gibsonize
from .log_events import Method, Pair

if TYPE_CHECKING:
    from .round_robin import RoundRobin


@dataclass(frozen=True)
class Pairing:
    games: tuple[Pair, ...]  # board order: the best-ranked game first
    bye: str | None
    rule: str | None = None  # the advisor's rule, or the round robin's round, in words
    unopposed: tuple[str, ...] = ()  # a round robin's: their opponent withdrew, a bye each


@dataclass(frozen=True)
class FinalRound:
    """What the advisor needs beside the standings."""

    table: RuleTable
    victors: int
    spread_cap: int | None
    rounds_left: int
    # Every player's standings, the withdrawn too (their place and games count for the
    # victor places); the standings of those who play are the fallback (below).
    everyone: Standings | None = None
    prizes: tuple[Decimal | None, ...] | None = None  # instead of ``victors`` equal places


def bye_for(standings: Standings, players: Sequence[str], byes: dict[str, int]) -> str:
    """The bye of an odd field: the lowest-ranked of those with the fewest byes."""
    fewest = min(byes.get(p, 0) for p in players)
    return max((p for p in players if byes.get(p, 0) == fewest), key=standings.rank)


def pair_round(
    method: Method,
    standings: Standings,
    players: Sequence[str],
    byes: dict[str, int],
    repeats_allowed: int,
    ratings: dict[str, int],
    seed: int = 0,
    final: FinalRound | None = None,
    places: Places | None = None,
    robin: RoundRobin | None = None,
) -> Pairing:
    """Round pairings of ``players`` (those who play: the active players of the event)
    by ``method``. ``byes``: the byes each player has had; ``ratings`` for ``seeded``;
    ``places``: who is settled (Gibsonized first, whatever the method but a round
    robin's fixed schedule); ``robin``: a round robin's circle."""
    if method == "round_robin":
        if robin is None:
            raise ValueError("a round robin is paired from its circle")
        return robin.pairing(players)
    last_round = places is not None and places.rounds_left == 1
    policy = RepeatPolicy(repeats_allowed, last_round=last_round)
    if method == "advisor":
        if final is None:
            raise ValueError("the advisor needs the final round's settings")
        return _advised(standings, players, policy, final)
    ranked = sorted(players, key=standings.rank)
    bye = bye_for(standings, ranked, byes) if len(ranked) % 2 else None
    gibsonized = (
        gibsonize(standings, ranked, byes, places, policy, bye)
        if places is not None
        else Gibsonized((), bye, tuple(p for p in ranked if p != bye), ())
    )
    bye, playing = gibsonized.bye, list(gibsonized.left)
    if method == "swiss":
        games = pair_swiss(standings, playing, SwissMemo(policy))
    elif method == "seeded":
        listed = {p: i for i, p in enumerate(playing)}
        order = sorted(playing, key=lambda p: (-ratings[p], listed[p]))
        games = _matched(standings, policy, order, len(order) // 2)
    elif method == "random":
        order = list(playing)
        random.Random(seed).shuffle(order)
        games = _matched(standings, policy, order, 1)
    else:  # koth
        games = _matched(standings, policy, playing, 1)
    rank = standings.rank
    every = [*gibsonized.games, *games]
    ordered = sorted((tuple(sorted(g, key=rank)) for g in every), key=lambda g: rank(g[0]))
    rule = "; ".join(gibsonized.reasons) or None
    return Pairing(tuple((a, b) for a, b in ordered), bye, rule)


def _matched(
    standings: Standings,
    policy: RepeatPolicy,
    order: Sequence[str],
    gap: int,
) -> list[Pair]:
    """A perfect matching of ``order`` closest to the pairs ``gap`` apart in it (1: 1-2,
    3-4, ...; half the field: the top half against the bottom half), at the round's cost
    (``cost.py``)."""
    ideal = None if gap == 1 else halves_ideal(len(order))
    return pair_closest(Meetings(standings), policy, order, ideal)


def _advised(
    standings: Standings, players: Sequence[str], policy: RepeatPolicy, final: FinalRound
) -> Pairing:
    """The advisor's pairing of the players who play (``standings`` holds only them).

    Withdrawn players are judged as the advisor judges players who sit out with a known
    result, their record as it stands (``WITHDRAWN_SPREAD``): out of reach of the victor
    places, they never displace anyone; certain of a place, the others race for the places
    left; either side of a victor line, every outcome counts them at that record, and the
    rule says so."""
    judged = final.everyone if final.everyone is not None else standings
    advice = _advice(judged, players, policy, final)
    playing = set(players)
    in_reach = [p for p in advice.contenders if p not in playing]
    note = "".join(
        f"; {p} withdrew in reach of a victor place: counted as they stand" for p in in_reach
    )
    games = [(g.players[0], g.players[1]) for g in advice.games if not g.bye]
    byes = [g.players[0] for g in advice.games if g.bye]
    rule = advice.rule
    words = (f"{rule.id}: {rule.method}" if rule.id else rule.method) + note
    # A rematch between two players still racing is the principles' choice (the race
    # kept head to head, GP2): it stands, and the facts below say so; any other is
    # swapped away.
    swapped = without_back_to_back(standings, policy, games, frozenset(advice.contenders))
    facts = _decisive_facts(judged, policy, advice, games, byes)
    if facts:
        words += "; " + "; ".join(facts)
    if swapped:
        words += f"; partners swapped to avoid a back-to-back rematch ({', '.join(swapped)})"
    return Pairing(tuple(games), byes[0] if byes else None, words)


def _decisive_facts(
    standings: Standings,
    policy: RepeatPolicy,
    advice: Advice,
    games: Sequence[Pair],
    byes: Sequence[str],
) -> list[str]:
    """The reasons of the round's games that record a decision (``explain.boards``), said
    of the games as posted, after any swap: a settled or Gibsonized player's game, a
    racer who does not face a rival, a game kept though it repeats past the allowance or
    straight after the last one. With graded prizes every such reason is said again from
    the posted games (a swap may move a rival); otherwise a game the swaps changed is
    said by the swap."""
    posted = [*games, *((b,) for b in byes)]
    if advice.race is not None:
        race = advice.race
        opponent = opponents_of(posted)

        def decides(game: Sequence[str]) -> bool:
            if len(game) == 1:
                return game[0] in race.settled
            a, b = game
            settled = a in race.settled or b in race.settled
            unmatched = bool(race.races.get(a) or race.races.get(b)) and not race.rivals(a, [b])
            return settled or unmatched or meeting_cost(standings, policy, a, b) is not None

        decisive = [g for g in posted if decides(g)]
        found = [prize_reason(standings, race, policy, opponent, g) for g in decisive]
        return [reason for reason in found if reason]
    kept = {frozenset(g) for g in games}
    gibsonized = set(advice.gibsonized)

    def gibsonized_or_kept(game: Game) -> bool:
        if game.bye:
            return game.players[0] in gibsonized
        a, b = game.players
        if frozenset(game.players) not in kept:
            return False  # swapped: said by the swap
        return bool(gibsonized & {a, b}) or meeting_cost(standings, policy, a, b) is not None

    return [g.reason for g in advice.games if gibsonized_or_kept(g)]


def _advice(
    standings: Standings, players: Sequence[str], policy: RepeatPolicy, final: FinalRound
) -> Advice:
    withdrawn = frozenset(standings.ids) - frozenset(players)
    return advise(
        standings,
        final.table,
        victors=final.victors,
        max_spread_per_game=final.spread_cap,
        rounds_left=final.rounds_left,
        repeats_allowed=policy.allowance,
        withdrawn=withdrawn,
        known_results=dict.fromkeys(withdrawn, WITHDRAWN_SPREAD),
        prizes=None if final.prizes is None else PrizePlaces(final.prizes),
        explain=False,  # a round answers its games and rule, not the advisor's proofs
    )


def _by_rank(standings: Standings, pair: Pair) -> Pair:
    a, b = sorted(pair, key=standings.rank)
    return a, b


def without_back_to_back(
    standings: Standings,
    policy: RepeatPolicy,
    games: list[Pair],
    racing: frozenset[str] = frozenset(),
) -> list[str]:
    """Swap partners between games (in place) so that no game repeats the last round's,
    as tsh never pairs one: each such game with the nearest game on the board whose swap
    makes neither game a back-to-back rematch nor a meeting past the allowance (else the
    nearest making no back-to-back rematch). Games between two of ``racing`` (players
    still racing for a place) are the principles' and are neither swapped nor swapped
    into. The swaps made, in words ("P3-P9 and P4-P7 for P3-P4, P7-P9")."""
    made: list[str] = []

    def raced(pair: Pair) -> bool:
        return pair[0] in racing and pair[1] in racing

    def cost(pair: tuple[str, str]) -> tuple[int, int]:
        back, over, _ = policy.pair_cost(standings, *pair)
        return back, over

    for at in range(len(games)):
        if cost(games[at])[0] == 0 or raced(games[at]):
            continue
        a, b = games[at]
        best: tuple[tuple[int, int], int, Pair, Pair] | None = None
        for other in sorted(range(len(games)), key=lambda j: (abs(j - at), j)):
            if other == at or raced(games[other]):
                continue
            c, d = games[other]
            for first, second in (((a, c), (b, d)), ((a, d), (b, c))):
                paid = tuple(x + y for x, y in zip(cost(first), cost(second), strict=True))
                if paid[0] == 0 and (best is None or paid < best[0]):
                    best = ((paid[0], paid[1]), other, first, second)
            if best is not None and best[0] == (0, 0):
                break
        if best is None:
            continue  # no swap avoids it: the advisor's game stands
        _, other, first, second = best
        first, second = (_by_rank(standings, pair) for pair in (first, second))
        was = f"{a}-{b}, {games[other][0]}-{games[other][1]}"
        games[at], games[other] = first, second
        made.append(f"{first[0]}-{first[1]} and {second[0]}-{second[1]} for {was}")
    return made
