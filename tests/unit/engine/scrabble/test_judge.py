"""The judge's comparison of pairings (``judge.comparison.Judge``): scores read for many
pairings at once as each alone, ``best`` as the plain scan, an unknown score left
unverified, what it refuses, and one field's table shared by an advice's judges."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pairing_service.api.scrabble.tool_schemas import FinalRoundIn
from pairing_service.api.scrabble.tools import standings_of
from pairing_service.engine.scrabble import Player, Standings, advise
from pairing_service.engine.scrabble.checker import gibson_mistakes
from pairing_service.engine.scrabble.contention import contention
from pairing_service.engine.scrabble.judge.candidates import canonical
from pairing_service.engine.scrabble.judge.comparison import Judge
from pairing_service.engine.scrabble.judge.field_table import FieldTable
from pairing_service.engine.scrabble.judge.principles import PRINCIPLES
from tests.support import xor_field
from tests.support.judge_cases import SETTINGS, judge_of, rounds, simulated


def test_a_candidate_whose_higher_score_is_unknown_leaves_the_verdict_unverified(
    rules, monkeypatch
):
    # With no search nodes left for the pairings compared (and no rule that shows GP1
    # broken at a glance), a candidate better on GP2 has an unknown GP1: the verdict must
    # not claim it breaks GP1 ("overridden").
    monkeypatch.setattr(FieldTable, "rule_witness", lambda *args: None)
    monkeypatch.setattr(
        FieldTable, "rule_screen", lambda self, games, *args: np.zeros(len(games[0]), bool)
    )
    s = simulated(32, 0)
    advice = advise(s, rules.scrabble, max_spread_per_game=500)
    pairs = [g.players for g in advice.games if not g.bye]
    in_contention = contention(s, 2, 500)
    statuses = {v.id: v.status for v in advice.principles}
    assert statuses["GP2"] in ("overridden", "violated")

    starved = Judge(s, in_contention, None, 2, 500)
    starved.budget.nodes = 0
    verdicts = {v.id: v for v in starved.judge(pairs)}
    assert verdicts["GP1"].status == advice.principles[0].status  # judged itself: own nodes
    assert verdicts["GP2"].status == "unverified"
    assert "not decided" in verdicts["GP2"].reason


def test_judging_a_pairing_that_leaves_a_contender_out_is_refused():
    # GP2 compares pairings contender by contender: a pairing without one is not judged
    # (it once compared flags of different lengths).
    standings = Standings.from_players(
        [Player("a", 20, 0), Player("b", 18, 0), Player("c", 18, 0), Player("d", 10, 0)]
    )
    in_contention = contention(standings, 2, None)
    assert "b" in in_contention.contenders
    judge = Judge(standings, in_contention, None, 2, None)
    with pytest.raises(ValueError, match="b can still be a victor but has no game"):
        judge.judge([("a", "c")])
    assert [v.id for v in judge.judge([("a", "c"), ("b", "d")])] == list(PRINCIPLES)


def test_a_pairing_given_as_lists_is_judged_as_tuples():
    standings = Standings.from_players([Player(f"p{i}", 20 - i, 0) for i in range(4)])
    judge = Judge(standings, contention(standings, 2, None), None, 2, None)
    as_lists = judge.judge([["p0", "p2"], ["p1", "p3"]])  # type: ignore[list-item]
    assert as_lists == judge.judge([("p0", "p2"), ("p1", "p3")])


@SETTINGS
@given(rounds())
def test_scores_read_for_many_pairings_are_each_pairings_own(case):
    # ``Judge.read_scores`` reads GP2-GP4 of every candidate from the table at once, and
    # GP1 where a rule breaks it: each is what the pairing's own evaluation answers.
    judge, pairs = judge_of(case)
    if judge.table is None:
        return
    candidates, _ = judge.candidates(pairs)
    judge.read_scores(candidates)
    victors = judge.victors
    for pairs_read, read in judge.scores_read().items():
        alone = judge_of(case)[0].evaluate(pairs_read)
        assert [read[gp] for gp in PRINCIPLES[1:]] == list(alone.scores()[1:]), pairs_read
        if read["GP1"] is not None:
            assert alone.score("GP1") == read["GP1"]
        else:  # a search decides it: neither nothing to judge nor a rule's outcome
            assert alone.leaders and judge.rounds_left == 1
            assert judge.table.rule_witness(alone.test.units, alone.leaders, victors) is None
    assert set(judge.scores_read()) == {judge._key(c) for c in candidates}  # every one read


@SETTINGS
@given(rounds(), st.integers(0, 80))
def test_best_is_the_scan_that_compares_each_candidate_with_the_best_so_far(case, nodes):
    # ``best`` reads scores ahead and takes the least principle by principle; a judge that
    # evaluates each pairing alone and keeps the best so far is the reference: the same
    # choice, the same GP1 for every candidate, the same search nodes left (GP1's
    # searches share a budget, so their order matters).
    judge, pairs = judge_of(case)
    reference = judge_of(case)[0]
    judge.budget.nodes = reference.budget.nodes = nodes
    chosen, _ = judge.best(pairs)
    candidates, _ = reference.candidates(pairs)
    expected = canonical(reference.standings, pairs)
    for candidate in candidates:
        if reference.ranks_above(candidate, expected):
            expected = candidate
    assert chosen == expected
    assert judge.budget.nodes == reference.budget.nodes
    for candidate in candidates:
        assert judge.score_of(candidate, "GP1") == reference.evaluate(candidate).score("GP1")


def test_the_judges_of_one_advice_share_the_fields_table(rules, monkeypatch):
    # The fallback's engine choice and the verdicts judge the same field: its table (the
    # costliest part of a 32-contender field's judge) is built once.
    built = []
    original = FieldTable.__init__

    def counted(self: FieldTable, *args: Any, **kwargs: Any) -> None:
        built.append(args)
        original(self, *args, **kwargs)

    monkeypatch.setattr(FieldTable, "__init__", counted)
    body = FinalRoundIn().load(xor_field([8] + [6] * 31, rounds=6))
    advice = advise(standings_of(body).standings, rules.scrabble, max_spread_per_game=500)
    assert advice.rule.source == "fallback" and len(advice.contenders) == 32
    assert len(built) == 1


@pytest.mark.parametrize(
    "records",
    [
        # #1 is ten wins, 1.5 clear: certain of a victor place (victors 2, no cap). The
        # principles alone score #1 against #2 no worse than Gibsonizing #1, so the
        # "better" pairing once offered beside the row's was 1-2: a Gibson mistake.
        (("A", 10, -273), ("B", 8.5, 260), ("C", 8, 273), ("D", 7.5, -87), ("F", 4.5, 127),
         ("E", 4.5, -221), ("G", 4, -172), ("H", 2, -110), ("I", 1, 300), ("J", 1, 15)),
        (("A", 10, -110), ("B", 7, 183), ("C", 7, -197), ("D", 6, 228), ("E", 5, -293),
         ("F", 4.5, -180), ("G", 3, 77), ("H", 1, 31)),
    ],
)  # fmt: skip
def test_no_pairing_offered_hands_a_contenders_game_to_a_settled_player(rules, records):
    field = Standings.from_players(
        [Player(id=p, half_wins=int(w * 2), spread=s) for p, w, s in records]
    )
    cap = None if records[0][2] == -273 else 200
    advice = advise(field, rules.scrabble, victors=2, max_spread_per_game=cap)
    in_contention = contention(field, 2, cap)
    assert in_contention.clinched == ("A",)
    assert advice.alternatives, "the principles' pairing is offered beside the row's"
    for games in (advice.games, *(alt.games for alt in advice.alternatives)):
        pairs = [g.players for g in games if not g.bye]
        assert gibson_mistakes(field, in_contention.clinched, in_contention, pairs) == []
    judge = Judge(field, in_contention, None, 2, cap, 1)
    assert not judge.keeps_gibsonization(canonical(field, [("A", "B")]))
