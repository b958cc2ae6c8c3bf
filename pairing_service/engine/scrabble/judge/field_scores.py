"""The scores of many pairings of one field, each pairing read once.

Judging a pairing compares it with dozens of others of the same players, and the
comparisons ask about the same few dozen pairings hundreds of times. ``FieldScores``
keeps one record per pairing (by its ``_key``): what ``read_scores`` read of it from the
field's table together with the other candidates, and its ``principles.Evaluation`` when a
score needs one (a search for GP1, or a field too large for the table). ``comparison.Judge``
builds the comparisons on it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import cast

import numpy as np
from numpy.typing import NDArray

from ..contention import Contention, Result
from ..standings import Standings
from .candidates import canonical
from .count_tables import CERTAIN, MAX_TABLE_PLAYERS, RESULTS
from .field_table import FieldTable
from .principles import (
    PRINCIPLES,
    Evaluation,
    Pairs,
    SearchBudget,
    combined_gp2,
    easier_pairs,
    in_leading_group,
    judged_contenders,
    out_of_reach,
    standing_levels,
)
from .proof import RoundUnderTest, UnitCache, record_of
from .race import Race, race_of

# One field's tables (one standings) by relevant players, bye, cap, rounds left and the
# players sitting out: the judges of one piece of advice share them.
FieldTables = dict[
    tuple[tuple[str, ...], str | None, int | None, int, tuple[tuple[str, int], ...]], FieldTable
]


class _Pairing:
    """What a judge keeps of one pairing (by its key, ``FieldScores._key``): what was read of it
    from the field's table, its evaluation, its rows in the table's arrays. The comparisons
    ask about the same few dozen pairings hundreds of times; one record found by one
    lookup saves hashing a tuple of games for every question."""

    __slots__ = ("count_row", "evaluation", "game_row", "key", "read", "ruled_out", "unreadable")

    def __init__(self, key: Pairs) -> None:
        self.key = key
        self.read: dict[str, object] = {}  # scores read from the table
        self.unreadable = False  # ``read_scores`` leaves it to its evaluation
        self.ruled_out = False  # GP1 answered broken by a rule (``score_of``)
        self.evaluation: Evaluation | None = None
        self.game_row = -1  # its row in the table's ``game_rows``
        self.count_row = -1  # its row in the judge's counts (``_counts_of``)


class FieldScores:
    """Evaluates pairings of one field and reads their scores, each pairing's once."""

    def __init__(
        self,
        standings: Standings,
        contention: Contention,
        bye: str | None,
        victors: int,
        cap: int | None,
        rounds_left: int = 1,
        tables: FieldTables | None = None,
        prize_races: Mapping[str, frozenset[int]] | None = None,
    ) -> None:
        self.standings = standings
        self.prize_races = prize_races
        self.contention = contention
        self._tables = tables if tables is not None else {}
        self.bye = bye
        self.victors = victors
        self.cap = cap
        self.rounds_left = rounds_left
        self.cache: UnitCache = {}
        # Every player who can be a victor, those sitting out too (``Contention.judged``).
        self.judged = contention.judged
        self._sitting_out = contention.fixed
        self.base = record_of(standings, self.judged)
        self._relevant = frozenset(contention.relevant)
        self._pairings: dict[Pairs, _Pairing] = {}  # by key
        self._given: dict[Pairs, _Pairing] = {}  # by the pairing as given
        # read_scores' counts: the pairings' rows in blocks of rows, joined when asked for
        self._count_blocks: list[NDArray[np.int64]] = []
        self._counted = 0
        self._table: FieldTable | None = None
        self.budget = SearchBudget()

    @property
    def table(self) -> FieldTable | None:
        """The field's counts for every pairing (built on first use, when the field has
        few enough relevant players); pairings compared share it, and so do the judges of
        one field given the same ``tables``."""
        if self._table is None and len(self.judged) <= MAX_TABLE_PLAYERS:
            sitting_out = self.contention.sitting_out
            key = (tuple(self.judged), self.bye, self.cap, self.rounds_left, sitting_out)
            if key not in self._tables:
                self._tables[key] = FieldTable(
                    self.standings,
                    self.judged,
                    self.bye,
                    self.cap,
                    self.rounds_left,
                    self._sitting_out,
                )
            self._table = self._tables[key]
        return self._table

    def _key(self, pairs: Sequence[tuple[str, str]]) -> Pairs:
        """The pairing's games that count, as one key: games without a relevant player
        change nobody's standing (``RoundUnderTest`` skips them)."""
        return self._pairing(pairs).key

    def _pairing(self, pairs: Sequence[tuple[str, str]]) -> _Pairing:
        """The record of the pairing ``pairs`` (``_key``'s), found by the pairing as given:
        the comparisons ask for the same candidates again and again."""
        try:
            found = self._given.get(cast(Pairs, pairs))  # no copy: a tuple of tuples as kept
        except TypeError:  # a list, or games given as lists: unhashable
            found = None
        if found is None:
            given = tuple((a, b) for a, b in pairs)
            found = self._given.get(given)
            if found is None:
                relevant = self._relevant
                key = canonical(
                    self.standings, [(a, b) for a, b in given if a in relevant or b in relevant]
                )
                found = self._record(key)
                self._given[given] = found
        return found

    def _record(self, key: Pairs) -> _Pairing:
        found = self._pairings.get(key)
        if found is None:
            found = self._pairings[key] = _Pairing(key)
        return found

    def scores_read(self) -> dict[Pairs, dict[str, object]]:
        """What ``read_scores`` has read, by pairing key."""
        return {key: found.read for key, found in self._pairings.items() if found.read}

    def evaluate(self, pairs: Sequence[tuple[str, str]]) -> Evaluation:
        found = self._pairing(pairs)
        if found.evaluation is None:
            key = found.key
            test = RoundUnderTest(
                self.standings,
                self.judged,
                key,
                self.bye,
                self.victors,
                self.cap,
                self.rounds_left,
                cache=self.cache,
                base=self.base,
                sitting_out=self._sitting_out,
            )
            evaluation = found.evaluation = Evaluation(
                self.standings,
                test,
                self.contention,
                key,
                self.rounds_left,
                table=self.table,
                budget=self.budget,
                given_race=self.race,
            )
            if found.ruled_out:
                evaluation.broken_by_rule()
            elif "GP1" in found.read and found.read["GP1"] is None:  # the rules were tried
                evaluation.no_rule_breaks_gp1 = True
        return found.evaluation

    def read_scores(
        self,
        candidates: Sequence[Sequence[tuple[str, str]]],
        principles: Sequence[str] = PRINCIPLES,
    ) -> None:
        """Read ``principles`` of many pairings at once from the field's table (``score_of``
        answers from them): GP2-GP4 from their counts, and GP1 where one of ``GP1_RULES``
        breaks it or there is nothing to judge (else a search must decide: None). What
        ``Evaluation`` computes one pairing at a time (a property test holds them equal),
        without an evaluation per candidate: judging and ranking ~80 candidates one by one
        cost most of a small field's advice. Only pairings in which every relevant player
        has a game or the bye (as candidates do); others are evaluated one at a time."""
        table = self.table
        if table is None:
            return
        wanted = set(principles)
        pairings = [
            found
            for found in dict.fromkeys(map(self._pairing, candidates))
            if not found.read.keys() >= wanted and not found.unreadable
        ]
        if not pairings:
            return
        pairings, firsts, seconds = self._covering(table, pairings)
        if not pairings:
            return
        read: dict[str, Sequence[object]] = {}
        if "GP1" in principles:
            read["GP1"] = self._read_gp1(table, firsts, seconds)
        if any(gp in principles for gp in PRINCIPLES[1:]):
            counts = np.moveaxis(self._counts_of(pairings, firsts, seconds), 0, 1)
            # counts: [question, pairing, player, own result]
            if "GP2" in principles:
                read["GP2"] = self._read_gp2(table, counts, pairings)
            if "GP3" in principles:
                read["GP3"] = self._read_gp3(counts)
            if "GP4" in principles:
                read["GP4"] = self._read_gp4(table, counts, firsts, seconds)
        for i, found in enumerate(pairings):
            scores = found.read
            for gp, values in read.items():
                scores[gp] = values[i]

    def _covering(
        self, table: FieldTable, pairings: list[_Pairing]
    ) -> tuple[list[_Pairing], NDArray[np.int64], NDArray[np.int64]]:
        """Those of ``pairings`` in which every relevant player has a game or the bye, and
        their games (the first and second players' table columns); the others are left to
        their evaluations (``unreadable``)."""
        unplaced = [found for found in pairings if found.game_row < 0]
        for found, row in zip(
            unplaced, table.game_rows([found.key for found in unplaced]), strict=True
        ):
            found.game_row = row
        size = len(table.players)
        firsts, seconds = table.games_at(
            np.fromiter((found.game_row for found in pairings), np.int64, len(pairings))
        )
        rows = np.arange(len(pairings))[:, None]
        present = np.zeros((len(pairings), size + 2), bool)
        present[rows, firsts] = present[rows, seconds] = True
        covered = np.asarray(present[:, :size].all(axis=1), bool)
        whole = covered.tolist()
        for found in itertools.compress(pairings, [not w for w in whole]):
            found.unreadable = True
        return list(itertools.compress(pairings, whole)), firsts[covered], seconds[covered]

    def _read_gp1(
        self, table: FieldTable, firsts: NDArray[np.int64], seconds: NDArray[np.int64]
    ) -> list[int | None]:
        """GP1 per pairing: 1 where one of ``GP1_RULES`` breaks it, 0 when there is nothing
        to judge, else None (a search must decide)."""
        leaders = in_leading_group(self.standings, table.players)
        if self.rounds_left > 1 or not leaders:
            return [0] * len(firsts)
        broken = table.rule_screen((firsts, seconds), leaders, self.victors).tolist()
        return [1 if b else None for b in broken]

    @cached_property
    def race(self) -> Race:
        """GP2's head-to-head part (``race.py``), once per field."""
        return race_of(
            self.standings,
            self.contention,
            self.victors,
            self.cap,
            self.rounds_left,
            self.prize_races,
        )

    def _read_gp2(
        self, table: FieldTable, counts: NDArray[np.int64], pairings: Sequence[_Pairing]
    ) -> list[tuple[int, ...]]:
        """GP2 per pairing (``combined_gp2``): per contender in rank order, removed from
        contention (1) or not (0); then per contender, sent away from the race (1,
        ``race.py``) or not (0)."""
        ranked = [p for p in judged_contenders(self.standings, self.contention) if p in table.index]
        contenders = [table.index[p] for p in ranked]
        flags = out_of_reach(counts, self.victors)[:, contenders]
        return [
            combined_gp2(row, self.race.of(ranked, found.key))
            for row, found in zip(flags.astype(np.int64).tolist(), pairings, strict=True)
        ]

    def _read_gp3(self, counts: NDArray[np.int64]) -> list[int]:
        """GP3 per pairing: the pairs of players where the lower-ranked has the easier task
        (the table's players are in rank order, as ``Evaluation._gp3`` ranks them)."""
        if self.rounds_left > 1:
            return [0] * counts.shape[1]
        easier = easier_pairs(standing_levels(counts, self.victors))
        found: list[int] = easier.sum(axis=(1, 2)).tolist()
        return found

    def _read_gp4(
        self,
        table: FieldTable,
        counts: NDArray[np.int64],
        firsts: NDArray[np.int64],
        seconds: NDArray[np.int64],
    ) -> list[int]:
        """GP4 per pairing, as ``Evaluation._gp4``: games of two relevant players, not both
        clinched, in which a draw leaves both certain."""
        victors, pairings = self.victors, counts.shape[1]
        if self.rounds_left > 1 or victors < 2:
            return [0] * pairings
        size = len(table.players)
        rows = np.arange(pairings)[:, None]
        certain = np.zeros((pairings, size + 2), bool)
        certain[:, :size] = counts[CERTAIN, :, :, RESULTS.index(Result.DRAW)] < victors
        clinched = np.zeros(size + 2, bool)
        clinched[[table.index[p] for p in self.contention.clinched if p in table.index]] = True
        contested = (firsts < size) & (seconds < size) & ~(clinched[firsts] & clinched[seconds])
        if self.prize_races:  # rivals for a paid place race it: a draw settles nothing
            rivals = np.zeros((size + 2, size + 2), bool)
            for a, i in table.index.items():
                for b, j in table.index.items():
                    rivals[i, j] = self.race.rivals(a, b)
            contested &= ~rivals[firsts, seconds]
        engineered = contested & certain[rows, firsts] & certain[rows, seconds]
        found: list[int] = engineered.sum(axis=1).tolist()
        return found

    def _counts_of(
        self, pairings: list[_Pairing], firsts: NDArray[np.int64], seconds: NDArray[np.int64]
    ) -> NDArray[np.int64]:
        """The table's ``counts_of`` the ``pairings`` (their games ``firsts``,
        ``seconds``), each pairing's kept: GP2-GP4 are read one at a time, mostly of the
        same candidates."""
        table = self.table
        assert table is not None
        blocks = self._count_blocks
        missing = [i for i, found in enumerate(pairings) if found.count_row < 0]
        if missing:
            for row, i in enumerate(missing, start=self._counted):
                pairings[i].count_row = row
            self._counted += len(missing)
            blocks.append(table.counts_of((firsts[missing], seconds[missing])))
            if len(blocks) > 1:
                blocks[:] = [np.concatenate(blocks)]
        at = np.fromiter((found.count_row for found in pairings), np.int64, len(pairings))
        counts: NDArray[np.int64] = blocks[0][at]
        return counts

    def score_of(self, pairs: Sequence[tuple[str, str]], gp: str) -> object:
        """``evaluate(pairs).score(gp)``, from ``read_scores`` when it read it; GP1 from the
        pairing's evaluation when it has one (judged itself, it searches with its own
        nodes) or when a search must decide it."""
        found = self._pairing(pairs)
        read = found.read
        if gp not in read or (gp == "GP1" and (read[gp] is None or found.evaluation is not None)):
            return self.evaluate(found.key).score(gp)
        if gp == "GP1" and read[gp] == 1:  # as a comparison's evaluation would have scored it
            found.ruled_out = True
        return read[gp]

    def scores_of(self, pairs: Sequence[tuple[str, str]], upto: int = 4) -> tuple[object, ...]:
        return tuple(self.score_of(pairs, gp) for gp in PRINCIPLES[:upto])

    def know_keys(self, pairings: Iterable[Pairs]) -> None:
        """Files ``pairings`` that are their own key (canonical, every game with a relevant
        player), as candidates are: asked for as listed, they are found without a copy."""
        relevant = self._relevant
        for pairing in pairings:
            if all(a in relevant or b in relevant for a, b in pairing):
                self._given[pairing] = self._record(pairing)
