"""The outcome engine: what a final-round pairing does to each contender, proven.

Contract. ``RoundUnderTest(standings, relevant, pairs, bye, victors, cap, rounds_left)``
takes a pairing (``pairs`` of ids and an optional bye) and the players who can still be
victors (``relevant``: everyone else has at least ``victors`` players surely above them, so
they never change who the victors are). Only the games of relevant players ("units") matter.
A relevant player who sits out every round left with a known result (``sitting_out``: the
spread each round scores) is a unit of their own with a fixed result, as the bye is: one
final record (``contention.fixed_final``), never paired. An *outcome* fixes every unit's
result (win, draw or loss; a bye is a win worth ``BYE_SPREAD``). Margins are unknown: a
win moves spread by 1..M, a loss by -M..-1, a draw by 0, with M = ``cap`` (unbounded
without one), and the two players of one game move by exactly opposite amounts.

In an outcome a player is

- **certain** (a victor for every margin): fewer than ``victors`` others can finish level
  with or above them;
- **decided by spread**: a victor for some margins only;
- **out**: a victor for no margin.

Both tests are exact and fast because games are independent: for a player p, the number of
others above p is a sum over games, and each game's worst (or best) case for p is found on
its own, with p's own margin at its extreme (which also moves p's opponent the adversarial
way). That answers "for every outcome" and "for some outcome" questions without listing
outcomes, so GP2, GP3, GP4 and the needs cost O(players x games). GP1 ("in every outcome a
leader is certain") is a search over outcomes, pruned by the same per-game bounds.

With ``rounds_left`` > 1, the later rounds are assumed to go as well (or as badly) as
possible for each player, as tsh's contention does: p may add ``rounds_left - 1`` wins by M
while everyone else loses by M, or the reverse.

Self-check: ``check_outcome`` recomputes a claimed outcome's standing for a player by brute
force over margins (small cases); the tests use it against the fast path.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from ..contention import BYE_SPREAD, UNBOUNDED, Result, fixed_moves
from ..standings import Standings
from ..words.outcomes import outcome_text

NEVER = 10**18  # a threshold no margin reaches
ALWAYS = -(10**18)

OPPOSITE = {Result.WIN: Result.LOSS, Result.LOSS: Result.WIN, Result.DRAW: Result.DRAW}
ALL_RESULTS = (Result.WIN, Result.DRAW, Result.LOSS)


class Place(Enum):
    CERTAIN = "certain"
    SPREAD = "decided by spread"
    OUT = "out"


@dataclass(frozen=True, slots=True)
class Unit:
    """A game with at least one relevant player: ``first`` is relevant; ``second`` is the
    relevant opponent, or None for an opponent who cannot be a victor; ``bye`` for a bye;
    ``sits_out`` for a relevant player without a game whose record is fixed (filed under
    the win, as the bye is)."""

    first: str
    second: str | None
    bye: bool = False
    sits_out: bool = False

    @property
    def fixed(self) -> bool:
        """The unit's one result is known: the bye, or a player sitting out."""
        return self.bye or self.sits_out

    def players(self) -> tuple[str, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


Assignment = dict[int, Result]  # unit index -> result of the unit's first player
UnitKey = tuple[str, str | None, bool, bool]
UnitCache = dict[tuple[UnitKey, Result | None, tuple[int, int], bool], tuple[int, Result]]


@dataclass(frozen=True)
class Outcome:
    """Results of some or all units (partial outcomes prove "whatever else happens")."""

    results: Mapping[str, Result | None]  # player -> result; None: the bye
    complete: bool

    def describe(self, standings: Standings) -> str:
        """The outcome in words (``explain.outcomes``)."""
        return outcome_text(standings, self.results, self.complete)


@dataclass(frozen=True)
class Status:
    """What one own result leaves a player: ``always`` certain, ``sometimes`` a victor, or
    neither; ``witness`` is the outcome that proves the weaker claim."""

    result: Result | None
    always: bool
    sometimes: bool
    witness: Outcome


def record_of(standings: Standings, players: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Each player's (half-wins, spread) before the round."""
    return {p: (standings.player(p).half_wins, standings.player(p).spread) for p in players}


class RoundUnderTest:
    def __init__(
        self,
        standings: Standings,
        relevant: Sequence[str],
        pairs: Sequence[tuple[str, str]],
        bye: str | None,
        victors: int,
        cap: int | None,
        rounds_left: int = 1,
        cache: UnitCache | None = None,
        base: Mapping[str, tuple[int, int]] | None = None,
        sitting_out: Mapping[str, int] | None = None,
    ) -> None:
        self.standings = standings
        self.sitting_out = dict(sitting_out) if sitting_out else {}
        sitting = self.sitting_out
        self.relevant = tuple(
            sorted({*relevant, *sitting} if sitting else relevant, key=standings.rank)
        )
        self.victors = victors
        self.margin = cap if cap is not None else UNBOUNDED
        self.future = max(rounds_left, 1) - 1
        relevant_set = set(self.relevant)
        units: list[Unit] = []
        for a, b in pairs:
            if sitting and (a in sitting or b in sitting):
                raise ValueError(f"{a if a in sitting else b} sits out and has no game")
            if a in relevant_set:
                units.append(Unit(a, b if b in relevant_set else None))
            elif b in relevant_set:
                units.append(Unit(b, None))
        if bye is not None and bye in relevant_set:
            units.append(Unit(bye, None, bye=True))
        if sitting:
            units += [Unit(p, None, sits_out=True) for p in self.relevant if p in sitting]
        # Per player sitting out: the change of record for "certain", then "possible".
        self._moves = {p: fixed_moves(s, rounds_left, cap) for p, s in sitting.items()}
        self.units = units
        self.unit_of = {p: i for i, u in enumerate(units) for p in u.players()}
        self.unit_keys: list[UnitKey] = [(u.first, u.second, u.bye, u.sits_out) for u in units]
        # (half-wins, spread) of the relevant players: the same for every pairing of a field.
        self.base = base if base is not None else record_of(standings, self.relevant)
        # Shared between pairings of one field: a unit's count depends only on its players.
        self._cache = cache if cache is not None else {}

    # --- the per-game bounds ------------------------------------------------------------

    def _results(self, index: int, fixed: Mapping[int, Result]) -> tuple[Result, ...]:
        unit = self.units[index]
        if unit.bye or unit.sits_out:  # ``Unit.fixed``, without a call: asked per unit
            return (Result.WIN,)
        return (fixed[index],) if index in fixed else ALL_RESULTS

    def _delta(self, unit: Unit, result: Result, worst: bool = False) -> tuple[int, int, int]:
        """Half-wins gained by ``first`` and the range of its spread change (a player
        sitting out: as the question asks, ``worst`` for certainty; ``fixed_moves``)."""
        if unit.bye:
            return 2, BYE_SPREAD, BYE_SPREAD
        if unit.sits_out:
            gained, change = self._moves[unit.first][0 if worst else 1]
            return gained, change, change
        if result is Result.WIN:
            return 2, 1, self.margin
        if result is Result.DRAW:
            return 1, 0, 0
        return 0, -self.margin, -1

    def _threshold(self, who: str, wins_gained: int, target: tuple[int, int], strict: bool) -> int:
        """Smallest spread change that puts ``who`` level with (or, strict, above) target."""
        half_wins, spread = self.base[who]
        target_wins, target_spread = target
        final_wins = half_wins + wins_gained
        if final_wins > target_wins:
            return ALWAYS
        if final_wins < target_wins:
            return NEVER
        return target_spread - spread + (1 if strict else 0)

    def _unit_count(
        self, index: int, result: Result, target: tuple[int, int], strict: bool, maximize: bool
    ) -> int:
        """Most (or fewest) of the unit's players above ``target``, over the unit's margins."""
        unit = self.units[index]
        gained, low, high = self._delta(unit, result, maximize)
        first_at = self._threshold(unit.first, gained, target, strict)  # true for d >= first_at
        if unit.second is None:
            if maximize:
                count = int(max(low, first_at) <= high)
            else:
                count = int(not low <= min(high, first_at - 1))
        else:
            # The second player's change is -d: above target when -d >= t2, i.e. d <= -t2.
            second_upto = -self._threshold(unit.second, 2 - gained, target, strict)
            if maximize:
                if max(low, first_at) <= min(high, second_upto):
                    count = 2
                else:
                    count = int(max(low, first_at) <= high or low <= min(high, second_upto))
            elif max(low, second_upto + 1) <= min(high, first_at - 1):
                count = 0
            else:
                first_off = low <= min(high, first_at - 1)
                second_off = max(low, second_upto + 1) <= high
                count = 1 if (first_off or second_off) else 2
        return count

    def _own(self, player: str, first_result: Result, worst: bool) -> tuple[tuple[int, int], int]:
        """The player's final record at its extreme margin when the first player of its unit
        gets ``first_result``, and that unit's change for its first player."""
        unit = self.units[self.unit_of[player]]
        gained, low, high = self._delta(unit, first_result, worst)
        if unit.sits_out:  # one record, the later rounds already counted (``fixed_moves``)
            half_wins, spread = self.base[player]
            return (half_wins + gained, spread + low), low
        if unit.first != player:  # the second player moves the opposite way
            gained, low, high = 2 - gained, -high, -low
        change = low if worst else high
        half_wins, spread = self.base[player]
        # Later rounds: the player loses them all by M and everyone else wins them all by M
        # (worst), or the reverse; written as a shift of the player's record alone.
        sign = -1 if worst else 1
        shift_wins = sign * 2 * self.future
        shift_spread = sign * 2 * self.future * self.margin
        record = (half_wins + gained + shift_wins, spread + change + shift_spread)
        return record, change if unit.first == player else -change

    def _opponent_above(
        self,
        player: str,
        own_result: Result,
        record: tuple[int, int],
        first_change: int,
        strict: bool,
    ) -> int:
        """1 if the player's own opponent (a relevant one) finishes above ``record`` when
        the unit's first player gets ``own_result`` and changes spread by ``first_change``."""
        unit = self.units[self.unit_of[player]]
        opponent = unit.second if unit.first == player else unit.first
        if opponent is None or unit.bye:
            return 0
        gained = self._delta(unit, own_result)[0]
        opponent_gained = gained if unit.first == opponent else 2 - gained
        mover = first_change if unit.first == opponent else -first_change
        return int(self._threshold(opponent, opponent_gained, record, strict) <= mover)

    def _best_in_unit(
        self, index: int, fixed: Mapping[int, Result], record: tuple[int, int], maximize: bool
    ) -> tuple[int, Result]:
        """The unit's result (among those allowed) with the most (fewest) players above
        ``record``, and that count; cached per field, since it depends only on the unit."""
        allowed = fixed.get(index)
        key = (self.unit_keys[index], allowed, record, maximize)
        hit = self._cache.get(key)
        if hit is None:
            strict = not maximize
            results = self._results(index, fixed)
            best_count, best_result = -1, results[0]
            for result in results:
                count = self._unit_count(index, result, record, strict, maximize)
                if best_count < 0 or (count > best_count if maximize else count < best_count):
                    best_count, best_result = count, result
            hit = (best_count, best_result)
            self._cache[key] = hit
        return hit

    def count_above(
        self,
        player: str,
        fixed: Mapping[int, Result],
        maximize: bool,
        stop_at: int | None = None,
    ) -> tuple[int, Assignment]:
        """Most (maximize) or fewest others above ``player`` over outcomes agreeing with
        ``fixed``, and the unit results that reach it. Maximize counts "level or above"
        (for certainty); minimize counts "strictly above" (for a chance). With ``stop_at``,
        a maximum stops once it reaches that count (the rest of the outcome is arbitrary)."""
        own_index = self.unit_of[player]
        strict = not maximize
        best_total: int | None = None
        best_assignment: Assignment = {}
        for own_result in self._results(own_index, fixed):
            record, first_change = self._own(player, own_result, worst=maximize)
            total = 0
            assignment: Assignment = {own_index: own_result}
            total += self._opponent_above(player, own_result, record, first_change, strict)
            for index in range(len(self.units)):
                if index == own_index:
                    continue
                if stop_at is not None and total >= stop_at:
                    # A maximum has reached the bound, or a minimum cannot come back under
                    # it: the rest of the outcome does not change the answer.
                    assignment[index] = self._results(index, fixed)[0]
                    continue
                count, chosen = self._best_in_unit(index, fixed, record, maximize)
                total += count
                assignment[index] = chosen
            if best_total is None or (total > best_total if maximize else total < best_total):
                best_total, best_assignment = total, assignment
            if stop_at is not None and (best_total >= stop_at) == maximize:
                break
        return best_total or 0, best_assignment

    # --- what a player gets -------------------------------------------------------------

    def certain(self, player: str, fixed: Mapping[int, Result]) -> tuple[bool, Assignment]:
        """A victor in every outcome agreeing with ``fixed``; else the outcome that breaks it."""
        count, assignment = self.count_above(player, fixed, maximize=True, stop_at=self.victors)
        return count < self.victors, assignment

    def possible(
        self, player: str, fixed: Mapping[int, Result], best_outcome: bool = False
    ) -> tuple[bool, Assignment]:
        """A victor in some outcome agreeing with ``fixed``, and that outcome; with
        ``best_outcome``, the player's best outcome even when it is not enough."""
        stop = None if best_outcome else self.victors
        count, assignment = self.count_above(player, fixed, maximize=False, stop_at=stop)
        return count < self.victors, assignment

    def place(self, player: str, fixed: Mapping[int, Result]) -> Place:
        if self.certain(player, fixed)[0]:
            return Place.CERTAIN
        return Place.SPREAD if self.possible(player, fixed)[0] else Place.OUT

    def own_fix(self, player: str, result: Result) -> dict[int, Result]:
        index = self.unit_of[player]
        unit = self.units[index]
        return {index: result if unit.first == player else OPPOSITE[result]}

    def own_results(self, player: str) -> tuple[Result | None, ...]:
        unit = self.units[self.unit_of[player]]
        return (None,) if unit.fixed else ALL_RESULTS

    def status(self, player: str, result: Result | None) -> Status:
        fixed = {} if result is None else self.own_fix(player, result)
        always, worst = self.certain(player, fixed)
        sometimes, best = self.possible(player, fixed)
        witness = self.outcome(best if (always or not sometimes) else worst)
        return Status(result, always, sometimes, witness)

    def rivals(self, player: str, fixed: Mapping[int, Result]) -> list[str]:
        """Who finishes level with ``player`` on wins in its most favourable outcome: each
        game's result leaves the fewest players level on wins, then above; if that puts
        ``victors`` or more above, the fewest above or level instead."""
        own_index = self.unit_of[player]
        best: tuple[tuple[int, ...], list[str]] | None = None
        for own_result in self._results(own_index, fixed):
            record, _ = self._own(player, own_result, worst=False)
            choice = {**fixed, own_index: own_result}
            for prefer_level in (True, False):
                above, level_players = self._favourable(player, record, choice, prefer_level)
                if above < self.victors or not prefer_level:
                    break
            key = (above >= self.victors, len(level_players), above)
            if best is None or key < best[0]:
                best = (key, level_players)
        return sorted(best[1] if best else [], key=self.standings.rank)

    def _favourable(
        self,
        player: str,
        record: tuple[int, int],
        choice: Mapping[int, Result],
        prefer_level: bool,
    ) -> tuple[int, list[str]]:
        above = 0
        level_players: list[str] = []
        for index, unit in enumerate(self.units):
            options = []
            for result in self._results(index, choice):
                gained = self._delta(unit, result)[0]
                won = dict(zip(unit.players(), (gained, 2 - gained), strict=False))
                equal = [
                    p
                    for p in unit.players()
                    if p != player and self.base[p][0] + won[p] == record[0]
                ]
                count = 0
                if player not in unit.players():
                    count = self._unit_count(index, result, record, True, False)
                key = (len(equal), count) if prefer_level else (len(equal) + count, count)
                options.append((key, count, equal))
            _, count, equal = min(options, key=lambda o: o[0])
            above += count
            level_players.extend(equal)
        return above, level_players

    # --- outcomes -----------------------------------------------------------------------

    def outcome(self, assignment: Mapping[int, Result], complete: bool = True) -> Outcome:
        results: dict[str, Result | None] = {}
        for index, result in assignment.items():
            unit = self.units[index]
            if unit.sits_out:
                continue  # no result to choose: the outcome is the games' (and the bye's)
            results[unit.first] = None if unit.bye else result
            if unit.second is not None:
                results[unit.second] = OPPOSITE[result]
        return Outcome(results, complete and len(assignment) == len(self.units))

    def outcomes(self) -> Iterator[Assignment]:
        choices = [self._results(i, {}) for i in range(len(self.units))]
        for combo in itertools.product(*choices):
            yield dict(enumerate(combo))

    def listing(self, limit: int) -> list[tuple[Outcome, list[str], list[str]]] | None:
        """Every outcome with its certain victors and the players it leaves to spread, in
        rank order; None when there are more than ``limit`` outcomes."""
        if self.outcome_count() > limit:
            return None
        listed = []
        for assignment in self.outcomes():
            places = {p: self.place(p, assignment) for p in self.relevant}
            listed.append(
                (
                    self.outcome(assignment),
                    [p for p in self.relevant if places[p] is Place.CERTAIN],
                    [p for p in self.relevant if places[p] is Place.SPREAD],
                )
            )
        return listed

    def outcome_count(self) -> int:
        return int(3 ** sum(1 for u in self.units if not u.fixed))

    def leader_guaranteed(
        self, leaders: Sequence[str], max_nodes: int
    ) -> tuple[bool | None, Assignment]:
        """GP1's question: in every outcome, is some leader certain? The scalar reference
        that the tables' search (``leader_search.leader_search``, which the engine runs) is tested
        against; recursive, so for the small fields of the tests only.

        Depth-first over units; a branch is dropped as soon as some leader is certain for
        every completion of it. Returns (True, {}), (False, the outcome with no certain
        leader), or (None, {}) when the search is too large.
        """
        leaders = [p for p in leaders if p in self.unit_of]
        if not leaders:
            return False, {}
        order = sorted(
            range(len(self.units)),
            key=lambda i: (not any(p in leaders for p in self.units[i].players()), i),
        )
        nodes = 0

        def search(depth: int, fixed: dict[int, Result]) -> tuple[bool | None, Assignment]:
            nonlocal nodes
            nodes += 1
            if nodes > max_nodes:
                return None, {}
            if any(self.certain(leader, fixed)[0] for leader in leaders):
                return True, {}
            if depth == len(order):
                return False, dict(fixed)
            index = order[depth]
            undecided = False
            for result in self._results(index, fixed):
                fixed[index] = result
                found, witness = search(depth + 1, fixed)
                del fixed[index]
                if found is False:
                    return False, witness
                undecided |= found is None
            return (None if undecided else True), {}

        return search(0, {})


def check_outcome(
    test: RoundUnderTest, player: str, assignment: Mapping[int, Result], step: int = 1
) -> Place:
    """Brute force over margins (multiples of ``step``) for one complete outcome: the
    self-check of ``RoundUnderTest.place`` on small caps."""
    ranges = []
    for index, unit in enumerate(test.units):
        gained, low, high = test._delta(unit, assignment[index])
        ranges.append([(gained, d) for d in range(low, high + 1, step)] or [(gained, low)])
    victor_always, victor_ever = True, False
    for combo in itertools.product(*ranges):
        final: dict[str, tuple[int, int]] = {}
        for unit, (gained, change) in zip(test.units, combo, strict=True):
            hw, sp = test.base[unit.first]
            final[unit.first] = (hw + gained, sp + change)
            if unit.second is not None:
                hw2, sp2 = test.base[unit.second]
                final[unit.second] = (hw2 + 2 - gained, sp2 - change)
        mine = final[player]
        level_or_above = sum(1 for q, f in final.items() if q != player and f >= mine)
        strictly_above = sum(1 for q, f in final.items() if q != player and f > mine)
        victor_always &= level_or_above < test.victors
        victor_ever |= strictly_above < test.victors
    if victor_always:
        return Place.CERTAIN
    return Place.SPREAD if victor_ever else Place.OUT
