"""The field's table (``field_table.FieldTable``) and the one-pairing table
(``pairing_table.PairingTable``) against the outcome engine: the counts, GP1's search and
rules, spread rivals, many pairings at once as each alone."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pairing_service.engine.scrabble import Player, Standings
from pairing_service.engine.scrabble.judge.count_tables import CERTAIN, POSSIBLE, RESULTS
from pairing_service.engine.scrabble.judge.field_table import FieldTable
from pairing_service.engine.scrabble.judge.pairing_table import PairingTable
from pairing_service.engine.scrabble.judge.proof import Place, RoundUnderTest
from tests.support import field
from tests.support.judge_cases import SETTINGS, rounds


@SETTINGS
@given(rounds())
def test_table_counts_equal_the_outcome_engine(case):
    standings, relevant, pairs, bye, victors, cap, rounds_left, sitting = case
    test = RoundUnderTest(
        standings, relevant, pairs, bye, victors, cap, rounds_left, sitting_out=sitting
    )
    counts = FieldTable(standings, relevant, bye, cap, rounds_left, sitting).counts(pairs)
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
    standings, relevant, pairs, bye, victors, cap, rounds_left, sitting = case
    test = RoundUnderTest(
        standings, relevant, pairs, bye, victors, cap, rounds_left, sitting_out=sitting
    )
    table = FieldTable(standings, relevant, bye, cap, rounds_left, sitting)
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
    standings, relevant, pairs, bye, victors, cap, rounds_left, sitting = case
    test = RoundUnderTest(
        standings, relevant, pairs, bye, victors, cap, rounds_left, sitting_out=sitting
    )
    field_counts = FieldTable(standings, relevant, bye, cap, rounds_left, sitting).counts(pairs)
    table = PairingTable(standings, test.relevant, test.units, cap, rounds_left, sitting)
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


@pytest.mark.parametrize("relevant", [11, 32])
def test_field_table_is_built_for_the_players_it_covers(relevant):
    s = field(*[(8.0 - (i % 3) * 0.5, 100 - i) for i in range(relevant)])
    table = FieldTable(s, list(s.ids), None, 500)
    pairs = [(s.ids[i], s.ids[i + 1]) for i in range(0, relevant - 1, 2)]
    counts = table.counts(pairs)
    assert counts.shape == (2, relevant, 3)
    assert (counts[POSSIBLE] <= counts[CERTAIN]).all()  # fewest above <= most level or above


@SETTINGS
@given(rounds(), st.integers(1, 4))
def test_rule_witness_leaves_no_leader_certain(case, leaders):
    # The screen GP1 runs before its search on a pairing compared: any outcome it answers
    # is a real witness, and it answers only when the search would find GP1 broken.
    standings, relevant, pairs, bye, victors, cap, rounds_left, sitting = case
    test = RoundUnderTest(
        standings, relevant, pairs, bye, victors, cap, rounds_left, sitting_out=sitting
    )
    table = FieldTable(standings, relevant, bye, cap, rounds_left, sitting)
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
    standings, relevant, pairs, bye, victors, cap, rounds_left, sitting = case
    table = FieldTable(standings, relevant, bye, cap, rounds_left, sitting)
    ids = [p for p in standings.ids if p != bye and p not in sitting]
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
        test = RoundUnderTest(
            standings, relevant, pairing, bye, victors, cap, rounds_left, sitting_out=sitting
        )
        alone = table.rule_witness(test.units, [p for p in chosen if p in test.unit_of], victors)
        assert bool(screened[row]) == (alone is not None)


@SETTINGS
@given(rounds())
def test_spread_rivals_on_the_pairing_table_are_the_outcome_engines(case):
    # The needs name spread rivals from ``PairingTable.rivals`` (every game at once); the
    # outcome engine's ``rivals`` (game by game) is the reference.
    standings, relevant, pairs, bye, victors, cap, rounds_left, sitting = case
    test = RoundUnderTest(
        standings, relevant, pairs, bye, victors, cap, rounds_left, sitting_out=sitting
    )
    table = PairingTable(standings, test.relevant, test.units, cap, rounds_left, sitting)
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
