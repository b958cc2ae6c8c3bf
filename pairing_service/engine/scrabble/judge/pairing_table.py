"""Per-game counts for one pairing, for fields too large for a ``field_table.FieldTable``
(``count_tables`` says what a subject and a count are)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Final

import numpy as np
from numpy.typing import NDArray

from ...matching import Indices
from ..contention import BYE_SPREAD, Result
from ..standings import Standings
from .count_tables import (
    CERTAIN,
    POSSIBLE,
    RESULTS,
    STRICT,
    Counts,
    fewest_over_results,
    fixed_records,
    most_over_results,
    own_moves,
    records_of,
    subject_records,
    thresholds,
)
from .leader_search import leader_rows, leader_search
from .proof import Assignment, Unit

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
    with both fixed (``tests/unit/engine/scrabble/test_count_tables.py``). Players sitting
    out (``sitting_out``, as ``RoundUnderTest`` has them) are units with a fixed record.
    """

    def __init__(
        self,
        standings: Standings,
        players: Sequence[str],
        units: Sequence[Unit],
        cap: int | None,
        rounds_left: int = 1,
        sitting_out: Mapping[str, int] | None = None,
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
        fixed = fixed_records(self.players, sitting_out or {}, cap, rounds_left)
        record_wins, record_spread, change = subject_records(
            half_wins, spread, bye_player, cap, rounds_left, fixed
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
        first_reach, first_keep = first_spread + unit_high, first_spread + unit_low
        # A player sitting out: their one record as each question moves it (certain reads
        # the wins and the reach, possible the wins and the keep).
        wins_by_question = (first_wins, first_wins)
        if len(fixed):
            sitting = np.array([u for u, unit in enumerate(units) if unit.sits_out], np.int64)
            player = firsts[sitting]
            k = np.searchsorted(fixed.at, player)
            wins_by_question = (first_wins.copy(), first_wins.copy())
            for question, wins in enumerate(wins_by_question):
                wins[sitting] = (half_wins[player] + fixed.wins[question, k])[:, None]
            first_reach[sitting] = (spread[player] + fixed.spread[CERTAIN, k])[:, None]
            first_keep[sitting] = (spread[player] + fixed.spread[POSSIBLE, k])[:, None]
        self._first_wins_by_question = wins_by_question
        self._first_wins, self._second_wins = wins_by_question[POSSIBLE], second_wins
        self._spread_sum = first_spread + second_spread
        self._first_reach, self._second_reach = first_reach, second_spread - unit_low
        self._first_keep, self._second_keep = first_keep, second_spread - unit_high
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
        first_wins, second_wins = self._first_wins_by_question[question], self._second_wins
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
                [0] if unit.fixed else range(3) if result is None else [RESULTS.index(result)]
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
        allowed[[u for u, game in enumerate(self.units) if game.fixed], 1:] = False
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
