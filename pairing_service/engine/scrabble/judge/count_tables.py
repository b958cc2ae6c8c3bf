"""How many players can finish above a record, tabulated once for every game of a field.

``RoundUnderTest`` answers "how many others can finish above p" for one pairing by walking
its games. Judging a pairing compares it with dozens of other pairings of the same players,
and each of them asks the same questions about mostly the same games. This module answers
them for every pairing of a field at once.

A *subject* is a player, one of their own results (win, draw, loss; the bye for the player
who has it) and a question: *certain* (the most players level with or above the player's
worst record for that result) or *possible* (the fewest strictly above their best record).
For every subject and every game a pairing could contain (two relevant players, a relevant
player against an outsider, or a relevant player's bye), the table holds the most (certain)
or fewest (possible) of that game's players above the subject's record, over the game's
results and margins. A game holding the subject's own player holds the count of their
opponent, whose margin is tied to the player's. The count of a whole pairing for every
subject is then one sum over its games: games are independent (see ``proof``). A player
sitting out with a known result has one "game" too, with a fixed result as the bye's
(``FixedRecords``): every pairing holds it.

``field_table.FieldTable`` holds these counts for every game of a field. Fields with more
relevant players than it covers (``MAX_TABLE_PLAYERS``) judge one pairing each:
``pairing_table.PairingTable`` holds the same counts for that pairing's own games only,
O(players x games). GP1's search runs on either table (``leader_search``). This module
holds what they share: the subjects' records and thresholds, and the rules for every
game's result that show GP1 broken (``GP1_RULES``).

Contract: ``FieldTable.counts(pairs)[question, player, result]`` equals
``RoundUnderTest.count_above(player, own_fix(player, result), maximize=question is
CERTAIN)`` for every relevant player of the pairing;
``tests/unit/engine/scrabble/test_count_tables.py`` checks it against that and against brute
force over outcomes and margins.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

import numpy as np
from numpy.typing import NDArray

from ...matching import Indices
from ..contention import BYE_SPREAD, UNBOUNDED, Result, fixed_moves
from ..standings import Standings
from .proof import ALWAYS, NEVER

CERTAIN: Final = 0
POSSIBLE: Final = 1
RESULTS: Final = (Result.WIN, Result.DRAW, Result.LOSS)  # the result axis, as the player's own
BYE_RESULT: Final = 0  # the bye is filed under the win (its only result)
MAX_TABLE_PLAYERS: Final = 64  # memory grows as players cubed (about 1.7 MB at 64)

Counts = NDArray[np.int64]  # [question, player, result]
IntT = TypeVar("IntT", bound=np.integer[Any])

# Rules for every game's result, from its players' places, as (the higher-ranked leader's
# result between leaders, a leader's result against anyone else, the higher-ranked player's
# result in any other game): 0 win, 1 draw, 2 loss; a player who can be a victor beats an
# outsider. They show GP1 broken (``EveryPairing.gp1_broken_everywhere``); likeliest first.
GP1_RULES: Final = tuple(
    sorted(
        itertools.product(range(3), range(3), (0, 2, 1)),
        key=lambda rule: (rule[1] == 1, rule[0] == 1, rule[1], rule[0]),
    )
)


STRICT: Final = np.array([0, 1], np.int64)  # per question: level counts (certain), above only


def records_of(
    standings: Standings, players: Sequence[str]
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The players' half-wins and spreads before the round."""
    half_wins = np.array([standings.player(p).half_wins for p in players], np.int64)
    spread = np.array([standings.player(p).spread for p in players], np.int64)
    return half_wins, spread


def own_moves(cap: int | None) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Per own result (win, draw, loss): half-wins gained and the range of spread change."""
    margin = cap if cap is not None else UNBOUNDED
    gained = np.array([2, 1, 0], np.int64)
    low = np.array([1, 0, -margin], np.int64)
    high = np.array([margin, 0, -1], np.int64)
    return gained, low, high


@dataclass(frozen=True)
class FixedRecords:
    """The players sitting out with a known result: their indices among a table's
    players, and how the engine moves each one's record [question, player]
    (``contention.fixed_moves``)."""

    at: Indices
    wins: NDArray[np.int64]
    spread: NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.at)


def fixed_records(
    players: Sequence[str], sitting_out: Mapping[str, int], cap: int | None, rounds_left: int
) -> FixedRecords:
    """``FixedRecords`` of ``sitting_out`` (player -> the spread each round left scores)
    among ``players``, in their order."""
    if not sitting_out:
        return NO_FIXED_RECORDS
    at = [i for i, p in enumerate(players) if p in sitting_out]
    moves = [fixed_moves(sitting_out[players[i]], rounds_left, cap) for i in at]
    # [question, player]: certain, then possible
    wins = np.array([[m[q][0] for m in moves] for q in range(2)], np.int64).reshape(2, len(at))
    spread = np.array([[m[q][1] for m in moves] for q in range(2)], np.int64).reshape(2, len(at))
    return FixedRecords(np.array(at, np.int64), wins, spread)


NO_FIXED_RECORDS: Final = FixedRecords(
    np.zeros(0, np.int64), np.zeros((2, 0), np.int64), np.zeros((2, 0), np.int64)
)


def subject_records(
    half_wins: NDArray[np.int64],
    spread: NDArray[np.int64],
    bye: int | None,
    cap: int | None,
    rounds_left: int,
    fixed: FixedRecords = NO_FIXED_RECORDS,
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """The subjects' records [question, player, result] (half-wins, spread) and the
    player's own spread change: certain at the worst margin with every later round lost by
    M, possible at the best with every later round won by M; ``bye`` (a player's index)
    has a win by exactly ``BYE_SPREAD`` for every result, and a player sitting out
    (``fixed``) their one record for every result."""
    margin = cap if cap is not None else UNBOUNDED
    future = max(rounds_left, 1) - 1
    gained, low, high = own_moves(cap)
    size = len(half_wins)
    sign = np.array([-1, 1], np.int64)[:, None, None]
    change = np.empty((2, size, 3), np.int64)
    change[0], change[1] = low, high
    record_wins = half_wins[None, :, None] + gained[None, None, :] + sign * 2 * future
    record_spread = spread[None, :, None] + change + sign * 2 * future * margin
    if bye is not None:
        record_wins[:, bye, :] = half_wins[bye] + 2 + sign[:, :, 0] * 2 * future
        record_spread[:, bye, :] = spread[bye] + BYE_SPREAD + sign[:, :, 0] * 2 * future * margin
        change[:, bye, :] = BYE_SPREAD
    if len(fixed):
        at = fixed.at
        record_wins[:, at, :] = half_wins[at][None, :, None] + fixed.wins[:, :, None]
        record_spread[:, at, :] = spread[at][None, :, None] + fixed.spread[:, :, None]
        change[:, at, :] = fixed.spread[:, :, None]
    return record_wins, record_spread, change


def thresholds(
    final_wins: NDArray[np.int64],
    spread: NDArray[np.int64],
    target_wins: NDArray[np.int64],
    target_spread: NDArray[np.int64],
    strict: NDArray[np.int64],
) -> NDArray[np.int64]:
    """The smallest spread change that puts a player (``final_wins``, ``spread`` before
    the change) level with (strict 0) or above (strict 1) a target record, broadcast;
    ``ALWAYS`` or ``NEVER`` when the wins decide."""
    return np.where(
        final_wins > target_wins,
        ALWAYS,
        np.where(final_wins < target_wins, NEVER, target_spread - spread + strict),
    )


def most_over_results(counts: NDArray[IntT]) -> NDArray[IntT]:
    """The most over the last axis (a game's three results), as slices: numpy reduces an
    axis of three several times slower."""
    most: NDArray[IntT] = np.maximum(np.maximum(counts[..., 0], counts[..., 1]), counts[..., 2])
    return most


def fewest_over_results(counts: NDArray[IntT]) -> NDArray[IntT]:
    """The fewest over the last axis (a game's three results); see ``most_over_results``."""
    fewest: NDArray[IntT] = np.minimum(np.minimum(counts[..., 0], counts[..., 1]), counts[..., 2])
    return fewest
