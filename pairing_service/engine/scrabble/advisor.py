"""The final-round advisor: table row or fallback, a complete pairing, and its explanation.

Order of work for a plan (from a table row or from the fallback):
1. the plan's fixed pairs;
2. the bye, in an odd field: to a lone Gibsonized player, else to the lowest-ranked
   non-contender with the fewest byes (else the lowest-ranked player the plan leaves free);
3. Gibsonized players play each other (fewest previous meetings, then closest rank); when
   every contender is Gibsonized, two who have met get their opponents from the
   rest-of-field Swiss of the two and the players who cannot become a victor (fewest
   repeats over all of them), unless it pairs them together; a lone one (the
   lowest-ranked, when there are three or more) plays the highest-ranked player who cannot
   become a victor, fewest previous meetings first;
4. the plan's group by its method (an odd group takes in the next-ranked free player);
5. everyone else Swiss by win group, avoiding repeats.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from ..errors import Rule
from ..matching import (
    Edge,
    Indices,
    every_pair,
    min_cost_perfect_matching,
    min_cost_perfect_matching_arrays,
)
from .candidates import MAX_COMPARED_PLAYERS, OUTSIDER
from .errors import InvalidStandings
from .field_scores import FieldTables
from .judge import Judge
from .needs import needs
from .outcomes import Contention, Final, Result, contention, finals_after
from .principles import Need, Verdict
from .proof import Outcome, RoundUnderTest
from .standings import Standings, configuration_text, format_half
from .swiss import Meetings, SwissMemo, pair_swiss
from .table import Row, RuleTable, group_members, pair_group, select

MAX_VICTORS = 8
# The fallback's matching over a contention group larger than this takes as candidates
# each player's NEAREST_PARTNERS ranks either side of its ideal partners, not every pair
# (a blossom over every pair of 2,000 players takes minutes).
WHOLE_GROUP_LIMIT = 128
NEAREST_PARTNERS = 8


@dataclass(frozen=True, slots=True)
class RuleUsed:
    id: str
    source: str  # "table" or "fallback"
    method: str
    text: str
    reading: str = ""
    covers: str = ""  # the configurations the row takes, as read (table rows)


@dataclass(frozen=True, slots=True)
class Game:
    players: tuple[str, ...]
    bye: bool
    repeats: int
    reason: str


@dataclass(frozen=True, slots=True)
class SeedNote:
    """What the seed's row says of a principle, beside the engine's verdict."""

    id: str
    status: str
    reason: str


@dataclass(frozen=True)
class Alternative:
    """Another complete pairing and its explanation: the one that ranks above the table's
    on the principles, or (when that one is recommended) the table's own."""

    source: str  # "principles" or "table"
    games: tuple[Game, ...]
    principles: tuple[Verdict, ...]
    needs: tuple[Need, ...]
    tradeoff: str  # one sentence, in plain words


PREFERENCES = ("table", "principles")


@dataclass(frozen=True)
class Advice:
    configuration: str
    rule: RuleUsed
    games: tuple[Game, ...]
    gibsonized: tuple[str, ...]
    contenders: tuple[str, ...]
    principles: tuple[Verdict, ...]
    needs: tuple[Need, ...]
    warnings: tuple[str, ...]
    clinching: str
    seed_notes: tuple[SeedNote, ...] = ()
    seed_needs: tuple[Need, ...] = ()
    rounds_left: int = 1
    alternatives: tuple[Alternative, ...] = ()
    preferred: str = "table"


@dataclass
class _Plan:
    rule: RuleUsed
    gibsonized: tuple[str, ...]
    fixed: list[tuple[str, str]]
    group: tuple[str, ...]
    group_method: str  # a table method, or "principled" for the fallback matching
    row: Row | None = None  # the row whose pairing is applied
    row_notes_apply: bool = False  # the row's principle and needs notes fit these ranks
    victors: int = 2
    cap: int | None = None
    rounds_left: int = 1
    notes: list[str] = field(default_factory=list)


def advise(
    standings: Standings,
    table: RuleTable,
    victors: int = 2,
    max_spread_per_game: int | None = None,
    rounds_left: int = 1,
    prefer: str = "table",
    withdrawn: frozenset[str] = frozenset(),
) -> Advice:
    """The advice; ``prefer="principles"`` recommends the pairing that ranks above the
    table row's on the principles, when the engine proves there is one (the table's
    pairing is then the alternative). ``withdrawn`` players keep their rank and games but
    are not paired; none of them may still be able to become a victor."""
    if prefer not in PREFERENCES:
        raise ValueError(f"prefer is one of {', '.join(PREFERENCES)}")
    if not 1 <= victors <= MAX_VICTORS:
        raise ValueError(f"victors must be between 1 and {MAX_VICTORS}")
    if rounds_left < 1:
        raise ValueError("at least one round must be left")
    cap = max_spread_per_game
    race = contention(standings, victors, cap, rounds_left)
    config = configuration_text(standings.configuration())
    warnings: list[str] = []
    _check_withdrawn(standings, race, withdrawn, warnings)
    _warn_one_sided(standings, warnings)
    plan: _Plan | None = None
    if rounds_left > 1:
        warnings.append(
            f"{rounds_left} rounds are left: the seed's table is for the final round; "
            "contention and Gibsonization use each player's best possible finish"
        )
    elif victors == 2:
        plan, why_not = _table_plan(standings, table, race)
        if plan is None:
            warnings.append(why_not)
    else:
        warnings.append(f"the seed's table is for two victors; {victors} victors use the fallback")
    if plan is None:
        plan = _fallback_plan(standings, race, victors, cap, config, rounds_left)
    warnings.extend(plan.notes)
    swiss = SwissMemo()
    tables: FieldTables = {}
    games, bye = _complete(standings, plan, race, warnings, withdrawn, swiss, tables)
    pairs = _pairs_of(games)
    judge = Judge(standings, race, bye, victors, cap, rounds_left, tables)
    principles = judge.judge(pairs)
    ranked_relevant = [p for p in standings.ids if p in set(race.relevant)]
    player_needs = needs(judge.evaluate(pairs), ranked_relevant)
    seed_notes, seed_needs = _seed_notes(standings, plan)
    _warn_uncertain_gibsonized(standings, plan, race, warnings)
    alternatives: tuple[Alternative, ...] = ()
    found = _principled_alternative(
        standings, race, judge, plan, principles, bye, games, withdrawn, swiss, ranked_relevant
    )
    if found is not None:
        principled, level = found
        if principles[level].status == "violated":
            # The verdict names the pairing answered beside it, completed, not the first
            # candidate its comparison met (both do better on it; a director asks about
            # the one shown).
            principled_pairs = _pairs_of(principled.games)
            principles[level] = judge.violated(
                pairs, PRINCIPLE_NAMES[level], judge.describe_games(principled_pairs)
            )
        table_side = _Side(tuple(games), tuple(principles), tuple(player_needs))
        tradeoff = _tradeoff(standings, level, table_side, principled, plan)
        recommended, other, source = table_side, principled, "principles"
        if prefer == "principles":
            recommended, other, source = principled, table_side, "table"
            seed_notes, seed_needs = (), ()
            warnings.append(
                f"prefer=principles: the pairing that ranks above row {plan.rule.id}'s on "
                f"{PRINCIPLE_NAMES[level]} is recommended; the table's is the alternative"
            )
            plan.rule = RuleUsed(
                id=plan.rule.id,
                source="fallback",
                method="principled search",
                text=f"The pairing that ranks above row {plan.rule.id}'s "
                f"({plan.rule.text.rstrip('.')}) on the principles GP1-GP4.",
                reading=plan.rule.reading,
                covers=plan.rule.covers,
            )
        games, principles, player_needs = (
            list(recommended.games),
            list(recommended.principles),
            list(recommended.needs),
        )
        alternatives = (Alternative(source, other.games, other.principles, other.needs, tradeoff),)
    for game in games:
        if game.repeats and not game.bye:
            a, b = game.players
            extra = " (they met in the previous round)" if standings.back_to_back(a, b) else ""
            warnings.append(
                f"#{standings.rank(a)} and #{standings.rank(b)} have met "
                f"{game.repeats} time{'s' if game.repeats > 1 else ''} before{extra}"
            )
    clinching = (
        f"decided on wins and on spread, assuming at most {cap} points "
        "of spread per player per game"
        if cap is not None
        else "decided on wins only (spread is unbounded: a tie on wins may go either way)"
    )
    return Advice(
        configuration=config,
        rule=plan.rule,
        games=tuple(games),
        gibsonized=tuple(sorted(set(plan.gibsonized), key=standings.rank)),
        contenders=race.contenders,
        principles=tuple(principles),
        needs=tuple(player_needs),
        warnings=tuple(warnings),
        clinching=clinching,
        seed_notes=seed_notes,
        seed_needs=seed_needs,
        rounds_left=rounds_left,
        alternatives=alternatives,
        preferred=prefer if alternatives else "table",
    )


PRINCIPLE_NAMES = ("GP1", "GP2", "GP3", "GP4")


def _pairs_of(games: Sequence[Game]) -> list[tuple[str, str]]:
    """The games as the judge takes them: each game's two players, the bye left out."""
    return [(g.players[0], g.players[1]) for g in games if not g.bye]


@dataclass(frozen=True)
class _Side:
    """A complete pairing with its verdicts and needs."""

    games: tuple[Game, ...]
    principles: tuple[Verdict, ...]
    needs: tuple[Need, ...]


def _principled_alternative(
    standings: Standings,
    race: Contention,
    judge: Judge,
    plan: _Plan,
    principles: Sequence[Verdict],
    bye: str | None,
    games: Sequence[Game],
    withdrawn: frozenset[str],
    swiss: SwissMemo,
    ranked_relevant: Sequence[str],
) -> tuple[_Side, int] | None:
    """The complete pairing that the engine proves ranks above a table row's on the
    principles, and the first principle it does better on; None when there is none.

    One ranks above exactly when some verdict is "violated" (a candidate better on it and
    no worse on every higher one), so the search runs only then.
    """
    if plan.rule.source != "table" or not any(v.status == "violated" for v in principles):
        return None
    pairs = _pairs_of(games)
    better = judge.proven_better(pairs)
    if better is None:
        return None
    chosen, level = better
    board = _Board(standings, withdrawn, swiss)
    if bye is not None:
        board.add_bye(bye, next(g.reason for g in games if g.bye))
    _play(board, chosen, set(race.relevant), "principles")
    other_games = board.finish()
    other_pairs = _pairs_of(other_games)
    side = _Side(
        tuple(other_games),
        tuple(judge.judge(other_pairs)),
        tuple(needs(judge.evaluate(other_pairs), ranked_relevant)),
    )
    return side, level


_PLAIN = {
    "GP1": (
        "guarantees a victor from the leading win group",
        "does not guarantee a victor from the leading win group",
    ),
    "GP2": (
        "keeps every contender able to become a victor",
        "leaves a contender no way to become a victor",
    ),
    "GP3": (
        "keeps what each player needs no easier down the rankings",
        "makes a lower-ranked player's task easier than a higher one's",
    ),
    "GP4": (
        "leaves no game that a draw turns into two victors",
        "leaves a game that a draw turns into two victors",
    ),
}


def _tradeoff(
    standings: Standings, level: int, table_side: _Side, principled: _Side, plan: _Plan
) -> str:
    """One sentence: what the principled pairing gains over the table's, what it costs."""

    def games_only_in(games: Sequence[Game], other: Sequence[Game]) -> str:
        theirs = {g.players for g in other}
        shown = [
            "-".join(str(standings.rank(p)) for p in g.players)
            for g in games
            if not g.bye and g.players not in theirs
        ]
        return ", ".join(shown[:4]) + (" …" if len(shown) > 4 else "")

    table_verdicts = {v.id: v for v in table_side.principles}
    gained = PRINCIPLE_NAMES[level]
    costs = [
        v
        for v in principled.principles[level + 1 :]
        if v.status not in ("satisfied", "not_applicable")
        and table_verdicts[v.id].status in ("satisfied", "not_applicable")
    ]
    sentence = f"{games_only_in(principled.games, table_side.games)} {_PLAIN[gained][0]} ({gained})"
    if costs:
        sentence += f" but breaks {costs[0].id}: {costs[0].reason.split(';')[0]}"
    else:
        sentence += " and breaks no principle the table's pairing keeps"
    table = games_only_in(table_side.games, principled.games)
    if costs:
        return sentence + f"; the seed's table ({plan.rule.id}: {table}) keeps {costs[0].id}."
    return sentence + f"; the seed's table ({plan.rule.id}: {table}) {_PLAIN[gained][1]}."


def _table_plan(
    standings: Standings, table: RuleTable, race: Contention
) -> tuple[_Plan | None, str]:
    config = standings.configuration()
    row = table.match(config)
    text = configuration_text(config)
    if row is None:
        return None, f"the seed's table has no row for {text}"
    applied = row
    group_spec = row.group
    notes: list[str] = []
    if row.group is not None and row.group.members == "GB0":
        leaders = standings.group_at(0)
        if len(leaders) % 2 and len(standings) > len(leaders):
            next_gb = standings.games_behind(standings.ids[len(leaders)])
            for candidate_id in table.odd_leaders_rows:
                candidate = table.row(candidate_id)
                if candidate.pattern[-1].covers(next_gb):
                    applied, group_spec = candidate, candidate.group
                    notes.append(
                        f"{len(leaders)} leaders (odd): paired with the next player "
                        f"({format_half(next_gb)} behind) as row {candidate.id}"
                    )
                    break
    gibsonized: list[str] = []
    for selector in applied.gibsonize:
        gibsonized.extend(select(standings, selector))
    fixed: list[tuple[str, str]] = []
    used = set(gibsonized)
    for left, right in applied.pairs:
        found_left, found_right = select(standings, left), select(standings, right)
        if len(found_left) != 1 or len(found_right) != 1:
            return None, f"row {row.id} names {left}-{right}, which do not exist here"
        a, b = found_left[0], found_right[0]
        if a == b or a in used or b in used:
            return None, f"row {row.id} pairs {left}-{right}, which clash here"
        fixed.append((a, b))
        used.update((a, b))
    members: tuple[str, ...] = ()
    method = ""
    if group_spec is not None:
        members = tuple(p for p in group_members(standings, group_spec.members) if p not in used)
        method = group_spec.method
    missed = [p for p in race.clinched if p not in gibsonized]
    if missed:
        names = ", ".join(f"#{standings.rank(p)}" for p in missed)
        return None, (
            f"row {row.id} does not Gibsonize {names}, who is already certain of a victor "
            "place here, so the table does not fit"
        )
    rule = RuleUsed(
        id=row.id,
        source="table",
        method=applied.method,
        text=row.text,
        reading=applied.reading,
        covers=row.covers(),
    )
    return (
        _Plan(
            rule=rule,
            gibsonized=tuple(gibsonized),
            fixed=fixed,
            group=members,
            group_method=method,
            row=applied,
            row_notes_apply=applied is row,
            notes=notes,
        ),
        "",
    )


def _fallback_plan(
    standings: Standings,
    race: Contention,
    victors: int,
    cap: int | None,
    config: str,
    rounds_left: int,
) -> _Plan:
    rule = RuleUsed(
        id=config,
        source="fallback",
        method="principled search",
        text=(
            "Certain victors are Gibsonized; the other contenders get the pairing that best "
            "keeps GP1, then GP2, GP3 and GP4, judged by the outcome engine over every "
            "pairing of the contenders (or standard candidates when there are too many); "
            "ties go to the weighted matching's answer (fewest repeats and back-to-back "
            "rematches, closest ranks); everyone else is paired Swiss."
        ),
        reading=f"{victors} victor{'s' if victors != 1 else ''}"
        + (f", {rounds_left} rounds left" if rounds_left > 1 else ""),
    )
    return _Plan(
        rule=rule,
        gibsonized=race.clinched,
        fixed=[],
        group=race.contenders,
        group_method="principled",
        victors=victors,
        cap=cap,
        rounds_left=rounds_left,
    )


class _Board:
    """The games of a pairing as they are made, and the players still free."""

    def __init__(
        self,
        standings: Standings,
        withdrawn: frozenset[str] = frozenset(),
        swiss: SwissMemo | None = None,
    ) -> None:
        self.standings = standings
        self.games: list[Game] = []
        self.used: set[str] = set(withdrawn)  # withdrawn players are never paired
        self.swiss = swiss if swiss is not None else SwissMemo()

    def add(self, a: str, b: str, reason: str) -> None:
        a, b = sorted((a, b), key=self.standings.rank)
        self.games.append(Game((a, b), False, self.standings.meetings(a, b), reason))
        self.used.update((a, b))

    def add_bye(self, player: str, reason: str) -> None:
        self.games.append(Game((player,), True, 0, reason))
        self.used.add(player)

    def free(self) -> list[str]:
        return [p for p in self.standings.ids if p not in self.used]

    def face_outsider(self, player: str, relevant: set[str], reason: str) -> None:
        """``player`` plays the highest-ranked free player who cannot be a victor, fewest
        previous meetings first (anyone free when nobody is out of contention)."""
        pool = [p for p in self.free() if p not in relevant] or self.free()
        meetings, rank = self.standings.meetings, self.standings.rank
        # The pool is in rank order: the first one not met is the answer when there is one.
        fresh = next((p for p in pool if not meetings(player, p)), None)
        if fresh is None:
            fresh = min(pool, key=lambda p: (meetings(player, p), rank(p)))
        self.add(player, fresh, reason)

    def finish(self) -> list[Game]:
        """Everyone left Swiss by win group; the games in board order, the bye last."""
        for a, b in pair_swiss(self.standings, self.free(), self.swiss):
            self.add(a, b, "rest Swiss")
        rank = self.standings.rank
        return sorted(self.games, key=lambda g: (g.bye, min(rank(p) for p in g.players)))


def _check_withdrawn(
    standings: Standings, race: Contention, withdrawn: frozenset[str], warnings: list[str]
) -> None:
    unknown = sorted(withdrawn - set(standings.ids))
    if unknown:
        raise InvalidStandings("withdrawn", f"not in the standings: {', '.join(unknown)}")
    still = [p for p in race.relevant if p in withdrawn]
    if still:
        raise InvalidStandings(
            "withdrawn",
            f"{standings.tag(still[0])} withdrew but can still finish as a victor: "
            "pair this round by hand",
            rule=Rule.WITHDRAWN_CONTENDER,
            player=still[0],
        )
    if withdrawn:
        shown = ", ".join(standings.tag(p) for p in sorted(withdrawn, key=standings.rank))
        warnings.append(f"withdrawn, not paired: {shown}")


MAX_ONE_SIDED_SHOWN = 3


def _warn_one_sided(standings: Standings, warnings: list[str]) -> None:
    """Say which earlier games only one of the two players' records holds: they count
    as played (no rematch is made by mistake), but the other record may be missing a game."""
    found = standings.one_sided()
    if not found:
        return
    tag = standings.tag
    shown = [
        f"{tag(a)} lists {tag(b)} more often than {tag(b)} lists {tag(a)}"
        for a, b in found[:MAX_ONE_SIDED_SHOWN]
    ]
    if len(found) > MAX_ONE_SIDED_SHOWN:
        shown.append(f"and {len(found) - MAX_ONE_SIDED_SHOWN} more")
    warnings.append(
        "earlier games that only one player's record holds, counted as played: " + "; ".join(shown)
    )


def _complete(
    standings: Standings,
    plan: _Plan,
    race: Contention,
    warnings: list[str],
    withdrawn: frozenset[str] = frozenset(),
    swiss: SwissMemo | None = None,
    tables: FieldTables | None = None,
) -> tuple[list[Game], str | None]:
    rank = standings.rank
    relevant = set(race.relevant)
    board = _Board(standings, withdrawn, swiss)
    add, free, used = board.add, board.free, board.used

    for a, b in plan.fixed:
        add(a, b, f"row {plan.rule.id}: #{rank(a)} plays #{rank(b)}")
    gibsonized = [p for p in plan.gibsonized if p not in used]
    group = [p for p in plan.group if p not in used and p not in gibsonized]

    bye: str | None = None
    if (len(standings) - len(withdrawn)) % 2:
        if len(gibsonized) % 2:
            bye = max(gibsonized, key=rank)
            reason = "a lone Gibsonized player takes the bye"
        else:
            outside = [p for p in free() if p not in gibsonized and p not in group]
            pool = [p for p in outside if p not in relevant] or outside or group or gibsonized
            bye = min(pool, key=lambda p: (standings.byes(p), -rank(p)))
            reason = (
                "lowest-ranked "
                + ("non-contender" if bye not in relevant else "player left free")
                + " with the fewest byes"
            )
        board.add_bye(bye, reason)
        gibsonized = [p for p in gibsonized if p != bye]
        group = [p for p in group if p != bye]
    if gibsonized:
        lone = max(gibsonized, key=rank) if len(gibsonized) % 2 else None
        together = [p for p in gibsonized if p != lone]
        for a, b in _closest_fewest_meetings(standings, together):
            apart = (
                _gibsonized_apart(standings, a, b, board, relevant | set(group))
                if set(race.contenders) <= set(plan.gibsonized)
                else None
            )
            if apart is None:
                add(a, b, "Gibsonized players play each other")
            for player, opponent in apart or ():
                add(
                    player,
                    opponent,
                    f"Gibsonized: #{rank(a)} and #{rank(b)} have met, so paired Swiss with "
                    "those who cannot become a victor, avoiding repeats",
                )
        if lone is not None:
            outside = [p for p in free() if p not in group and p != lone]
            pool = [p for p in outside if p not in relevant]
            if pool:
                opponent = min(pool, key=lambda p: (standings.meetings(lone, p), rank(p)))
                reason = "Gibsonized: plays the highest-ranked player who cannot become a victor"
            else:
                fallback_pool = outside or list(group)
                opponent = max(fallback_pool, key=lambda p: (-standings.meetings(lone, p), rank(p)))
                group = [p for p in group if p != opponent]
                reason = (
                    "Gibsonized: nobody is out of contention, so plays the lowest-ranked player"
                )
                warnings.append(
                    f"#{rank(lone)} is Gibsonized but every other player can still become a victor"
                )
            add(lone, opponent, reason)
    if group and plan.group_method == "principled":
        group = sorted(group, key=rank)
        joiner = None
        if len(group) % 2:  # the matching's answer needs an even group
            joiner = min((p for p in free() if p not in group), key=rank)
        meetings = board.swiss.meetings_of(standings)
        chosen, exhaustive = _engine_choice(
            standings, race, group, joiner, bye, plan, board.games, meetings, tables
        )
        if not exhaustive:
            warnings.append(
                f"{len(group)} contenders: too many pairings for the outcome engine to compare "
                "them all; the fallback chose among standard pairings and the weighted "
                "matching's answer (the matching's answer alone beyond "
                f"{MAX_COMPARED_PLAYERS} relevant players)"
            )
        _play(board, chosen, relevant, "fallback")
    elif group:
        group = sorted(group, key=rank)
        if len(group) % 2:
            joiners = [p for p in free() if p not in group]
            group.append(min(joiners, key=rank))
        method, why = plan.group_method, ""
        if plan.row is not None and plan.row.group is not None:
            method, why = plan.row.group.method_for(standings, group)
        reason = f"row {plan.rule.id}: {method.replace('_', ' ')}" + (f"; {why}" if why else "")
        for a, b in pair_group(method, group):
            add(a, b, reason)
    return board.finish(), bye


def _gibsonized_apart(
    standings: Standings, a: str, b: str, board: _Board, taken: set[str]
) -> list[tuple[str, str]] | None:
    """Opponents for two Gibsonized players who have met, so the round holds no avoidable
    repeat: the rest-of-field Swiss (fewest repeats over all of it) of the two with the
    free players who cannot become a victor, whose games for the two are kept. None when
    they have not met, or when that Swiss pairs them together anyway (they play each other,
    as Gibsonized players do). Asked only when every contender is Gibsonized: then every
    victor is decided and no principle depends on who they face, whereas with contenders
    left, two Gibsonized players who both win instead of one, and the players out of
    contention they would take from the contenders, can cost a contender their chance
    (review finding: GP2 broken to save a rematch that decides nothing)."""
    if not standings.meetings(a, b):
        return None
    pool = [p for p in board.free() if p not in taken and p not in (a, b)]
    if len(pool) % 2:
        pool.pop()  # the lowest-ranked: the Swiss needs an even number
    if not pool:
        return None
    pairs = pair_swiss(standings, [a, b, *pool], board.swiss)
    theirs = [pair for pair in pairs if a in pair or b in pair]
    return None if len(theirs) == 1 else theirs


def _play(board: _Board, chosen: Sequence[tuple[str, str]], relevant: set[str], who: str) -> None:
    """The engine's pairs of contenders; a contender facing ``OUTSIDER`` plays the
    highest-ranked player who cannot be a victor."""
    facing_outsiders = []
    for a, b in chosen:
        if OUTSIDER in (a, b):
            facing_outsiders.append(b if a == OUTSIDER else a)
        else:
            board.add(a, b, f"{who}: the pairing that best keeps GP1-GP4")
    for a in facing_outsiders:
        board.face_outsider(
            a, relevant, f"{who}: plays the highest-ranked player who cannot be a victor"
        )


def _engine_choice(
    standings: Standings,
    race: Contention,
    group: list[str],
    joiner: str | None,
    bye: str | None,
    plan: _Plan,
    games: Sequence[Game],
    meetings: Meetings,
    tables: FieldTables | None = None,
) -> tuple[list[tuple[str, str]], bool]:
    """The contention group's pairing that best keeps GP1 > GP2 > GP3 > GP4.

    Games already made (Gibsonized players) stay in every candidate; each contender plays
    another contender or someone who cannot be a victor (``OUTSIDER``). The weighted
    matching's answer over the group (with ``joiner`` making it even) seeds the search and
    wins ties.
    """
    relevant = set(race.relevant)
    made = [g.players for g in games if not g.bye]
    fixed = [(a, b if b in relevant else OUTSIDER) for a, b in made if a in relevant] + [
        (b, OUTSIDER) for a, b in made if a not in relevant and b in relevant
    ]
    even = group + ([joiner] if joiner is not None else [])
    start = [
        (a, b) if b in relevant else (a, OUTSIDER) if a in relevant else (b, OUTSIDER)
        for a, b in _principled_pairs(standings, race, even, plan.victors, plan.cap, meetings)
    ]
    judge = Judge(standings, race, bye, plan.victors, plan.cap, plan.rounds_left, tables)
    chosen, exhaustive = judge.best(start, fixed=fixed, players=group)
    members = set(group)
    return [pair for pair in chosen if pair[0] in members or pair[1] in members], exhaustive


def _closest_fewest_meetings(standings: Standings, players: Sequence[str]) -> list[tuple[str, str]]:
    if not players:
        return []
    ordered = sorted(players, key=standings.rank)
    edges: list[Edge] = []
    for i, a in enumerate(ordered):
        for j in range(i + 1, len(ordered)):
            b = ordered[j]
            edges.append(
                (i, j, (standings.meetings(a, b), abs(standings.rank(a) - standings.rank(b))))
            )
    matched = min_cost_perfect_matching(len(ordered), edges, (15, len(standings)))
    return [(ordered[i], ordered[j]) for i, j in matched]


def _principled_pairs(
    standings: Standings,
    race: Contention,
    group: Sequence[str],
    victors: int,
    cap: int | None,
    meetings: Meetings,
) -> list[tuple[str, str]]:
    """The fallback's weighted matching over the contention group (see module docs),
    its costs computed for every candidate pair at once."""
    ordered = sorted(group, key=standings.rank)
    size = len(ordered)
    span = size - 1
    leader = np.array([standings.games_behind(p) == 0 for p in ordered], bool)
    relevant = set(race.relevant)
    contender = np.array([p in relevant for p in ordered], bool)
    if size <= WHOLE_GROUP_LIMIT:
        firsts, seconds = every_pair(size)  # i < j: the first is the higher-ranked
    else:
        firsts, seconds = _near_ideal_pairs(size, int(leader.sum()), np.flatnonzero(~contender))
    gp1 = (int(leader.sum()) >= 2) & (leader[firsts] != leader[seconds])
    # GP2: the outsider who fills an odd group should face the lowest contender.
    gp2 = np.where(
        ~contender[firsts],
        span - seconds,
        np.where(~contender[seconds], span - firsts, 0),
    )
    gp3 = span * span - (seconds - firsts) ** 2
    winning = finals_after(standings, race.relevant, Result.WIN, cap)
    gp4 = DrawSharing(standings, winning, ordered, victors, cap).of_pairs(firsts, seconds)
    at = meetings.positions_of(ordered)
    costs = np.column_stack(
        [
            gp1,
            gp2,
            gp3,
            gp4,
            meetings.repeats(at[firsts], at[seconds]),
            meetings.back_to_back(at[firsts], at[seconds]),
        ]
    ).astype(np.int64)
    ceilings = (1, size, span * span, 1, 15, 1)
    matched = min_cost_perfect_matching_arrays(size, firsts, seconds, costs, ceilings)
    return [(ordered[i], ordered[j]) for i, j in matched]


def _near_ideal_pairs(size: int, leaders: int, outsiders: Indices) -> tuple[Indices, Indices]:
    """Candidate pairs (i < j, ascending) of a large group in rank order: each player with
    the ``NEAREST_PARTNERS`` ranks either side of itself, of its mirror in the group (top
    against bottom, GP3) and of its mirror in its own block (leaders among themselves, GP1;
    the rest among themselves); an outsider (GP2) with everyone. Its rank neighbours alone
    hold a perfect matching, so the matching always has an answer."""
    rows = np.arange(size)
    block_mirror = np.where(rows < leaders, leaders - 1 - rows, leaders + size - 1 - rows)
    centres = np.stack([rows, size - 1 - rows, block_mirror], axis=1)
    reach = np.arange(-NEAREST_PARTNERS, NEAREST_PARTNERS + 1)
    around = (centres[:, :, None] + reach).reshape(size, -1)
    mine = np.repeat(rows, around.shape[1])
    partners = around.ravel()
    if len(outsiders):
        mine = np.concatenate([mine, np.repeat(outsiders, size)])
        partners = np.concatenate([partners, np.tile(rows, len(outsiders))])
    inside = (partners >= 0) & (partners < size) & (partners != mine)
    low, high = np.minimum(mine, partners)[inside], np.maximum(mine, partners)[inside]
    keys = np.unique(low * size + high)
    return keys // size, keys % size


class DrawSharing:
    """Which games a draw turns into two victors, whatever anyone else does.

    A draw between a and b makes both victors when, for each of them, fewer than
    ``victors - 1`` others (the opponent takes one of the places) can reach their record
    after winning their own games. ``winning`` holds every relevant player's record after a
    win. A drawn record does not depend on the opponent, so each player's count of
    ``winning`` records that reach it is taken once (sorted spreads per win total, as
    ``contention`` counts) and a pair only takes its own two players out of it: O(n log n)
    to build and O(1) a pair, where counting per pair made the fallback's matching O(n^3).
    """

    def __init__(
        self,
        standings: Standings,
        winning: Mapping[str, Final],
        players: Sequence[str],
        victors: int,
        cap: int | None,
    ) -> None:
        self._places = victors - 1
        drawn = finals_after(standings, players, Result.DRAW, cap)
        highs: dict[int, list[int]] = {}
        for final in winning.values():
            highs.setdefault(final.half_wins, []).append(final.spread_high)
        for spreads in highs.values():
            spreads.sort()
        reached_by = [
            sum(len(s) for w, s in highs.items() if w > mine.half_wins)
            + len(level)
            - bisect_left(level, mine.spread_low)
            for mine in drawn.values()
            for level in [highs.get(mine.half_wins, [])]
        ]
        # Per player (``players``' order): the drawn record, the winning one (if relevant).
        self._reached_by = np.array(reached_by, np.int64)
        self._drawn_wins = np.array([f.half_wins for f in drawn.values()], np.int64)
        self._drawn_low = np.array([f.spread_low for f in drawn.values()], np.int64)
        won = [winning.get(p) for p in players]
        self._relevant = np.array([f is not None for f in won], bool)
        self._won_wins = np.array([-1 if f is None else f.half_wins for f in won], np.int64)
        self._won_high = np.array([0 if f is None else f.spread_high for f in won], np.int64)

    def _reaches(self, winner: Indices, drawer: Indices) -> NDArray[np.bool_]:
        """Whether ``winner``'s winning record may reach ``drawer``'s drawn one."""
        wins, mine = self._won_wins[winner], self._drawn_wins[drawer]
        level = (wins == mine) & (self._won_high[winner] >= self._drawn_low[drawer])
        reaches: NDArray[np.bool_] = self._relevant[winner] & ((wins > mine) | level)
        return reaches

    def _others_reaching(self, player: Indices, opponent: Indices) -> Indices:
        return (
            self._reached_by[player]
            - self._reaches(player, player)
            - self._reaches(opponent, player)
        )

    def of_pairs(self, firsts: Indices, seconds: Indices) -> NDArray[np.bool_]:
        """Per pair of positions in ``players``: a draw makes both victors."""
        return (self._others_reaching(firsts, seconds) < self._places) & (
            self._others_reaching(seconds, firsts) < self._places
        )


def _seed_notes(standings: Standings, plan: _Plan) -> tuple[tuple[SeedNote, ...], tuple[Need, ...]]:
    """The row's own principle and needs notes, where they fit these ranks."""
    if plan.row is None or not plan.row_notes_apply:
        return (), ()
    notes = tuple(
        SeedNote(gp, status, reason) for gp, (status, reason) in sorted(plan.row.principles.items())
    )
    row_needs = tuple(
        Need(standings.at_rank(rank).id, text)
        for rank, text in sorted(plan.row.needs.items())
        if rank <= len(standings)
    )
    return notes, row_needs


def _warn_uncertain_gibsonized(
    standings: Standings, plan: _Plan, race: Contention, warnings: list[str]
) -> None:
    for pid in plan.gibsonized:
        if pid not in race.clinched:
            warnings.append(
                f"#{standings.rank(pid)} is Gibsonized by row {plan.rule.id} but is not certain "
                "on wins alone: the rest of the row's pairing is what protects the place"
            )


@dataclass(frozen=True)
class Audit:
    """A proposed pairing judged by the engine, beside the advisor's own recommendation."""

    principles: tuple[Verdict, ...]
    needs: tuple[Need, ...]
    recommendation: Advice
    differences: tuple[str, ...]
    matches_recommendation: bool


def audit(
    standings: Standings,
    table: RuleTable,
    pairs: Sequence[tuple[str, str]],
    bye: str | None,
    victors: int = 2,
    max_spread_per_game: int | None = None,
    rounds_left: int = 1,
    prefer: str = "table",
    withdrawn: frozenset[str] = frozenset(),
) -> Audit:
    """Judge any complete pairing of the field (e.g. tsh's or COP's) against GP1-GP4."""
    recommendation = advise(
        standings, table, victors, max_spread_per_game, rounds_left, prefer, withdrawn
    )
    race = contention(standings, victors, max_spread_per_game, rounds_left)
    judge = Judge(standings, race, bye, victors, max_spread_per_game, rounds_left)
    principles = judge.judge(pairs)
    ranked_relevant = [p for p in standings.ids if p in set(race.relevant)]
    player_needs = needs(judge.evaluate(pairs), ranked_relevant)
    proposed = _pair_set(pairs, bye)
    recommended_pairs = _pairs_of(recommendation.games)
    recommended_bye = next((g.players[0] for g in recommendation.games if g.bye), None)
    recommended = _pair_set(recommended_pairs, recommended_bye)
    differences: list[str] = []
    if proposed != recommended:
        mine = _describe_pairs(standings, proposed - recommended)
        theirs = _describe_pairs(standings, recommended - proposed)
        differences.append(f"the recommendation pairs {theirs} where the proposal pairs {mine}")
    for ours, theirs_verdict in zip(recommendation.principles, principles, strict=True):
        if ours.status != theirs_verdict.status:
            differences.append(
                f"{ours.id}: {theirs_verdict.status} in the proposal ({theirs_verdict.reason}); "
                f"{ours.status} in the recommendation"
            )
    return Audit(
        principles=tuple(principles),
        needs=tuple(player_needs),
        recommendation=recommendation,
        differences=tuple(differences),
        matches_recommendation=proposed == recommended,
    )


def read_pairing(
    standings: Standings,
    games: Sequence[Sequence[str]],
    withdrawn: frozenset[str] = frozenset(),
) -> tuple[list[tuple[str, str]], str | None]:
    """A proposed pairing as (pairs, bye), when it pairs every player of the field but the
    withdrawn exactly once (one id is the bye, in an odd field only); else InvalidStandings
    naming the entry."""
    seen: set[str] = set()
    pairs: list[tuple[str, str]] = []
    bye: str | None = None
    for index, players in enumerate(games):
        for position, pid in enumerate(players):
            where = f"pairings/{index}/players/{position}"
            if pid not in standings:
                raise InvalidStandings(
                    where, f"{pid!r} is not in the standings", rule=Rule.KNOWN_PLAYER
                )
            if pid in withdrawn:
                raise InvalidStandings(
                    where, f"{pid!r} has withdrawn", rule=Rule.PAIRING_COVERS_FIELD
                )
            if pid in seen:
                raise InvalidStandings(
                    where, f"{pid!r} is paired twice", rule=Rule.PAIRING_COVERS_FIELD
                )
            seen.add(pid)
        if len(players) == 1:
            if bye is not None or (len(standings) - len(withdrawn)) % 2 == 0:
                raise InvalidStandings(
                    f"pairings/{index}/players",
                    "only an odd field has a bye, and only one",
                    rule=Rule.PAIRING_COVERS_FIELD,
                )
            bye = players[0]
        elif len(players) == 2:
            pairs.append((players[0], players[1]))
        else:
            raise InvalidStandings(f"pairings/{index}/players", "a game has two players")
    missing = [pid for pid in standings.ids if pid not in seen and pid not in withdrawn]
    if missing:
        raise InvalidStandings(
            "pairings", "not paired: " + ", ".join(missing[:10]), rule=Rule.PAIRING_COVERS_FIELD
        )
    return pairs, bye


def list_outcomes(
    standings: Standings,
    pairs: Sequence[tuple[str, str]],
    bye: str | None,
    victors: int = 2,
    max_spread_per_game: int | None = None,
    rounds_left: int = 1,
    limit: int = 729,
) -> list[tuple[Outcome, list[str], list[str]]] | None:
    """Every outcome of the contenders' games with its certain victors and the players it
    leaves to spread; None when there are more than ``limit`` outcomes."""
    race = contention(standings, victors, max_spread_per_game, rounds_left)
    test = RoundUnderTest(
        standings, race.relevant, pairs, bye, victors, max_spread_per_game, rounds_left
    )
    return test.listing(limit)


def _pair_set(pairs: Sequence[tuple[str, str]], bye: str | None) -> frozenset[frozenset[str]]:
    found = {frozenset(pair) for pair in pairs}
    if bye is not None:
        found.add(frozenset((bye,)))
    return frozenset(found)


def _describe_pairs(standings: Standings, pairs: frozenset[frozenset[str]]) -> str:
    shown = sorted(sorted(standings.rank(p) for p in pair) for pair in pairs)
    return ", ".join(
        "-".join(str(r) for r in pair) if len(pair) == 2 else f"{pair[0]}-bye" for pair in shown
    )
