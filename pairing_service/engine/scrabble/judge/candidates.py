"""The pairings a pairing is compared with: every pairing of the players when there are
few enough, else standard pairings and swaps of the given one.

A candidate pairs the judged players among themselves or with ``OUTSIDER``, any player
who cannot be a victor (they are interchangeable to the principles). Each candidate is
kept as its ``canonical`` key, so the same pairing written two ways is judged once.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence

from ..standings import Standings
from .count_tables import MAX_TABLE_PLAYERS
from .principles import Pairs

MAX_EXHAUSTIVE_CANDIDATES = 240  # every pairing of up to 7 relevant players
MAX_COMPARED_PLAYERS = MAX_TABLE_PLAYERS  # relevant players; beyond, pairings are not compared
MAX_SWAPPED_GAME_PAIRS = 36  # every pair of up to 9 games (12 relevant players: 6)
OUTSIDER = "\x00outsider"  # an opponent who cannot be a victor (never a real id)


def lists_every_pairing(open_players: Sequence[str], outsiders: int) -> bool:
    """Whether the candidates are every pairing of ``open_players`` (with up to
    ``outsiders`` outsiders): few enough to list them all."""
    return (
        len(open_players) <= MAX_COMPARED_PLAYERS
        and matching_count(len(open_players), max(outsiders, 0)) <= MAX_EXHAUSTIVE_CANDIDATES
    )


def standard_candidates(
    standings: Standings, players: list[str], pairs: Sequence[tuple[str, str]]
) -> list[Pairs]:
    """Top vs bottom, KOTH, Swiss halves (an odd one out plays an outsider), and every
    swap of partners between two games of ``pairs``; with more than
    ``MAX_SWAPPED_GAME_PAIRS`` pairs of games, the swaps between the games closest in
    rank (their number grows as the square of the games)."""
    ordered = sorted(players, key=standings.rank)
    odd: Pairs = ((ordered.pop(), OUTSIDER),) if len(ordered) % 2 else ()
    half = len(ordered) // 2
    found = [
        tuple(zip(ordered[:half], reversed(ordered[half:]), strict=True)) + odd,
        tuple(zip(ordered[0::2], ordered[1::2], strict=True)) + odd,
        tuple(zip(ordered[:half], ordered[half:], strict=True)) + odd,
    ]
    members = set(players)
    given = [pair for pair in canonical(standings, pairs) if pair[0] in members]
    found.append(tuple(given))
    game_pairs = list(itertools.combinations(range(len(given)), 2))
    if len(game_pairs) > MAX_SWAPPED_GAME_PAIRS:
        game_pairs = sorted(game_pairs, key=lambda ij: (ij[1] - ij[0], ij[0]))
        game_pairs = game_pairs[:MAX_SWAPPED_GAME_PAIRS]
    for i, j in game_pairs:
        (a, b), (c, d) = given[i], given[j]
        for first, second in (((a, c), (b, d)), ((a, d), (b, c))):
            if (OUTSIDER, OUTSIDER) in (first, second):
                continue
            swapped = list(given)
            swapped[i], swapped[j] = first, second
            found.append(tuple(swapped))
    return found


def canonical(standings: Standings, pairs: Sequence[tuple[str, str]]) -> Pairs:
    """The pairing as one key: each game higher-ranked player first (a player outside the
    standings, the bye's marker, second), the games by their first player's rank. Called
    for every pairing compared, so it ranks through the positions map directly."""
    position = standings.positions
    outside = len(position)
    keyed = []
    for a, b in pairs:
        at_a, at_b = position.get(a, outside), position.get(b, outside)
        keyed.append((at_a, a, b) if at_a <= at_b else (at_b, b, a))
    keyed.sort()
    return tuple([(a, b) for _, a, b in keyed])


def matching_count(players: int, outsiders: int) -> int:
    """How many pairings ``partial_matchings`` lists: j players face outsiders (any j up
    to ``outsiders``), the rest are paired, in (m - 1)!! ways for m players."""
    total = 0
    for facing in range(min(players, outsiders) + 1):
        rest = players - facing
        if rest % 2 == 0:
            total += math.comb(players, facing) * math.prod(range(rest - 1, 0, -2))
    return total


def partial_matchings(players: list[str], outsiders: int) -> Iterator[Pairs]:
    """Every way to pair ``players`` among themselves, the rest facing outsiders."""
    if not players:
        yield ()
        return
    first, rest = players[0], players[1:]
    if outsiders > 0:
        for tail in partial_matchings(rest, outsiders - 1):
            yield ((first, OUTSIDER), *tail)
    for i, partner in enumerate(rest):
        remaining = rest[:i] + rest[i + 1 :]
        for tail in partial_matchings(remaining, outsiders):
            yield ((first, partner), *tail)
