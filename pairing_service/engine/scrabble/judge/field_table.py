"""Per-game counts for every subject of one field, for every game a pairing could hold
(``count_tables`` says what a subject and a count are): the judge's comparisons read any
pairing's counts as one sum over its games. A unit with a fixed result (the bye, a player
sitting out with a known result) is its player's game against ``fixed_column``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from ...matching import Indices
from ..contention import BYE_SPREAD, UNBOUNDED
from ..standings import Standings
from .count_tables import (
    GP1_RULES,
    MAX_TABLE_PLAYERS,
    RESULTS,
    STRICT,
    Counts,
    fixed_records,
    own_moves,
    records_of,
    subject_records,
    thresholds,
)
from .leader_search import leader_rows, leader_search
from .proof import NEVER, Assignment, Unit


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


class FieldTable:
    """Per-game counts for every subject of one field (``relevant`` players, ``bye``, and
    ``sitting_out``: relevant players who sit out, with the spread each round left scores)."""

    def __init__(
        self,
        standings: Standings,
        relevant: Sequence[str],
        bye: str | None,
        cap: int | None,
        rounds_left: int = 1,
        sitting_out: Mapping[str, int] | None = None,
    ) -> None:
        sitting = sitting_out or {}
        self.players = tuple(sorted({*relevant, *sitting}, key=standings.rank))
        if len(self.players) > MAX_TABLE_PLAYERS:
            raise ValueError(f"a table covers at most {MAX_TABLE_PLAYERS} players")
        self.index = {p: i for i, p in enumerate(self.players)}
        size = len(self.players)
        self.outsider = size  # the column of an opponent who cannot be a victor
        # The column of a fixed result: a player's bye (a win by BYE_SPREAD), or their one
        # record when they sit out.
        self.fixed_column = size + 1
        self.bye = bye if bye in self.index else None
        fixed = fixed_records(self.players, sitting, cap, rounds_left)
        self.sitting_out = tuple(self.players[i] for i in fixed.at.tolist())
        half_wins, spread = records_of(standings, self.players)
        gained, low, high = own_moves(cap)
        record_wins, record_spread, change = subject_records(
            half_wins,
            spread,
            None if self.bye is None else self.index[self.bye],
            cap,
            rounds_left,
            fixed,
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

        # A fixed result: a bye is a win by exactly BYE_SPREAD; a player sitting out has
        # their one record (as each question moves it).
        fixed_count = threshold[:, :, 0] <= BYE_SPREAD
        if len(fixed):
            at = fixed.at
            sitting_threshold = thresholds(
                (half_wins[at] + fixed.wins)[:, None, None, :],
                spread[at],
                record_wins[..., None],
                record_spread[..., None],
                strict[..., None],
            )  # [question, player, result, player sitting out]
            above = sitting_threshold <= fixed.spread[:, None, None, :]
            fixed_count[:, at] = above.reshape(subjects, len(at))
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
            counts[:, :, self.fixed_column] = fixed_count[subset]
            counts[:, self.fixed_column, :] = fixed_count[subset]
            counts[subset, own, :] = opponent_above[subset]
            counts[subset, :, own] = opponent_above[subset]
            for column in (self.outsider, self.fixed_column):
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
            self.fixed_column
            if u.fixed
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
            results[:, :, self.fixed_column] = 0  # a fixed result is filed as a win
            results[:, self.fixed_column, :] = 2
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
        """The pairing's games of relevant players as column indices (the bye and the
        players sitting out included)."""
        index, outsider = self.index, self.outsider
        games = [(index.get(a, outsider), index.get(b, outsider)) for a, b in pairs]
        games = [game for game in games if game[0] != outsider or game[1] != outsider]
        firsts, seconds = [i for i, _ in games], [j for _, j in games]
        if self.bye is not None:
            firsts.append(self.index[self.bye])
            seconds.append(self.fixed_column)
        for player in self.sitting_out:
            firsts.append(self.index[player])
            seconds.append(self.fixed_column)
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
