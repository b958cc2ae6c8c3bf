"""Verdicts on GP1-GP4: a pairing judged against the other pairings of the same players.

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
  matching per leader proves: ``EveryPairing.gp1_broken_everywhere``; for GP2, also when no
  pairing keeps any contender the pairing removes, a bound or a matching per contender:
  ``Judge._gp2_unavoidable``);
- ``unverified``: too large to decide, or no better candidate among a non-exhaustive set;
- ``not_applicable``: nothing to judge.

Every violated, overridden or unavoidable verdict carries the outcome that shows the
principle broken.

The scores come from ``principles`` (one pairing) and ``field_scores`` (many at once); the
candidates from ``candidates``; the proofs over every pairing from ``every_pairing``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import cast

import numpy as np
from numpy.typing import NDArray

from ..contention import Result
from ..words.games import games_text
from ..words.verdicts import GOOD_REASONS
from .candidates import (
    MAX_COMPARED_PLAYERS,
    OUTSIDER,
    canonical,
    lists_every_pairing,
    partial_matchings,
    standard_candidates,
)
from .count_tables import CERTAIN, POSSIBLE, RESULTS
from .every_pairing import EveryPairing
from .field_scores import FieldScores
from .principles import PRINCIPLES, Evaluation, Pairs, Verdict, gp2_parts

RESCUED_LEADERS = 2  # leaders given a pairing of their own when GP1 is broken
MAX_GP2_PROOF_PLAYERS = 16  # removed contenders ``_gp2_unavoidable`` tries to keep, at most


class Judge(FieldScores):
    """Judges pairings of one field against each other: the verdicts, and the pairing that
    best keeps the principles."""

    @cached_property
    def every_pairing(self) -> EveryPairing | None:
        """Bests over every pairing of the players, by matchings on the field's table (None
        when the field has none)."""
        table = self.table
        if table is None:
            return None
        return EveryPairing(self.standings, table, self.bye, self.victors)

    @cached_property
    def _candidate_lists(
        self,
    ) -> dict[tuple[Pairs, Pairs, tuple[str, ...] | None], tuple[list[Pairs], bool]]:
        """``candidates``' answers, by what was asked (``judge`` and ``proven_better`` ask
        alike)."""
        return {}

    @cached_property
    def _gp1_everywhere(self) -> tuple[str, NDArray[np.int64]] | None:
        """``EveryPairing.gp1_broken_everywhere`` for the players a pairing judged here is
        free to pair: the same for every pairing this judge judges."""
        players, outsiders = self.pairing_space()
        every = self.every_pairing
        assert every is not None  # asked only when the field has a table
        return every.gp1_broken_everywhere(players, max(outsiders, 0))

    @cached_property
    def settled(self) -> frozenset[str]:
        """Players Gibsonized in any pairing worth comparing: certain of a victor place
        and, with graded prizes, racing for no better place."""
        races = self.prize_races or {}
        return frozenset(p for p in self.contention.clinched if not races.get(p))

    def keeps_gibsonization(self, pairs: Pairs) -> bool:
        """Whether no settled player faces a contender: the principles alone score such a
        Gibson mistake no worse (the contender's game is handed to a player with nothing
        to play for), so while outsiders are free to give them (``candidates`` asks) it is
        never offered as a pairing that does better (``checker.gibson_mistakes``)."""
        if not self.settled:
            return True
        contenders = set(self.contention.contenders) - self.settled
        return not any(
            (a in self.settled and b in contenders) or (b in self.settled and a in contenders)
            for a, b in pairs
        )

    def pairing_space(
        self, fixed: Sequence[tuple[str, str]] = (), players: Sequence[str] | None = None
    ) -> tuple[list[str], int]:
        """The players a pairing compared with others is free to pair (``players``,
        default every relevant player but the bye, less those in ``fixed`` games), and how
        many outsiders they can face (may be negative when ``fixed`` takes them all)."""
        if players is None:
            players = [p for p in self.contention.relevant if p != self.bye]
        busy = {p for pair in fixed for p in pair}
        outsiders = len(self.standings) - len(self.contention.judged)
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
        if asked not in self._candidate_lists:
            found, exhaustive = self._candidates(pairs, fixed, players)
            if self.pairing_space(fixed, players)[1] > 0:  # outsiders left to give them
                found = [c for c in found if self.keeps_gibsonization(c)]
            self.know_keys(found)  # each is canonical already
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
        ranked = sorted(open_players, key=self.standings.rank)
        standard = [
            canonical(self.standings, (*fixed, *c))
            for c in [
                # First: GP1's searches share a budget in this order, and this one is
                # the likeliest to keep GP2 in full.
                self.race.head_to_head(ranked, OUTSIDER),
                *standard_candidates(self.standings, open_players, pairs),
            ]
        ]
        if not lists_every_pairing(open_players, outsiders):
            if not fixed:
                standard += self._rescuing(pairs, open_players, max(outsiders, 0))
            return list(dict.fromkeys(standard)), False
        found = list(partial_matchings(open_players, max(outsiders, 0)))
        every = [canonical(self.standings, (*fixed, *c)) for c in found]
        allowed = set(every)
        # The standard pairings first: they are the likeliest to show a principle kept.
        ordered = [c for c in standard if c in allowed] + every
        return list(dict.fromkeys(ordered)), True

    def _rescuing(
        self, pairs: Sequence[tuple[str, str]], players: list[str], outsiders: int
    ) -> list[Pairs]:
        """Pairings that swaps of ``pairs`` can miss, each the best of every pairing of
        ``players`` for one player (a matching on the field's table): for the first
        contender that ``pairs`` removes (GP2 ranks them in order), the pairing that leaves
        them the fewest players above; when ``pairs`` breaks GP1, for the first leaders,
        the one that leaves the fewest level or above them over their three results."""
        mine = self.evaluate(pairs)
        every = self.every_pairing
        if every is None:  # no table: as ``mine``, which has none either
            return []
        found = []
        sitting = self.contention.fixed
        removed = [
            p for p in mine.contenders if mine.removed_flag(p) and (p in players or p in sitting)
        ]
        if removed:
            count, rescue = every.fewest_above(removed[0], players, outsiders)
            if count < self.victors:
                found.append(rescue)
        if mine.score("GP1") == 1:
            leaders = [p for p in mine.leaders if p in players]
            for leader in leaders[:RESCUED_LEADERS]:
                found.append(every.best_pairing(leader, CERTAIN, players, outsiders)[1])
        return [canonical(self.standings, p) for p in found]

    def judge(self, pairs: Sequence[tuple[str, str]]) -> list[Verdict]:
        """GP1-GP4's verdicts on ``pairs``, a pairing in which every contender has a game
        (or the bye): GP2 compares pairings contender by contender."""
        mine = self.evaluate(pairs)
        unpaired = [p for p in self.contention.contenders if p not in mine.test.unit_of]
        if unpaired:
            raise ValueError(f"{unpaired[0]} can still be a victor but has no game to judge")
        mine.settle()
        exhaustive = lists_every_pairing(*self.pairing_space())
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
        players, _ = self.pairing_space()
        if len(players) > MAX_COMPARED_PLAYERS:
            return None
        every = self.every_pairing
        if every is None:
            return None
        proven = self._gp1_everywhere
        if proven is None:
            return None
        words, results = proven
        table = every.table
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
        that ``mine`` removes: a pairing does better on GP2's first part only by keeping
        one of them (the first removed one it keeps, with the same removed above it), and
        ``fewest_above`` is the exact best of every pairing for one player (a bound first,
        a matching only when the bound does not settle it); and, for the chasers ``mine``
        sends away from the race, that no pairing gives one a player to pass while every
        higher-ranked chaser keeps theirs. None when a removed contender can be kept, has
        the bye, or there are too many to try."""
        score = cast(tuple[int, ...], mine.score("GP2"))
        if is_ideal(score):
            return None
        removed_flags, away_flags = gp2_parts(score)
        codes = tuple(
            2 if gone else away for gone, away in zip(removed_flags, away_flags, strict=True)
        )
        removed = [p for p in mine.contenders if mine.removed_flag(p)]
        if 1 in codes and not self._head_to_head_settled(mine, codes):
            return None
        if removed and not self._removals_forced(removed):
            return None
        text, outcome = mine.proof("GP2")
        why = []
        if removed:
            why.append(
                f"whatever the pairing and the results, {self.victors} or more players "
                "finish above " + ("each of them" if len(removed) > 1 else "them")
            )
        if 1 in codes:
            why.append(
                "no pairing gives a chaser sent away here a player they need to pass while "
                "every higher-ranked chaser keeps theirs"
            )
        return Verdict(
            "GP2",
            "unavoidable",
            f"{text}; no pairing of these players does better: " + "; and ".join(why),
            outcome,
        )

    def _removals_forced(self, removed: list[str]) -> bool:
        """Whether no pairing keeps any of ``removed`` (see ``_gp2_unavoidable``); False
        also when that cannot be tried (no table, too many players)."""
        players, outsiders = self.pairing_space()
        table, every = self.table, self.every_pairing
        if (
            table is None
            or every is None
            or len(players) > MAX_COMPARED_PLAYERS
            or len(removed) > MAX_GP2_PROOF_PLAYERS
            or any(p not in players for p in removed)
        ):
            return False
        outsiders = max(outsiders, 0)
        win = RESULTS.index(Result.WIN)
        for player in removed:  # one at a time: the first one kept somewhere ends it
            counts = table.subject(POSSIBLE, player, win)[None].astype(np.int64)
            if every.lower_bounds(counts, players, outsiders)[0] >= self.victors:
                continue
            if every.fewest_above(player, players, outsiders)[0] < self.victors:
                return False  # the rescue candidate the comparison lists reads this matching
        return True

    def _head_to_head_settled(self, mine: Evaluation, score: tuple[int, ...]) -> bool:
        """Whether no pairing does better than ``mine`` on GP2's head-to-head part, given
        that it keeps every contender ``mine`` keeps: at each chaser ``mine`` sends away
        (score 1), no pairing can give them a player to pass while every chaser above
        whom ``mine`` gives one keeps theirs (``Race.can_all_face``). With the removals
        proven below, this makes GP2 unavoidable: a pairing ranks above only by a lower
        score at its first difference, which is a sent-away position here."""
        race = mine.race
        if len(race.contenders) > MAX_COMPARED_PLAYERS:
            return False  # one matching per chaser sent away: bounded like the comparisons
        targets = dict(zip(race.contenders, race.targets, strict=True))
        unavailable = frozenset({self.bye} if self.bye is not None else ())
        kept: list[str] = []
        for player, value in zip(mine.contenders, score, strict=True):
            if value == 1 and race.can_all_face([*kept, player], unavailable):
                return False
            if value == 0 and targets.get(player):
                kept.append(player)
        return True

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
        if is_ideal(score):
            return Verdict(gp, "satisfied", GOOD_REASONS[gp])
        text, outcome = mine.proof(gp)
        higher = mine.scores(level)
        candidates, _ = self.candidates(pairs)
        better_here = []  # better on gp, and decidedly worse on a higher principle
        undecided: list[Pairs] = []  # a score that would decide it is unknown
        self.read_scores(candidates, (gp,))
        if gp != "GP1":  # the higher principles of those better here (GP1 has none)
            self.read_scores(
                [c for c in candidates if less(self.score_of(c, gp), score)], PRINCIPLES[:level]
            )
        for other in candidates:
            theirs = self.score_of(other, gp)
            if theirs is None:
                undecided.append(other)
                continue
            if not less(theirs, score):
                continue
            above = self.scores_of(other, level)  # GP1 searched only for those better here
            if first_worse(above, higher) is not None:
                better_here.append(other)
            elif any(t is None or m is None for t, m in zip(above, higher, strict=True)):
                undecided.append(other)
            else:
                return self.violated(pairs, gp, games_text(self.standings, other))
        if undecided:
            return Verdict(
                gp,
                "unverified",
                f"{text}; whether pairing {games_text(self.standings, undecided[0])} does "
                "better without breaking a higher principle is not decided (too many outcomes "
                "to search)",
                outcome,
            )
        if better_here:
            worse = first_worse(self.scores_of(better_here[0], level), higher)
            broken = PRINCIPLES[worse] if worse is not None else "a higher principle"
            among = "" if exhaustive else f" (among {len(candidates)} standard pairings compared)"
            return Verdict(
                gp,
                "overridden",
                f"{text}; pairings that keep {gp} better, such as "
                f"{games_text(self.standings, better_here[0])}, break {broken}{among}",
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

    def describe_games(self, pairs: Sequence[tuple[str, str]]) -> str:
        """``games_text`` of a pairing's games that hold a relevant player, in rank order."""
        return games_text(self.standings, self._key(pairs))

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
        """The candidate that best keeps GP1 > GP2 > GP3 > GP4 (unverified scores last);
        ``start`` wins ties (see ``best_ties``)."""
        tied, exhaustive = self.best_ties(start, fixed, players)
        return tied[0], exhaustive

    def best_ties(
        self,
        start: Sequence[tuple[str, str]],
        fixed: Sequence[tuple[str, str]] = (),
        players: Sequence[str] | None = None,
    ) -> tuple[list[Pairs], bool]:
        """Every candidate that best keeps GP1 > GP2 > GP3 > GP4 (unverified scores last),
        ``start``'s pairing first when it is one of them, and whether every pairing was
        compared. The principles cannot tell these apart: the pairing policy chooses.

        ``start`` (the weighted matching's answer) seeds the standard candidates when the
        search cannot be exhaustive.
        """
        candidates, exhaustive = self.candidates(start, fixed, players)
        first = canonical(self.standings, (*fixed, *start))
        if not candidates:
            return [first], False
        # The first pairing in [first, *candidates] with the least scores, principle by
        # principle: what comparing each candidate with the best so far answers. GP1 is
        # scored in the order those comparisons score it (its searches share a budget).
        self.read_scores([first, *candidates], ("GP1",))
        for pairs in (candidates[0], first, *candidates[1:]):
            self.score_of(pairs, "GP1")
        remaining = list(dict.fromkeys((first, *candidates)))
        for gp in PRINCIPLES:
            self.read_scores(remaining, (gp,))
            scores = [sortable(self.score_of(pairs, gp)) for pairs in remaining]
            least = min(scores)
            remaining = [p for p, score in zip(remaining, scores, strict=True) if score == least]
            if len(remaining) == 1:
                break
        return remaining, exhaustive

    def ranks_above(self, pairs: Pairs, other: Pairs) -> bool:
        """Whether ``pairs`` ranks strictly above ``other`` on GP1 > GP2 > GP3 > GP4
        (unverified scores last), scoring a principle only when the higher ones tie: most
        candidates lose on GP1 or GP2, and the lower principles cost the most."""
        for gp in PRINCIPLES:
            a, b = sortable(self.score_of(pairs, gp)), sortable(self.score_of(other, gp))
            if a != b:
                return less(a, b)
        return False

    def proven_better(self, pairs: Sequence[tuple[str, str]]) -> tuple[Pairs, int] | None:
        """A pairing of the relevant players that ranks above ``pairs`` on the principles
        (GP1, then GP2, GP3, GP4), and the first principle on which it does better; None
        when no candidate does, or when a score that would decide it is unknown."""
        mine = self.evaluate(pairs)
        best, _ = self.best(pairs)
        if not self.ranks_above(best, canonical(self.standings, pairs)):
            return None
        for level, (theirs, ours) in enumerate(
            zip(self.scores_of(best), mine.scores(), strict=True)
        ):
            if theirs is None or ours is None:
                return None
            if less(theirs, ours):
                return best, level
        return None


def first_worse(theirs: Sequence[object], ours: Sequence[object]) -> int | None:
    """The first principle on which ``theirs`` is known to be worse than ``ours``."""
    for level, (t, m) in enumerate(zip(theirs, ours, strict=True)):
        if t is not None and m is not None and not less_equal(t, m):
            return level
    return None


def is_ideal(score: object) -> bool:
    if isinstance(score, tuple):
        return not any(score)
    return score == 0


def sortable(score: object) -> tuple[int, object]:
    return (1, 0) if score is None else (0, score)


def less(a: object, b: object) -> bool:
    return bool(a < b)  # type: ignore[operator]


def less_equal(a: object, b: object) -> bool:
    return bool(a <= b)  # type: ignore[operator]
