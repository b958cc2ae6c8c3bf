"""Each principle's score for one pairing, as the engine reads it from the counts tables
(``Evaluation``, numpy), against its readable definition on the outcome engine
(``RoundUnderTest``: one player, one own result, one outcome at a time)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing_service.engine.scrabble import Player, Result, Standings
from pairing_service.engine.scrabble.contention import UNBOUNDED, final_after, may_reach
from pairing_service.engine.scrabble.judge.field_table import FieldTable
from pairing_service.engine.scrabble.judge.principles import SEARCH_NODES, Evaluation
from pairing_service.engine.scrabble.judge.proof import RoundUnderTest
from pairing_service.engine.scrabble.withdrawals import field_of

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def rounds(draw: st.DrawFn) -> tuple[Any, ...]:
    """A field of 3-9 players, sometimes one of them sitting out with a known result, a
    pairing of the others (a bye when odd), victors, cap, rounds left."""
    size = draw(st.integers(3, 9))
    rows = draw(
        st.lists(st.tuples(st.integers(14, 20), st.integers(-30, 30)), min_size=size, max_size=size)
    )
    standings = Standings.from_players(
        [Player(f"p{i}", hw, spread) for i, (hw, spread) in enumerate(rows)]
    )
    order = draw(st.permutations(list(standings.ids)))
    sitting = {order.pop(): draw(st.sampled_from([-50, 0, 50]))} if draw(st.booleans()) else {}
    bye = order.pop() if len(order) % 2 else None
    pairs = tuple((order[i], order[i + 1]) for i in range(0, len(order), 2))
    victors = draw(st.integers(1, 3))
    cap = draw(st.sampled_from([2, 5, 40, None]))
    rounds_left = draw(st.sampled_from([1, 1, 2]))
    return standings, pairs, bye, victors, cap, rounds_left, sitting


def _evaluation(case: tuple[Any, ...], with_field_table: bool) -> Evaluation:
    """The engine's evaluation of the case's pairing, the field as the advice takes it
    (``field_of``): counts from the field's table, or from the pairing's own (the path of
    fields too large for a field's table)."""
    standings, pairs, bye, _, cap, rounds_left, sitting = case
    field = field_of(standings, case[3], cap, rounds_left, frozenset(sitting), sitting)
    in_contention, victors = field.contention, field.victors
    relevant, fixed = in_contention.relevant, in_contention.fixed
    bye = bye if bye in relevant else None
    test = RoundUnderTest(
        standings, relevant, pairs, bye, victors, cap, rounds_left, sitting_out=fixed
    )
    table = (
        FieldTable(standings, relevant, bye, cap, rounds_left, fixed) if with_field_table else None
    )
    return Evaluation(standings, test, in_contention, pairs, rounds_left, table=table)


# --- the readable definitions ---------------------------------------------------------


def level(test: RoundUnderTest, player: str, result: Result | None) -> int:
    """2 a victor whatever else happens, 1 a victor in some outcome, 0 never."""
    status = test.status(player, result)
    return 2 if status.always else 1 if status.sometimes else 0


def levels(test: RoundUnderTest, player: str) -> tuple[int, int, int]:
    """``level`` per own result (win, draw, loss); a bye's one result in every slot."""
    found = [level(test, player, result) for result in test.own_results(player)]
    return (found[0],) * 3 if len(found) == 1 else (found[0], found[1], found[2])


def readable_gp1(evaluation: Evaluation) -> int | None:
    """1 when some outcome leaves no player of the leading win group certain of a victor
    place, else 0 (None: the search ran out)."""
    test, standings = evaluation.test, evaluation.standings
    top = standings.ranked[0].half_wins
    leaders = [p for p in test.relevant if standings.player(p).half_wins == top]
    if evaluation.rounds_left > 1 or not leaders:
        return 0
    kept, _ = test.leader_guaranteed(leaders, SEARCH_NODES)
    return None if kept is None else 0 if kept else 1


def readable_gp2(evaluation: Evaluation) -> tuple[int, ...]:
    """For the contenders in rank order (those sitting out too), 1 when no outcome makes
    them a victor; then for them again, in the final round, 1 when they keep a way, chase
    a victor place and do not face a contender above them whom beating can carry them
    level or past (a player sitting out faces nobody: they chase nobody, and nobody
    chases them)."""
    test = evaluation.test
    sitting = evaluation.contention.fixed
    ranked = sorted([*evaluation.contention.contenders, *sitting], key=evaluation.standings.rank)
    contenders = [p for p in ranked if p in test.unit_of]
    removed = tuple(
        0 if any(test.status(p, r).sometimes for r in test.own_results(p)) else 1
        for p in contenders
    )
    if evaluation.rounds_left > 1 or len(contenders) < 2:
        return removed + (0,) * len(removed)
    standings, cap = evaluation.standings, None if test.margin >= UNBOUNDED else test.margin
    places = test.victors - len(evaluation.contention.clinched)

    def passes(chaser: str, above: str) -> bool:
        """Beating ``above`` can carry ``chaser`` level with or past them."""
        c, a = standings.player(chaser), standings.player(above)
        won = final_after(c.half_wins, c.spread, Result.WIN, cap)
        lost = final_after(a.half_wins, a.spread, Result.LOSS, cap)
        return may_reach(won, lost)

    sent_away = []
    for at, p in enumerate(contenders):
        chasing = at >= places and p not in sitting
        targets = [q for q in contenders[:at] if q not in sitting and passes(p, q)]
        targets = targets if chasing else []
        game = test.units[test.unit_of[p]].players()
        sent_away.append(1 if targets and not set(game) & set(targets) else 0)
    return removed + tuple(0 if r else away for r, away in zip(removed, sent_away, strict=True))


def readable_gp3(evaluation: Evaluation) -> int:
    """Pairs (higher, lower) where the lower-ranked player's standing is at least as good
    for every own result and better for one."""
    if evaluation.rounds_left > 1:
        return 0
    test = evaluation.test
    ranked = list(test.relevant)
    standing = {p: levels(test, p) for p in ranked}
    return sum(
        1
        for i, higher in enumerate(ranked)
        for lower in ranked[i + 1 :]
        if all(low >= high for low, high in zip(standing[lower], standing[higher], strict=True))
        and standing[lower] != standing[higher]
    )


def readable_gp4(evaluation: Evaluation) -> int:
    """Games between two players who can be victors (not both already certain) that a draw
    makes both victors whatever else happens."""
    test = evaluation.test
    if evaluation.rounds_left > 1 or test.victors < 2:
        return 0
    clinched = set(evaluation.contention.clinched)
    return sum(
        1
        for unit in test.units
        if unit.second is not None
        and not (unit.first in clinched and unit.second in clinched)
        and level(test, unit.first, Result.DRAW) == 2
        and level(test, unit.second, Result.DRAW) == 2
    )


@SETTINGS
@given(rounds())
@pytest.mark.parametrize("with_field_table", [True, False])
def test_each_principles_score_is_its_readable_definitions(with_field_table, case):
    evaluation = _evaluation(case, with_field_table)
    assert evaluation.score("GP1") == readable_gp1(evaluation)
    assert evaluation.score("GP2") == readable_gp2(evaluation)
    assert evaluation.score("GP3") == readable_gp3(evaluation)
    assert evaluation.score("GP4") == readable_gp4(evaluation)
