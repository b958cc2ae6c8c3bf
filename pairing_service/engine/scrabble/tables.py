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
subject is then one sum over its games: games are independent (see ``proof``).

Fields with more relevant players than a FieldTable covers (``MAX_TABLE_PLAYERS``) judge
one pairing each: ``PairingTable`` holds the same counts for that pairing's own games only,
O(players x games). GP1's search runs on either table (``leader_search``).

Contract: ``FieldTable.counts(pairs)[question, player, result]`` equals
``RoundUnderTest.count_above(player, own_fix(player, result), maximize=question is
CERTAIN)`` for every relevant player of the pairing; ``tests/test_scrabble_tables.py`` checks
it against that and against brute force over outcomes and margins.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from enum import Enum
from typing import Any, Final, TypeVar

import numpy as np
from numpy.typing import NDArray

from ..matching import Indices
from .outcomes import BYE_SPREAD, UNBOUNDED, Result
from .proof import ALWAYS, NEVER, Assignment, Unit
from .standings import Standings

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


def _rule_lookup() -> NDArray[np.int64]:
    """[rule, first player's class, second's, whether the first is the higher-ranked]: the
    first player's result (0 win, 1 draw, 2 loss) under each of ``GP1_RULES``; classes: 0 a
    leader, 1 another relevant player, 2 an outsider or the bye (``rule_results``)."""
    first, second = np.arange(3)[:, None], np.arange(3)[None, :]
    between_leaders, leader_result, others = np.array(GP1_RULES).T[:, :, None, None]
    as_higher = np.where(
        (first == 0) & (second == 0), between_leaders, np.where(first == 2, 0, others)
    )
    results = np.stack([2 - as_higher.transpose(0, 2, 1), as_higher], axis=-1)
    first, second = first[..., None], second[..., None]
    leader_result = leader_result[..., None]
    results = np.where((first == 0) & (second != 0), leader_result, results)
    results = np.where((first != 0) & (second == 0), 2 - leader_result, results)
    results = np.where((first == 1) & (second == 2), 0, results)
    results = np.where((first == 2) & (second == 1), 2, results)
    return np.asarray(results, np.int64)


_RULE_LOOKUP: Final = _rule_lookup()

# ``_first_rule_holding``'s groups of rules, as the ends of slices of ``GP1_RULES``.
RULE_CHUNKS: Final = (1, 3, 7, 15, len(GP1_RULES))


class _Node(Enum):
    OPEN = "open"  # leader_search: a node whose games are still to be tried


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


def subject_records(
    half_wins: NDArray[np.int64],
    spread: NDArray[np.int64],
    bye: int | None,
    cap: int | None,
    rounds_left: int,
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """The subjects' records [question, player, result] (half-wins, spread) and the
    player's own spread change: certain at the worst margin with every later round lost by
    M, possible at the best with every later round won by M; ``bye`` (a player's index)
    has a win by exactly ``BYE_SPREAD`` for every result."""
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


def leader_rows(leader_index: Indices) -> tuple[Indices, Indices, Indices]:
    """The CERTAIN subject rows of the leaders at ``leader_index`` (three per leader, one
    per own result), with each row's player index and own result: ``leader_search``'s."""
    rows = (3 * leader_index[:, None] + np.arange(3)[None, :]).ravel()
    return rows, np.repeat(leader_index, 3), np.tile(np.arange(3), len(leader_index))


def leader_search(
    units: Sequence[Unit],
    leaders: Sequence[str],
    row_player: Indices,
    row_result: Indices,
    firsts: Indices,
    seconds: Indices,
    free: NDArray[np.int8],
    fixed_counts: NDArray[np.int8],
    victors: int,
    max_nodes: int,
) -> tuple[bool | None, Assignment, int]:
    """``RoundUnderTest.leader_guaranteed`` on counts: the same depth-first search over
    games in the same order, with the same pruning (some leader certain for every
    completion of the branch), each node a sum of vectors.

    Rows are the leaders' CERTAIN subjects, three per leader (``row_player``'s index,
    ``row_result`` its own result); ``free[row, unit]`` the unit's most players level with
    or above the row's record over the unit's results, ``fixed_counts[result, row, unit]``
    the same with the unit's first player's result fixed (a row's own unit holds its
    opponent's count in both). Returns (True, {}), (False, the outcome with no certain
    leader) or (None, {}) when the search passes ``max_nodes``, and the nodes visited.

    Counts stay int8 (a game's change is -2..2) and the totals are changed in place and
    back as the search goes down and up, so memory is one table of the leaders' rows
    (2,000 leaders: 18 MB), not a copy per level."""
    delta = (fixed_counts - free[None, :, :]).transpose(2, 0, 1)  # [unit, result, row]
    results = np.arange(3)[:, None, None]
    allowed = ~(
        (row_player[None, None, :] == firsts[None, :, None]) & (row_result != results)
        | (row_player[None, None, :] == seconds[None, :, None]) & (row_result != 2 - results)
    ).transpose(1, 0, 2)  # [unit, result, row]
    leader_set = set(leaders)
    order = sorted(
        range(len(units)),
        key=lambda i: (not any(p in leader_set for p in units[i].players()), i),
    )
    nodes = 0
    fixed: Assignment = {}

    def visit(depth: int, valid: NDArray[np.bool_]) -> bool | _Node | None:
        """A node's own answer (``totals`` holds its counts): True (some leader certain),
        False (a complete outcome with none), None (out of nodes), or ``_Node.OPEN`` (its
        games are still to be tried)."""
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes:
            return None
        allowed_totals = np.where(valid, totals, -1)  # a leader's three rows in a run
        worst = np.maximum(
            np.maximum(allowed_totals[0::3], allowed_totals[1::3]), allowed_totals[2::3]
        )
        if bool((worst < victors).any()):
            return True
        if depth == len(order):
            return False
        return _Node.OPEN

    # Depth first with an explicit stack (a field has up to a thousand games, deeper than
    # Python's recursion): a frame is [depth, valid, next result, undecided].
    witness: Assignment = {}
    totals = free.sum(axis=1, dtype=np.int64)
    start_valid = np.ones(len(row_player), bool)
    answer = visit(0, start_valid)
    frames: list[list[Any]] = [[0, start_valid, 0, False]] if answer is _Node.OPEN else []
    child_done = False
    while frames:
        frame = frames[-1]
        depth, valid, step, undecided = frame
        index = order[depth]
        choices = (0,) if units[index].bye else (0, 1, 2)
        if child_done:  # fold in the answer of the game's result just tried, and undo it
            totals -= delta[index][choices[step - 1]]
            del fixed[index]
            if answer is False:
                return False, witness, min(nodes, max_nodes)
            frame[3] = undecided = undecided or answer is None
            child_done = False
        if step == len(choices):
            frames.pop()
            answer, child_done = (None if undecided else True), True
            continue
        frame[2] = step + 1
        r = choices[step]
        fixed[index] = RESULTS[r]
        totals += delta[index][r]
        child_valid = valid & allowed[index][r]
        answer = visit(depth + 1, child_valid)
        if answer is _Node.OPEN:
            frames.append([depth + 1, child_valid, 0, False])
        else:
            if answer is False:
                witness = dict(fixed)
            child_done = True
    if answer is _Node.OPEN:  # unreachable: every frame ends with an answer
        raise AssertionError("the search ended on an open node")
    return answer, witness if answer is False else {}, min(nodes, max_nodes)


class FieldTable:
    """Per-game counts for every subject of one field (``relevant`` players, ``bye``)."""

    def __init__(
        self,
        standings: Standings,
        relevant: Sequence[str],
        bye: str | None,
        cap: int | None,
        rounds_left: int = 1,
    ) -> None:
        self.players = tuple(sorted(relevant, key=standings.rank))
        if len(self.players) > MAX_TABLE_PLAYERS:
            raise ValueError(f"a table covers at most {MAX_TABLE_PLAYERS} players")
        self.index = {p: i for i, p in enumerate(self.players)}
        size = len(self.players)
        self.outsider = size  # the column of an opponent who cannot be a victor
        self.bye_column = size + 1
        self.bye = bye if bye in self.index else None
        half_wins, spread = records_of(standings, self.players)
        gained, low, high = own_moves(cap)
        record_wins, record_spread, change = subject_records(
            half_wins, spread, None if self.bye is None else self.index[self.bye], cap, rounds_left
        )
        strict = STRICT[:, None, None]

        # Thresholds [question, player, result, other, other's result]: the smallest spread
        # change that puts the other level with (certain) or above (possible) the record.
        final_wins = half_wins[:, None] + gained[None, :]  # [other, other's result]
        target_wins = record_wins[..., None, None]
        target_spread = record_spread[..., None, None]
        threshold = thresholds(
            final_wins, spread[:, None], target_wins, target_spread, strict[..., None, None]
        )
        subjects = 2 * size * 3
        threshold = threshold.reshape(subjects, size, 3)
        # The outsider and the bye's column never finish above anyone.
        threshold = np.concatenate([threshold, np.full((subjects, 2, 3), NEVER, np.int64)], axis=1)

        # Games of two others (or one and an outsider): the first player's result r moves
        # them by d in [low_r, high_r] and the second by -d, with the opposite result. The
        # first is above when d >= t1 and the second when d <= -t2 (t: their thresholds).
        # Per result of the first player, as [result, subject, player] arrays; the second
        # player's threshold is for the opposite result.
        # The comparisons below read a threshold only against the margins (each is first
        # bounded by lo or hi): one beyond a margin by more than one reads the same as one
        # just beyond it. Clipped so, they fit int16 under a cap (int32 without one), and
        # the broadcasts compare several times faster than in int64.
        margin = min(int(max(-low.min(), high.max())), UNBOUNDED)  # a larger cap: unbounded
        reach = margin + 2
        small = np.int16 if reach < np.iinfo(np.int16).max - 1 else np.int32
        by_result: NDArray[np.signedinteger[Any]] = np.ascontiguousarray(
            np.clip(np.moveaxis(threshold, 2, 0), -reach, reach), dtype=small
        )
        opposite_result = by_result[::-1]
        lo = np.clip(low, -margin, margin).astype(small)[:, None, None]
        hi = np.clip(high, -margin, margin).astype(small)[:, None, None]
        half = size * 3
        # Certain (most above), per result: two when some margin puts both above (the
        # first's lowest such margin is within the second's highest); else one when either
        # can be above. GP1's search fixes results one game at a time, so it keeps these.
        first_from = np.maximum(lo, by_result[:, :half])
        second_upto = np.minimum(hi, -opposite_result[:, :half])
        first_can = first_from <= hi
        second_can = lo <= second_upto

        # [question's subject rows, first column, second column]: most, then fewest.
        table = np.empty((2 * half, size + 2, size + 2), np.int8)
        most, fewest = table[:half], table[half:]
        most_by_result = (first_can[:, :, :, None] | second_can[:, :, None, :]).view(np.int8)
        # 2 when both, else 1 when either (both implies either); in place: no temporaries.
        most_by_result += (first_from[:, :, :, None] <= second_upto[:, :, None, :]).view(np.int8)
        np.maximum(most_by_result[0], most_by_result[1], out=most)
        np.maximum(most, most_by_result[2], out=most)
        # Possible (fewest above): none when, for some result, some margin keeps both below;
        # else one when either can stay below for some result.
        first_below_upto = np.minimum(hi, by_result[:, half:] - 1)
        second_below_from = np.maximum(lo, -opposite_result[:, half:] + 1)
        neither = np.zeros((half, size + 2, size + 2), bool)
        for r in range(3):
            neither |= second_below_from[r][:, None, :] <= first_below_upto[r][:, :, None]
        first_misses = np.asarray((lo <= first_below_upto).any(axis=0), bool)
        second_misses = np.asarray((second_below_from <= hi).any(axis=0), bool)
        misses = (first_misses[:, :, None] | second_misses[:, None, :]).view(np.int8)
        np.subtract(np.int8(2), misses, out=fewest)
        np.multiply(fewest, ~neither, out=fewest)  # none where neither (np.where is slow here)

        # A bye: a win by exactly BYE_SPREAD.
        bye_count = threshold[:, :, 0] <= BYE_SPREAD
        # The subject's own game: their opponent's count, the margin tied to the player's
        # extreme one (the opponent moves by minus the player's change, result opposite).
        own_change = change.reshape(subjects)
        rows = np.arange(subjects)
        opposite = 2 - rows % 3  # the opponent's result, per subject row
        columns = np.arange(size + 2)
        opponent_threshold = threshold[rows[:, None], columns[None, :], opposite[:, None]]
        opponent_above = -own_change[:, None] >= opponent_threshold
        subject_player = rows // 3 % size
        certain_rows = rows[:half]
        fixes = [(table, rows)] + [(by_result, certain_rows) for by_result in most_by_result]
        for counts, subset in fixes:
            own = subject_player[subset]
            counts[:, :, self.bye_column] = bye_count[subset]
            counts[:, self.bye_column, :] = bye_count[subset]
            counts[subset, own, :] = opponent_above[subset]
            counts[subset, :, own] = opponent_above[subset]
            for column in (self.outsider, self.bye_column):
                counts[subset, own, column] = 0
                counts[subset, column, own] = 0
        self._table: NDArray[np.int8] = table
        self._certain_by_result: NDArray[np.int8] = most_by_result
        self._shape = (2, size, 3)
        self._rule_results: dict[tuple[str, ...], NDArray[np.int64]] = {}
        # ``games_of``'s rows: each pairing's games, padded to the most any pairing holds
        # (every relevant player in a game of their own, and the bye), kept by pairing.
        self._game_row: dict[tuple[tuple[str, str], ...], int] = {}
        self._game_rows: tuple[list[list[int]], list[list[int]], list[int]] = ([], [], [])
        self._game_arrays: tuple[Indices, Indices, Indices] | None = None

    def subject(self, question: int, player: str, result: int) -> NDArray[np.int8]:
        """One subject's counts for every game: [first player's column, second's]."""
        row = question * len(self.players) * 3 + 3 * self.index[player] + result
        counts: NDArray[np.int8] = self._table[row]
        return counts

    def certain_with_results(
        self, subjects: Sequence[tuple[str, int]], first_results: NDArray[np.int64]
    ) -> NDArray[np.int64]:
        """Subjects (CERTAIN, player, own result) with every game's result fixed:
        [subject, first column, second column], the most of the game's players level with
        or above the subject's record (over the margins) when the first player's result is
        ``first_results[first, second]`` (0 win, 1 draw, 2 loss)."""
        rows = np.array([3 * self.index[p] + r for p, r in subjects], np.int64)
        columns = np.arange(first_results.shape[0])
        picked: NDArray[np.int8] = self._certain_by_result[
            first_results[None], rows[:, None, None], columns[None, :, None], columns[None, None, :]
        ]
        return picked.astype(np.int64)

    def unit_columns(self, units: Sequence[Unit]) -> tuple[list[int], list[int]]:
        """``RoundUnderTest`` units as table columns (first player's, opponent's)."""
        seconds = [
            self.bye_column
            if u.bye
            else self.outsider
            if u.second is None
            else self.index[u.second]
            for u in units
        ]
        return [self.index[u.first] for u in units], seconds

    def rule_results(self, leaders: Sequence[str]) -> NDArray[np.int64]:
        """[rule, first column, second column]: the first player's result (0 win, 1 draw,
        2 loss) under each of ``GP1_RULES``, with ``leaders`` as the leading win group."""
        key = tuple(leaders)
        if key not in self._rule_results:
            size = len(self.players)
            # Column classes: 0 a leader, 1 another relevant player, 2 an outsider or bye.
            place = np.full(size + 2, 2)
            place[:size] = 1
            place[[self.index[p] for p in leaders]] = 0
            columns = np.arange(size + 2)
            higher = (columns[:, None] < columns[None, :]).view(np.int8)  # in rank order
            results = _RULE_LOOKUP[:, place[:, None], place[None, :], higher]
            results[:, :, self.bye_column] = 0  # a bye is a win
            results[:, self.bye_column, :] = 2
            self._rule_results[key] = results.astype(np.int64)
        return self._rule_results[key]

    def rule_witness(
        self, units: Sequence[Unit], leaders: Sequence[str], victors: int
    ) -> Assignment | None:
        """An outcome of ``units`` that leaves no leader certain, from the first of
        ``GP1_RULES`` that gives one (a few sums per rule), or None."""
        leaders = [p for p in leaders if p in self.index]
        if not leaders:
            return None
        firsts, seconds = (np.array([c], np.int64) for c in self.unit_columns(units))
        first_rule, unit_results = self._first_rule_holding(firsts, seconds, leaders, victors)
        if first_rule[0] < 0:
            return None
        chosen = unit_results[first_rule[0], 0].tolist()
        return {i: RESULTS[r] for i, r in enumerate(chosen)}

    def rule_screen(
        self, games: tuple[Indices, Indices], leaders: Sequence[str], victors: int
    ) -> NDArray[np.bool_]:
        """``rule_witness`` for many pairings at once (their ``games_of``): per pairing,
        whether some rule leaves no leader certain (GP1 broken)."""
        firsts, seconds = games
        leaders = [p for p in leaders if p in self.index]
        if not leaders:
            return np.zeros(len(firsts), bool)
        first_rule, _ = self._first_rule_holding(firsts, seconds, leaders, victors)
        return np.asarray(first_rule >= 0, bool)

    def _first_rule_holding(
        self, firsts: Indices, seconds: Indices, leaders: Sequence[str], victors: int
    ) -> tuple[Indices, NDArray[np.int64]]:
        """For games [pairing, game] (table columns, every leader in one game of each
        pairing): per pairing, the first rule that leaves every leader short of certain
        (-1: none), and [rule, pairing, game] the first player's result under each rule.

        Many pairings try the rules a few at a time, on the pairings no earlier rule
        settled: the first one or two settle most pairings that any rule does."""
        unit_results = self.rule_results(leaders)[:, firsts, seconds]  # [rule, pairing, game]
        first_rule = np.full(len(firsts), -1, np.int64)
        open_pairings = np.arange(len(firsts))
        start = 0
        for stop in RULE_CHUNKS if len(firsts) > 1 else (len(GP1_RULES),):
            if not len(open_pairings):
                break
            holds = self._rules_hold(
                unit_results[start:stop, open_pairings],
                firsts[open_pairings],
                seconds[open_pairings],
                leaders,
                victors,
            )
            settled = holds.any(axis=0)
            first_rule[open_pairings[settled]] = start + holds.argmax(axis=0)[settled]
            open_pairings = open_pairings[~settled]
            start = stop
        return first_rule, unit_results

    def _rules_hold(
        self,
        unit_results: NDArray[np.int64],
        firsts: Indices,
        seconds: Indices,
        leaders: Sequence[str],
        victors: int,
    ) -> NDArray[np.bool_]:
        """[rule, pairing]: whether each rule (its results [rule, pairing, game]) leaves
        every leader short of certain."""
        columns = np.array([self.index[p] for p in leaders])
        as_first = firsts[:, :, None] == columns  # [pairing, game, leader]
        own_game = np.argmax(as_first | (seconds[:, :, None] == columns), axis=1)
        first = as_first.any(axis=1)  # [pairing, leader]
        pairing = np.arange(len(firsts))[:, None]
        result = unit_results[:, pairing, own_game]  # [rule, pairing, leader]
        own = np.where(first, result, 2 - result)
        rows = 3 * columns + own
        # [rule, pairing, leader, game] from the flat table, one index per element (four
        # broadcast index arrays cost 2.5 times as much).
        _, subjects, width, _ = self._certain_by_result.shape
        per_game = unit_results * (subjects * width * width) + (firsts * width + seconds)[None]
        at = per_game[:, :, None, :] + (rows * (width * width))[:, :, :, None]
        counts = self._certain_by_result.reshape(-1).take(at).sum(axis=3, dtype=np.int64)
        holds: NDArray[np.bool_] = (counts >= victors).all(axis=2)
        return holds

    def games_of(self, pairings: Sequence[Sequence[tuple[str, str]]]) -> tuple[Indices, Indices]:
        """``games`` of many pairings as [pairing, game] column arrays, the shorter ones
        padded with games of two outsiders (which count for nobody)."""
        rows = self.game_rows([tuple(pairs) for pairs in pairings])
        return self.games_at(np.array(rows, np.int64))

    def game_rows(self, pairings: Sequence[tuple[tuple[str, str], ...]]) -> list[int]:
        """The pairings' rows in this field's arrays of games (``games_at``). A pairing's
        games are read for several principles: each is listed once, in a row kept for the
        field."""
        row = self._game_row
        if not all(map(row.__contains__, pairings)):
            firsts_rows, seconds_rows, lengths = self._game_rows
            pad = [self.outsider] * (len(self.players) + 1)
            for key in pairings:
                if key not in row:
                    row[key] = len(lengths)
                    firsts, seconds = self.games(key)
                    firsts_rows.append(firsts + pad[len(firsts) :])
                    seconds_rows.append(seconds + pad[len(seconds) :])
                    lengths.append(len(firsts))
            self._game_arrays = (
                np.array(firsts_rows, np.int64),
                np.array(seconds_rows, np.int64),
                np.array(lengths, np.int64),
            )
        return [row[key] for key in pairings]

    def games_at(self, rows: Indices) -> tuple[Indices, Indices]:
        """``games_of`` the pairings in ``rows`` (``game_rows``)."""
        if not len(rows):
            return np.zeros((0, 0), np.int64), np.zeros((0, 0), np.int64)
        assert self._game_arrays is not None
        all_firsts, all_seconds, all_lengths = self._game_arrays
        width = int(all_lengths[rows].max())
        return all_firsts[rows, :width], all_seconds[rows, :width]

    def counts_of(self, games: tuple[Indices, Indices]) -> NDArray[np.int64]:
        """``counts`` of many pairings at once (their ``games_of``): [pairing, question,
        player, result]."""
        firsts, seconds = games
        total: NDArray[np.int64] = self._table[:, firsts, seconds].sum(axis=2, dtype=np.int64)
        return np.moveaxis(total, 1, 0).reshape(len(firsts), *self._shape)

    def games(self, pairs: Sequence[tuple[str, str]]) -> tuple[list[int], list[int]]:
        """The pairing's games of relevant players as column indices (bye included)."""
        index, outsider = self.index, self.outsider
        games = [(index.get(a, outsider), index.get(b, outsider)) for a, b in pairs]
        games = [game for game in games if game[0] != outsider or game[1] != outsider]
        firsts, seconds = [i for i, _ in games], [j for _, j in games]
        if self.bye is not None:
            firsts.append(self.index[self.bye])
            seconds.append(self.bye_column)
        return firsts, seconds

    def counts(self, pairs: Sequence[tuple[str, str]]) -> Counts:
        """[question, player, result]: the count of players above each subject's record
        under ``pairs`` (most level or above for CERTAIN, fewest above for POSSIBLE)."""
        firsts, seconds = self.games(pairs)
        total: Counts = self._table[:, firsts, seconds].sum(axis=1, dtype=np.int64)
        return total.reshape(self._shape)

    def leader_guaranteed(
        self, units: Sequence[Unit], leaders: Sequence[str], victors: int, max_nodes: int
    ) -> tuple[bool | None, Assignment, int]:
        """``RoundUnderTest.leader_guaranteed`` on the table, for the same ``units``: the
        same depth-first search over games in the same order, with the same pruning (some
        leader certain for every completion of the branch), each node a sum of vectors.
        Returns (True, {}), (False, the outcome with no certain leader) or (None, {}) when
        the search passes ``max_nodes``, and the nodes it visited."""
        unit_of = {p: i for i, u in enumerate(units) for p in u.players()}
        leaders = [p for p in leaders if p in unit_of]
        if not leaders:
            return False, {}, 0
        rows, row_player, row_result = leader_rows(np.array([self.index[p] for p in leaders]))
        firsts, seconds = (np.array(c) for c in self.unit_columns(units))
        # [row, unit] with no result fixed, and [result, row, unit] with the unit's first
        # player's result fixed; a leader's rows for other own results are then not allowed.
        free = self._table[rows[:, None], firsts[None, :], seconds[None, :]]
        fixed_counts = self._certain_by_result[:, rows[:, None], firsts[None, :], seconds[None, :]]
        return leader_search(
            units,
            leaders,
            row_player,
            row_result,
            firsts,
            seconds,
            free,
            fixed_counts,
            victors,
            max_nodes,
        )


NO_WINS: Final = -(10**6)  # half-wins below any record's
PAIRING_BLOCK: Final = 1 << 21  # numbers per block of subjects (bounds the temporaries)


class PairingTable:
    """Per-game counts for one pairing, for fields too large for a ``FieldTable``.

    A FieldTable covers every game a pairing could hold, which grows as players cubed;
    this covers the pairing's own games (``units``, as ``RoundUnderTest`` lists them):
    [subject row, unit, unit result] for CERTAIN, O(players x games) small numbers, built
    in blocks of subjects so the temporaries stay bounded. The arithmetic is the outcome
    engine's ``_unit_count`` (and ``_opponent_above`` for the subject's own game) over
    arrays. Contract: ``counts()`` equals ``FieldTable.counts(pairs)`` for the same
    pairing, ``leader_guaranteed`` equals ``RoundUnderTest.leader_guaranteed``, and
    ``breakdown`` plus any one other game's result fixed is ``RoundUnderTest.count_above``
    with both fixed (``tests/test_scrabble_tables.py``).
    """

    def __init__(
        self,
        standings: Standings,
        players: Sequence[str],
        units: Sequence[Unit],
        cap: int | None,
        rounds_left: int = 1,
    ) -> None:
        self.players = tuple(players)  # the relevant players in rank order
        self.index = {p: i for i, p in enumerate(self.players)}
        self.units = tuple(units)
        size, width = len(self.players), len(self.units)
        half_wins, spread = records_of(standings, self.players)
        firsts = np.array([self.index[u.first] for u in units], np.int64)
        seconds = np.array(
            [-1 if u.second is None else self.index[u.second] for u in units], np.int64
        )
        self.firsts, self.seconds = firsts, seconds
        is_bye = np.array([u.bye for u in units], bool)[:, None]
        gained, low, high = own_moves(cap)
        unit_gained = np.where(is_bye, 2, gained[None, :])  # [unit, first player's result]
        unit_low = np.where(is_bye, BYE_SPREAD, low[None, :])
        unit_high = np.where(is_bye, BYE_SPREAD, high[None, :])
        has_second = seconds >= 0
        second_at = np.where(has_second, seconds, 0)
        first_wins = half_wins[firsts][:, None] + unit_gained
        # No relevant opponent: below every record on wins, so never counted above.
        second_wins = np.where(
            has_second[:, None], half_wins[second_at][:, None] + 2 - unit_gained, NO_WINS
        )
        bye_player = next((self.index[u.first] for u in units if u.bye), None)
        record_wins, record_spread, change = subject_records(
            half_wins, spread, bye_player, cap, rounds_left
        )
        # Each subject's own game holds its opponent's count, the opponent moving by minus
        # the subject's change with the opposite result.
        opponent = np.full(size, -1, np.int64)
        opponent[firsts[has_second]] = seconds[has_second]
        opponent[seconds[has_second]] = firsts[has_second]
        own_unit = np.full(size, -1, np.int64)
        own_unit[firsts] = np.arange(width)
        own_unit[seconds[has_second]] = np.arange(width)[has_second]
        opponent_at = np.where(opponent >= 0, opponent, 0)[None, :, None]
        opponent_above = (opponent >= 0)[None, :, None] & (
            thresholds(
                half_wins[opponent_at] + 2 - gained[None, None, :],
                spread[opponent_at],
                record_wins,
                record_spread,
                STRICT[:, None, None],
            )
            <= -change
        )  # [question, player, result]

        first_spread = spread[firsts][:, None]
        second_spread = spread[second_at][:, None]
        self._first_wins, self._second_wins = first_wins, second_wins
        self._spread_sum = first_spread + second_spread
        self._first_reach, self._second_reach = first_spread + unit_high, second_spread - unit_low
        self._first_keep, self._second_keep = first_spread + unit_low, second_spread - unit_high
        self._record_wins, self._record_spread = record_wins, record_spread
        self._opponent_above = opponent_above
        self._own_unit = own_unit

        self.certain: NDArray[np.int8] = np.empty((size * 3, width, 3), np.int8)
        self._possible: NDArray[np.int8] = np.empty((size * 3, width, 3), np.int8)  # rivals
        totals = np.zeros((2, size * 3), np.int64)
        step = max(1, PAIRING_BLOCK // max(1, 9 * width))  # players per block
        for start in range(0, size, step):
            in_block = np.arange(start, min(size, start + step))
            rows = slice(3 * in_block[0], 3 * in_block[-1] + 3)
            certain = self._subject_counts(CERTAIN, in_block)
            self.certain[rows] = certain
            totals[CERTAIN, rows] = most_over_results(certain).sum(axis=1, dtype=np.int64)
            self._possible[rows] = self._subject_counts(POSSIBLE, in_block)
            possible = fewest_over_results(self._possible[rows])
            totals[POSSIBLE, rows] = possible.sum(axis=1, dtype=np.int64)
        self._counts: Counts = totals.reshape(2, size, 3)

    def _subject_counts(self, question: int, in_block: Indices) -> NDArray[np.int8]:
        """[subject row, unit, unit result] for the players ``in_block`` (three rows each,
        one per own result): the most level or above (CERTAIN) or fewest above (POSSIBLE)
        of each game's players, the subject's own game holding its opponent's count.

        The outcome engine's thresholds (``_unit_count``), as comparisons of each subject's
        record with each game's players: bool arrays, no sentinel arithmetic. A player
        above on wins is above at every margin, one below at none; one level on wins is
        above from a spread change on."""
        first_wins, second_wins = self._first_wins, self._second_wins
        target_wins = self._record_wins[question, in_block].reshape(-1, 1, 1)
        target = self._record_spread[question, in_block].reshape(-1, 1, 1)
        first_level = first_wins == target_wins
        second_level = second_wins == target_wins
        # Both level on wins: the two changes cancel, so whether both can be above (or both
        # below) is the spreads' sum against twice the target.
        if question == CERTAIN:
            # Most above: two when some margin puts both above, else one when either can be.
            first_above = first_wins > target_wins
            second_above = second_wins > target_wins
            first_can = first_above | (first_level & (target <= self._first_reach))
            second_can = second_above | (second_level & (target <= self._second_reach))
            sum_reaches = 2 * target <= self._spread_sum
            both = first_can & second_can & (first_above | second_above | sum_reaches)
            counts = (first_can | second_can).view(np.int8) + both.view(np.int8)
        else:
            # Fewest above: none when some margin keeps both below, else one when either
            # can stay below (strictly above: level spreads stay below).
            first_below = first_wins < target_wins
            second_below = second_wins < target_wins
            first_off = first_below | (first_level & (target >= self._first_keep))
            second_off = second_below | (second_level & (target >= self._second_keep))
            kept_below = first_off | second_off
            neither = (
                first_off
                & second_off
                & (first_below | second_below | (2 * target >= self._spread_sum))
            )
            counts = 2 - kept_below.view(np.int8) - neither.view(np.int8)
        width = len(self.units)
        counts = counts.reshape(len(in_block), 3, width, 3)
        own_unit = self._own_unit[in_block]
        mine = own_unit >= 0
        counts[mine, :, own_unit[mine], :] = self._opponent_above[question, in_block[mine]][
            :, :, None
        ]
        shaped: NDArray[np.int8] = counts.reshape(3 * len(in_block), width, 3)
        return shaped

    def counts(self) -> Counts:
        """[question, player, result]: as ``FieldTable.counts`` for this pairing."""
        return self._counts

    def leader_guaranteed(
        self, leaders: Sequence[str], victors: int, max_nodes: int
    ) -> tuple[bool | None, Assignment, int]:
        """``RoundUnderTest.leader_guaranteed`` on this table (``leader_search``), and the
        nodes visited, as ``FieldTable.leader_guaranteed``."""
        leaders = [p for p in leaders if p in self.index and self._own_unit[self.index[p]] >= 0]
        if not leaders:
            return False, {}, 0
        rows, row_player, row_result = leader_rows(np.array([self.index[p] for p in leaders]))
        chosen = self.certain[rows]  # [row, unit, result]
        return leader_search(
            self.units,
            leaders,
            row_player,
            row_result,
            self.firsts,
            self.seconds,
            most_over_results(chosen),
            chosen.transpose(2, 0, 1),
            victors,
            max_nodes,
        )

    def rivals(self, player: str, result: Result | None, victors: int) -> list[str]:
        """``RoundUnderTest.rivals`` with the player's own result ``result`` (None: every
        result its game allows): who finishes level with the player on wins in its most
        favourable outcome, in rank order (``rivals_of``, for one)."""
        return self.rivals_of([(player, result)], victors)[0]

    def rivals_of(
        self, subjects: Sequence[tuple[str, Result | None]], victors: int
    ) -> list[list[str]]:
        """``rivals`` of many (player, own result) at once: each game's result is chosen
        for every game and every subject together from this table's fewest-above counts
        and the players' wins (the needs ask for a dozen or more)."""
        return [rivals for rivals, _ in self.rivals_to_pass(subjects, victors)]

    def rivals_to_pass(
        self, subjects: Sequence[tuple[str, Result | None]], victors: int
    ) -> list[tuple[list[str], int]]:
        """``rivals_of``, each with how many of them the player must finish ahead of in
        that outcome: all of them but the victor places that players above on wins leave
        over beside the player's own, so with two places and nobody above on wins, two
        rivals read "ahead of either", not "ahead of both"."""
        if not subjects:
            return []
        # One variant per subject and first-player result of its own game, in the order
        # ``RoundUnderTest.rivals`` tries them (win to loss); the first best key wins.
        owner, rows, own_units, first_results, first_player = [], [], [], [], []
        for at, (player, result) in enumerate(subjects):
            i = self.index[player]
            unit_at = int(self._own_unit[i])
            if unit_at < 0:
                raise KeyError(f"{player} has no game in this pairing")
            unit = self.units[unit_at]
            as_first = unit.first == player or unit.bye
            own_results = (
                [0] if unit.bye else range(3) if result is None else [RESULTS.index(result)]
            )
            for first_result in sorted(r if as_first else 2 - r for r in own_results):
                mine = first_result if as_first else 2 - first_result
                owner.append(at)
                rows.append(3 * i + mine)
                own_units.append(unit_at)
                first_results.append(first_result)
                first_player.append(unit.first == player)
        variants = np.arange(len(rows))
        own = np.array(own_units, np.int64)
        player_rows = np.array(rows, np.int64)
        wins = self._record_wins[POSSIBLE, player_rows // 3, player_rows % 3][:, None, None]
        level_first = self._first_wins[None] == wins  # [variant, unit, first's result]
        level_second = self._second_wins[None] == wins
        is_first = np.array(first_player, bool)
        level_first[variants[is_first], own[is_first]] = False  # not the player
        level_second[variants[~is_first], own[~is_first]] = False
        count = self._possible[player_rows].astype(np.int64)
        count[variants, own] = 0
        options = np.repeat(self._result_options[None], len(rows), axis=0)
        options[variants, own] = np.arange(3)[None, :] == np.array(first_results)[:, None]
        level = level_first.view(np.int8) + level_second.view(np.int8)
        results = np.arange(3)
        games = np.arange(len(self.units))[None, :]
        picks = []
        for first_key in (level, level + count):  # level first; else fewest above first
            # The first result with the least (first key, count), per game.
            keys = np.where(options, (first_key * 3 + count) * 3 + results, 1 << 20)
            chosen = keys.argmin(axis=2)
            picks.append((chosen, count[variants[:, None], games, chosen].sum(axis=1)))
        (level_chosen, level_above), (fewest_chosen, fewest_above) = picks
        keep_level = level_above < victors
        chosen = np.where(keep_level[:, None], level_chosen, fewest_chosen)
        above = np.where(keep_level, level_above, fewest_above).tolist()
        firsts_level = level_first[variants[:, None], games, chosen]
        seconds_level = level_second[variants[:, None], games, chosen]
        counted = (firsts_level.sum(axis=1) + seconds_level.sum(axis=1)).tolist()
        ahead_on_wins = (
            (self._first_wins[None] > wins)[variants[:, None], games, chosen].sum(axis=1)
            + (self._second_wins[None] > wins)[variants[:, None], games, chosen].sum(axis=1)
        ).tolist()
        best: list[tuple[tuple[bool, int, int], int] | None] = [None] * len(subjects)
        for v, at in enumerate(owner):
            key = (above[v] >= victors, counted[v], above[v])
            current = best[at]
            if current is None or key < current[0]:
                best[at] = (key, v)
        found = []
        for entry in best:
            assert entry is not None  # every subject has a variant
            v = entry[1]
            players = [
                *self.firsts[firsts_level[v]].tolist(),
                *self.seconds[seconds_level[v]].tolist(),
            ]
            places_left = victors - ahead_on_wins[v]
            to_pass = min(max(len(players) - places_left + 1, 1), len(players))
            found.append(([self.players[p] for p in sorted(players)], to_pass))
        return found

    @functools.cached_property
    def _result_options(self) -> NDArray[np.bool_]:
        """[unit, first player's result]: the results each game allows (a bye: the win)."""
        allowed = np.ones((len(self.units), 3), bool)
        allowed[[u for u, game in enumerate(self.units) if game.bye], 1:] = False
        return allowed

    def breakdown(self, player: str, own_result: Result) -> tuple[int, NDArray[np.int8]]:
        """For certainty with the player's unit fixed to ``own_result`` (its first
        player's result): the count from the player's own game, and [unit, result] the
        most players of each game level with or above the player (the own unit's row
        holds that same count for every result). The worst case of a partial outcome is
        then a sum, so the needs' conditions on other games cost O(1) each."""
        i = self.index[player]
        own = int(self._own_unit[i])
        if own < 0:
            raise KeyError(f"{player} has no game in this pairing")
        unit = self.units[own]
        result = RESULTS.index(own_result)
        row = 3 * i + (result if unit.first == player or unit.bye else 2 - result)
        per_unit = self.certain[row]
        return int(per_unit[own, 0]), per_unit
