"""What each player needs from a pairing, in plain words ("needs to win and have #3 beat
#5"): from the pairing's ``principles.Evaluation`` and its per-game counts
(``pairing_table.PairingTable.breakdown``)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from ..contention import Result
from ..judge.count_tables import most_over_results
from ..judge.principles import SMALL_FIELD, Evaluation, Need
from ..judge.proof import OPPOSITE, Unit
from ..prize_places import Reach, span_text


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
    if len(evaluation.test.relevant) <= NAMING_FIELD:
        # The spread rivals of those no single game's result helps, all at once (``_helps``
        # names them unless two games' results together help).
        wanting = [subject for subject, case in cases.items() if not case.helping]
        found = evaluation.pairing.rivals_to_pass(wanting, evaluation.test.victors)
        for subject, rivals in zip(wanting, found, strict=True):
            cases[subject].rivals = rivals
    said = [(p, need_ways(evaluation, p, cases)) for p in shown]
    return [Need(p, short_need(ways), ways) for p, ways in said]


CERTAIN = "is a victor whatever happens"
NEVER = "cannot become a victor with this pairing"


def place_need(need: Need, reach: Reach, paid: int, settled: bool) -> Need:
    """With places that pay differently, the need line says the places a player races
    for before what they need for the money (the paid places judged as victors): "races
    for 1st or 2nd; certain of the money", "races for 4th or 5th; for the money, needs
    to win and have #6 lose"; a ``settled`` player (their tier fixed), "certain of 3rd"."""
    worst = reach.worst if reach.worst is not None else paid
    if settled:
        return replace(need, text=f"certain of {span_text(reach.best, worst)}")
    if need.text == CERTAIN:
        money = "certain of the money"
    elif need.text == NEVER:
        money = "cannot reach the money with this pairing"
    else:
        money = f"for the money, {need.text}"
    return replace(need, text=f"races for {span_text(reach.best, worst)}; {money}")


def need_text(
    evaluation: Evaluation,
    player: str,
    cases: Mapping[tuple[str, Result | None], _WorstCase] | None = None,
) -> str:
    """What ``player`` needs in one line (``short_need`` of ``need_ways``)."""
    return short_need(need_ways(evaluation, player, cases))


def short_need(ways: Sequence[str]) -> str:
    """One line a director can read aloud: the simplest way, at most one more after
    "or", and how many others the full list holds. ``ways`` empty: the player's fate
    does not depend on others (its first entry says which)."""
    if len(ways) == 1 and not ways[0].startswith("needs to "):
        return ways[0]
    line = "needs to " + ", or ".join(w.removeprefix("needs to ") for w in ways[:2])
    more = len(ways) - 2
    return line + (f" ({more} more way{'s' if more > 1 else ''})" if more > 0 else "")


def need_ways(
    evaluation: Evaluation,
    player: str,
    cases: Mapping[tuple[str, Result | None], _WorstCase] | None = None,
) -> tuple[str, ...]:
    """Every way ``player`` becomes certain, simplest first: own results that suffice
    alone, then an own result with one other game's result, with two, with spread, and
    last with results left unnamed; ``cases``: the worst cases of the own results that
    need help (``_worst_cases``), when ``needs`` found them for every player at once. A
    player whose fate does not hang on others gets one entry saying so."""
    test = evaluation.test
    results = test.own_results(player)
    statuses = {r: evaluation.standing(player, r) for r in results}
    if all(always for always, _ in statuses.values()):
        return (CERTAIN,)
    if not any(sometimes for _, sometimes in statuses.values()):
        return (NEVER,)
    cases = cases or {}
    if results == (None,):
        helps = _helps(evaluation, player, None, cases.get((player, None)))
        return tuple(f"needs to {text}" for _, text in sorted(helps, key=lambda h: h[0]))
    always_with = [r for r in results if statuses[r][0]]
    alone = [" or ".join(_VERB[r] for r in always_with)] if always_with else []
    helped: list[tuple[int, int, str]] = []
    for order, result in enumerate(results):
        always, sometimes = statuses[result]
        if sometimes and not always:
            for conditions, text in _helps(evaluation, player, result, cases.get((player, result))):
                helped.append((conditions, order, f"{_VERB[result]} and {text}"))
    helped.sort(key=lambda way: way[:2])
    return tuple(f"needs to {text}" for text in alone + [text for _, _, text in helped])


_VERB = {Result.WIN: "win", Result.DRAW: "draw", Result.LOSS: "lose", None: "take the bye"}
MAX_HELPERS = 2
# Relevant players up to which spread rivals are named (``rivals_to_pass``: one search).
NAMING_FIELD = SMALL_FIELD
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


# How many things a way asks of others, for ordering ways simplest first.
ONE_RESULT, TWO_RESULTS, SPREAD, UNNAMED = 1, 2, 3, 4


def _helps(
    evaluation: Evaluation, player: str, result: Result | None, case: _WorstCase | None = None
) -> list[tuple[int, str]]:
    """The other results that make ``player`` certain with ``result``, each in words with
    how much it asks: one game's result (``_worst_cases``), else two games' together,
    else the players to finish ahead of on spread."""
    test = evaluation.test
    tag = evaluation.standings.tag
    if case is None:
        (case,) = _worst_cases(evaluation, [(player, result)])
    victors = test.victors
    helpers = [
        (ONE_RESULT, _describe_help(evaluation, test.units[g], results))
        for g, results in case.helping
    ]
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
                        (
                            TWO_RESULTS,
                            _describe_help(evaluation, test.units[first], [ALL[r]])
                            + " and "
                            + _describe_help(evaluation, test.units[second], found),
                        )
                    )
                if len(helpers) >= MAX_HELPERS:
                    break
            if len(helpers) >= MAX_HELPERS:
                break
    if helpers:
        return [(conditions, f"have {text}") for conditions, text in helpers[: MAX_HELPERS + 1]]
    if len(test.relevant) > NAMING_FIELD:  # naming spread rivals costs a search
        return [(UNNAMED, "other results or spread to go their way")]
    rivals, to_pass = (
        case.rivals
        if case.rivals is not None
        else evaluation.pairing.rivals_to_pass([(player, result)], test.victors)[0]
    )
    if rivals:
        names = _some_of([tag(p) for p in rivals], to_pass)
        return [(SPREAD, f"finish ahead of {names} on spread")]
    return [(UNNAMED, "other results to go their way")]


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
