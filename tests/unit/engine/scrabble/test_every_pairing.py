"""The judge's bounds over every pairing of a field (``judge.every_pairing``), against brute
force: the fewest above, the matching-free lower bound, GP1 and GP2 proven broken by every
pairing ("unavoidable"), on small fields and on the benchmark's."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.scrabble_fields import simulated_field, tied_wins
from pairing_service.api.scrabble.tool_schemas import FinalRoundIn
from pairing_service.api.scrabble.tools import standings_of
from pairing_service.engine.scrabble import Player, Standings, advise
from pairing_service.engine.scrabble.contention import contention
from pairing_service.engine.scrabble.judge import every_pairing
from pairing_service.engine.scrabble.judge.candidates import (
    OUTSIDER,
    matching_count,
    partial_matchings,
)
from pairing_service.engine.scrabble.judge.comparison import Judge
from pairing_service.engine.scrabble.judge.count_tables import GP1_RULES, POSSIBLE, RESULTS
from pairing_service.engine.scrabble.judge.proof import Place, RoundUnderTest
from pairing_service.engine.scrabble.withdrawals import field_of
from pairing_service.engine.scrabble.words.verdicts import rule_text
from tests.support.judge_cases import judge_of, rounds, simulated


def test_matching_count_is_the_number_of_pairings_listed():
    for players in range(9):
        for outsiders in range(6):
            listed = sum(1 for _ in partial_matchings([str(i) for i in range(players)], outsiders))
            assert matching_count(players, outsiders) == listed


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds())
def test_fewest_above_over_every_pairing_is_brute_forces_minimum(case):
    # Players sitting out (``rounds``) are in every pairing at their fixed record.
    standings, _, _, _, _, cap, _, sitting = case
    field = field_of(standings, case[4], cap, 1, frozenset(sitting), sitting)
    in_contention, victors = field.contention, field.victors
    judge = Judge(standings, in_contention, None, victors, cap)
    players = list(in_contention.relevant)
    outsiders = len(standings) - len(players) - len(sitting)
    if (len(players) + min(outsiders, len(players))) % 2 and outsiders < len(players) % 2:
        return
    table = judge.table
    fixed = in_contention.fixed
    for player in in_contention.judged:
        # A win leaves no game's count above the player larger than a draw does, nor a
        # draw than a loss: why ``fewest_above`` matches the win only.
        win, draw, loss = (table.subject(POSSIBLE, player, r) for r in range(3))
        assert (win <= draw).all() and (draw <= loss).all()
        count, pairing = judge.every_pairing.fewest_above(player, players, outsiders)
        every = [
            RoundUnderTest(
                standings, in_contention.relevant, list(p), None, victors, cap, sitting_out=fixed
            )
            for p in partial_matchings(players, outsiders)
        ]
        best = min(t.count_above(player, {}, maximize=False)[0] for t in every)
        assert count == best
        reached = RoundUnderTest(
            standings, in_contention.relevant, list(pairing), None, victors, cap, sitting_out=fixed
        )
        assert reached.count_above(player, {}, maximize=False)[0] == count
        assert sorted(p for pair in pairing for p in pair if p != OUTSIDER) == sorted(players)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds(), st.integers(0, 2**32 - 1))
def test_the_matching_free_lower_bound_never_exceeds_the_cheapest_pairing(case, seed):
    """``EveryPairing.lower_bounds`` (which lets GP1's proof skip matchings) is a bound: no
    layer's cheapest pairing sums to less."""
    judge, _ = judge_of(case)
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


def test_rescue_candidate_keeps_the_first_removed_contender(rules):
    s = simulated(32, 0)
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


@st.composite
def leading_groups(draw: st.DrawFn) -> tuple[Any, ...]:
    """A field of 4-9 players whose top 1-5 share the lead, the rest up to two games
    behind, spreads close enough for ties on wins to go either way; sometimes one of them
    sits out, each round scoring a known spread."""
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
    sitting = draw(st.sampled_from([None, None, *standings.ids]))
    known = {} if sitting is None else {sitting: draw(st.sampled_from([-50, 0, 50]))}
    return standings, victors, cap, known


def _test_of(judge: Judge, pairing: Any) -> RoundUnderTest:
    """The outcome engine on ``pairing`` of the judge's field, its bye and those sitting
    out as the judge has them."""
    contention = judge.contention
    return RoundUnderTest(
        judge.standings,
        contention.relevant,
        list(pairing),
        judge.bye,
        judge.victors,
        judge.cap,
        sitting_out=contention.fixed,
    )


def _judge_of_group(case: tuple[Any, ...]) -> tuple[Judge, list[str], int] | None:
    """A judge of a ``leading_groups`` field as the advice takes it (``field_of``; the bye
    to the last player who plays in an odd field), the players a pairing is free to pair
    and the outsiders they can face; None when they cannot all be paired."""
    standings, victors, cap, known = case
    field = field_of(standings, victors, cap, 1, frozenset(known), known)
    playing = [p for p in standings.ids if p not in known]
    bye = playing[-1] if len(playing) % 2 else None
    judge = Judge(standings, field.contention, bye, field.victors, cap)
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
    standings = case[0]
    found = _judge_of_group(case)
    if found is None:
        return
    judge, players, outsiders = found
    in_contention = judge.contention
    leaders = [p for p in in_contention.judged if standings.player(p).half_wins == 20]
    proven = judge.every_pairing.gp1_broken_everywhere(players, outsiders)
    table = judge.table
    assert table is not None
    kept_by_some = False
    for pairing in partial_matchings(players, outsiders):
        test = _test_of(judge, pairing)
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
    standings = case[0]
    found = _judge_of_group(case)
    if found is None:
        return
    judge, players, outsiders = found
    in_contention = judge.contention
    table = judge.table
    assert table is not None
    leaders = sorted(
        (p for p in in_contention.judged if standings.player(p).half_wins == 20),
        key=standings.rank,
    )
    if not leaders:  # the leader sits out certain of a place: GP1 judges nobody
        assert judge.every_pairing.gp1_broken_everywhere(players, outsiders) is None
        return
    by_rule = table.rule_results(leaders)
    holds = [True] * len(GP1_RULES)
    for pairing in partial_matchings(players, outsiders):
        test = _test_of(judge, pairing)
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


def test_gp1_rules_with_nobody_left_to_pair():
    # The lone leader has the bye and nobody else can be a victor: no pairing to prove
    # anything over, and no crash on an empty matching.
    standings = Standings.from_players([Player("a", 20, 0), Player("b", 10, 0), Player("c", 10, 0)])
    in_contention = contention(standings, 1, None)
    judge = Judge(standings, in_contention, "a", 1, None)
    players, outsiders = judge.pairing_space()
    assert players == []
    assert judge.every_pairing.gp1_broken_everywhere(players, max(outsiders, 0)) is None


@pytest.mark.parametrize(("size", "seed"), [(100, 5), (2000, 8)])
def test_gp1_unavoidable_on_fields_the_candidates_cannot_settle(rules, size, seed):
    # These simulated fields' GP1 was "unverified" (14 relevant players: the
    # candidates compared are not every pairing). The rule proves every pairing breaks it.
    s = simulated(size, seed)
    advice = advise(s, rules.scrabble, max_spread_per_game=500)
    gp1 = advice.principles[0]
    assert gp1.status == "unavoidable"
    assert "every pairing of these players breaks GP1" in gp1.reason
    assert gp1.outcome is not None


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(leading_groups(), st.randoms(use_true_random=False))
def test_gp2_unavoidable_only_when_no_pairing_keeps_a_removed_contender(case, rng):
    # By brute force over every pairing of the players. Sound: when GP2 is proven
    # unavoidable, no pairing scores lower on it (removals first, then chasers sent away
    # from the race, in rank order). Complete where no chaser is sent away: proven exactly
    # when no pairing keeps any contender the pairing removes.
    standings, known = case[0], case[3]
    found = _judge_of_group(case)
    if found is None:
        return
    judge, players, outsiders = found
    bye = judge.bye
    playing = [p for p in standings.ids if p != bye and p not in known]
    order = rng.sample(playing, len(playing))
    pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    mine = judge.evaluate(pairs)
    score = mine.score("GP2")
    removed = [p for p in mine.contenders if mine.removed_flag(p)]
    kept_somewhere = better_somewhere = False
    for pairing in partial_matchings(players, outsiders):
        test = _test_of(judge, pairing)
        kept_somewhere |= any(
            p in test.unit_of and test.possible(p, {})[0] for p in removed if p != bye
        )
        better_somewhere |= judge.score_of(list(pairing), "GP2") < score
    verdict = judge._gp2_unavoidable(mine)
    if verdict is not None:
        assert not better_somewhere
        assert verdict.status == "unavoidable"
        assert "no pairing of these players does better" in verdict.reason
    # A removed contender with the bye or sitting out is left to the comparisons.
    if not removed or bye in removed or set(removed) & set(known):
        if 1 not in score:
            assert verdict is None
        return
    if 1 not in score:
        # Complete one way: no pairing keeps a removed contender, so GP2 is proven. A
        # pairing may keep one only by sending a chaser above away, and then too.
        if not kept_somewhere:
            assert verdict is not None and verdict.outcome is not None
        if verdict is not None and kept_somewhere:
            assert "unless a higher-ranked chaser is sent away from the race" in verdict.reason


def test_gp2_unavoidable_on_the_benchmark_field_the_candidates_could_not_settle(rules):
    # The benchmark's field: 32 players level but one half a win ahead and the bottom
    # eighth a win behind. The bottom four cannot be victors under any pairing (one bound
    # per player proves it).
    body = tied_wins(32, 2)
    s = standings_of(FinalRoundIn().load(body)).standings
    advice = advise(s, rules.scrabble, max_spread_per_game=500)
    gp2 = advice.principles[1]
    assert gp2.reason.startswith("no outcome makes #29 Player 29, #30 Player 30, #31 Player 31")
    assert gp2.outcome is not None
    # The table row (0/0.5/0.5/0.5: 1-4, 2-3) leaves 26 contenders to the rest, who are
    # paired head to head: each chaser against the one just above (5-6, 7-8, ...).
    # Every other chaser cannot face a player above; with the removals proven, a
    # matching shows no pairing gives one of them a player to pass while the chasers
    # above keep theirs.
    games = [tuple(s.rank(p) for p in g.players) for g in advice.games]
    assert games[:4] == [(1, 4), (2, 3), (5, 6), (7, 8)]
    assert gp2.status == "unavoidable"
    assert "does not face a player they need to pass" in gp2.reason
    assert "no pairing gives a chaser sent away here a player they need to pass" in gp2.reason


def test_gp2_is_overridden_when_keeping_a_contender_takes_a_leader_from_the_leaders(rules):
    # A simulated 32-player event (the benchmark's seed 1): four leaders, seven behind
    # them, paired 1-4, 2-3 by the table's 0/0/0/0 row. #5 could be kept in contention
    # only by facing a leader, which leaves a leaders' game out and breaks GP1: GP2 is
    # overridden, as the seed's own note on the row says ("By GP1, all GB0s must be
    # paired with each other. GP2 is overridden"). Removal comes first in GP2: before
    # 2026-11-28 sending #3 or #4 away from the leaders counted worse than removing #5,
    # and the verdict was "unavoidable".
    body = simulated_field(32, 1)
    s = standings_of(FinalRoundIn().load(body)).standings
    advice = advise(s, rules.scrabble, max_spread_per_game=500)
    assert advice.rule.id == "0/0/0/0"
    assert [tuple(s.rank(p) for p in g.players) for g in advice.games[:2]] == [(1, 4), (2, 3)]
    gp2 = advice.principles[1]
    assert gp2.status == "overridden", gp2.reason
    assert "break GP1" in gp2.reason
