"""The final-round advisor: table row or fallback, a complete pairing, and its explanation.

``advise`` makes the plan (``plans``), completes it into a pairing of the whole field
(``completion``, with ``fallback`` for the contention group when no row fits), judges it
(``judge.comparison``), says what each player needs (``explain.needs``) and, when the
engine proves a pairing that ranks above the table's on the principles, answers it beside
it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ..contention import Contention
from ..cost import DEFAULT_REPEATS_ALLOWED, RepeatPolicy
from ..explain.boards import opponents_of, prize_reason, repeat_lines
from ..explain.headline import headline
from ..explain.needs import needs, place_need
from ..explain.warnings import (
    complete_tie_warnings,
    one_sided_warnings,
    uncertain_gibsonized_warnings,
)
from ..game import Game, pairs_of
from ..judge.comparison import Judge
from ..judge.field_scores import FieldTables
from ..judge.principles import Need, Verdict, judged_contenders
from ..plans import Plan, RuleUsed, fallback_plan, table_plan
from ..prize_places import PlaceRace, PrizePlaces, Reach, graded_places_warning, place_race
from ..rule_table import RuleTable
from ..standings import Standings, configuration_text
from ..withdrawals import RoundField, field_of
from ..words.verdicts import SEED_READINGS
from .completion import complete_pairing
from .prize_plan import prize_plan
from .recommendation import Alternative, JudgedRound, Side, choose_recommended
from .swiss import SwissMemo

MAX_VICTORS = 8


@dataclass(frozen=True, slots=True)
class SeedNote:
    """What the seed's row says of a principle, beside the engine's verdict, and why the
    two differ when they do (``explain.verdicts.SEED_READINGS``)."""

    id: str
    status: str
    reason: str
    difference: str | None = None


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
    prize_model: str = "victors"  # "victors": the places pay alike; "graded": they do not
    places: tuple[Reach, ...] = ()  # with prizes: the places still open to each player
    headline: str = ""  # what to post, and the pairing the engine ranks beside it, if any
    race: PlaceRace | None = None  # graded prizes: who races whom for which places


def advise(
    standings: Standings,
    table: RuleTable,
    victors: int = 2,
    max_spread_per_game: int | None = None,
    rounds_left: int = 1,
    prefer: str = "table",
    withdrawn: frozenset[str] = frozenset(),
    repeats_allowed: int = DEFAULT_REPEATS_ALLOWED,
    known_results: Mapping[str, int] | None = None,
    prizes: PrizePlaces | None = None,
    explain: bool = True,
) -> Advice:
    """The advice; ``prefer="principles"`` recommends the pairing that ranks above the
    table row's on the principles, when the engine proves there is one (the table's
    pairing is then the alternative). ``withdrawn`` players keep their rank and games but
    are not paired; ``known_results`` gives the spread each round left scores for those
    whose result is known (``withdrawals.py``: who may then sit out).
    ``repeats_allowed`` is the director's repeat allowance (``cost.py``). ``prizes``:
    the places that pay, in order, instead of ``victors`` equal places; when they pay
    differently the race for each place is paired head to head (``prize_plan.py``).
    ``explain=False``: the pairing only (a held event's round), without the verdicts and
    needs where they choose nothing (every plan but a table row's)."""
    if prizes is not None:
        victors = prizes.paid
    if prefer not in PREFERENCES:
        raise ValueError(f"prefer is one of {', '.join(PREFERENCES)}")
    if not 1 <= victors <= MAX_VICTORS:
        raise ValueError(f"victors must be between 1 and {MAX_VICTORS}")
    if rounds_left < 1:
        raise ValueError("at least one round must be left")
    cap = max_spread_per_game
    field = field_of(standings, victors, cap, rounds_left, withdrawn, known_results)
    in_contention, victors = field.contention, field.victors
    config = configuration_text(standings.configuration())
    # Each step says what it warns of; the warnings are answered in the steps' order.
    warnings = list(field.warnings)
    warnings += one_sided_warnings(standings)
    warnings += complete_tie_warnings(standings, in_contention)
    swiss = SwissMemo(RepeatPolicy(repeats_allowed, last_round=rounds_left == 1))
    plan, plan_warnings, contenders, places, race = _planned(
        standings, table, field, prizes, withdrawn, swiss, cap, rounds_left, known_results, config
    )
    warnings += plan_warnings
    prize_races = None if race is None else race.races
    tables: FieldTables = {}
    games, bye, completion_warnings = complete_pairing(
        standings, plan, in_contention, withdrawn, swiss, tables
    )
    if race is not None:
        games = with_prize_reasons(standings, race, swiss.policy, games)
    warnings += completion_warnings
    pairs = pairs_of(games)
    judge = Judge(standings, in_contention, bye, victors, cap, rounds_left, tables, prize_races)
    judged = set(in_contention.judged)  # those sitting out have needs too
    ranked_relevant = [p for p in standings.ids if p in judged]
    if explain or plan.rule.source == "table":
        principles = judge.judge(pairs)
        found_needs = tuple(needs(judge.evaluate(pairs), ranked_relevant))
    else:  # only a table row's verdicts choose between pairings (below)
        principles, found_needs = [], ()
    table_side = Side(tuple(games), tuple(principles), found_needs)
    seed_notes, seed_needs = _seed_notes(standings, plan)
    warnings += uncertain_gibsonized_warnings(standings, plan, in_contention)
    judged_round = JudgedRound(
        standings, in_contention, judge, bye, withdrawn, swiss, ranked_relevant
    )
    choice = choose_recommended(judged_round, plan, table_side, prefer)
    recommended, rule, alternatives = choice.side, choice.rule, choice.alternatives
    preferred, warnings = choice.preferred, warnings + choice.warnings
    if choice.principled:
        seed_notes, seed_needs = (), ()
    warnings += repeat_lines(standings, swiss.policy, pairs_of(recommended.games))
    seed_notes = _read_beside(seed_notes, recommended.principles)
    found_needs = recommended.needs
    if race is not None:
        found_needs = _place_needs(found_needs, race)
    beside = None
    if alternatives:
        alt = alternatives[0]
        beside = (alt.source, alt.games, alt.principles, alt.level)
    return Advice(
        configuration=config,
        rule=rule,
        games=recommended.games,
        gibsonized=tuple(sorted(set(plan.gibsonized), key=standings.rank)),
        contenders=contenders,
        principles=recommended.principles,
        needs=found_needs,
        warnings=tuple(warnings),
        clinching=_clinching(cap),
        seed_notes=seed_notes,
        seed_needs=seed_needs,
        rounds_left=rounds_left,
        alternatives=alternatives,
        preferred=preferred if alternatives else "table",
        prize_model="graded" if race is not None else "victors",
        places=places,
        headline=headline(
            standings, rule, recommended.games, recommended.principles, swiss.policy, beside
        ),
        race=race,
    )


def _planned(
    standings: Standings,
    table: RuleTable,
    field: RoundField,
    prizes: PrizePlaces | None,
    withdrawn: frozenset[str],
    swiss: SwissMemo,
    cap: int | None,
    rounds_left: int,
    known_results: Mapping[str, int] | None,
    config: str,
) -> tuple[Plan, list[str], tuple[str, ...], tuple[Reach, ...], PlaceRace | None]:
    """The plan (the prize races', the table row's or the fallback's), what it warns of,
    the contenders it is judged for, the places open to each player (with prizes) and,
    with graded prizes, the race for each place."""
    in_contention, victors = field.contention, field.victors
    places: tuple[Reach, ...] = ()
    race: PlaceRace | None = None  # graded prizes only: who races for which places
    if prizes is not None:
        found_race = place_race(standings, prizes, cap, rounds_left, known_results)
        places = tuple(r for r in found_race.reach if r.player not in withdrawn)
        race = found_race if prizes.graded else None
    if race is not None:
        assert prizes is not None
        plan, plan_warnings = prize_plan(
            standings, race, prizes, withdrawn, swiss, cap, rounds_left, victors
        )
        racing = {*race.racing, *race.line} - withdrawn
        contenders = tuple(p for p in standings.ids if p in racing)
    else:
        plan, plan_warnings = _choose_plan(
            standings,
            table,
            in_contention,
            victors,
            cap,
            config,
            rounds_left,
            field.resting_certain,
        )
        contenders = tuple(judged_contenders(standings, in_contention))
        graded_warning = graded_places_warning(
            standings, victors, cap, rounds_left, plan.gibsonized, known_results
        )
        plan_warnings += [graded_warning] if graded_warning and prizes is None else []
    return plan, plan_warnings, contenders, places, race


def _choose_plan(
    standings: Standings,
    table: RuleTable,
    in_contention: Contention,
    victors: int,
    cap: int | None,
    config: str,
    rounds_left: int,
    resting_certain: Sequence[str] = (),
) -> tuple[Plan, list[str]]:
    """The seed table's row for a two-victor final round, else the fallback's plan; and
    why the table was not used, with the plan's own notes (``field_of`` says why a
    player sitting out who is certain, or may still be a victor, leaves the table aside)."""
    warnings: list[str] = []
    plan: Plan | None = None
    if rounds_left > 1:
        warnings.append(
            f"{rounds_left} rounds are left: the seed's table is for the final round; "
            "contention and Gibsonization use each player's best possible finish"
        )
    elif resting_certain or in_contention.sitting_out:
        pass  # ``field_of`` warns that the table is left aside, and why
    elif victors == 2:
        plan, why_not = table_plan(standings, table, in_contention, cap)
        if plan is None:
            warnings.append(why_not)
    else:
        warnings.append(
            f"the seed's table is for two victors; {victors} "
            f"{'victor uses' if victors == 1 else 'victors use'} the fallback"
        )
    if plan is None:
        plan = fallback_plan(standings, in_contention, victors, cap, config, rounds_left)
    return plan, [*warnings, *plan.notes]


def with_prize_reasons(
    standings: Standings, race: PlaceRace, policy: RepeatPolicy, games: Sequence[Game]
) -> list[Game]:
    """The games of players in the prize races with their reasons said from the finished
    pairing (``explain.boards.prize_reason``): where a racer's rivals are is known only
    once every game is made."""
    opponent = opponents_of([g.players for g in games])
    return [
        replace(g, reason=prize_reason(standings, race, policy, opponent, g.players) or g.reason)
        for g in games
    ]


def _place_needs(found: Sequence[Need], race: PlaceRace) -> tuple[Need, ...]:
    """Each need line with the places the player races for (``explain.needs.place_need``)."""
    reach = {r.player: r for r in race.reach}
    settled = set(race.settled)
    return tuple(
        place_need(n, reach[n.player], race.paid, n.player in settled) if n.player in reach else n
        for n in found
    )


def _clinching(cap: int | None) -> str:
    """How clinching was decided, in words."""
    if cap is None:
        return "decided on wins only (spread is unbounded: a tie on wins may go either way)"
    return (
        f"decided on wins and on spread, assuming at most {cap} points "
        "of spread per player per game"
    )


def _seed_notes(standings: Standings, plan: Plan) -> tuple[tuple[SeedNote, ...], tuple[Need, ...]]:
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


def _read_beside(notes: tuple[SeedNote, ...], verdicts: Sequence[Verdict]) -> tuple[SeedNote, ...]:
    """The seed's notes, each saying in one line why the engine's verdict beside it
    differs, where it does."""
    status = {verdict.id: verdict.status for verdict in verdicts}
    return tuple(
        note
        if status.get(note.id, note.status) == note.status
        else replace(note, difference=SEED_READINGS[note.id])
        for note in notes
    )
