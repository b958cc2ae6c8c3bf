"""GP1-GP4 decided mechanically for any pairing, each verdict with its proof.

Each principle gives a pairing a score (lower is better; 0 means kept):

- GP1: 1 when some outcome leaves no player of the leading win group certain of a victor
  place ("a victor is guaranteed within the leading win group"), else 0;
- GP2: for the contenders in rank order, 1 for each one the pairing removes from contention
  (no outcome makes them a victor), compared as a tuple, so keeping a higher-ranked
  contender beats keeping any number below it;
- GP3: the number of pairs of players where the lower-ranked one has an easier task: for
  every own result (win, draw, loss) at least as good a standing (a victor whatever
  happens > a victor in some outcomes > never), and for one a better one;
- GP4: the number of games whose two players, by drawing, both become victors whatever
  else happens.

The verdict compares the pairing with the other pairings of the same players (the
"candidates": every way of pairing the relevant players among themselves or with players
who cannot be victors, when there are few enough; otherwise a documented set of standard
pairings and swaps of the given one):

- ``satisfied``: the score is 0;
- ``violated``: a candidate does better on this principle and no worse on every higher one
  (the reason names it);
- ``overridden``: candidates do better on it, but each breaks a higher principle;
- ``unavoidable``: no pairing does better (the candidates were exhaustive; for GP1, also
  when one rule for the results leaves no leader certain under every pairing, which a
  matching per leader proves: ``Judge.gp1_broken_everywhere``; for GP2, also when no
  pairing keeps any contender the pairing removes, a bound or a matching per contender:
  ``Judge._gp2_unavoidable``);
- ``unverified``: too large to decide, or no better candidate among a non-exhaustive set;
- ``not_applicable``: nothing to judge.

Every violated, overridden or unavoidable verdict carries the outcome that shows the
principle broken.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import cast

import numpy as np
from numpy.typing import NDArray

from ..matching import Indices, every_pair, min_cost_perfect_matching_arrays
from .outcomes import Contention, Result
from .proof import (
    OPPOSITE,
    Assignment,
    Outcome,
    RoundUnderTest,
    Status,
    Unit,
    UnitCache,
    record_of,
)
from .standings import Standings
from .tables import (
    CERTAIN,
    GP1_RULES,
    MAX_TABLE_PLAYERS,
    POSSIBLE,
    RESULTS,
    Counts,
    FieldTable,
    PairingTable,
    most_over_results,
)

PRINCIPLES = ("GP1", "GP2", "GP3", "GP4")
MAX_EXHAUSTIVE_CANDIDATES = 240  # every pairing of up to 7 relevant players
MAX_COMPARED_PLAYERS = MAX_TABLE_PLAYERS  # relevant players; beyond, pairings are not compared
MAX_SWAPPED_GAME_PAIRS = 36  # every pair of up to 9 games (12 relevant players: 6)
# ``gp1_broken_everywhere``'s subjects (leader, own result) taken at a time: the ends of
# the first slices, then the rest.
SUBJECT_CHUNKS = (3, 12)
RESCUED_LEADERS = 2  # leaders given a pairing of their own when GP1 is broken
MAX_GP2_PROOF_PLAYERS = 16  # removed contenders ``_gp2_unavoidable`` tries to keep, at most
SMALL_FIELD = 12  # relevant players up to which searches go deep (GP1, naming spread rivals)
SEARCH_NODES = 20_000  # GP1's search over outcomes, in a small field
SEARCH_NODES_LARGE = 2_000  # ... and in a larger one
COMPARISON_NODES = 2_000  # GP1's searches for the pairings compared with one, in all
OUTSIDER = "\x00outsider"  # an opponent who cannot be a victor (never a real id)

Pairs = tuple[tuple[str, str], ...]
# One field's tables (one standings) by relevant players, bye, cap and rounds left: the
# judges of one piece of advice share them.
FieldTables = dict[tuple[tuple[str, ...], str | None, int | None, int], FieldTable]


@dataclass(frozen=True)
class Verdict:
    id: str
    status: str
    reason: str
    outcome: Outcome | None = None


@dataclass(frozen=True)
class Need:
    player: str
    text: str


@dataclass
class SearchBudget:
    """Nodes left for GP1's searches over the pairings compared with one: comparisons cost
    at most this much, whatever the field (a search cut short answers "unknown")."""

    nodes: int = COMPARISON_NODES


@dataclass
class Evaluation:
    """A pairing's scores on GP1-GP4 (computed on demand) and their proofs."""

    standings: Standings
    test: RoundUnderTest
    contention: Contention
    pairs: Pairs
    rounds_left: int
    _scores: dict[str, object] = field(default_factory=dict)
    proofs: dict[str, tuple[str, Outcome | None]] = field(default_factory=dict)
    _status: dict[tuple[str, Result | None], Status] = field(default_factory=dict)
    _removed: list[str] = field(default_factory=list)  # contenders GP2 finds removed
    table: FieldTable | None = None  # the field's counts for every pairing, when built
    _counts: Counts | None = None
    _possible: list[bool] | None = None  # per row of ``counts``: a victor in some outcome
    budget: SearchBudget | None = None  # GP1's nodes, shared by the pairings compared
    _gp1_witness: Assignment | None = None  # None: not yet found (a rule's, on demand)
    no_rule_breaks_gp1: bool = False  # ``Judge.read_scores`` tried ``GP1_RULES``: a search

    @cached_property
    def leaders(self) -> list[str]:
        """The leading win group's players in this pairing's games, in rank order."""
        return _leading(self.standings, self.test.unit_of)

    @cached_property
    def contenders(self) -> list[str]:
        return [p for p in self.contention.contenders if p in self.test.unit_of]

    def status(self, player: str, result: Result | None) -> Status:
        key = (player, result)
        if key not in self._status:
            self._status[key] = self.test.status(player, result)
        return self._status[key]

    def standing(self, player: str, result: Result | None) -> tuple[bool, bool]:
        """With ``result`` as the player's own (None: the bye): a victor whatever else
        happens, and a victor in some outcome (no witness needed)."""
        always, sometimes = self._standings
        at, slot = self.index[player], 0 if result is None else RESULTS.index(result)
        return always[at][slot], sometimes[at][slot]

    @cached_property
    def _standings(self) -> tuple[list[list[bool]], list[list[bool]]]:
        """``standing`` for every player and own result, as lists (the needs ask for all)."""
        counts, victors = self.counts(), self.test.victors
        return (counts[CERTAIN] < victors).tolist(), (counts[POSSIBLE] < victors).tolist()

    @cached_property
    def pairing(self) -> PairingTable:
        """This pairing's own per-game counts: its counts when the field has no table,
        and the needs' per-game breakdown."""
        test = self.test
        return PairingTable(
            self.standings, test.relevant, test.units, test.margin, self.rounds_left
        )

    @cached_property
    def games_played(self) -> Indices:
        """The indices of this pairing's units that are games (not the bye)."""
        return np.flatnonzero([not unit.bye for unit in self.test.units])

    @property
    def index(self) -> dict[str, int]:
        """The relevant players' rows in ``counts`` (rank order, as both tables have it)."""
        return self.table.index if self.table is not None else self.pairing.index

    def counts(self) -> Counts:
        """[question, player, result]: the count above each subject's record (``tables``),
        from the field's table when there is one, else from this pairing's."""
        if self._counts is None:
            self._counts = (
                self.table.counts(self.pairs) if self.table is not None else self.pairing.counts()
            )
        return self._counts

    def score(self, gp: str) -> object:
        if gp not in self._scores:
            self._scores[gp] = getattr(self, "_" + gp.lower())()
        return self._scores[gp]

    def scores(self, upto: int = 4) -> tuple[object, ...]:
        return tuple(self.score(gp) for gp in PRINCIPLES[:upto])

    # --- the four principles ------------------------------------------------------------

    def _gp1(self) -> int | None:
        if self.rounds_left > 1 or not self.leaders:
            return 0
        nodes = SEARCH_NODES if len(self.test.relevant) <= SMALL_FIELD else SEARCH_NODES_LARGE
        if self.budget is not None:
            nodes = min(nodes, self.budget.nodes)
        if self.table is not None:
            # A pairing compared with another is first tried against the rules that show
            # GP1 broken under every pairing (``Judge.gp1_broken_everywhere``): one of them
            # often breaks it here too, a few sums instead of the search.
            kept: bool | None
            screened = None
            if self.budget is not None and not self.no_rule_breaks_gp1:
                screened = self.table.rule_witness(self.test.units, self.leaders, self.test.victors)
            used = 0
            if screened is not None:
                kept, witness = False, screened
            else:
                kept, witness, used = self.table.leader_guaranteed(
                    self.test.units, self.leaders, self.test.victors, nodes
                )
        else:
            kept, witness, used = self.pairing.leader_guaranteed(
                self.leaders, self.test.victors, nodes
            )
        if self.budget is not None:
            self.budget.nodes -= used
        self._gp1_witness = witness
        if kept is None:
            return None
        return 0 if kept else 1

    def broken_by_rule(self) -> None:
        """GP1 is broken: one of ``GP1_RULES`` shows it (``Judge.read_scores`` found it for
        many pairings at once); its outcome is found when the proof is asked for."""
        self._scores["GP1"] = 1

    def settle(self) -> None:
        """Judged itself (not as a candidate): GP1's search gets its own nodes, not what the
        comparisons left."""
        if self.budget is not None:
            self.budget = None
            if "GP1" in self._scores and self._scores["GP1"] is None:
                del self._scores["GP1"]

    def _gp2(self) -> tuple[int, ...]:
        flags = tuple(self.removed_flag(player) for player in self.contenders)
        self._removed = [p for p, flag in zip(self.contenders, flags, strict=True) if flag]
        return flags

    def removed_flag(self, player: str) -> int:
        """1 when no outcome makes ``player`` a victor (GP2), per player, kept."""
        if self._possible is None:
            self._possible = (~_out_of_reach(self.counts(), self.test.victors)).tolist()
        return 0 if self._possible[self.index[player]] else 1

    def proof(self, gp: str) -> tuple[str, Outcome | None]:
        """The words and outcome that show ``gp`` broken ("" when it is kept). GP1's and
        GP2's are built on demand: judging candidates needs only their scores."""
        if gp == "GP1" and gp not in self.proofs and self.score("GP1") == 1:
            if self._gp1_witness is None:
                assert self.table is not None  # only a table's rules are read ahead
                self._gp1_witness = self.table.rule_witness(
                    self.test.units, self.leaders, self.test.victors
                )
            assert self._gp1_witness is not None
            outcome = self.test.outcome(self._gp1_witness)
            self.proofs["GP1"] = (
                "no player of the leading win group is certain of a victor place if "
                + outcome.describe(self.standings),
                outcome,
            )
        if gp == "GP2" and gp not in self.proofs and self._removed:
            player = self._removed[0]
            _, best = self.test.possible(player, {}, best_outcome=True)
            outcome = self.test.outcome(best)
            names = ", ".join(self.standings.tag(p) for p in self._removed)
            self.proofs["GP2"] = (
                f"no outcome makes {names} a victor: even at best ("
                + outcome.describe(self.standings)
                + f"), {self.standings.tag(player)} finishes out of the victor places",
                outcome,
            )
        return self.proofs.get(gp, ("", None))

    def difficulty(self, player: str) -> tuple[int, ...]:
        """Per own result (win, draw, loss): 2 a victor whatever else, 1 sometimes, 0 never."""
        values = []
        for result in self.test.own_results(player):
            always, sometimes = self.standing(player, result)
            values.append(2 if always else 1 if sometimes else 0)
        return tuple(values) * (3 if len(values) == 1 else 1)

    def _gp3(self) -> int:
        if self.rounds_left > 1:
            return 0
        ranked = list(self.test.relevant)
        broken_pairs = self._easier_below(ranked)
        if broken_pairs:
            higher, lower = broken_pairs[0]
            self.proofs["GP3"] = self._gp3_proof(
                higher, lower, self.difficulty(higher), self.difficulty(lower)
            )
        return len(broken_pairs)

    def _easier_below(self, ranked: list[str]) -> list[tuple[str, str]]:
        """Pairs (higher, lower) in rank order where the lower-ranked player's standing is
        at least as good for every own result and better for one."""
        levels = _levels(self.counts(), self.test.victors)
        found = np.argwhere(_easier_pairs(levels[[self.index[p] for p in ranked]]))
        return [(ranked[i], ranked[j]) for i, j in found.tolist()]

    def _gp3_proof(
        self, higher: str, lower: str, h: tuple[int, ...], low: tuple[int, ...]
    ) -> tuple[str, Outcome | None]:
        tag = self.standings.tag
        results = self.test.own_results(higher)
        index = next(i for i, (a, b) in enumerate(zip(low, h, strict=True)) if a > b)
        result = results[index] if len(results) > 1 else results[0]
        lower_result = self.test.own_results(lower)
        lower_result_here = lower_result[index] if len(lower_result) > 1 else lower_result[0]
        mine = self.status(higher, result)
        words = _RESULT_WORDS
        if low[index] == 2:
            text = (
                f"{tag(lower)} is a victor with {words[lower_result_here]} whatever else "
                f"happens, {tag(higher)} is not: {tag(higher)} with {words[result]} is out of "
                "the victor places if " + mine.witness.describe(self.standings)
            )
        else:
            text = (
                f"{tag(lower)} can still become a victor with {words[lower_result_here]}, "
                f"{tag(higher)} cannot with {words[result]}"
            )
        return text, mine.witness

    def _gp4(self) -> int:
        if self.rounds_left > 1 or self.test.victors < 2:
            return 0
        engineered = []
        for a, b in self.contested_games():
            if self.standing(a, Result.DRAW)[0] and self.standing(b, Result.DRAW)[0]:
                engineered.append((a, b))
        if engineered:
            a, b = engineered[0]
            outcome = Outcome({a: Result.DRAW, b: Result.DRAW}, complete=False)
            self.proofs["GP4"] = (
                f"{self.standings.tag(a)} and {self.standings.tag(b)} can draw into victor "
                "places: " + outcome.describe(self.standings) + ", both are victors",
                outcome,
            )
        return len(engineered)

    def contested_games(self) -> list[tuple[str, str]]:
        """Games between two players who can be victors, not both already certain (a game
        between two certain players cannot change who the victors are)."""
        clinched = set(self.contention.clinched)
        return [
            (u.first, u.second)
            for u in self.test.units
            if u.second is not None and not (u.first in clinched and u.second in clinched)
        ]

    def applicable(self, gp: str) -> str | None:
        """Why a principle does not apply here, or None."""
        if self.rounds_left > 1 and gp != "GP2":
            return (
                f"{self.rounds_left} rounds are left; {gp} judges the final round "
                "(contention and Gibsonization use the best possible finish)"
            )
        if gp == "GP1" and not self.leaders:
            return "nobody in the leading win group can still be a victor"
        if gp == "GP2" and not self.contenders:
            return "nobody is still in contention"
        if gp == "GP3" and len(self.test.relevant) < 2:
            return "fewer than two players can be victors"
        if gp == "GP4":
            if self.test.victors < 2:
                return "with one victor place, a draw cannot make two victors"
            if not self.contested_games():
                return "no game between two players who can be victors"
        return None


_RESULT_WORDS = {Result.WIN: "a win", Result.DRAW: "a draw", Result.LOSS: "a loss", None: "the bye"}
GOOD_REASONS = {
    "GP1": "a player of the leading win group is a victor whatever happens",
    "GP2": "every contender keeps a way to become a victor",
    "GP3": "what each player needs gets no easier down the rankings",
    "GP4": "no two opponents can draw their way into victor places",
}


class _Pairing:
    """What a judge keeps of one pairing (by its key, ``Judge._key``): what was read of it
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


class Judge:
    """Evaluates pairings of one field and judges them against each other."""

    def __init__(
        self,
        standings: Standings,
        contention: Contention,
        bye: str | None,
        victors: int,
        cap: int | None,
        rounds_left: int = 1,
        tables: FieldTables | None = None,
    ) -> None:
        self.standings = standings
        self.contention = contention
        self._tables = tables if tables is not None else {}
        self.bye = bye
        self.victors = victors
        self.cap = cap
        self.rounds_left = rounds_left
        self.cache: UnitCache = {}
        self.base = record_of(standings, contention.relevant)
        self._relevant = frozenset(contention.relevant)
        self._gp1_everywhere: tuple[tuple[str, NDArray[np.int64]] | None] | None = None
        self._pairings: dict[Pairs, _Pairing] = {}  # by key
        self._given: dict[Pairs, _Pairing] = {}  # by the pairing as given
        # read_scores' counts: the pairings' rows in blocks of rows, joined when asked for
        self._count_blocks: list[NDArray[np.int64]] = []
        self._counted = 0
        self._table: FieldTable | None = None
        self.budget = SearchBudget()
        self._candidate_lists: dict[
            tuple[Pairs, Pairs, tuple[str, ...] | None], tuple[list[Pairs], bool]
        ] = {}
        self._matched: dict[
            tuple[str, int, int | None, tuple[str, ...], int], tuple[int, Pairs]
        ] = {}

    @property
    def table(self) -> FieldTable | None:
        """The field's counts for every pairing (built on first use, when the field has
        few enough relevant players); pairings compared share it, and so do the judges of
        one field given the same ``tables``."""
        if self._table is None and len(self.contention.relevant) <= MAX_TABLE_PLAYERS:
            key = (tuple(self.contention.relevant), self.bye, self.cap, self.rounds_left)
            if key not in self._tables:
                self._tables[key] = FieldTable(
                    self.standings, self.contention.relevant, self.bye, self.cap, self.rounds_left
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
                key = _canonical(
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
                self.contention.relevant,
                key,
                self.bye,
                self.victors,
                self.cap,
                self.rounds_left,
                cache=self.cache,
                base=self.base,
            )
            evaluation = found.evaluation = Evaluation(
                self.standings,
                test,
                self.contention,
                key,
                self.rounds_left,
                table=self.table,
                budget=self.budget,
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
        pairings = list(itertools.compress(pairings, whole))
        if not pairings:
            return
        firsts, seconds = firsts[covered], seconds[covered]
        rows = np.arange(len(pairings))[:, None]
        victors, final = self.victors, self.rounds_left <= 1
        nothing = [0] * len(pairings)
        read: dict[str, Sequence[object]] = {}
        if "GP1" in principles:
            leaders = _leading(self.standings, table.players)
            read["GP1"] = nothing
            if final and leaders:
                broken = table.rule_screen((firsts, seconds), leaders, victors).tolist()
                read["GP1"] = [1 if b else None for b in broken]
        counts = (
            np.moveaxis(self._counts_of(pairings, firsts, seconds), 0, 1)  # [question, pairing...]
            if any(gp in principles for gp in PRINCIPLES[1:])
            else None
        )
        if counts is not None and "GP2" in principles:
            contenders = [table.index[p] for p in self.contention.contenders if p in table.index]
            flags = _out_of_reach(counts, victors)[:, contenders]
            read["GP2"] = [tuple(row) for row in flags.astype(np.int64).tolist()]
        if counts is not None and "GP3" in principles:
            read["GP3"] = nothing
            if final:  # the table's players are in rank order, as ``_gp3`` ranks them
                easier = _easier_pairs(_levels(counts, victors))
                read["GP3"] = easier.sum(axis=(1, 2)).tolist()
        if counts is not None and "GP4" in principles:
            read["GP4"] = nothing
            if final and victors >= 2:
                # As ``_gp4``: games of two relevant players, not both clinched, in which a
                # draw leaves both certain.
                certain = np.zeros((len(pairings), size + 2), bool)
                certain[:, :size] = counts[CERTAIN, :, :, RESULTS.index(Result.DRAW)] < victors
                clinched = np.zeros(size + 2, bool)
                clinched[[table.index[p] for p in self.contention.clinched if p in table.index]] = (
                    True
                )
                contested = (
                    (firsts < size) & (seconds < size) & ~(clinched[firsts] & clinched[seconds])
                )
                engineered = contested & certain[rows, firsts] & certain[rows, seconds]
                read["GP4"] = engineered.sum(axis=1).tolist()
        for i, found in enumerate(pairings):
            scores = found.read
            for gp, values in read.items():
                scores[gp] = values[i]

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

    def pairing_space(
        self, fixed: Sequence[tuple[str, str]] = (), players: Sequence[str] | None = None
    ) -> tuple[list[str], int]:
        """The players a pairing compared with others is free to pair (``players``,
        default every relevant player but the bye, less those in ``fixed`` games), and how
        many outsiders they can face (may be negative when ``fixed`` takes them all)."""
        if players is None:
            players = [p for p in self.contention.relevant if p != self.bye]
        busy = {p for pair in fixed for p in pair}
        outsiders = len(self.standings) - len(self.contention.relevant)
        if self.bye is not None and self.bye not in self.contention.relevant:
            outsiders -= 1
        outsiders -= sum(1 for a, b in fixed if b not in self.standings)
        return [p for p in players if p not in busy], outsiders

    def candidates(
        self,
        pairs: Sequence[tuple[str, str]],
        fixed: Sequence[tuple[str, str]] = (),
        players: Sequence[str] | None = None,
    ) -> tuple[list[Pairs], bool]:
        """Pairings to compare with ``pairs``, and whether they are every pairing.

        ``players`` (default: every relevant player but the bye) are paired among themselves
        or with outsiders; ``fixed`` games are part of every candidate.
        """
        asked = (
            tuple((a, b) for a, b in pairs),
            tuple((a, b) for a, b in fixed),
            None if players is None else tuple(players),
        )
        if asked not in self._candidate_lists:  # judge and proven_better ask alike
            found, exhaustive = self._candidates(pairs, fixed, players)
            # Each is canonical already: its own key when every game has a relevant player.
            relevant = self._relevant
            for pairing in found:
                if all(a in relevant or b in relevant for a, b in pairing):
                    self._given[pairing] = self._record(pairing)
            self._candidate_lists[asked] = (found, exhaustive)
        found, exhaustive = self._candidate_lists[asked]
        return list(found), exhaustive

    def _candidates(
        self,
        pairs: Sequence[tuple[str, str]],
        fixed: Sequence[tuple[str, str]],
        players: Sequence[str] | None,
    ) -> tuple[list[Pairs], bool]:
        open_players, outsiders = self.pairing_space(fixed, players)
        if len(open_players) > MAX_COMPARED_PLAYERS:
            return [], False
        standard = [
            _canonical(self.standings, (*fixed, *c))
            for c in self._standard_candidates(open_players, pairs)
        ]
        if not self._every_pairing_compared(open_players, outsiders):
            if not fixed:
                standard += self._rescuing(pairs, open_players, max(outsiders, 0))
            return list(dict.fromkeys(standard)), False
        found = list(_partial_matchings(open_players, max(outsiders, 0)))
        every = [_canonical(self.standings, (*fixed, *c)) for c in found]
        allowed = set(every)
        # The standard pairings first: they are the likeliest to show a principle kept.
        ordered = [c for c in standard if c in allowed] + every
        return list(dict.fromkeys(ordered)), True

    @staticmethod
    def _every_pairing_compared(open_players: Sequence[str], outsiders: int) -> bool:
        """Whether ``candidates`` are every pairing of ``open_players`` (with up to
        ``outsiders`` outsiders): few enough to list them all."""
        return (
            len(open_players) <= MAX_COMPARED_PLAYERS
            and _matching_count(len(open_players), max(outsiders, 0)) <= MAX_EXHAUSTIVE_CANDIDATES
        )

    def _rescuing(
        self, pairs: Sequence[tuple[str, str]], players: list[str], outsiders: int
    ) -> list[Pairs]:
        """Pairings that swaps of ``pairs`` can miss, each the best of every pairing of
        ``players`` for one player (a matching on the field's table): for the first
        contender that ``pairs`` removes (GP2 ranks them in order), the pairing that leaves
        them the fewest players above; when ``pairs`` breaks GP1, for the first leaders,
        the one that leaves the fewest level or above them over their three results."""
        mine = self.evaluate(pairs)
        if mine.table is None:
            return []
        found = []
        removed = [p for p in mine.contenders if mine.removed_flag(p) and p in players]
        if removed:
            count, rescue = self.fewest_above(removed[0], players, outsiders)
            if count < self.victors:
                found.append(rescue)
        if mine.score("GP1") == 1:
            leaders = [p for p in mine.leaders if p in players]
            for leader in leaders[:RESCUED_LEADERS]:
                found.append(self._best_pairing(leader, CERTAIN, players, outsiders)[1])
        return [_canonical(self.standings, p) for p in found]

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
        return self._best_pairing(player, POSSIBLE, players, outsiders, RESULTS.index(Result.WIN))

    def _best_pairing(
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
        assert table is not None and player in table.index
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
        [game, 2] (table columns) and the bye."""
        table = self.table
        assert table is not None
        total = int(counts[games[:, 0], games[:, 1]].sum())
        if self.bye in table.index:
            total += int(counts[table.index[self.bye], table.bye_column])
        return total

    def _columns(self, players: list[str], outsiders: int) -> list[int]:
        """The table columns of a pairing's players: ``players``, then as many outsider
        slots (up to ``outsiders``) as make their number even."""
        table = self.table
        assert table is not None
        slots = min(outsiders, len(players))
        slots -= (len(players) + slots) % 2
        if slots < 0:
            raise ValueError("an odd number of players and no outsider")
        return [table.index[p] for p in players] + [table.outsider] * slots

    def _lower_bounds(
        self, counts: NDArray[np.int64], players: list[str], outsiders: int
    ) -> NDArray[np.int64]:
        """For counts [layer, column, column], a lower bound on each layer's ``_cheapest``
        sum, without the matching: each player (and outsider slot) is in one game, which
        costs at least its cheapest, and a game holds two of them, so half the sum of the
        cheapest is a lower bound."""
        table = self.table
        assert table is not None
        at = np.array(self._columns(players, outsiders), np.int64)
        lower = np.zeros(len(counts), np.int64)
        if len(at):
            # A game's cost as ``_cheapest`` reads it: the first player's column first.
            upper = counts[:, at[:, None], at[None, :]] * _above_diagonal(len(at))
            costs = upper + upper.transpose(0, 2, 1)
            costs[:, np.arange(len(at)), np.arange(len(at))] = np.iinfo(np.int64).max // 4
            lower = -(-costs.min(axis=2).sum(axis=1) // 2)
        if self.bye in table.index:
            lower += counts[:, table.index[self.bye], table.bye_column]
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
        if table is None:
            return None
        leaders = _leading(self.standings, table.players)
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
            # Per leader and own result that some pairing gives them, in order: the counts
            # with only games that give that result allowed, and their bound.
            faced = np.where(
                opponent_columns == own_columns, -1, results[own_columns, opponent_columns]
            )
            given = np.stack([(faced == r).any(axis=1) for r in range(3)], axis=1).tolist()
            subjects = [
                (leader, result)
                for leader, own_results in zip(leaders, given, strict=True)
                for result in ((0,) if leader == self.bye else range(3))
                if leader == self.bye or own_results[result]
            ]
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
                    if leader != self.bye:
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
                        bounds = self._lower_bounds(counts, players, outsiders).tolist()
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
                return _rule_text(rule), results
        return None

    def _standard_candidates(
        self, players: list[str], pairs: Sequence[tuple[str, str]]
    ) -> list[Pairs]:
        """Top vs bottom, KOTH, Swiss halves (an odd one out plays an outsider), and every
        swap of partners between two games of ``pairs``; with more than
        ``MAX_SWAPPED_GAME_PAIRS`` pairs of games, the swaps between the games closest in
        rank (their number grows as the square of the games)."""
        ordered = sorted(players, key=self.standings.rank)
        odd: Pairs = ((ordered.pop(), OUTSIDER),) if len(ordered) % 2 else ()
        half = len(ordered) // 2
        found = [
            tuple(zip(ordered[:half], reversed(ordered[half:]), strict=True)) + odd,
            tuple(zip(ordered[0::2], ordered[1::2], strict=True)) + odd,
            tuple(zip(ordered[:half], ordered[half:], strict=True)) + odd,
        ]
        members = set(players)
        given = [pair for pair in _canonical(self.standings, pairs) if pair[0] in members]
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

    def judge(self, pairs: Sequence[tuple[str, str]]) -> list[Verdict]:
        """GP1-GP4's verdicts on ``pairs``, a pairing in which every contender has a game
        (or the bye): GP2 compares pairings contender by contender."""
        mine = self.evaluate(pairs)
        unpaired = [p for p in self.contention.contenders if p not in mine.test.unit_of]
        if unpaired:
            raise ValueError(f"{unpaired[0]} can still be a victor but has no game to judge")
        mine.settle()
        exhaustive = self._every_pairing_compared(*self.pairing_space())
        verdicts = []
        for level, gp in enumerate(PRINCIPLES):
            found = None
            if gp == "GP1" and not exhaustive and not mine.applicable(gp) and mine.score(gp) != 0:
                # Proven broken under every pairing: no candidate can do better, so the
                # comparisons (which could only end "unverified") are not made.
                found = self._gp1_unavoidable(mine)
            elif gp == "GP2" and not exhaustive and not mine.applicable(gp):
                found = self._gp2_unavoidable(mine)  # likewise
            verdict = found or self._verdict(mine, gp, level, pairs, exhaustive)
            if gp == "GP1" and verdict.status == "unverified":
                verdict = self._gp1_unavoidable(mine) or verdict
            verdicts.append(verdict)
        return verdicts

    def _gp1_unavoidable(self, mine: Evaluation) -> Verdict | None:
        """GP1 "unavoidable" when the engine proves every pairing breaks it (the
        candidates compared were not every pairing, or the search was cut short)."""
        players, outsiders = self.pairing_space()
        if len(players) > MAX_COMPARED_PLAYERS:
            return None
        if self._gp1_everywhere is None:  # the same for every pairing this judge judges
            self._gp1_everywhere = (self.gp1_broken_everywhere(players, max(outsiders, 0)),)
        (proven,) = self._gp1_everywhere
        if proven is None:
            return None
        words, results = proven
        table = self.table
        assert table is not None
        firsts, seconds = table.unit_columns(mine.test.units)
        outcome = mine.test.outcome(
            {i: RESULTS[r] for i, r in enumerate(results[firsts, seconds].tolist())}
        )
        return Verdict(
            "GP1",
            "unavoidable",
            "no player of the leading win group is certain of a victor place if "
            f"{outcome.describe(self.standings)}; every pairing of these players breaks GP1: "
            f"whatever the pairing, no leader is certain when {words}",
            outcome,
        )

    def _gp2_unavoidable(self, mine: Evaluation) -> Verdict | None:
        """GP2 "unavoidable" when the engine proves that no pairing keeps any contender
        that ``mine`` removes: a pairing does better on GP2 only by keeping one of them
        (the first removed one it keeps, with the same removed above it), and
        ``fewest_above`` is the exact best of every pairing for one player (a bound first,
        a matching only when the bound does not settle it). None when a removed contender
        can be kept, has the bye, or there are too many to try."""
        if _ideal(mine.score("GP2")):
            return None
        removed = [p for p in mine.contenders if mine.removed_flag(p)]
        players, outsiders = self.pairing_space()
        table = self.table
        if (
            table is None
            or len(players) > MAX_COMPARED_PLAYERS
            or len(removed) > MAX_GP2_PROOF_PLAYERS
            or any(p not in players for p in removed)
        ):
            return None
        outsiders = max(outsiders, 0)
        win = RESULTS.index(Result.WIN)
        for player in removed:  # one at a time: the first one kept somewhere ends it
            counts = table.subject(POSSIBLE, player, win)[None].astype(np.int64)
            if self._lower_bounds(counts, players, outsiders)[0] >= self.victors:
                continue
            if self.fewest_above(player, players, outsiders)[0] < self.victors:
                return None  # the rescue candidate the comparison lists reads this matching
        text, outcome = mine.proof("GP2")
        return Verdict(
            "GP2",
            "unavoidable",
            f"{text}; no pairing of these players does better: whatever the pairing and "
            f"the results, {self.victors} or more players finish above "
            + ("each of them" if len(removed) > 1 else "them"),
            outcome,
        )

    def _verdict(
        self,
        mine: Evaluation,
        gp: str,
        level: int,
        pairs: Sequence[tuple[str, str]],
        exhaustive: bool,
    ) -> Verdict:
        """``gp``'s verdict on ``pairs`` (``mine``). The candidates are listed only when
        the principle is broken and they must be compared: a kept principle needs none,
        and listing them (with their rescue matchings) costs more than the rest."""
        why_not = mine.applicable(gp)
        if why_not:
            return Verdict(gp, "not_applicable", why_not)
        score = mine.score(gp)
        if score is None:
            return Verdict(
                gp,
                "unverified",
                f"too many outcomes to search ({mine.test.outcome_count():,}); not verified",
            )
        if _ideal(score):
            return Verdict(gp, "satisfied", GOOD_REASONS[gp])
        text, outcome = mine.proof(gp)
        higher = mine.scores(level)
        candidates, _ = self.candidates(pairs)
        better_here = []  # better on gp, and decidedly worse on a higher principle
        undecided: list[Pairs] = []  # a score that would decide it is unknown
        self.read_scores(candidates, (gp,))
        if gp != "GP1":  # the higher principles of those better here (GP1 has none)
            self.read_scores(
                [c for c in candidates if _less(self.score_of(c, gp), score)], PRINCIPLES[:level]
            )
        for other in candidates:
            theirs = self.score_of(other, gp)
            if theirs is None:
                undecided.append(other)
                continue
            if not _less(theirs, score):
                continue
            above = self.scores_of(other, level)  # GP1 searched only for those better here
            if _first_worse(above, higher) is not None:
                better_here.append(other)
            elif any(t is None or m is None for t, m in zip(above, higher, strict=True)):
                undecided.append(other)
            else:
                return self.violated(pairs, gp, self.describe(other))
        if undecided:
            return Verdict(
                gp,
                "unverified",
                f"{text}; whether pairing {self.describe(undecided[0])} does better without "
                "breaking a higher principle is not decided (too many outcomes to search)",
                outcome,
            )
        if better_here:
            worse = _first_worse(self.scores_of(better_here[0], level), higher)
            broken = PRINCIPLES[worse] if worse is not None else "a higher principle"
            among = "" if exhaustive else f" (among {len(candidates)} standard pairings compared)"
            return Verdict(
                gp,
                "overridden",
                f"{text}; pairings that keep {gp} better, such as "
                f"{self.describe(better_here[0])}, break {broken}{among}",
                outcome,
            )
        if exhaustive:
            return Verdict(
                gp, "unavoidable", f"{text}; no pairing of these players does better", outcome
            )
        return Verdict(
            gp,
            "unverified",
            f"{text}; no better pairing among {len(candidates)} standard candidates, "
            "but they are not every pairing",
            outcome,
        )

    def describe(self, pairs: Sequence[tuple[str, str]]) -> str:
        """The games by rank, as directors write them ("1-4, 2-3"); an opponent left open
        (any player who cannot be a victor) is "x", said once at the end."""
        rank = self.standings.rank
        shown = [f"{rank(a)}-{rank(b) if b in self.standings else 'x'}" for a, b in pairs]
        open_opponent = any(b not in self.standings for _, b in pairs)
        return ", ".join(shown) + (
            " (x: any player who cannot be a victor)" if open_opponent else ""
        )

    def describe_games(self, pairs: Sequence[tuple[str, str]]) -> str:
        """``describe`` of a pairing's games that hold a relevant player, in rank order."""
        return self.describe(self._key(pairs))

    def violated(self, pairs: Sequence[tuple[str, str]], gp: str, better: str) -> Verdict:
        """``gp`` violated by ``pairs``, naming ``better`` (a pairing, in words, that does
        better on ``gp`` and no worse above it): the advice names the alternative it
        answers, completed, rather than the first candidate the comparison met."""
        text, outcome = self.evaluate(pairs).proof(gp)
        return Verdict(
            gp,
            "violated",
            f"{text}; pairing {better} does better on {gp} without breaking a higher principle",
            outcome,
        )

    def best(
        self,
        start: Sequence[tuple[str, str]],
        fixed: Sequence[tuple[str, str]] = (),
        players: Sequence[str] | None = None,
    ) -> tuple[Pairs, bool]:
        """The candidate that best keeps GP1 > GP2 > GP3 > GP4 (unverified scores last).

        ``start`` (the weighted matching's answer, best on repeats and rank distance) seeds
        the standard candidates when the search cannot be exhaustive, and wins ties.
        """
        candidates, exhaustive = self.candidates(start, fixed, players)
        first = _canonical(self.standings, (*fixed, *start))
        if not candidates:
            return first, False
        # The first pairing in [first, *candidates] with the least scores, principle by
        # principle: what comparing each candidate with the best so far answers. GP1 is
        # scored in the order those comparisons score it (its searches share a budget).
        self.read_scores([first, *candidates], ("GP1",))
        for pairs in (candidates[0], first, *candidates[1:]):
            self.score_of(pairs, "GP1")
        remaining = list(dict.fromkeys((first, *candidates)))
        for gp in PRINCIPLES:
            self.read_scores(remaining, (gp,))
            scores = [_sortable(self.score_of(pairs, gp)) for pairs in remaining]
            least = min(scores)
            remaining = [p for p, score in zip(remaining, scores, strict=True) if score == least]
            if len(remaining) == 1:
                break
        return remaining[0], exhaustive

    def _ranks_above(self, pairs: Pairs, other: Pairs) -> bool:
        """Whether ``pairs`` ranks strictly above ``other`` on GP1 > GP2 > GP3 > GP4
        (unverified scores last), scoring a principle only when the higher ones tie: most
        candidates lose on GP1 or GP2, and the lower principles cost the most."""
        for gp in PRINCIPLES:
            a, b = _sortable(self.score_of(pairs, gp)), _sortable(self.score_of(other, gp))
            if a != b:
                return _less(a, b)
        return False

    def proven_better(self, pairs: Sequence[tuple[str, str]]) -> tuple[Pairs, int] | None:
        """A pairing of the relevant players that ranks above ``pairs`` on the principles
        (GP1, then GP2, GP3, GP4), and the first principle on which it does better; None
        when no candidate does, or when a score that would decide it is unknown."""
        mine = self.evaluate(pairs)
        best, _ = self.best(pairs)
        if not self._ranks_above(best, _canonical(self.standings, pairs)):
            return None
        for level, (theirs, ours) in enumerate(
            zip(self.scores_of(best), mine.scores(), strict=True)
        ):
            if theirs is None or ours is None:
                return None
            if _less(theirs, ours):
                return best, level
        return None


MAX_GP1_RULE_MATCHINGS = 150  # matchings the rules may cost in all (each well under 1 ms)
_RULE_RESULT = ("wins", "draws", "loses")


def _rule_text(rule: tuple[int, int, int]) -> str:
    between_leaders, leader_result, others = rule
    against = ("beats", "draws with", "loses to")[leader_result]
    between = (
        "two leaders draw"
        if between_leaders == 1
        else f"the higher-ranked of two leaders {_RULE_RESULT[between_leaders]}"
    )
    return (
        f"each leader {against} anyone outside the leading win group, {between}, and the "
        f"higher-ranked player {_RULE_RESULT[others]} every other game (a player who can "
        "be a victor beats one who cannot)"
    )


KEPT = frozenset({"satisfied", "not_applicable"})


def agrees(gp: str, seed_status: str, engine_status: str) -> bool:
    """Does the engine's verdict say what the seed's note says? "Kept" and "nothing to
    keep" agree; for GP1 and GP2, which ask for what is possible, so does "unavoidable"."""
    kept = KEPT | ({"unavoidable"} if gp in ("GP1", "GP2") else set())
    return seed_status == engine_status or (seed_status in kept and engine_status in kept)


def _out_of_reach(counts: NDArray[np.int64], victors: int) -> NDArray[np.bool_]:
    """From counts [question, ..., player, own result]: [..., player] whether no outcome
    makes the player a victor (GP2's removed contender)."""
    out: NDArray[np.bool_] = counts[POSSIBLE].min(axis=-1) >= victors
    return out


def _levels(counts: NDArray[np.int64], victors: int) -> NDArray[np.int8]:
    """From counts [question, ..., player, own result]: 2 a victor whatever else happens,
    1 sometimes, 0 never (certain implies possible, so the sum); a bye's three slots are
    the same."""
    levels: NDArray[np.int8] = (counts[CERTAIN] < victors).astype(np.int8) + (
        counts[POSSIBLE] < victors
    )
    return levels


def _easier_pairs(levels: NDArray[np.int8]) -> NDArray[np.bool_]:
    """[..., higher, lower] for ``_levels`` [..., player, own result] with the players in
    rank order: whether the lower-ranked player's standing is at least as good for every
    own result and better for one (a pair that breaks GP3)."""
    # Per own result as columns: reducing an axis of three is slow.
    columns = [levels[..., r] for r in range(3)]
    at_least = np.logical_and.reduce([c[..., None, :] >= c[..., :, None] for c in columns])
    better = np.logical_or.reduce([c[..., None, :] > c[..., :, None] for c in columns])
    easier: NDArray[np.bool_] = at_least & better & _above_diagonal(levels.shape[-2])
    return easier


@lru_cache(maxsize=64)
def _above_diagonal(size: int) -> NDArray[np.bool_]:
    """[row, column]: True above the diagonal, for masking stacks of square arrays
    (``np.triu`` of a 3-D array is several times slower than this mask)."""
    mask = np.triu(np.ones((size, size), bool), k=1)
    mask.setflags(write=False)
    return mask


def _first_worse(theirs: Sequence[object], ours: Sequence[object]) -> int | None:
    """The first principle on which ``theirs`` is known to be worse than ``ours``."""
    for level, (t, m) in enumerate(zip(theirs, ours, strict=True)):
        if t is not None and m is not None and not _less_equal(t, m):
            return level
    return None


def _ideal(score: object) -> bool:
    if isinstance(score, tuple):
        return not any(score)
    return score == 0


def _sortable(score: object) -> tuple[int, object]:
    return (1, 0) if score is None else (0, score)


def _less(a: object, b: object) -> bool:
    return bool(a < b)  # type: ignore[operator]


def _less_equal(a: object, b: object) -> bool:
    return bool(a <= b)  # type: ignore[operator]


def _leading(standings: Standings, players: Iterable[str]) -> list[str]:
    """Those of ``players`` in the leading win group, in rank order (looked for among the
    players given: the field can be thousands)."""
    top = standings.ranked[0].half_wins
    ahead = [p for p in players if standings.player(p).half_wins == top]
    return sorted(ahead, key=standings.positions.__getitem__)


def _canonical(standings: Standings, pairs: Sequence[tuple[str, str]]) -> Pairs:
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


def _matching_count(players: int, outsiders: int) -> int:
    """How many pairings ``_partial_matchings`` lists: j players face outsiders (any j up
    to ``outsiders``), the rest are paired, in (m - 1)!! ways for m players."""
    total = 0
    for facing in range(min(players, outsiders) + 1):
        rest = players - facing
        if rest % 2 == 0:
            total += math.comb(players, facing) * math.prod(range(rest - 1, 0, -2))
    return total


def _partial_matchings(players: list[str], outsiders: int) -> Iterator[Pairs]:
    """Every way to pair ``players`` among themselves, the rest facing outsiders."""
    if not players:
        yield ()
        return
    first, rest = players[0], players[1:]
    if outsiders > 0:
        for tail in _partial_matchings(rest, outsiders - 1):
            yield ((first, OUTSIDER), *tail)
    for i, partner in enumerate(rest):
        remaining = rest[:i] + rest[i + 1 :]
        for tail in _partial_matchings(remaining, outsiders):
            yield ((first, partner), *tail)


# --- needs, in plain words -------------------------------------------------------------


def needs(evaluation: Evaluation, players: Sequence[str]) -> list[Need]:
    """What each player needs, from its own result and the outcomes."""
    shown = [p for p in players if p in evaluation.test.unit_of]
    helped = [
        (player, result)
        for player in shown
        for result in evaluation.test.own_results(player)
        if evaluation.standing(player, result) == (False, True)
    ]
    cases = dict(zip(helped, _worst_cases(evaluation, helped), strict=True))
    if len(evaluation.test.relevant) <= SMALL_FIELD:
        # The spread rivals of those no single game's result helps, all at once (``_help``
        # names them unless two games' results together help).
        wanting = [subject for subject, case in cases.items() if not case.helping]
        found = evaluation.pairing.rivals_to_pass(wanting, evaluation.test.victors)
        for subject, rivals in zip(wanting, found, strict=True):
            cases[subject].rivals = rivals
    return [Need(p, need_text(evaluation, p, cases)) for p in shown]


def need_text(
    evaluation: Evaluation,
    player: str,
    cases: Mapping[tuple[str, Result | None], _WorstCase] | None = None,
) -> str:
    """What ``player`` needs; ``cases``: the worst cases of the own results that need help
    (``_worst_cases``), when ``needs`` found them for every player at once."""
    test = evaluation.test
    results = test.own_results(player)
    statuses = {r: evaluation.standing(player, r) for r in results}
    if all(always for always, _ in statuses.values()):
        return "is a victor whatever happens"
    if not any(sometimes for _, sometimes in statuses.values()):
        return "cannot become a victor with this pairing"
    cases = cases or {}
    if results == (None,):
        return "needs to " + _help(evaluation, player, None, cases.get((player, None)))
    always_with = [r for r in results if statuses[r][0]]
    parts = [" or ".join(_VERB[r] for r in always_with)] if always_with else []
    for result in results:
        always, sometimes = statuses[result]
        if sometimes and not always:
            help_text = _help(evaluation, player, result, cases.get((player, result)))
            parts.append(f"{_VERB[result]} and {help_text}")
    return "needs to " + ", or ".join(parts)


_VERB = {Result.WIN: "win", Result.DRAW: "draw", Result.LOSS: "lose", None: "take the bye"}
MAX_HELPERS = 2
MAX_HELP_GAMES = 8  # look for pairs of helping results among this many games at most


@dataclass
class _WorstCase:
    """A player's worst case with one own result, game by game (the pairing table's
    ``breakdown``): the most players level or above overall, per game over its results and
    per result, and the games one of whose results (not all) makes the player certain,
    with those results."""

    total: int
    worst: NDArray[np.int64]  # [unit]
    per_unit: NDArray[np.int64]  # [unit, result of its first player]
    helping: list[tuple[int, list[Result]]]
    # ``PairingTable.rivals_to_pass``, when ``needs`` found them
    rivals: tuple[list[str], int] | None = None


def _worst_cases(
    evaluation: Evaluation, subjects: Sequence[tuple[str, Result | None]]
) -> list[_WorstCase]:
    """``_WorstCase`` of each (player, own result; None: the bye), all at once: with the
    player's own game fixed, the most players level or above is a sum over the other
    games, so fixing one of them is a subtraction, for every game and subject together."""
    if not subjects:
        return []
    test, table = evaluation.test, evaluation.pairing
    own_units, own_counts, rows = [], [], []
    for player, result in subjects:
        own_index = test.unit_of[player]
        own_unit = test.units[own_index]
        if result is None:
            own_result = Result.WIN  # the bye
        else:
            own_result = result if own_unit.first == player else OPPOSITE[result]
        own_count, counts = table.breakdown(player, own_result)
        own_units.append(own_index)
        own_counts.append(own_count)
        rows.append(counts)
    per_unit = np.array(rows, np.int64)  # [subject, unit, result]
    subject = np.arange(len(subjects))
    own = np.array(own_units, np.int64)
    worst = most_over_results(per_unit)
    total = np.array(own_counts, np.int64) + worst.sum(axis=1) - worst[subject, own]
    # The games played (not the bye) where some result, not every one, keeps the count
    # below the victor places (the player's own game, the same for every result, never).
    played = np.zeros(worst.shape[1], bool)
    played[evaluation.games_played] = True
    good = (total[:, None] - worst)[:, :, None] + per_unit < test.victors
    helping = good.any(axis=2) & ~good.all(axis=2) & played
    # The first few helping games of each subject, in the pairing's order.
    shown = helping & (np.cumsum(helping, axis=1) <= MAX_HELPERS + 1)
    found: list[list[tuple[int, list[Result]]]] = [[] for _ in subjects]
    for i, g in zip(*(axis.tolist() for axis in np.nonzero(shown)), strict=True):
        found[i].append((g, [r for r, ok in zip(ALL, good[i, g].tolist(), strict=True) if ok]))
    cases = [
        _WorstCase(int(total[i]), worst[i], per_unit[i], found[i]) for i in range(len(subjects))
    ]
    return cases


def _help(
    evaluation: Evaluation, player: str, result: Result | None, case: _WorstCase | None = None
) -> str:
    """The other results that make ``player`` certain with ``result``, in words: one
    game's result (``_worst_cases``), else two games' together, else the players to finish
    ahead of on spread."""
    test = evaluation.test
    tag = evaluation.standings.tag
    if case is None:
        (case,) = _worst_cases(evaluation, [(player, result)])
    victors = test.victors
    helpers = [_describe_help(evaluation, test.units[g], results) for g, results in case.helping]
    played = evaluation.games_played  # its own game too, unless the player has the bye
    at = (
        [g for g in played.tolist() if g != test.unit_of[player]]
        if not helpers and len(played) <= MAX_HELP_GAMES + 1
        else []
    )
    if not helpers and 0 < len(at) <= MAX_HELP_GAMES:  # two results together
        total, worst, per_unit = case.total, case.worst.tolist(), case.per_unit.tolist()

        def good(index: int, rest: int) -> list[Result]:
            return [r for r, n in zip(ALL, per_unit[index], strict=True) if rest + n < victors]

        for first, second in itertools.combinations(at, 2):
            for r in range(3):
                rest = total - worst[first] - worst[second] + per_unit[first][r]
                found = good(second, rest)
                if found and len(found) < len(ALL):
                    helpers.append(
                        _describe_help(evaluation, test.units[first], [ALL[r]])
                        + " and "
                        + _describe_help(evaluation, test.units[second], found)
                    )
                if len(helpers) >= MAX_HELPERS:
                    break
            if len(helpers) >= MAX_HELPERS:
                break
    if helpers:
        return "have " + ", or ".join(helpers[: MAX_HELPERS + 1])
    if len(test.relevant) > SMALL_FIELD:  # naming spread rivals costs a search
        return "other results or spread to go their way"
    rivals, to_pass = (
        case.rivals
        if case.rivals is not None
        else evaluation.pairing.rivals_to_pass([(player, result)], test.victors)[0]
    )
    if rivals:
        return f"finish ahead of {_some_of([tag(p) for p in rivals], to_pass)} on spread"
    return "other results to go their way"


def _some_of(names: Sequence[str], count: int) -> str:
    """``count`` of ``names`` in words: "A and B" (all), "A or B" (one), "2 of A, B and C"."""
    if len(names) == 1:
        return names[0]
    listed = ", ".join(names[:-1]) + (" and " if count > 1 else " or ") + names[-1]
    return listed if count == 1 or count >= len(names) else f"{count} of {listed}"


ALL = (Result.WIN, Result.DRAW, Result.LOSS)


def _describe_help(evaluation: Evaluation, unit: Unit, good: Sequence[Result]) -> str:
    """Results of ``unit`` (as its first player's) that help, in words."""
    tag = evaluation.standings.tag
    first = tag(unit.first)
    kinds = frozenset(good)
    if unit.second is None:
        words = {
            frozenset({Result.WIN}): "win",
            frozenset({Result.DRAW}): "draw",
            frozenset({Result.LOSS}): "lose",
            frozenset({Result.WIN, Result.DRAW}): "not lose",
            frozenset({Result.LOSS, Result.DRAW}): "not win",
            frozenset({Result.WIN, Result.LOSS}): "not draw",
        }
        return f"{first} {words[kinds]}"
    second = tag(unit.second)
    words = {
        frozenset({Result.WIN}): f"{first} beat {second}",
        frozenset({Result.LOSS}): f"{second} beat {first}",
        frozenset({Result.DRAW}): f"{first} and {second} draw",
        frozenset({Result.WIN, Result.DRAW}): f"{second} not beat {first}",
        frozenset({Result.LOSS, Result.DRAW}): f"{first} not beat {second}",
        frozenset({Result.WIN, Result.LOSS}): f"{first} and {second} not draw",
    }
    return words[kinds]
