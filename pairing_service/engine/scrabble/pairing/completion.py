"""A plan made a complete pairing of the field.

Order of work for a plan (from a table row or from the fallback):
1. the plan's fixed pairs;
2. the bye, in an odd field: to a lone Gibsonized player (unless they have had more byes
   than a free non-contender, and another is left for them to play), else to the
   lowest-ranked non-contender with the fewest byes (else the lowest-ranked player the
   plan leaves free);
3. Gibsonized players play each other (at the round's cost, ``cost.py``); when
   every contender is Gibsonized, two who have met get their opponents from the
   rest-of-field Swiss of the two and the players who cannot become a victor (fewest
   repeats over all of them), unless it pairs them together; a lone one (the
   lowest-ranked, when there are three or more) plays the highest-ranked player who cannot
   become a victor, at the round's cost;
4. the plan's group by its method (an odd group takes in the next-ranked free player);
   a table row's contenders left to "rest Swiss" are paired head to head
   (``_pair_contenders_left``);
5. everyone else Swiss by win group, at the round's cost.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..contention import Contention
from ..cost import one_displaced
from ..explain.boards import meeting_cost
from ..game import Game
from ..judge.candidates import MAX_COMPARED_PLAYERS, OUTSIDER
from ..judge.field_scores import FieldTables
from ..judge.race import race_of
from ..plans import Plan
from ..rule_table import pair_group
from ..standings import Standings
from .board import Board, play_engine_pairs
from .fallback import engine_choice
from .swiss import SwissMemo, pair_swiss

BEST_KEEPS = "the pairing that best keeps GP1-GP4"  # the fallback's, and the principles'


def complete_pairing(
    standings: Standings,
    plan: Plan,
    contention: Contention,
    withdrawn: frozenset[str] = frozenset(),
    swiss: SwissMemo | None = None,
    tables: FieldTables | None = None,
) -> tuple[list[Game], str | None, list[str]]:
    """The plan's pairing of the whole field, step by step (the module's order of work),
    who has the bye, and what the steps warn of."""
    board = Board(standings, withdrawn, swiss)
    _play_fixed_pairs(board, plan)
    gibsonized = [p for p in plan.gibsonized if p not in board.used]
    group = [p for p in plan.group if p not in board.used and p not in gibsonized]
    bye: str | None = None
    if (len(standings) - len(withdrawn)) % 2:
        bye = _place_bye(board, gibsonized, group, set(contention.relevant))
        gibsonized = [p for p in gibsonized if p != bye]
        group = [p for p in group if p != bye]
    warnings: list[str] = []
    if gibsonized:
        group, lone_warning = _pair_gibsonized(board, plan, contention, gibsonized, group)
        warnings.extend(lone_warning)
    if group:
        warnings.extend(_pair_group(board, plan, contention, group, bye, tables))
    left = [p for p in contention.contenders if p not in board.used]
    if left and plan.group_method != "principled":
        warnings.extend(_pair_contenders_left(board, plan, contention, left))
    return _pair_rest_swiss(board), bye, warnings


def _play_fixed_pairs(board: Board, plan: Plan) -> None:
    """Step 1: the plan's fixed pairs."""
    standings = board.standings
    rank = standings.rank
    for a, b in plan.fixed:
        source = f"row {plan.rule.id}" if plan.rule.source == "table" else plan.rule.id
        reason = f"{source}: #{rank(a)} plays #{rank(b)}"
        cost = meeting_cost(standings, board.swiss.policy, a, b)
        board.add(a, b, reason + (f" ({cost})" if cost else ""))


def _place_bye(board: Board, gibsonized: list[str], group: list[str], relevant: set[str]) -> str:
    """Step 2: the bye to a lone Gibsonized player, else to the lowest-ranked
    non-contender with the fewest byes (else the lowest-ranked player left free).

    A lone Gibsonized player takes the bye (tsh's rule): their place is decided, so a free
    win changes nothing, and it leaves every player out of contention for the contenders.
    Not when they have had more byes than a non-contender who is free: a director does not
    hand a player a second bye while another has none. The bye then goes to the
    lowest-ranked non-contender with the fewest byes, and the Gibsonized player plays the
    highest-ranked player who cannot become a victor (step 3), as in an even field. That
    takes no game from a contender only when another non-contender is left for them to
    play; with only one free, the Gibsonized player would have to play a contender, so
    keeps the bye. A contender never takes the bye when a non-contender can: a free win
    would decide their race."""
    standings = board.standings
    rank = standings.rank
    outside = [p for p in board.free() if p not in gibsonized and p not in group]
    non_contenders = [p for p in outside if p not in relevant]

    def fewest_byes(pool: list[str]) -> str:
        return min(pool, key=lambda p: (standings.byes(p), -rank(p)))

    if len(gibsonized) % 2:
        lone = max(gibsonized, key=rank)
        bye, reason = lone, "a lone Gibsonized player takes the bye"
        if len(non_contenders) >= 2:
            fewer = fewest_byes(non_contenders)
            if standings.byes(fewer) < standings.byes(lone):
                bye = fewer
                reason = (
                    "lowest-ranked non-contender with the fewest byes "
                    f"(the lone Gibsonized #{rank(lone)} has had more)"
                )
    else:
        pool = non_contenders or outside or group or gibsonized
        bye = fewest_byes(pool)
        reason = (
            "lowest-ranked "
            + ("non-contender" if bye not in relevant else "player left free")
            + " with the fewest byes"
        )
    board.add_bye(bye, reason)
    return bye


def _pair_gibsonized(
    board: Board,
    plan: Plan,
    contention: Contention,
    gibsonized: list[str],
    group: list[str],
) -> tuple[list[str], list[str]]:
    """Step 3: Gibsonized players play each other (apart when they have met and every
    contender is Gibsonized); a lone one plays the highest-ranked player who cannot become
    a victor. The group left to pair (less the lone one's opponent when nobody is out of
    contention), and the warning when nobody is."""
    standings = board.standings
    rank = standings.rank
    relevant = set(contention.relevant)
    warnings: list[str] = []
    lone = max(gibsonized, key=rank) if len(gibsonized) % 2 else None
    together = [p for p in gibsonized if p != lone]
    for a, b in _closest_fewest_meetings(board, together):
        apart = (
            _gibsonized_apart(standings, a, b, board, relevant | set(group))
            if set(contention.contenders) <= set(plan.gibsonized)
            else None
        )
        if apart is None:
            a, b = sorted((a, b), key=rank)
            cost = meeting_cost(standings, board.swiss.policy, a, b)
            reason = _gibsonized_pair(standings, plan, contention, a, b)
            board.add(a, b, reason + (f" ({cost})" if cost else ""))
        for player, opponent in apart or ():
            board.add(
                player,
                opponent,
                f"Gibsonized: #{rank(a)} and #{rank(b)} have met, so paired Swiss with "
                "those who cannot become a victor, avoiding repeats",
            )
    if lone is not None:
        who = _gibsonized_one(plan, contention, lone, rank(lone))
        outside = [p for p in board.free() if p not in group and p != lone]
        pool = [p for p in outside if p not in relevant]
        if pool:
            opponent = board.nearest(lone, pool)
            reason = f"{who}: {board.outsider_words(lone, opponent, pool, relevant)}"
        else:
            fallback_pool = outside or list(group)
            opponent = max(fallback_pool, key=lambda p: (-standings.meetings(lone, p), rank(p)))
            group = [p for p in group if p != opponent]
            reason = (
                f"{who}: nobody is out of contention, so plays #{rank(opponent)}, the "
                "lowest-ranked player they have met least"
            )
            warnings.append(
                f"#{rank(lone)} is Gibsonized but every other player can still become a victor"
            )
        board.add(lone, opponent, reason)
    return group, warnings


def _gibsonized_one(plan: Plan, contention: Contention, player: str, rank: int) -> str:
    """Why a player is Gibsonized: certain of a victor place, or the row says so (a row
    may Gibsonize a player whose place only the rest of its pairing protects)."""
    if player in contention.clinched:
        return f"#{rank} is certain of a victor place"
    return f"#{rank} is Gibsonized by row {plan.rule.id}"


def _gibsonized_pair(
    standings: Standings, plan: Plan, contention: Contention, a: str, b: str
) -> str:
    """Two Gibsonized players paired together, and why they are Gibsonized."""
    tags = f"#{standings.rank(a)} and #{standings.rank(b)}"
    if {a, b} <= set(contention.clinched):
        return f"{tags} are certain of victor places: they play each other"
    return f"{tags} are Gibsonized by row {plan.rule.id}: they play each other"


def _pair_group(
    board: Board,
    plan: Plan,
    contention: Contention,
    group: list[str],
    bye: str | None,
    tables: FieldTables | None,
) -> list[str]:
    """Step 4: the plan's group, by the engine (the fallback) or by the row's method;
    what it warns of."""
    if plan.group_method == "principled":
        return _pair_group_by_engine(board, plan, contention, group, bye, tables)
    _pair_group_by_row(board, plan, group)
    return []


def _pair_group_by_engine(
    board: Board,
    plan: Plan,
    contention: Contention,
    group: list[str],
    bye: str | None,
    tables: FieldTables | None,
) -> list[str]:
    """Step 4, the fallback's: the contention group's pairing that best keeps GP1-GP4;
    a warning when it could not compare every pairing."""
    standings = board.standings
    group = sorted(group, key=standings.rank)
    joiner = None
    if len(group) % 2:  # the matching's answer needs an even group
        joiner = min((p for p in board.free() if p not in group), key=standings.rank)
    meetings = board.swiss.meetings_of(standings)
    chosen, exhaustive = engine_choice(
        standings,
        contention,
        group,
        joiner,
        bye,
        plan,
        board.games,
        meetings,
        board.swiss.policy,
        tables,
    )
    play_engine_pairs(board, chosen, contention, BEST_KEEPS)
    if exhaustive:
        return []
    return [
        f"{len(group)} contenders: too many pairings for the outcome engine to compare "
        "them all; the fallback chose among standard pairings and the weighted "
        "matching's answer (the matching's answer alone beyond "
        f"{MAX_COMPARED_PLAYERS} relevant players)"
    ]


def _pair_group_by_row(board: Board, plan: Plan, group: list[str]) -> None:
    """Step 4, a table row's: the group by the row's method (an odd group takes in the
    next-ranked free player)."""
    standings = board.standings
    group = sorted(group, key=standings.rank)
    if len(group) % 2:
        joiners = [p for p in board.free() if p not in group]
        group.append(min(joiners, key=standings.rank))
    method, why = plan.group_method, ""
    if plan.row is not None and plan.row.group is not None:
        method, why = plan.row.group.method_for(standings, group)
    reason = f"row {plan.rule.id}: {method.replace('_', ' ')}" + (f"; {why}" if why else "")
    for a, b in pair_group(method, group):
        board.add(a, b, reason)


def _pair_contenders_left(
    board: Board,
    plan: Plan,
    contention: Contention,
    left: list[str],
) -> list[str]:
    """Step 4b, a table row's: contenders the row does not place ("rest Swiss") are
    paired head to head (GP2 read in full, ``race.py``).

    The seed writes "rest Swiss" for rows whose notes say nobody else races ("GP2 does
    not apply"); where the rest still holds a race for a victor place, Swiss by win group
    can send its players to the bottom of their groups (feb2023-y-a: #2 played #23 while
    #3 played #9), and the seed's GP2 asks that they face each other. Everyone else is
    still paired Swiss."""
    rank = board.standings.rank
    # The race's own pairing: each chaser against a player above they can pass (at the
    # round's cost: no back-to-back rematch or meeting past the allowance where another
    # target is free, then the closest weighed against repeats), the rest by rank.
    # Comparing every pairing of them instead cost up to 40 ms at 32 players and 0.8 s
    # at 400, for the same games on the simulated fields.
    race = race_of(board.standings, contention, plan.victors, plan.cap, plan.rounds_left)

    def preference(chaser: str, target: str) -> tuple[int, ...]:
        back, over, weight = board.swiss.policy.pair_cost(board.standings, chaser, target)
        return back, over, one_displaced(rank(chaser) - rank(target) - 1) + weight

    chosen = race.head_to_head(sorted(left, key=rank), OUTSIDER, preference)
    play_engine_pairs(board, chosen, contention, f"row {plan.rule.id}'s race head to head")
    shown = ", ".join(f"#{rank(p)}" for p in sorted(left, key=rank))
    return [
        f"row {plan.rule.id} leaves contenders to the rest of the field ({shown}): they are "
        "paired head to head, each against a player above they can pass, everyone else Swiss"
    ]


def _pair_rest_swiss(board: Board) -> list[Game]:
    """Step 5: everyone else Swiss by win group, avoiding repeats; the games in board
    order, the bye last."""
    return board.finish()


def _gibsonized_apart(
    standings: Standings, a: str, b: str, board: Board, taken: set[str]
) -> list[tuple[str, str]] | None:
    """Opponents for two Gibsonized players who have met, so the round holds no avoidable
    repeat: the rest-of-field Swiss (fewest repeats over all of it) of the two with the
    free players who cannot become a victor, whose games for the two are kept. None when
    they have not met, or when that Swiss pairs them together anyway (they play each other,
    as Gibsonized players do). Asked only when every contender is Gibsonized: then every
    victor is decided and no principle depends on who they face, whereas with contenders
    left, two Gibsonized players who both win instead of one, and the players out of
    contention they would take from the contenders, can cost a contender their chance
    (else GP2 would be broken to save a rematch that decides nothing)."""
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


def _closest_fewest_meetings(board: Board, players: Sequence[str]) -> list[tuple[str, str]]:
    """Gibsonized players paired among themselves at the round's cost (KOTH)."""
    return board.swiss.policy.closest_pairs(board.standings, players)
