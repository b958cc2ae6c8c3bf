"""GP1-GP4 scored for one pairing, each score with the outcome that proves it.

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

``Evaluation`` scores one pairing; ``field_scores.FieldScores`` reads the same scores for
many pairings of a field at once; ``comparison.Judge`` compares pairings and gives the
verdicts; ``explain`` says it in words. The scores are read from the counts tables;
``tests/unit/engine/scrabble/test_principle_scores.py`` holds each equal to its readable
definition on the outcome engine (one player, own result and outcome at a time).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np
from numpy.typing import NDArray

from ...matching import Indices
from ..contention import UNBOUNDED, Contention, Result
from ..standings import Standings
from ..words.verdicts import GOOD_REASONS, RESULT_WORDS
from .count_tables import CERTAIN, POSSIBLE, RESULTS, Counts
from .field_table import FieldTable
from .pairing_table import PairingTable
from .proof import Assignment, Outcome, RoundUnderTest, Status
from .race import Race, race_of

PRINCIPLES = ("GP1", "GP2", "GP3", "GP4")
SMALL_FIELD = 12  # relevant players up to which searches go deep (GP1, naming spread rivals)
SEARCH_NODES = 20_000  # GP1's search over outcomes, in a small field
SEARCH_NODES_LARGE = 2_000  # ... and in a larger one
COMPARISON_NODES = 2_000  # GP1's searches for the pairings compared with one, in all

Pairs = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Verdict:
    id: str
    status: str
    reason: str
    outcome: Outcome | None = None


@dataclass(frozen=True)
class Need:
    player: str
    text: str  # one line to read aloud (``explain.needs.short_need``)
    ways: tuple[str, ...] = ()  # every way found, simplest first


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
    given_race: Race | None = None  # the field's (one per judge), else built on demand
    no_rule_breaks_gp1: bool = False  # ``FieldScores.read_scores`` tried ``GP1_RULES``: a search

    @cached_property
    def leaders(self) -> list[str]:
        """The leading win group's players in this pairing's games, in rank order."""
        return in_leading_group(self.standings, self.test.unit_of)

    @cached_property
    def contenders(self) -> list[str]:
        return [
            p for p in judged_contenders(self.standings, self.contention) if p in self.test.unit_of
        ]

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
            self.standings,
            test.relevant,
            test.units,
            test.margin,
            self.rounds_left,
            test.sitting_out,
        )

    @cached_property
    def games_played(self) -> Indices:
        """The indices of this pairing's units that are games (not the bye, nor a player
        sitting out)."""
        return np.flatnonzero([not unit.fixed for unit in self.test.units])

    @property
    def index(self) -> dict[str, int]:
        """The relevant players' rows in ``counts`` (rank order, as both tables have it)."""
        return self.table.index if self.table is not None else self.pairing.index

    def counts(self) -> Counts:
        """[question, player, result]: the count above each subject's record (``count_tables``),
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
            # GP1 broken under every pairing (``EveryPairing.gp1_broken_everywhere``): one of them
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
        """GP1 is broken: one of ``GP1_RULES`` shows it (``FieldScores.read_scores`` found it for
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
        return combined_gp2(flags, self.race.of(self.contenders, self.pairs))

    def removed_flag(self, player: str) -> int:
        """1 when no outcome makes ``player`` a victor (GP2), per player, kept."""
        if self._possible is None:
            self._possible = (~out_of_reach(self.counts(), self.test.victors)).tolist()
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
        if gp == "GP2" and gp not in self.proofs and not self._removed and self.score(gp) != 0:
            self.proofs["GP2"] = (self._sent_away_text(), None)
        if gp == "GP2" and gp not in self.proofs and self._removed:
            player = self._removed[0]
            _, best = self.test.possible(player, {}, best_outcome=True)
            outcome = self.test.outcome(best)
            names = ", ".join(self.standings.tag(p) for p in self._removed)
            sent_away = any(self.race.of(self.contenders, self.pairs))
            self.proofs["GP2"] = (
                f"no outcome makes {names} a victor: even at best ("
                + outcome.describe(self.standings)
                + f"), {self.standings.tag(player)} finishes out of the victor places"
                + ("; and " + self._sent_away_text(kept=False) if sent_away else ""),
                outcome,
            )
        return self.proofs.get(gp, ("", None))

    def _sent_away_text(self, kept: bool = True) -> str:
        """GP2's head-to-head part broken, in words: who races for a place but plays
        someone outside the race."""
        flags = self.race.of(self.contenders, self.pairs)
        away = [p for p, flag in zip(self.contenders, flags, strict=True) if flag]
        tag = self.standings.tag
        targets = self.race.targets[self.race.contenders.index(away[0])]
        rivals = [tag(p) for p in self.contenders if p in targets]
        shown = " or ".join(rivals[:3]) + (f" or {len(rivals) - 3} more" if len(rivals) > 3 else "")
        return (
            (GOOD_REASONS["GP2"] + ", but " if kept else "") + f"{tag(away[0])} does not face "
            f"a player they need to pass ({shown}), whom beating could carry them past"
            + (f"; nor do {len(away) - 1} more chasers" if len(away) > 1 else "")
        )

    @property
    def race(self) -> Race:
        """GP2's head-to-head part (``race.py``): the judge's, computed once a field, or
        this pairing's own when it has none."""
        if self.given_race is None:
            margin = self.test.margin
            cap = None if margin >= UNBOUNDED else margin
            self.given_race = race_of(
                self.standings, self.contention, self.test.victors, cap, self.rounds_left
            )
        return self.given_race

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
        levels = standing_levels(self.counts(), self.test.victors)
        found = np.argwhere(easier_pairs(levels[[self.index[p] for p in ranked]]))
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
        higher_with, lower_with = self._with(higher, result), self._with(lower, lower_result_here)
        if low[index] == 2:
            text = (
                f"{tag(lower)} is a victor {lower_with} whatever else "
                f"happens, {tag(higher)} is not: {tag(higher)} {higher_with} is out of "
                "the victor places if " + mine.witness.describe(self.standings)
            )
        else:
            text = (
                f"{tag(lower)} can still become a victor {lower_with}, "
                f"{tag(higher)} cannot {higher_with}"
            )
        return text, mine.witness

    def _with(self, player: str, result: Result | None) -> str:
        """A player's own result in words ("with a win"; "sitting out" for one who does)."""
        if self.test.units[self.test.unit_of[player]].sits_out:
            return "sitting out"
        return f"with {RESULT_WORDS[result]}"

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
        between two certain players cannot change who the victors are), nor rivals for a
        paid place that pays differently (``Race.rivals``: they race for it head to
        head)."""
        clinched = set(self.contention.clinched)
        return [
            (u.first, u.second)
            for u in self.test.units
            if u.second is not None
            and not (u.first in clinched and u.second in clinched)
            and not self.race.rivals(u.first, u.second)
        ]

    def applicable(self, gp: str) -> str | None:
        """Why a principle does not apply here, or None."""
        if self.rounds_left > 1 and gp != "GP2":
            return (
                f"{self.rounds_left} rounds are left; {gp} judges the final round "
                "(contention and Gibsonization use the best possible finish)"
            )
        if gp == "GP1" and not self.leaders:
            return "nobody in the leading win group plays with a victor place at stake"
        if gp == "GP2" and not self.contenders:
            return "nobody is still in contention"
        if gp == "GP3" and len(self.test.relevant) < 2:
            return "fewer than two players can be victors"
        if gp == "GP4":
            if self.test.victors < 2:
                return "with one victor place, a draw cannot make two victors"
            if not self.contested_games():
                if any(
                    u.second is not None and self.race.rivals(u.first, u.second)
                    for u in self.test.units
                ):
                    return "every game between players who can be victors is a race for a place"
                return "no game between two players who can be victors"
        return None


KEPT = frozenset({"satisfied", "not_applicable"})


def combined_gp2(removed: Sequence[int], sent_away: Sequence[int]) -> tuple[int, ...]:
    """GP2's score: first, per contender in rank order, 1 when no outcome makes them a
    victor (removed from contention); then, per contender in rank order, 1 when they keep
    a way but are sent away from the race (``race.py``). Compared as a tuple, so a
    pairing that removes a contender ranks below every pairing that removes nobody
    (above them), whoever it sends away: the seed's GP2 is about removal ("do not remove
    a player from victory contention ... the highest ranked ones should remain in
    contention"); the opportunity to face a rival head to head is the tie-break after
    it. Before 2026-11-28 the two were one flag per contender (removed 2, sent away 1),
    so sending #2 away counted worse than removing #4: row 0/1/1.5+ then paired 2-3,
    which leaves #4 no way to finish 2nd, instead of the row's 2-4."""
    return (*removed, *(0 if gone else away for gone, away in zip(removed, sent_away, strict=True)))


def gp2_parts(score: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """GP2's score split: per contender in rank order, removed; and sent away."""
    half = len(score) // 2
    return tuple(score[:half]), tuple(score[half:])


def agrees(gp: str, seed_status: str, engine_status: str) -> bool:
    """Does the engine's verdict say what the seed's note says? "Kept" and "nothing to
    keep" agree; for GP1 and GP2, which ask for what is possible, so does "unavoidable"."""
    kept = KEPT | ({"unavoidable"} if gp in ("GP1", "GP2") else set())
    return seed_status == engine_status or (seed_status in kept and engine_status in kept)


def out_of_reach(counts: NDArray[np.int64], victors: int) -> NDArray[np.bool_]:
    """From counts [question, ..., player, own result]: [..., player] whether no outcome
    makes the player a victor (GP2's removed contender)."""
    out: NDArray[np.bool_] = counts[POSSIBLE].min(axis=-1) >= victors
    return out


def standing_levels(counts: NDArray[np.int64], victors: int) -> NDArray[np.int8]:
    """From counts [question, ..., player, own result]: 2 a victor whatever else happens,
    1 sometimes, 0 never (certain implies possible, so the sum); a bye's three slots are
    the same."""
    levels: NDArray[np.int8] = (counts[CERTAIN] < victors).astype(np.int8) + (
        counts[POSSIBLE] < victors
    )
    return levels


def easier_pairs(levels: NDArray[np.int8]) -> NDArray[np.bool_]:
    """[..., higher, lower] for ``standing_levels`` [..., player, own result] with the players in
    rank order: whether the lower-ranked player's standing is at least as good for every
    own result and better for one (a pair that breaks GP3)."""
    # Per own result as columns: reducing an axis of three is slow.
    columns = [levels[..., r] for r in range(3)]
    at_least = np.logical_and.reduce([c[..., None, :] >= c[..., :, None] for c in columns])
    better = np.logical_or.reduce([c[..., None, :] > c[..., :, None] for c in columns])
    easier: NDArray[np.bool_] = at_least & better & above_diagonal(levels.shape[-2])
    return easier


@lru_cache(maxsize=64)
def above_diagonal(size: int) -> NDArray[np.bool_]:
    """[row, column]: True above the diagonal, for masking stacks of square arrays
    (``np.triu`` of a 3-D array is several times slower than this mask)."""
    mask = np.triu(np.ones((size, size), bool), k=1)
    mask.setflags(write=False)
    return mask


def judged_contenders(standings: Standings, contention: Contention) -> list[str]:
    """The contenders GP2 keeps, in rank order: those who play and those sitting out."""
    if not contention.sitting_out:
        return list(contention.contenders)
    return sorted([*contention.contenders, *contention.fixed], key=standings.rank)


def in_leading_group(standings: Standings, players: Iterable[str]) -> list[str]:
    """Those of ``players`` in the leading win group, in rank order (looked for among the
    players given: the field can be thousands)."""
    top = standings.ranked[0].half_wins
    ahead = [p for p in players if standings.player(p).half_wins == top]
    return sorted(ahead, key=standings.positions.__getitem__)
