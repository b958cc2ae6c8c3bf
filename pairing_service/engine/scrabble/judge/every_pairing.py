"""Bests over every pairing of a field's players, each found by one matching.

For a fixed own result, the count of players above (or level with or above) a subject is a
sum over a pairing's games of the field table's entries (``field_table.FieldTable``), so the
pairing with the smallest count among every pairing of some players is a minimum-cost
perfect matching, not a search. The judge uses these bests in two ways: to name pairings
that swaps of a given one can miss (``fewest_above``, ``best_pairing``), and to prove a
principle broken under every pairing (``gp1_broken_everywhere``; ``fewest_above`` with
``lower_bounds`` for GP2).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ...matching import every_pair, min_cost_perfect_matching_arrays
from ..contention import Result
from ..standings import Standings
from ..words.verdicts import rule_text
from .candidates import OUTSIDER
from .count_tables import GP1_RULES, POSSIBLE, RESULTS
from .field_table import FieldTable
from .principles import Pairs, above_diagonal, in_leading_group

# ``gp1_broken_everywhere``'s subjects (leader, own result) taken at a time: the ends of
# the first slices, then the rest.
SUBJECT_CHUNKS = (3, 12)
MAX_GP1_RULE_MATCHINGS = 150  # matchings the rules may cost in all (each well under 1 ms)


class EveryPairing:
    """Matchings on one field's table: the best pairing of some players for one subject,
    lower bounds without the matching, and GP1 proven broken under every pairing. The bye
    is as the judge has it, and the players sitting out as the table has them (every
    pairing holds their fixed results); outsiders are interchangeable slots."""

    def __init__(self, standings: Standings, table: FieldTable, bye: str | None, victors: int):
        self.standings = standings
        self.table = table
        self.bye = bye
        self.victors = victors
        # The rows of the units every pairing holds: the bye's, and each player sitting out's.
        self._fixed = [table.index[p] for p in (bye, *table.sitting_out) if p in table.index]
        self._matched: dict[
            tuple[str, int, int | None, tuple[str, ...], int], tuple[int, Pairs]
        ] = {}

    def fewest_above(self, player: str, players: list[str], outsiders: int) -> tuple[int, Pairs]:
        """The fewest players strictly above ``player``'s best finish over every pairing of
        ``players`` (among themselves or with up to ``outsiders`` outsiders; the bye as it
        is) and every outcome, and a pairing that reaches it.

        Exact: for a fixed own result, a pairing's count is a sum over its games of the
        table's entries, so the fewest over every pairing is a minimum-cost perfect
        matching (outsiders are interchangeable slots; two left over play each other).
        Only the win is matched: a win's best record is above a draw's and a draw's above a
        loss's, and the opponent of the player's own game moves the other way, so no game's
        count is smaller with a draw or a loss (a property test holds it to the minimum
        over every pairing and every result). Where a draw's best ties the win's, the
        pairing answered is the win's (one as good as any)."""
        return self.best_pairing(player, POSSIBLE, players, outsiders, RESULTS.index(Result.WIN))

    def best_pairing(
        self,
        player: str,
        question: int,
        players: list[str],
        outsiders: int,
        result: int | None = None,
    ) -> tuple[int, Pairs]:
        """The pairing of ``players`` with the smallest count for ``player`` (one own
        result, or the sum over the three), and that count, by a minimum-cost matching."""
        key = (player, question, result, tuple(players), outsiders)
        if key in self._matched:
            return self._matched[key]
        table = self.table
        assert player in table.index
        results = range(3) if result is None else (result,)
        counts = np.sum([table.subject(question, player, r) for r in results], axis=0)
        self._matched[key] = self._cheapest(counts, players, outsiders, 2 * len(results))
        return self._matched[key]

    def _cheapest(
        self, counts: NDArray[np.int64], players: list[str], outsiders: int, most: int
    ) -> tuple[int, Pairs]:
        """The pairing of ``players`` (among themselves or with up to ``outsiders``
        outsiders; the bye as it is) with the smallest sum of ``counts`` [first player's
        table column, second's] over its games, each at most ``most``, and that sum."""
        total, games = self._cheapest_games(counts, players, outsiders, most)
        names = [*players, *[OUTSIDER] * (2 * len(games) - len(players))]
        return total, tuple((names[a], names[b]) for a, b in games if names[a] != OUTSIDER)

    def _cheapest_games(
        self, counts: NDArray[np.int64], players: list[str], outsiders: int, most: int
    ) -> tuple[int, list[tuple[int, int]]]:
        """``_cheapest``'s sum, and its games as positions in ``_columns``: ``players``,
        then the outsider slots."""
        column = self._columns(players, outsiders)
        size = len(column)
        firsts, seconds = every_pair(size)
        at = np.array(column, np.int64)
        costs = counts[at[firsts], at[seconds]]
        games = min_cost_perfect_matching_arrays(
            size, firsts, seconds, costs.astype(np.int64)[:, None], (most,)
        )
        return self._pairing_count(counts, at[np.array(games, np.int64).reshape(-1, 2)]), games

    def _pairing_count(self, counts: NDArray[np.int64], games: NDArray[np.int64]) -> int:
        """The sum of ``counts`` [first player's table column, second's] over ``games``
        [game, 2] (table columns) and the fixed results (the bye, the players sitting out)."""
        total = int(counts[games[:, 0], games[:, 1]].sum())
        if self._fixed:
            total += int(counts[self._fixed, self.table.fixed_column].sum())
        return total

    def _columns(self, players: list[str], outsiders: int) -> list[int]:
        """The table columns of a pairing's players: ``players``, then as many outsider
        slots (up to ``outsiders``) as make their number even."""
        table = self.table
        slots = min(outsiders, len(players))
        slots -= (len(players) + slots) % 2
        if slots < 0:
            raise ValueError("an odd number of players and no outsider")
        return [table.index[p] for p in players] + [table.outsider] * slots

    def lower_bounds(
        self, counts: NDArray[np.int64], players: list[str], outsiders: int
    ) -> NDArray[np.int64]:
        """For counts [layer, column, column], a lower bound on each layer's ``_cheapest``
        sum, without the matching: each player (and outsider slot) is in one game, which
        costs at least its cheapest, and a game holds two of them, so half the sum of the
        cheapest is a lower bound."""
        table = self.table
        at = np.array(self._columns(players, outsiders), np.int64)
        lower = np.zeros(len(counts), np.int64)
        if len(at):
            # A game's cost as ``_cheapest`` reads it: the first player's column first.
            upper = counts[:, at[:, None], at[None, :]] * above_diagonal(len(at))
            costs = upper + upper.transpose(0, 2, 1)
            costs[:, np.arange(len(at)), np.arange(len(at))] = np.iinfo(np.int64).max // 4
            lower = -(-costs.min(axis=2).sum(axis=1) // 2)
        if self._fixed:
            lower += counts[:, self._fixed, table.fixed_column].sum(axis=1)
        return lower

    def gp1_broken_everywhere(
        self, players: list[str], outsiders: int
    ) -> tuple[str, NDArray[np.int64]] | None:
        """When the engine proves that every pairing of ``players`` (among themselves or
        with up to ``outsiders`` outsiders; the bye as it is) breaks GP1: the results, in
        words, that leave no leader certain under any pairing. None when no rule tried
        proves it (GP1 may still be broken by every pairing). The results come as the
        first player's result (0 win, 1 draw, 2 loss) per [table column, table column].

        A rule fixes every game's result from its players' places: a leader against a
        leader, a leader against anyone else, and any other game (the higher-ranked
        player's result; a player who can be a victor beats an outsider). Under a rule a
        leader's count (the most players level with or above them, over the margins) is a
        sum over the pairing's games, so its fewest over every pairing is a minimum-cost
        matching, one per leader and own result. When every such fewest reaches the
        victor places, the rule's outcome leaves no leader certain, whatever the pairing.
        """
        table = self.table
        leaders = in_leading_group(self.standings, table.players)
        if not leaders:
            return None
        size = len(table.players)
        opponents = [table.index[p] for p in players] + [table.outsider] * (outsiders > 0)
        impossible = 2 * size + 3  # more than any pairing's count
        matchings = 0
        # Pairings (as table columns [game, 2]) that kept a leader certain under an earlier
        # rule: one that does under this rule too settles it without a matching.
        witnesses: list[NDArray[np.int64]] = []
        own_columns = np.array([table.index[p] for p in leaders], np.int64)[:, None]
        opponent_columns = np.array(opponents, np.int64)[None, :]
        for rule, results in zip(GP1_RULES, table.rule_results(leaders), strict=True):
            # Per subject: the counts with only games that give that result allowed, and
            # their bound.
            subjects = self._rule_subjects(leaders, results, own_columns, opponent_columns)
            # A few subjects at a time: a rule kept somewhere is most often kept for the
            # first leader, and the counts of every leader cost most of a large group's time.
            kept_somewhere = False
            start = 0
            for stop in (*SUBJECT_CHUNKS, len(subjects)):
                chunk = subjects[start:stop]
                if not chunk:
                    continue
                start = stop
                counts = table.certain_with_results(chunk, results)
                for layer, (leader, result) in enumerate(chunk):
                    if leader != self.bye and leader not in table.sitting_out:
                        own = table.index[leader]
                        wrong = results[own] != result
                        counts[layer, own, wrong] = counts[layer, wrong, own] = impossible
                # The bounds only when no witness settles a subject (a witness under the
                # victor places and a bound at or above them cannot both hold).
                bounds: list[int] | None = None
                for layer in range(len(chunk)):
                    matchings += 1
                    if matchings > MAX_GP1_RULE_MATCHINGS:
                        return None
                    if any(self._pairing_count(counts[layer], w) < self.victors for w in witnesses):
                        kept_somewhere = True
                        break
                    if bounds is None:
                        bounds = self.lower_bounds(counts, players, outsiders).tolist()
                    if bounds[layer] >= self.victors:
                        continue  # not certain under any pairing, matching or not
                    fewest, games = self._cheapest_games(
                        counts[layer], players, outsiders, impossible
                    )
                    if fewest < self.victors:
                        column = np.array(self._columns(players, outsiders), np.int64)
                        witnesses.append(column[np.array(games, np.int64).reshape(-1, 2)])
                        kept_somewhere = True
                        break
                if kept_somewhere:
                    break
            if not kept_somewhere:
                return rule_text(rule), results
        return None

    def _rule_subjects(
        self,
        leaders: list[str],
        results: NDArray[np.int64],
        own_columns: NDArray[np.int64],
        opponent_columns: NDArray[np.int64],
    ) -> list[tuple[str, int]]:
        """Each leader (``own_columns``) with each own result that some opponent
        (``opponent_columns``) gives them under a rule's ``results``, in order; the bye's
        holder and the players sitting out with their one result."""
        faced = np.where(
            opponent_columns == own_columns, -1, results[own_columns, opponent_columns]
        )
        given = np.stack([(faced == r).any(axis=1) for r in range(3)], axis=1).tolist()
        fixed = {self.bye, *self.table.sitting_out}
        return [
            (leader, result)
            for leader, own_results in zip(leaders, given, strict=True)
            for result in ((0,) if leader in fixed else range(3))
            if leader in fixed or own_results[result]
        ]
