"""The field's table (``field_table.FieldTable``) against the outcome engine and brute force, and
the judge's bounds on comparing pairings (every pairing of a field judged fast)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.scrabble_fields import simulated_field, tied_wins
from pairing_service.api.scrabble.final_round import standings_of
from pairing_service.api.scrabble.schemas import FinalRoundIn
from pairing_service.engine.scrabble import Player, Standings, advise
from pairing_service.engine.scrabble.contention import contention
from pairing_service.engine.scrabble.explain.needs import _worst_cases, need_text, needs
from pairing_service.engine.scrabble.explain.verdicts import rule_text
from pairing_service.engine.scrabble.judge import every_pairing
from pairing_service.engine.scrabble.judge.candidates import (
    OUTSIDER,
    canonical,
    matching_count,
    partial_matchings,
)
from pairing_service.engine.scrabble.judge.comparison import Judge
from pairing_service.engine.scrabble.judge.count_tables import CERTAIN, GP1_RULES, POSSIBLE, RESULTS
from pairing_service.engine.scrabble.judge.field_table import FieldTable
from pairing_service.engine.scrabble.judge.pairing_table import PairingTable
from pairing_service.engine.scrabble.judge.principles import PRINCIPLES
from pairing_service.engine.scrabble.judge.proof import Place, RoundUnderTest
from pairing_service.engine.scrabble.pairing.policy import RepeatPolicy
from pairing_service.engine.scrabble.pairing.swiss import SwissMemo, pair_swiss
from tests.support import field, xor_field

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def rounds(draw: st.DrawFn) -> tuple[Any, ...]:
    """A field of 3-9 players (some not relevant), a pairing, victors, cap, rounds left."""
    size = draw(st.integers(3, 9))
    rows = draw(
        st.lists(st.tuples(st.integers(14, 20), st.integers(-30, 30)), min_size=size, max_size=size)
    )
    standings = Standings.from_players(
        [Player(f"p{i}", hw, spread) for i, (hw, spread) in enumerate(rows)]
    )
    ids = list(standings.ids)
    relevant = [p for p in ids if draw(st.booleans()) or p == ids[0]]
    order = draw(st.permutations(ids))
    bye = order.pop() if len(order) % 2 else None
    pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    victors = draw(st.integers(1, 3))
    cap = draw(st.sampled_from([2, 5, 40, None]))
    rounds_left = draw(st.sampled_from([1, 1, 2]))
    return standings, relevant, pairs, bye, victors, cap, rounds_left


@SETTINGS
@given(rounds())
def test_table_counts_equal_the_outcome_engine(case):
    standings, relevant, pairs, bye, victors, cap, rounds_left = case
    test = RoundUnderTest(standings, relevant, pairs, bye, victors, cap, rounds_left)
    counts = FieldTable(standings, relevant, bye, cap, rounds_left).counts(pairs)
    for player in test.relevant:
        index = list(test.relevant).index(player)
        for slot, result in enumerate(RESULTS):
            bye = test.own_results(player) == (None,)  # every slot holds the bye
            fixed = {} if bye else test.own_fix(player, result)
            most = test.count_above(player, fixed, maximize=True)[0]
            fewest = test.count_above(player, fixed, maximize=False)[0]
            assert counts[CERTAIN, index, slot] == most, (player, result)
            assert counts[POSSIBLE, index, slot] == fewest, (player, result)


@SETTINGS
@given(rounds(), st.sampled_from([3, 40, 100_000]), st.integers(1, 4))
def test_gp1_search_on_the_table_is_the_outcome_engines(case, nodes, leaders):
    standings, relevant, pairs, bye, victors, cap, rounds_left = case
    test = RoundUnderTest(standings, relevant, pairs, bye, victors, cap, rounds_left)
    table = FieldTable(standings, relevant, bye, cap, rounds_left)
    chosen = list(test.relevant[:leaders])
    kept, witness, used = table.leader_guaranteed(test.units, chosen, victors, nodes)
    assert (kept, witness) == test.leader_guaranteed(chosen, nodes)
    assert 0 <= used <= nodes
    if kept is False:  # the witness leaves every leader short of certain
        for leader in chosen:
            assert test.place(leader, witness) is not Place.CERTAIN


@SETTINGS
@given(rounds(), st.sampled_from([3, 40, 100_000]), st.integers(1, 4))
def test_pairing_table_is_the_field_tables_and_the_outcome_engines(case, nodes, leaders):
    """The one-pairing table (fields beyond ``MAX_TABLE_PLAYERS``) answers as the field's
    table does for the same pairing, its GP1 search as the outcome engine's, and its
    per-game breakdown sums to the engine's worst case with any one other game fixed."""
    standings, relevant, pairs, bye, victors, cap, rounds_left = case
    test = RoundUnderTest(standings, relevant, pairs, bye, victors, cap, rounds_left)
    field_counts = FieldTable(standings, relevant, bye, cap, rounds_left).counts(pairs)
    table = PairingTable(standings, test.relevant, test.units, cap, rounds_left)
    assert (table.counts() == field_counts).all()
    chosen = list(test.relevant[:leaders])
    kept, witness, used = table.leader_guaranteed(chosen, victors, nodes)
    assert (kept, witness) == test.leader_guaranteed(chosen, nodes)
    assert 0 <= used <= nodes
    for player in test.relevant:
        own = test.unit_of[player]
        for own_result in test._results(own, {}):
            own_count, per_unit = table.breakdown(player, own_result)
            worst = per_unit.astype(int).max(axis=1)
            for index in range(len(test.units)):
                if index == own:
                    continue
                for result in test._results(index, {}):
                    fixed = {own: own_result, index: result}
                    expected = test.count_above(player, fixed, maximize=True)[0]
                    rest = int(worst.sum()) - int(worst[own]) - int(worst[index])
                    column = RESULTS.index(result)
                    assert own_count + rest + int(per_unit[index, column]) == expected


def test_pairing_table_of_a_pairing_that_leaves_relevant_players_out():
    """Relevant players without a game in the pairing: their counts are the field table's
    (nobody above them from the games there are), and asking for their game is an error."""
    standings = Standings.from_players(
        [Player(p, hw, 0) for p, hw in (("a", 20), ("b", 20), ("c", 18), ("d", 18))]
    )
    for relevant, pairs in ((["a", "b"], [("c", "d")]), (["a", "b", "c"], [("c", "d")])):
        test = RoundUnderTest(standings, relevant, pairs, None, 2, 50)
        table = PairingTable(standings, test.relevant, test.units, 50)
        field_counts = FieldTable(standings, relevant, None, 50).counts(pairs)
        assert (table.counts() == field_counts).all()
        with pytest.raises(KeyError):
            table.breakdown("a", RESULTS[0])


def test_pairing_table_blocks_give_the_same_counts(monkeypatch):
    """Built in blocks of a few subjects (as a field of thousands is), the counts and
    the GP1 table are the same as in one block."""
    from pairing_service.engine.scrabble.judge import pairing_table

    rng = random.Random(7)
    players = [Player(f"p{i}", rng.randint(10, 16), rng.randint(-200, 200)) for i in range(30)]
    standings = Standings.from_players(players)
    ids = list(standings.ids)
    rng.shuffle(ids)
    pairs = [(ids[i], ids[i + 1]) for i in range(0, len(ids), 2)]
    relevant = [p for p in standings.ids if rng.random() < 0.7]
    test = RoundUnderTest(standings, relevant, pairs, None, 2, 100)
    whole = PairingTable(standings, test.relevant, test.units, 100)
    monkeypatch.setattr(pairing_table, "PAIRING_BLOCK", 1)
    blocked = PairingTable(standings, test.relevant, test.units, 100)
    assert (whole.counts() == blocked.counts()).all()
    assert (whole.certain == blocked.certain).all()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds())
def test_fewest_above_over_every_pairing_is_brute_forces_minimum(case):
    standings, _, _, _, victors, cap, _ = case
    in_contention = contention(standings, victors, cap)
    judge = Judge(standings, in_contention, None, victors, cap)
    players = list(in_contention.relevant)
    outsiders = len(standings) - len(players)
    if (len(players) + min(outsiders, len(players))) % 2 and outsiders < len(players) % 2:
        return
    table = judge.table
    for player in players:
        # A win leaves no game's count above the player larger than a draw does, nor a
        # draw than a loss: why ``fewest_above`` matches the win only.
        win, draw, loss = (table.subject(POSSIBLE, player, r) for r in range(3))
        assert (win <= draw).all() and (draw <= loss).all()
        count, pairing = judge.every_pairing.fewest_above(player, players, outsiders)
        every = [
            RoundUnderTest(standings, in_contention.relevant, list(p), None, victors, cap)
            for p in partial_matchings(players, outsiders)
        ]
        best = min(t.count_above(player, {}, maximize=False)[0] for t in every)
        assert count == best
        reached = RoundUnderTest(
            standings, in_contention.relevant, list(pairing), None, victors, cap
        )
        assert reached.count_above(player, {}, maximize=False)[0] == count
        assert sorted(p for pair in pairing for p in pair if p != OUTSIDER) == sorted(players)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds(), st.integers(0, 2**32 - 1))
def test_the_matching_free_lower_bound_never_exceeds_the_cheapest_pairing(case, seed):
    """``EveryPairing.lower_bounds`` (which lets GP1's proof skip matchings) is a bound: no
    layer's cheapest pairing sums to less."""
    standings, _, _, bye, victors, cap, _ = case
    in_contention = contention(standings, victors, cap)
    judge = Judge(
        standings, in_contention, bye if bye in in_contention.relevant else None, victors, cap
    )
    players, outsiders = judge.pairing_space()
    if judge.table is None or ((len(players) + min(outsiders, len(players))) % 2 and not outsiders):
        return
    try:
        judge.every_pairing._columns(players, outsiders)
    except ValueError:
        return  # an odd number of players and no outsider
    width = len(judge.table.players) + 2
    counts = np.random.default_rng(seed).integers(0, 3, (3, width, width)).astype(np.int64)
    bounds = judge.every_pairing.lower_bounds(counts, players, outsiders)
    for layer, lower in enumerate(bounds.tolist()):
        assert judge.every_pairing._cheapest(counts[layer], players, outsiders, 10)[0] >= lower


def test_matching_count_is_the_number_of_pairings_listed():
    for players in range(9):
        for outsiders in range(6):
            listed = sum(1 for _ in partial_matchings([str(i) for i in range(players)], outsiders))
            assert matching_count(players, outsiders) == listed


def _simulated(size: int, seed: int) -> Standings:
    """The benchmark's simulated Swiss event, as the API reads it."""
    return standings_of(FinalRoundIn().load(simulated_field(size, seed))).standings


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
    s = _simulated(32, 0)
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


def test_rescue_candidate_keeps_the_first_removed_contender(rules):
    s = _simulated(32, 0)
    in_contention = contention(s, 2, 500)
    judge = Judge(s, in_contention, None, 2, 500)
    advice = advise(s, rules.scrabble, max_spread_per_game=500)
    pairs = [g.players for g in advice.games if not g.bye]
    mine = judge.evaluate(pairs)
    removed = [p for p in mine.contenders if mine.removed_flag(p)]
    assert removed
    players = [p for p in in_contention.relevant]
    count, rescue = judge.every_pairing.fewest_above(removed[0], players, len(s) - len(players))
    candidates, exhaustive = judge.candidates(pairs)
    assert not exhaustive
    if count < 2:
        assert rescue in [tuple(c) for c in candidates] or any(
            set(c) == set(rescue) for c in candidates
        )
        assert judge.evaluate(rescue).removed_flag(removed[0]) == 0


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000))
def test_swiss_memo_changes_no_pairing(seed):
    rng = random.Random(seed)
    size = rng.choice([8, 10, 14, 20])
    players = [Player(f"q{i}", rng.randint(4, 10), rng.randint(-200, 200)) for i in range(size)]
    s = Standings.from_players(players)
    memo = SwissMemo()
    ids = list(s.ids)
    first = pair_swiss(s, ids, memo)
    assert first == pair_swiss(s, ids)
    # Another set of players on the same standings reuses what fits and pairs the same.
    rest = ids[2:]
    assert pair_swiss(s, rest, memo) == pair_swiss(s, rest)


@pytest.mark.parametrize("relevant", [11, 32])
def test_field_table_is_built_for_the_players_it_covers(relevant):
    s = field(*[(8.0 - (i % 3) * 0.5, 100 - i) for i in range(relevant)])
    table = FieldTable(s, list(s.ids), None, 500)
    pairs = [(s.ids[i], s.ids[i + 1]) for i in range(0, relevant - 1, 2)]
    counts = table.counts(pairs)
    assert counts.shape == (2, relevant, 3)
    assert (counts[POSSIBLE] <= counts[CERTAIN]).all()  # fewest above <= most level or above


@st.composite
def leading_groups(draw: st.DrawFn) -> tuple[Any, ...]:
    """A field of 4-9 players whose top 1-5 share the lead, the rest up to two games
    behind, spreads close enough for ties on wins to go either way."""
    size = draw(st.integers(4, 9))
    leaders = draw(st.integers(1, min(5, size - 1)))
    behind = draw(st.lists(st.integers(1, 4), min_size=size - leaders, max_size=size - leaders))
    spreads = draw(st.lists(st.integers(-60, 60), min_size=size, max_size=size))
    rows = [20] * leaders + [20 - b for b in behind]
    standings = Standings.from_players(
        [Player(f"p{i}", hw, s) for i, (hw, s) in enumerate(zip(rows, spreads, strict=True))]
    )
    victors = draw(st.integers(1, 3))
    cap = draw(st.sampled_from([20, 100, None]))
    return standings, victors, cap


def _judge_of_group(case: tuple[Any, ...]) -> tuple[Judge, list[str], int] | None:
    """A judge of a ``leading_groups`` field (the bye to the last player of an odd one),
    the players a pairing is free to pair and the outsiders they can face; None when
    they cannot all be paired."""
    standings, victors, cap = case
    in_contention = contention(standings, victors, cap)
    bye = standings.ids[-1] if len(standings) % 2 else None
    judge = Judge(standings, in_contention, bye, victors, cap)
    players, outsiders = judge.pairing_space()
    outsiders = max(outsiders, 0)
    if (len(players) + min(outsiders, len(players))) % 2 and outsiders < len(players) % 2:
        return None
    return judge, players, outsiders


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(leading_groups())
def test_gp1_broken_everywhere_holds_for_every_pairing(case):
    # Sound by brute force: when the rule is claimed, it leaves no leader certain under
    # every pairing of the players (so no pairing keeps GP1); when some pairing keeps GP1,
    # no rule is claimed.
    standings, victors, cap = case
    found = _judge_of_group(case)
    if found is None:
        return
    judge, players, outsiders = found
    in_contention, bye = judge.contention, judge.bye
    leaders = [p for p in in_contention.relevant if standings.player(p).half_wins == 20]
    proven = judge.every_pairing.gp1_broken_everywhere(players, outsiders)
    table = judge.table
    assert table is not None
    kept_by_some = False
    for pairing in partial_matchings(players, outsiders):
        test = RoundUnderTest(standings, in_contention.relevant, list(pairing), bye, victors, cap)
        kept, _ = test.leader_guaranteed(leaders, 10**7)
        kept_by_some |= bool(kept)
        if proven is None:
            continue
        _, results = proven
        firsts, seconds = table.unit_columns(test.units)
        assignment = dict(enumerate(RESULTS[r] for r in results[firsts, seconds].tolist()))
        for leader in leaders:
            assert test.place(leader, assignment) is not Place.CERTAIN, (pairing, leader)
    if kept_by_some:
        assert proven is None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(leading_groups())
def test_gp1_broken_everywhere_finds_the_first_rule_that_holds_for_every_pairing(case):
    # Complete as well as sound, with the matchings' cap lifted: the rule answered is the
    # first of GP1_RULES under which no pairing leaves a leader certain (brute force), so
    # neither the subjects taken a few at a time nor the pairings that kept a leader
    # certain under an earlier rule (tried before a matching) change what is proven.
    standings, victors, cap = case
    found = _judge_of_group(case)
    if found is None:
        return
    judge, players, outsiders = found
    in_contention, bye = judge.contention, judge.bye
    table = judge.table
    assert table is not None
    leaders = sorted(
        (p for p in in_contention.relevant if standings.player(p).half_wins == 20),
        key=standings.rank,
    )
    by_rule = table.rule_results(leaders)
    holds = [True] * len(GP1_RULES)
    for pairing in partial_matchings(players, outsiders):
        test = RoundUnderTest(standings, in_contention.relevant, list(pairing), bye, victors, cap)
        firsts, seconds = table.unit_columns(test.units)
        for rule, results in enumerate(by_rule):
            if holds[rule]:
                assignment = dict(enumerate(RESULTS[r] for r in results[firsts, seconds].tolist()))
                holds[rule] = all(test.place(p, assignment) is not Place.CERTAIN for p in leaders)
    first = next((rule for rule, held in enumerate(holds) if held), None)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(every_pairing, "MAX_GP1_RULE_MATCHINGS", 10**6)
        proven = judge.every_pairing.gp1_broken_everywhere(players, outsiders)
    if first is None:
        assert proven is None
    else:
        assert proven is not None
        assert proven[0] == rule_text(GP1_RULES[first])
        assert (proven[1] == by_rule[first]).all()


@pytest.mark.parametrize(("size", "seed"), [(100, 5), (2000, 8)])
def test_gp1_unavoidable_on_fields_the_candidates_cannot_settle(rules, size, seed):
    # Issue 15: these simulated fields' GP1 was "unverified" (14 relevant players: the
    # candidates compared are not every pairing). The rule proves every pairing breaks it.
    s = _simulated(size, seed)
    advice = advise(s, rules.scrabble, max_spread_per_game=500)
    gp1 = advice.principles[0]
    assert gp1.status == "unavoidable"
    assert "every pairing of these players breaks GP1" in gp1.reason
    assert gp1.outcome is not None


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(leading_groups(), st.randoms(use_true_random=False))
def test_gp2_unavoidable_only_when_no_pairing_keeps_a_removed_contender(case, rng):
    # Sound and complete by brute force: GP2 is proven unavoidable for a pairing exactly
    # when no pairing of the players keeps any contender it removes in contention (a
    # pairing does better on GP2 only by keeping one of them).
    standings, victors, cap = case
    found = _judge_of_group(case)
    if found is None:
        return
    judge, players, outsiders = found
    in_contention, bye = judge.contention, judge.bye
    order = rng.sample([p for p in standings.ids if p != bye], len(standings) - (bye is not None))
    pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    mine = judge.evaluate(pairs)
    removed = [p for p in mine.contenders if mine.removed_flag(p)]
    kept_somewhere = False
    for pairing in partial_matchings(players, outsiders):
        test = RoundUnderTest(standings, in_contention.relevant, list(pairing), bye, victors, cap)
        kept_somewhere |= any(
            p in test.unit_of and test.possible(p, {})[0] for p in removed if p != bye
        )
    verdict = judge._gp2_unavoidable(mine)
    if not removed or bye in removed or 1 in mine.score("GP2"):
        # Nothing removed, or a chaser sent out of the race (GP2's head-to-head part,
        # which only the comparisons judge): no proof beyond every pairing.
        assert verdict is None
        return
    assert (verdict is not None) == (not kept_somewhere)
    if verdict is not None:
        assert verdict.status == "unavoidable"
        assert verdict.outcome is not None
        assert "no pairing of these players does better" in verdict.reason


def test_gp2_unavoidable_on_the_benchmark_field_the_candidates_could_not_settle(rules):
    # Issue 15: 32 players level but one half a win ahead and the bottom eighth a win
    # behind. The bottom four cannot be victors under any pairing, which the standard
    # candidates could not show ("unverified"); one bound per player proves it.
    body = tied_wins(32, 2)
    s = standings_of(FinalRoundIn().load(body)).standings
    advice = advise(s, rules.scrabble, max_spread_per_game=500)
    gp2 = advice.principles[1]
    assert gp2.reason.startswith("no outcome makes #29 Player 29, #30 Player 30, #31 Player 31")
    assert gp2.outcome is not None
    # The table row (0/0.5/0.5/0.5: 1-4, 2-3) leaves 26 contenders to the rest, who are
    # paired by the principles: each chaser against the one just above (5-6, 7-8, ...).
    # Every other chaser cannot face a player above, and the proof that the removals are
    # unavoidable does not cover that part, so among the standard candidates none does
    # better but the verdict stays unverified.
    games = [tuple(s.rank(p) for p in g.players) for g in advice.games]
    assert games[:4] == [(1, 4), (2, 3), (5, 6), (7, 8)]
    assert gp2.status == "unverified"
    assert "does not face a player they need to pass" in gp2.reason


@SETTINGS
@given(rounds(), st.integers(1, 4))
def test_rule_witness_leaves_no_leader_certain(case, leaders):
    # The screen GP1 runs before its search on a pairing compared: any outcome it answers
    # is a real witness, and it answers only when the search would find GP1 broken.
    standings, relevant, pairs, bye, victors, cap, rounds_left = case
    test = RoundUnderTest(standings, relevant, pairs, bye, victors, cap, rounds_left)
    table = FieldTable(standings, relevant, bye, cap, rounds_left)
    chosen = list(test.relevant[:leaders])
    witness = table.rule_witness(test.units, chosen, victors)
    if witness is None:
        return
    assert sorted(witness) == list(range(len(test.units)))
    for leader in chosen:
        assert test.place(leader, witness) is not Place.CERTAIN
    assert test.leader_guaranteed(chosen, 10**7)[0] is False


@SETTINGS
@given(rounds(), st.integers(1, 4), st.randoms(use_true_random=False))
def test_many_pairings_at_once_answer_as_one_at_a_time(case, leaders, rng):
    # The verdict screens all the pairings it compares in one pass (counts_of, rule_screen):
    # each answer is the one-pairing answer (counts, rule_witness).
    standings, relevant, pairs, bye, victors, cap, rounds_left = case
    table = FieldTable(standings, relevant, bye, cap, rounds_left)
    ids = [p for p in standings.ids if p != bye]
    pairings = [pairs]
    for _ in range(3):
        order = rng.sample(ids, len(ids))
        pairings.append([(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)])
    chosen = [p for p in table.players[:leaders]]
    games = table.games_of(pairings)
    many = table.counts_of(games)
    screened = table.rule_screen(games, chosen, victors)
    # Rules tried a few at a time on the pairings still open: the first rule that holds is
    # the one all of them tried at once find first.
    first_rule, results = table._first_rule_holding(*games, chosen, victors)
    every = table._rules_hold(results, *games, chosen, victors)
    assert (first_rule == np.where(every.any(axis=0), every.argmax(axis=0), -1)).all()
    for row, pairing in enumerate(pairings):
        assert (many[row] == table.counts(pairing)).all()
        test = RoundUnderTest(standings, relevant, pairing, bye, victors, cap, rounds_left)
        alone = table.rule_witness(test.units, [p for p in chosen if p in test.unit_of], victors)
        assert bool(screened[row]) == (alone is not None)


def test_gp1_rules_with_nobody_left_to_pair():
    # The lone leader has the bye and nobody else can be a victor: no pairing to prove
    # anything over, and no crash on an empty matching.
    standings = Standings.from_players([Player("a", 20, 0), Player("b", 10, 0), Player("c", 10, 0)])
    in_contention = contention(standings, 1, None)
    judge = Judge(standings, in_contention, "a", 1, None)
    players, outsiders = judge.pairing_space()
    assert players == []
    assert judge.every_pairing.gp1_broken_everywhere(players, max(outsiders, 0)) is None


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


@pytest.mark.parametrize("seed", [0, 1])
def test_a_large_groups_matching_on_near_candidates_is_the_whole_graphs(seed, monkeypatch):
    """Beyond ``WHOLE_GROUP_LIMIT`` the fallback's matching takes each player's nearest
    ranks to its ideal partners as candidates; on groups of 150-200 contenders with
    random histories (repeats to avoid) its answer is the matching over every pair's."""
    from pairing_service.engine.scrabble.pairing import fallback
    from pairing_service.engine.scrabble.pairing.swiss import Meetings

    rng = random.Random(seed)
    size = 150 + 50 * seed
    ids = [f"p{i}" for i in range(size)]
    met: dict[str, list[str]] = {p: [] for p in ids}
    for _ in range(rng.randint(4, 9)):
        order = ids[:]
        rng.shuffle(order)
        for a, b in zip(order[::2], order[1::2], strict=True):
            met[a].append(b)
            met[b].append(a)
    leaders = rng.randint(10, 40)
    players = [
        Player(
            p,
            20 if i < leaders else rng.choice([18, 18, 19]),
            rng.randint(-300, 300),
            opponents=tuple(met[p]),
        )
        for i, p in enumerate(ids)
    ]
    standings = Standings.from_players(players)
    in_contention = contention(standings, 2, None)
    group = sorted(in_contention.relevant, key=standings.rank)[
        : len(in_contention.relevant) // 2 * 2
    ]
    assert len(group) > fallback.WHOLE_GROUP_LIMIT
    meetings = Meetings(standings)
    near = fallback._principled_pairs(
        standings, in_contention, group, 2, None, meetings, RepeatPolicy()
    )
    monkeypatch.setattr(fallback, "WHOLE_GROUP_LIMIT", len(group))
    every = fallback._principled_pairs(
        standings, in_contention, group, 2, None, meetings, RepeatPolicy()
    )
    assert near == every


@SETTINGS
@given(rounds())
def test_scores_read_for_many_pairings_are_each_pairings_own(case):
    # ``Judge.read_scores`` reads GP2-GP4 of every candidate from the table at once, and
    # GP1 where a rule breaks it: each is what the pairing's own evaluation answers.
    judge, pairs = _judge_of(case)
    if judge.table is None:
        return
    candidates, _ = judge.candidates(pairs)
    judge.read_scores(candidates)
    victors = judge.victors
    for pairs_read, read in judge.scores_read().items():
        alone = _judge_of(case)[0].evaluate(pairs_read)
        assert [read[gp] for gp in PRINCIPLES[1:]] == list(alone.scores()[1:]), pairs_read
        if read["GP1"] is not None:
            assert alone.score("GP1") == read["GP1"]
        else:  # a search decides it: neither nothing to judge nor a rule's outcome
            assert alone.leaders and judge.rounds_left == 1
            assert judge.table.rule_witness(alone.test.units, alone.leaders, victors) is None
    assert set(judge.scores_read()) == {judge._key(c) for c in candidates}  # every one read


@SETTINGS
@given(rounds())
def test_spread_rivals_on_the_pairing_table_are_the_outcome_engines(case):
    # The needs name spread rivals from ``PairingTable.rivals`` (every game at once); the
    # outcome engine's ``rivals`` (game by game) is the reference.
    standings, relevant, pairs, bye, victors, cap, rounds_left = case
    test = RoundUnderTest(standings, relevant, pairs, bye, victors, cap, rounds_left)
    table = PairingTable(standings, test.relevant, test.units, cap, rounds_left)
    subjects, expected = [], []
    for player in test.unit_of:
        for result in (None, *RESULTS):
            if result is None or test.own_results(player) == (None,):
                fixed = {}
            else:
                fixed = test.own_fix(player, result)
            subjects.append((player, result))
            expected.append(test.rivals(player, fixed))
            assert table.rivals(player, result, victors) == expected[-1], (player, result)
    # All at once (as the needs ask): each subject's own answer.
    assert table.rivals_of(subjects, victors) == expected


@SETTINGS
@given(rounds())
def test_needs_found_for_every_player_at_once_are_each_players_own(case):
    # ``needs`` finds the helping games of every player and own result in one pass
    # (``_worst_cases``); each text is the one found for that player alone.
    judge, pairs = _judge_of(case)
    evaluation = judge.evaluate(pairs)
    standings = judge.standings
    together = needs(evaluation, list(standings.ids))
    assert [n.player for n in together] == [
        p for p in standings.ids if p in judge.contention.relevant
    ]
    for need in together:
        assert need.text == need_text(evaluation, need.player), need.player


@SETTINGS
@given(rounds())
def test_helping_games_of_the_needs_are_the_outcome_engines(case):
    judge, pairs = _judge_of(case)
    _assert_helping_games(judge.evaluate(pairs))


def _judge_of(case: tuple[Any, ...]) -> tuple[Judge, list[tuple[str, str]]]:
    """A judge of a ``rounds()`` case's field (its bye kept when it can be a victor) and the
    case's pairing without the bye's game."""
    standings, _, pairs, bye, victors, cap, rounds_left = case
    in_contention = contention(standings, victors, cap)
    bye = bye if bye in in_contention.relevant else None
    judge = Judge(standings, in_contention, bye, victors, cap, rounds_left)
    return judge, [(a, b) for a, b in pairs if bye not in (a, b)]


def test_a_need_names_the_first_three_of_more_helping_games():
    # Four victor places; X is a win ahead of four rivals who each play an outsider. With a
    # loss X is certain when any one rival does not win: four helping games, three named.
    standings = Standings.from_players(
        [Player("X", 20, 0)]
        + [Player(f"R{i}", 18, 0) for i in range(1, 5)]
        + [Player(f"O{i}", 10, 0) for i in range(1, 6)]
    )
    judge = Judge(standings, contention(standings, 4, None), None, 4, None)
    evaluation = judge.evaluate([("X", "O1"), *((f"R{i}", f"O{i + 1}") for i in range(1, 5))])
    assert _assert_helping_games(evaluation)  # some player has more helping games than named
    assert need_text(evaluation, "X") == (
        "needs to win or draw, or lose and have #2 R1 not win, or #3 R2 not win, or #4 R3 not win"
    )


def _assert_helping_games(evaluation: Any) -> bool:
    """A need's "have ..." names the first games (up to three, in the pairing's order)
    where some results, not all, make the player certain with its own result fixed; the
    results named are exactly those, by the outcome engine. Whether some subject had more
    helping games than are named."""
    test = evaluation.test
    subjects = [(p, r) for p in test.unit_of for r in test.own_results(p)]
    more_than_named = False
    for (player, result), worst in zip(subjects, _worst_cases(evaluation, subjects), strict=True):
        own = {} if result is None else test.own_fix(player, result)
        helping = []
        for unit in range(len(test.units)):
            if unit == test.unit_of[player] or test.units[unit].bye:
                continue
            good = [r for r in RESULTS if test.certain(player, {**own, unit: r})[0]]
            if 0 < len(good) < len(RESULTS):
                helping.append((unit, good))
        assert worst.helping == helping[:3], (player, result)
        more_than_named |= len(helping) > 3
    return more_than_named


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


@SETTINGS
@given(rounds(), st.integers(0, 80))
def test_best_is_the_scan_that_compares_each_candidate_with_the_best_so_far(case, nodes):
    # ``best`` reads scores ahead and takes the least principle by principle; a judge that
    # evaluates each pairing alone and keeps the best so far is the reference: the same
    # choice, the same GP1 for every candidate, the same search nodes left (GP1's
    # searches share a budget, so their order matters).
    judge, pairs = _judge_of(case)
    reference = _judge_of(case)[0]
    judge.budget.nodes = reference.budget.nodes = nodes
    chosen, _ = judge.best(pairs)
    candidates, _ = reference.candidates(pairs)
    expected = canonical(reference.standings, pairs)
    for candidate in candidates:
        if reference._ranks_above(candidate, expected):
            expected = candidate
    assert chosen == expected
    assert judge.budget.nodes == reference.budget.nodes
    for candidate in candidates:
        assert judge.score_of(candidate, "GP1") == reference.evaluate(candidate).score("GP1")


def test_a_pairing_given_as_lists_is_judged_as_tuples():
    standings = Standings.from_players([Player(f"p{i}", 20 - i, 0) for i in range(4)])
    judge = Judge(standings, contention(standings, 2, None), None, 2, None)
    as_lists = judge.judge([["p0", "p2"], ["p1", "p3"]])  # type: ignore[list-item]
    assert as_lists == judge.judge([("p0", "p2"), ("p1", "p3")])
