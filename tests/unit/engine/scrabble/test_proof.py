"""The outcome engine: exact against brute force, and every verdict's proof checked."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing_service.engine.scrabble import Player, Standings, advise
from pairing_service.engine.scrabble.contention import Result, contention
from pairing_service.engine.scrabble.explain.needs import need_text, needs
from pairing_service.engine.scrabble.judge.comparison import Judge
from pairing_service.engine.scrabble.judge.principles import PRINCIPLES
from pairing_service.engine.scrabble.judge.proof import Place, RoundUnderTest, check_outcome
from pairing_service.engine.scrabble.withdrawals import field_of
from tests.support import field


@st.composite
def small_rounds(draw, cap_values=(2, 3)):
    size = draw(st.integers(4, 7))
    rows = draw(
        st.lists(st.tuples(st.integers(16, 22), st.integers(-6, 6)), min_size=size, max_size=size)
    )
    standings = Standings.from_players(
        [Player(f"p{i}", hw, spread) for i, (hw, spread) in enumerate(rows)]
    )
    order = draw(st.permutations(list(standings.ids)))
    # Sometimes one player sits out, each round scoring a known spread (a unit of its own).
    sitting = (
        {order.pop(): draw(st.sampled_from([-50, -2, 0, 2, 50]))} if draw(st.booleans()) else {}
    )
    bye = order.pop() if len(order) % 2 else None
    pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    victors = draw(st.integers(1, 3))
    cap = draw(st.sampled_from(cap_values))
    return standings, pairs, bye, victors, cap, sitting


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(small_rounds())
def test_each_outcome_matches_brute_force_over_margins(case):
    standings, pairs, bye, victors, cap, sitting = case
    test = RoundUnderTest(standings, standings.ids, pairs, bye, victors, cap, sitting_out=sitting)
    for assignment in test.outcomes():
        for player in standings.ids:
            assert test.place(player, assignment) is check_outcome(test, player, assignment)


@SETTINGS
@given(small_rounds())
def test_for_every_and_for_some_outcome_match_the_list_of_outcomes(case):
    standings, pairs, bye, victors, cap, sitting = case
    test = RoundUnderTest(standings, standings.ids, pairs, bye, victors, cap, sitting_out=sitting)
    outcomes = list(test.outcomes())
    for player in standings.ids:
        places = [test.place(player, a) for a in outcomes]
        certain, breaking = test.certain(player, {})
        assert certain == all(p is Place.CERTAIN for p in places)
        if not certain:
            assert test.place(player, breaking) is not Place.CERTAIN
        possible, best = test.possible(player, {})
        assert possible == any(p is not Place.OUT for p in places)
        if possible:
            assert test.place(player, best) is not Place.OUT


@SETTINGS
@given(small_rounds(cap_values=(3, 250, None)))
def test_every_broken_principle_carries_a_proof_that_holds(case):
    standings, pairs, bye, victors, cap, sitting = case
    field = field_of(standings, victors, cap, 1, frozenset(sitting), sitting)
    in_contention, victors = field.contention, field.victors
    judge = Judge(standings, in_contention, bye, victors, cap)
    evaluation = judge.evaluate(pairs)
    test = evaluation.test
    outcomes = list(test.outcomes())
    verdicts = {v.id: v for v in judge.judge(pairs)}
    assert set(verdicts) == set(PRINCIPLES)
    gp1 = verdicts["GP1"]
    if gp1.status in ("violated", "overridden", "unavoidable"):
        # The outcome leaves every leader short of certain.
        results = gp1.outcome.results
        assignment = {
            i: (results[u.first] if not u.fixed else Result.WIN) for i, u in enumerate(test.units)
        }
        for leader in evaluation.leaders:
            assert test.place(leader, assignment) is not Place.CERTAIN
    if verdicts["GP2"].status in ("violated", "overridden", "unavoidable"):
        removed = [p for p in evaluation.contenders if not test.possible(p, {})[0]]
        for player in removed:
            assert all(test.place(player, a) is Place.OUT for a in outcomes)
        if not removed:
            # The head-to-head part: the proof names a chaser who does not face a
            # contender ranked above them.
            reason = verdicts["GP2"].reason
            assert "does not face a player they need to pass" in reason
            named = next(p for p in evaluation.contenders if standings.tag(p) + " does" in reason)
            game = set(test.units[test.unit_of[named]].players()) - {named}
            race = evaluation.race
            targets = race.targets[race.contenders.index(named)]
            above = set(evaluation.contenders[: evaluation.contenders.index(named)])
            assert targets and targets <= above  # a chaser, with players above to pass
            assert not game & targets  # and facing none of them
    if verdicts["GP4"].status in ("violated", "overridden", "unavoidable"):
        drawn = verdicts["GP4"].outcome.results
        a, b = list(drawn)
        index = test.unit_of[a]
        for assignment in outcomes:
            if assignment[index] is Result.DRAW:
                assert test.place(a, assignment) is Place.CERTAIN
                assert test.place(b, assignment) is Place.CERTAIN
    for verdict in verdicts.values():
        if verdict.status == "violated":
            assert "does better on" in verdict.reason


def test_koth_lets_the_leaders_draw_into_both_places():
    # 0/0/1/2 with COP's 1-2, 3-4: a draw puts both leaders out of reach.
    s = field((10, 300), (10, 200), (9, 100), (8, 0), (6, 0), (5, 0))
    in_contention = contention(s, 2, None)
    judge = Judge(s, in_contention, None, 2, None)
    verdicts = {v.id: v for v in judge.judge([("P1", "P2"), ("P3", "P4"), ("P5", "P6")])}
    gp4 = verdicts["GP4"]
    assert gp4.status in ("violated", "overridden")
    assert gp4.outcome.describe(s) == "#1 Player 1 draws, #2 Player 2 draws, whatever else happens"


def test_gp3_catches_a_lower_player_with_an_easier_task():
    # The bye hands #2 a sure win: certain whatever happens, while #1 can still lose out.
    s = field((10, 200), (9.5, 300), (9.5, 200), (9.5, 100), (9.5, 50), (5, 0), (4, 0))
    in_contention = contention(s, 3, 100)
    judge = Judge(s, in_contention, "P2", 3, 100)
    pairs = [("P1", "P5"), ("P3", "P4"), ("P6", "P7")]
    evaluation = judge.evaluate(pairs)
    assert evaluation.difficulty("P2") == (2, 2, 2)
    assert evaluation.difficulty("P1")[2] < 2
    verdict = next(v for v in judge.judge(pairs) if v.id == "GP3")
    assert verdict.status in ("violated", "overridden", "unavoidable")
    assert verdict.reason.startswith(
        "#2 Player 2 is a victor with the bye whatever else happens, #1 Player 1 is not"
    )
    results = verdict.outcome.results
    assignment = {i: results[u.first] or Result.WIN for i, u in enumerate(evaluation.test.units)}
    assert evaluation.test.place("P1", assignment) is not Place.CERTAIN


def test_needs_are_written_from_the_outcomes():
    s = field((10, 90), (10, 80), (10, 70), (9.5, 60), (6, 0), (5, 0))
    in_contention = contention(s, 2, None)
    judge = Judge(s, in_contention, None, 2, None)
    evaluation = judge.evaluate([("P1", "P3"), ("P2", "P4"), ("P5", "P6")])
    assert need_text(evaluation, "P1") == "needs to win or draw"
    assert need_text(evaluation, "P4") == (
        "needs to win and have #1 Player 1 and #3 Player 3 not draw"
    )
    clinched = field((10, 0), (8, 0), (7, 0), (6, 0))
    in_contention = contention(clinched, 1, None)
    evaluation = Judge(clinched, in_contention, None, 1, None).evaluate(
        [("P1", "P2"), ("P3", "P4")]
    )
    assert need_text(evaluation, "P1") == "is a victor whatever happens"


def test_needs_name_the_spread_rival_when_wins_cannot_decide():
    s = field((10, 300), (10, 200), (9, 100), (9, 0), (6, 0), (5, 0))
    in_contention = contention(s, 2, None)
    evaluation = Judge(s, in_contention, None, 2, None).evaluate(
        [("P1", "P3"), ("P2", "P4"), ("P5", "P6")]
    )
    assert need_text(evaluation, "P3") == "needs to win and finish ahead of #1 Player 1 on spread"


SPREAD_RIVALS = [
    (16, 412),
    (16, 120),
    (14, 300),
    (14, -40),
    (10, 10),
    (8, -80),
    (8, -200),
    (6, -300),
]
THREE_LEADERS = [(16, 412), (16, 120), (16, 100), (14, 300), (14, -40), (10, 0), (8, 0), (8, 0)]


@pytest.mark.parametrize(
    ("rows", "pairs", "victors", "player", "expected"),
    [
        # D wins to 8; A and B at best lose to 8 too: one victor place is left for the
        # three of them, so D must pass either, not both (the words once said "and").
        (SPREAD_RIVALS, "AE BF CD GH", 2, "D", "finish ahead of #1 A or #2 B on spread"),
        # One victor place: D must pass both.
        (SPREAD_RIVALS, "AE BF CD GH", 1, "D", "finish ahead of #1 A and #2 B on spread"),
        # Three leaders lose to 8 beside E: two places, so E must pass two of the three.
        (
            THREE_LEADERS,
            "AF BG CH DE",
            2,
            "E",
            "finish ahead of 2 of #1 A, #2 B and #3 C on spread",
        ),
        (THREE_LEADERS, "AF BG CH DE", 3, "E", "finish ahead of #1 A, #2 B or #3 C on spread"),
    ],
)
def test_needs_say_how_many_spread_rivals_must_be_passed(rows, pairs, victors, player, expected):
    s = Standings.from_players(
        [Player(chr(ord("A") + i), hw, spread) for i, (hw, spread) in enumerate(rows)]
    )
    in_contention = contention(s, victors, 250)
    games = [(game[0], game[1]) for game in pairs.split()]
    evaluation = Judge(s, in_contention, None, victors, 250).evaluate(games)
    assert need_text(evaluation, player) == f"needs to win and {expected}"
    # needs() for every player at once says the same as need_text for one.
    ranked = [p for p in s.ids if p in set(in_contention.relevant)]
    said = {n.player: n.text for n in needs(evaluation, ranked)}
    assert said[player] == f"needs to win and {expected}"


@settings(max_examples=25, deadline=None)
@given(victors=st.integers(1, 8), rounds=st.integers(1, 4))
def test_any_victor_count_and_rounds_left_get_advice(rules, victors, rounds):
    s = field(*[(12 - i * 0.5, 100 - 10 * i) for i in range(14)])
    advice = advise(s, rules.scrabble, victors=victors, rounds_left=rounds)
    assert {v.id for v in advice.principles} == set(PRINCIPLES)
    if rounds > 1:
        statuses = {v.id: v.status for v in advice.principles}
        assert statuses["GP1"] == statuses["GP3"] == statuses["GP4"] == "not_applicable"
        assert advice.rule.source == "fallback"


def test_with_rounds_left_gibsonization_uses_the_best_possible_finish(rules):
    s = field((12, 500), (10, 0), (9, 0), (8, 0), (7, 0), (6, 0))
    one = advise(s, rules.scrabble, victors=1, rounds_left=1)
    two = advise(s, rules.scrabble, victors=1, rounds_left=2)
    assert one.gibsonized == ("P1",)
    assert two.gibsonized == () and "P1" in two.contenders


def test_fallback_picks_the_candidate_that_keeps_most_principles(rules):
    # Three victors: the table does not apply; the engine chooses among all pairings.
    s = field((10, 50), (10, 40), (9.5, 30), (9.5, 20), (9, 10), (9, 0), (5, 0), (4, 0))
    advice = advise(s, rules.scrabble, victors=3)
    assert advice.rule.source == "fallback"
    in_contention = contention(s, 3, None)
    judge = Judge(s, in_contention, None, 3, None)
    pairs = [g.players for g in advice.games if not g.bye]
    chosen = judge.evaluate(pairs).scores()
    candidates, exhaustive = judge.candidates(pairs)
    assert exhaustive
    keys = [tuple(judge.evaluate(c).scores()) for c in candidates]
    assert all(chosen <= key for key in keys if None not in key)


def test_candidates_cover_every_pairing_of_the_relevant_players():
    s = field((10, 0), (10, 0), (10, 0), (10, 0), (3, 0), (2, 0))
    in_contention = contention(s, 2, None)
    candidates, exhaustive = Judge(s, in_contention, None, 2, None).candidates([])
    # Four contenders and two outsiders: 3 pairings among themselves, 6 with one pair and
    # two facing outsiders; all four cannot face the two outsiders.
    assert exhaustive and len(candidates) == 3 + 6
    assert len(set(candidates)) == len(candidates)
    for pairs in candidates:
        seen = [p for pair in pairs for p in pair if p in s]
        assert sorted(seen) == sorted(set(seen))
    assert all(len(list(itertools.chain(*c))) for c in candidates)
