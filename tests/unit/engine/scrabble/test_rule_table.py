"""Every row of the seed's table, hit by real standings, and the readings written in rules/."""

from __future__ import annotations

import numpy as np
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing_service.engine.scrabble import InvalidRuleTable, Player, RuleTable, Standings, advise
from pairing_service.rules import DEFAULT_RULES_DIR
from tests.support import assert_complete, field, principle, run

TAIL = [(6, 0), (5, 0), (4, 0), (3, 0)]  # non-contenders far below


def test_0_0_0_0_pairs_top_vs_bottom(rules):
    s = field((10, 300), (10, 200), (10, 100), (10, 0), (9, -100), *TAIL)
    advice, games = run(rules, s)
    assert advice.configuration == "0/0/0/0"
    assert (advice.rule.id, advice.rule.source) == ("0/0/0/0", "table")
    assert games[:2] == [(1, 4), (2, 3)]
    # The GB1 #5 faces no leader, so is out; a pairing that keeps #5 gives them a leader
    # and breaks GP1: GP2 is overridden, as the seed's note on the row says.
    assert principle(advice, "GP2")[0] == "overridden"
    assert_complete(s, advice)


def test_more_gb0s_pair_top_vs_bottom(rules):
    s = field(*[(10, 100 - i) for i in range(8)], *TAIL)
    _, games = run(rules, s)
    assert games[:4] == [(1, 8), (2, 7), (3, 6), (4, 5)]


@pytest.mark.parametrize(
    ("next_wins", "first_spread", "expected"),
    [
        (9, 500, [(1, 6), (2, 5), (3, 4)]),  # GB1, #1 has better cume than #6: top vs bottom
        (9, -50, [(1, 5), (2, 6), (3, 4)]),  # GB1, #1 does not: #6 plays #2 as in 1-3, 2-4
        (9.5, 500, [(1, 5), (2, 6), (3, 4)]),  # GB0.5: as 0/0/0/0.5, the next plays #2
        (8, -50, [(1, 6), (2, 5), (3, 4)]),  # GB2: as 0/0/0/1.5+, top vs bottom
    ],
)
def test_odd_gb0s_are_paired_as_0_0_0_x(rules, next_wins, first_spread, expected):
    leaders = [(10, first_spread), (10, 40), (10, 30), (10, 20), (10, 10)]
    s = field(*leaders, (next_wins, 300), *TAIL)
    # With spread -50, P1 ranks below the other leaders; keep rank 1 = P1 by giving ranks.
    if first_spread < 0:
        s = Standings.from_players(
            [Player(p.id, p.half_wins, p.spread, rank=i) for i, p in enumerate(_input_order(s), 1)]
        )
    advice, games = run(rules, s)
    assert advice.rule.id == "0/0/0/0"
    assert games[:3] == expected
    assert any("odd" in w for w in advice.warnings)


def _input_order(s: Standings) -> list:
    return sorted(s.ranked, key=lambda p: int(p.id[1:]))


def test_0_0_0_half(rules):
    s = field((10, 90), (10, 80), (10, 70), (9.5, 60), *TAIL)
    advice, games = run(rules, s)
    assert advice.rule.id == "0/0/0/0.5"
    assert games[:2] == [(1, 3), (2, 4)]
    needs = {n.player: n.text for n in advice.needs}
    # The seed says #1 "needs to win, or draw and have #2 win"; drawn with #3, #1 stays 20
    # ahead of #3 on spread, so one place is safe whatever #2 and #4 do (the engine's need).
    assert needs["P1"] == "needs to win or draw"
    assert needs["P4"] == "needs to win and have #1 Player 1 and #3 Player 3 not draw"
    seed = {n.player: n.text for n in advice.seed_needs}
    assert seed["P1"] == "needs to win, or draw and have #2 win"


@pytest.mark.parametrize(
    ("first", "fourth", "expected"),
    [
        (500, 100, [(1, 4), (2, 3)]),  # #1 better cume than #4
        (100, 500, [(1, 3), (2, 4)]),  # #4 better cume
        (100, 100, [(1, 3), (2, 4)]),  # equal cume is not better
    ],
)
def test_0_0_0_1_by_cume(rules, first, fourth, expected):
    s = field((10, first), (10, first - 1), (10, first - 2), (9, fourth), *TAIL)
    advice, games = run(rules, s)
    assert advice.rule.id == "0/0/0/1"
    assert games[:2] == expected
    assert any(("does not have" in g.reason) == (expected[0] == (1, 3)) for g in advice.games[:1])


@pytest.mark.parametrize("fourth", [8.5, 7])
def test_0_0_0_1_5_plus(rules, fourth):
    s = field((10, 3), (10, 2), (10, 1), (fourth, 900), (6, 0), (5, 0))
    advice, games = run(rules, s)
    assert advice.rule.id == "0/0/0/1.5+"
    assert games[:2] == [(1, 4), (2, 3)]


def test_0_0_half_half(rules):
    s = field((10, 3), (10, 2), (9.5, 1), (9.5, 0), *TAIL)
    advice, games = run(rules, s)
    assert advice.rule.id == "0/0/0.5/0.5"
    assert games[:2] == [(1, 4), (2, 3)]
    assert principle(advice, "GP4")[0] == "satisfied"


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ([(10, 3), (10, 2), (9, 1), (9, 0)], [(1, 3), (2, 4)]),
        ([(10, 3), (10, 2), (9, 1), (8, 0)], [(1, 3), (2, 4)]),  # odd group takes in #4
        ([(10, 5), (10, 4), (9, 3), (9, 2), (9, 1), (8, 0)], [(1, 4), (2, 5), (3, 6)]),
        ([(10, 5), (10, 4), (9, 3), (9, 2), (9, 1), (9, 0)], [(1, 4), (2, 5), (3, 6)]),
    ],
)
def test_0_0_1_is_swiss_over_the_contention_group(rules, rows, expected):
    s = field(*rows, *TAIL)
    advice, games = run(rules, s)
    assert advice.rule.id == "0/0/1"
    assert games[: len(expected)] == expected
    # The seed's GP4 remark: the leaders never meet.
    assert (1, 2) not in games


@pytest.mark.parametrize("third", [8, 7, 2])
def test_0_0_2_gibsonizes_both_leaders(rules, third):
    s = field((10, 3), (10, 2), (third, 1), (third - 0.5 if third > 2 else 1, 0), (1, 0), (0, 0))
    advice, games = run(rules, s)
    assert advice.rule.id == "0/0/2"
    assert games[0] == (1, 2)
    assert list(advice.gibsonized) == ["P1", "P2"]
    assert principle(advice, "GP1")[0] == "satisfied"


def test_0_half_half_half(rules):
    s = field((10, 3), (9.5, 2), (9.5, 1), (9.5, 0), *TAIL)
    advice, games = run(rules, s)
    assert advice.rule.id == "0/0.5/0.5/0.5"
    assert games[:2] == [(1, 4), (2, 3)]


@pytest.mark.parametrize(("first", "expected"), [(500, [(1, 4), (2, 3)]), (-500, [(1, 3), (2, 4)])])
def test_0_half_half_1_by_cume(rules, first, expected):
    s = field((10, first), (9.5, 2), (9.5, 1), (9, 0), *TAIL)
    advice, games = run(rules, s)
    assert advice.rule.id == "0/0.5/0.5/1"
    assert games[:2] == expected


def test_0_half_1_1_plays_lowest_cume_gb1(rules):
    s = field((10, 0), (9.5, 0), (9, 300), (9, 200), (9, -100), *TAIL)
    advice, games = run(rules, s)
    assert advice.rule.id == "0/0.5/1/1"
    assert (1, 5) in games  # #5 has the lowest cume among the GB1s
    assert (2, 3) in games  # rest Swiss: #2 floats into the GB1 group and plays its top


def test_0_half_1_1_lowest_cume_follows_spread_not_rank(rules):
    players = [
        Player("A", 20, 0, rank=1),
        Player("B", 19, 0, rank=2),
        Player("C", 18, -80, rank=3),  # ranked above D by the director, but lower cume
        Player("D", 18, 40, rank=4),
        *[Player(f"X{i}", 10 - i, 0, rank=5 + i) for i in range(4)],
    ]
    s = Standings.from_players(players)
    _advice, games = run(rules, s)
    assert (1, 3) in games


def test_0_half_1_1_5_gibsonizes_first_and_warns(rules):
    s = field((10, 0), (9.5, 0), (9, 0), (8.5, 0), (7, 0), (6, 0))
    advice, games = run(rules, s)
    assert advice.rule.id == "0/0.5/1/1.5+"
    assert (2, 3) in games
    assert advice.gibsonized == ("P1",)
    assert any("not certain on wins alone" in w for w in advice.warnings)
    # #1's opponent is the highest-ranked player who cannot become a victor (#5).
    assert (1, 5) in games


def test_0_half_1_5(rules):
    s = field((10, 0), (9.5, 0), (8.5, 0), (8.5, -10), (7, 0), (6, 0))
    advice, games = run(rules, s)
    assert advice.rule.id == "0/0.5/1.5+"
    assert (2, 3) in games
    assert advice.gibsonized == ("P1",)


@pytest.mark.parametrize("third", [8, 6])
def test_0_half_2_gibsonizes_both(rules, third):
    s = field((10, 0), (9.5, 0), (third, 0), (third, -5), (5, 0), (4, 0))
    advice, games = run(rules, s)
    assert advice.rule.id == "0/0.5/2"
    assert games[0] == (1, 2)
    assert advice.gibsonized == ("P1", "P2")


def test_0_1_1_1_5_gibsonizes_leader_and_pairs_the_gb1s(rules):
    s = field((10, 0), (9, 0), (9, -10), (8.5, 0), (7, 0), (6, 0))
    advice, games = run(rules, s)
    assert advice.rule.id == "0/1/1/1.5+"
    assert (2, 3) in games
    assert (1, 5) in games  # #4 can still become a victor (tsh's measure); #5 cannot


@pytest.mark.parametrize("third", [8.5, 8])
def test_0_1_1_5_gb1_plays_lowest_of_next_group(rules, third):
    s = field((10, 0), (9, 0), (third, 30), (third, 20), (third, 10), (5, 0), (4, 0), (3, 0))
    advice, games = run(rules, s)
    assert advice.rule.id == "0/1/1.5+"
    assert (2, 5) in games
    assert advice.gibsonized == ("P1",)


def test_0_1_2_5_is_outside_the_row_and_gibsonizes_both(rules):
    s = field((10, 0), (9, 0), (7.5, 0), (7, 0), (5, 0), (4, 0))
    advice, games = run(rules, s)
    assert advice.rule.source == "fallback"
    assert games[0] == (1, 2)
    assert advice.gibsonized == ("P1", "P2")


@pytest.mark.parametrize("second", [8.5, 6])
def test_0_1_5_plus_gibsonizes_leader(rules, second):
    s = field((10, 0), (second, 0), (second, -1), (second - 1, 0), (1, 0), (0, 0))
    advice, _games = run(rules, s)
    assert advice.rule.id == "0/1.5+"
    assert advice.gibsonized == ("P1",)
    assert advice.games[0].players == ("P1", "P5")
    assert advice.games[0].reason == (
        "#1 is certain of a victor place: plays #5, the highest-ranked player who cannot "
        "become a victor"
    )


def test_lone_gibsonized_takes_the_bye_in_an_odd_field(rules):
    s = field((10, 0), (8, 0), (7, 0), (6, 0), (5, 0))
    advice, _ = run(rules, s)
    bye = [g for g in advice.games if g.bye]
    assert [g.players for g in bye] == [("P1",)]


def test_bye_goes_to_lowest_non_contender_with_fewest_byes(rules):
    s = field((10, 3), (10, 2), (9, 1), (9, 0), (5, 0), (4, 0), (3, 0), opponents={7: [None]})
    advice, _ = run(rules, s)
    assert [g.players for g in advice.games if g.bye] == [("P6",)]


@pytest.mark.parametrize(
    ("had_byes", "bye", "gibsonized_plays"),
    [
        ((), 5, 4),  # nobody else has had one: the lowest-ranked non-contender
        ((5,), 4, 5),  # #5 has had one too: #4, the one non-contender without
    ],
)
def test_a_lone_gibsonized_player_who_had_a_bye_plays_while_others_have_none(
    rules, had_byes, bye, gibsonized_plays
):
    # 0/1.5+: #1 is Gibsonized and has had a bye; #2 and #3 can still become victors,
    # #4 and #5 cannot. A second bye for #1 while #4 (or #5) has none is not given: the
    # bye goes to the lowest-ranked non-contender with the fewest byes, and #1 plays the
    # other non-contender, as in an even field; #2 and #3 keep their game.
    byes = {1: [None], **{p: [None] for p in had_byes}}
    s = field((10, 0), (8, 0), (7, 0), (6, 0), (5, 0), opponents=byes)
    advice, games = run(rules, s)
    assert advice.rule.id == "0/1.5+" and advice.gibsonized == ("P1",)
    assert games == [(1, gibsonized_plays), (2, 3), (bye,)]
    assert "fewest byes" in advice.games[-1].reason
    assert_complete(s, advice)


def test_a_lone_gibsonized_player_keeps_the_bye_when_a_second_is_no_worse(rules):
    # Every non-contender has had a bye as well: the Gibsonized player takes it (tsh's
    # rule), nobody having two while another has none.
    s = field((10, 0), (8, 0), (7, 0), (6, 0), (5, 0), opponents={1: [None], 4: [None], 5: [None]})
    advice, games = run(rules, s)
    assert games[-1] == (1,) and (4, 5) in games
    assert advice.games[-1].reason == "a lone Gibsonized player takes the bye"


def test_a_lone_gibsonized_player_keeps_the_bye_rather_than_take_a_contenders_game(rules):
    # #5 is the only non-contender: were it given the bye, #1 would have to play one of
    # #2-#4, who race for second place, so #1 takes a second bye.
    s = field((10, 0), (8, 0), (7.5, 0), (7, 0), (4, 0), opponents={1: [None]})
    advice, games = run(rules, s)
    assert advice.gibsonized == ("P1",)
    assert games[-1] == (1,)
    assert advice.games[-1].reason == "a lone Gibsonized player takes the bye"


def test_gibsonized_opponent_prefers_fewest_meetings(rules):
    s = field((10, 0), (8, 0), (7, 0), (6, 0), (5, 0), (4, 0), opponents={1: [2, 2]})
    advice, _games = run(rules, s)
    assert advice.rule.id == "0/1.5+"
    # #2 (8 wins) cannot become a victor... but P1 has met P2 twice: fewest meetings first.
    assert advice.games[0].players[0] == "P1"
    assert advice.games[0].players[1] != "P2"


def test_gibsonized_players_who_have_met_play_fresh_non_contenders(rules):
    # No avoidable repeat anywhere in the field: row 0/0/2's two
    # Gibsonized leaders met in the previous round. Each plays the highest-ranked player who
    # cannot become a victor and has not met them, rather than a back-to-back rematch.
    s = field(
        (10, 30),
        (10, 20),
        (8, 10),
        (8, 0),
        (6, 0),
        (6, 0),
        opponents={1: [3, 2], 2: [4, 1], 3: [1, 4], 4: [2, 3], 5: [6, 6], 6: [5, 5]},
    )
    advice, games = run(rules, s)
    assert advice.rule.id == "0/0/2" and advice.gibsonized == ("P1", "P2")
    assert (1, 2) not in games
    assert all(g.repeats == 0 for g in advice.games), games
    assert "#1 and #2 have met, so paired Swiss" in advice.games[0].reason
    assert_complete(s, advice)


def test_gibsonized_players_who_have_met_play_each_other_when_that_repeats_least(rules):
    # #1 and #2 met in round 1; each has met both players out of contention since: the
    # two playing each other is the pairing of the four with the fewest repeats.
    s = field(
        (10, 30),
        (10, 20),
        (8, 10),
        (8, 0),
        opponents={1: [2, 3, 4], 2: [1, 4, 3], 3: [None, 1, 2], 4: [None, 2, 1]},
    )
    advice, games = run(rules, s)
    assert advice.gibsonized == ("P1", "P2")
    assert games[0] == (1, 2)
    assert advice.games[0].reason == "#1 and #2 are certain of victor places: they play each other"


def test_gibsonized_players_avoid_a_back_to_back_rematch_when_all_have_met(rules):
    # Everyone has met everyone; #1 and #2 (and #3 and #4) met in the previous round.
    s = field(
        (10, 30),
        (10, 20),
        (8, 10),
        (8, 0),
        opponents={1: [3, 4, 2], 2: [4, 3, 1], 3: [1, 2, 4], 4: [2, 1, 3]},
    )
    advice, games = run(rules, s)
    assert (1, 2) not in games and (3, 4) not in games
    assert not any(s.back_to_back(*g.players) for g in advice.games if not g.bye)


def test_gibsonized_players_who_have_met_still_play_each_other_while_others_contend(rules):
    # Three victors, #1 and #2 certain and met last round, #3-#7 still in
    # contention. Sending #1 and #2 to players out of contention took the opponents the
    # contenders needed (and made two Gibsonized wins possible instead of one): GP2 was
    # broken to save a rematch that decides nothing. They play each other as before.
    s = field(
        (20, 900),
        (20, 850),
        (10, -45),
        (10, -188),
        (10, -229),
        (9.5, 52),
        (9, -283),
        (8, -228),
        (3, -286),
        (2, -39),
        opponents={1: [2], 2: [1]},
    )
    advice = advise(s, rules.scrabble, victors=3, max_spread_per_game=250)
    assert advice.gibsonized == ("P1", "P2") and len(advice.contenders) > 2
    assert advice.games[0].players == ("P1", "P2")
    assert advice.games[0].reason == (
        "#1 and #2 are certain of victor places: they play each other (back-to-back rematch)"
    )
    statuses = {v.id: v.status for v in advice.principles}
    # Every contender is kept; the one place left has four chasers for one holder, so
    # some chasers cannot face #3, and the engine proves no pairing does better.
    assert statuses == {
        "GP1": "satisfied",
        "GP2": "unavoidable",
        "GP3": "satisfied",
        "GP4": "satisfied",
    }


def test_a_game_only_one_record_holds_counts_and_is_named(rules):
    # A lists B and C lists A, but neither B nor A lists them back. Both
    # count as played (no rematch by mistake), and the advice says which records disagree.
    s = field((10, 3), (9, 2), (8, 1), (7, 0), opponents={1: [2], 3: [1]})
    assert s.one_sided() == [("P1", "P2"), ("P3", "P1")]
    assert s.meetings("P2", "P1") == 1 and s.meetings("P1", "P3") == 1
    advice, _ = run(rules, s)
    [warning] = [w for w in advice.warnings if "only one player's record" in w]
    assert warning.endswith(
        "#1 Player 1 lists #2 Player 2 more often than #2 Player 2 lists #1 Player 1; "
        "#3 Player 3 lists #1 Player 1 more often than #1 Player 1 lists #3 Player 3"
    )
    agreeing = field((10, 3), (9, 2), (8, 1), (7, 0), opponents={1: [2, 2], 2: [1, 1]})
    assert agreeing.one_sided() == []
    repeated_once = field((10, 3), (9, 2), (8, 1), (7, 0), opponents={1: [2, 2], 2: [1]})
    assert repeated_once.one_sided() == [("P1", "P2")]


def test_rest_swiss_avoids_repeats(rules):
    # Non-contenders #5-#8 in one win group: Swiss would pair 5-7, 6-8, but 5-7 have met.
    s = field(
        (10, 3), (10, 2), (10, 1), (10, 0), (5, 3), (5, 2), (5, 1), (5, 0), opponents={5: [7]}
    )
    advice, games = run(rules, s)
    assert (5, 7) not in games
    assert all(g.repeats == 0 for g in advice.games)


def test_table_pairing_stands_with_a_repeat_and_warns(rules):
    # #1 and #4 met two rounds ago: the row's 1-4 stands (a second meeting, within the
    # repeat allowance), counted in the round's repeats and shown on its board (not a
    # warning of its own: only a back-to-back rematch or a meeting past the allowance
    # gets one). A back-to-back rematch gives way instead (test_pairing_policy.py).
    s = field((10, 3), (10, 2), (10, 1), (10, 0), *TAIL, opponents={1: [4, 2], 2: [1]})
    advice, games = run(rules, s)
    assert advice.rule.source == "table"
    assert games[0] == (1, 4)
    assert advice.games[0].repeats == 1
    assert "repeats: 1 game between players who have met (2nd meetings: 1)" in advice.warnings
    assert not any(w.startswith("#1 and #4") for w in advice.warnings)
    assert advice.games[0].reason == "row 0/0/0/0: top vs bottom"


@pytest.mark.parametrize(
    "rows",
    [
        [(10, 3), (10, 2), (9.5, 1), (9, 0)],  # 0/0/0.5/1
        [(10, 3), (9, 2), (9, 1), (9, 0)],  # 0/1/1/1
        [(10, 3), (10, 2), (8.5, 1), (8, 0)],  # 0/0/1.5
    ],
)
def test_configurations_outside_the_table_fall_back(rules, rows):
    s = field(*rows, *TAIL)
    advice, _ = run(rules, s)
    assert advice.rule.source == "fallback"
    assert any("no row" in w for w in advice.warnings)
    assert {v.id for v in advice.principles} == {"GP1", "GP2", "GP3", "GP4"}
    assert_complete(s, advice)


def test_fallback_0_0_1_5_gibsonizes_the_leaders(rules):
    s = field((10, 3), (10, 2), (8.5, 1), (8, 0), *TAIL)
    advice, games = run(rules, s)
    assert advice.gibsonized == ("P1", "P2")
    assert games[0] == (1, 2)


def test_fallback_lets_each_chaser_face_a_player_above(rules):
    # #3 and #4 chase the two victor places held by #1 and #2: 1-3, 2-4 and 1-4, 2-3 each
    # give both a player they must pass (GP2 read in full), and the round's cost takes
    # the closer (KOTH: nobody two places from a neighbour); KOTH's 3-4 would send #3 out
    # of the race.
    s = field((10, 3), (9, 2), (9, 1), (9, 0), (4, 0), (3, 0))
    advice, games = run(rules, s)
    assert advice.rule.source == "fallback"
    assert games[:2] == [(1, 3), (2, 4)]
    assert [v.status for v in advice.principles] == [
        "unavoidable",
        "satisfied",
        "satisfied",
        "satisfied",
    ]


def test_other_victor_counts_use_the_fallback(rules):
    s = field((10, 3), (10, 2), (10, 1), (10, 0), *TAIL)
    advice, _ = run(rules, s, victors=3)
    assert advice.rule.source == "fallback"
    assert any("3 victors" in w for w in advice.warnings)


def test_spread_cap_can_clinch_and_take_the_row_out(rules):
    # 0/0.5/1.5 with #2 far ahead of #3 on spread: under a 250 cap #2 is certain too.
    s = field((10, 0), (9.5, 2000), (8.5, 0), (8, 0), (5, 0), (4, 0))
    plain, _ = run(rules, s)
    capped, _games = run(rules, s, max_spread_per_game=250)
    assert plain.rule.source == "table"
    assert capped.rule.source == "fallback"
    assert capped.gibsonized == ("P1", "P2")
    assert "250" in capped.clinching


def test_advice_is_deterministic(rules):
    s = field(*[(10 - i // 3, 50 - 7 * i) for i in range(24)])
    first, _ = run(rules, s)
    second, _ = run(rules, s)
    assert first == second


def test_rules_file_loads_every_row_of_the_seed(rules):
    assert [row.id for row in rules.scrabble.rows] == [
        "0/0/0/0", "0/0/0/0.5", "0/0/0/1", "0/0/0/1.5+", "0/0/0.5/0.5", "0/0/1", "0/0/2",
        "0/0.5/0.5/0.5", "0/0.5/0.5/1", "0/0.5/1/1", "0/0.5/1/1.5+", "0/0.5/1.5+", "0/0.5/2",
        "0/1/1/1.5+", "0/1/1.5+", "0/1.5+",
    ]  # fmt: skip


def test_overlapping_rows_are_rejected():
    data = yaml.safe_load((DEFAULT_RULES_DIR / "scrabble_final_round.yaml").read_text())
    data["rows"].append({**data["rows"][0], "id": "copy"})
    with pytest.raises(InvalidRuleTable, match="overlap"):
        RuleTable.from_data(data)


@pytest.mark.parametrize(
    "mutation",
    [
        lambda row: row.update(pattern=["1", "0"]),
        lambda row: row.update(pairs=[["#1", "nobody"]]),
        lambda row: row.update(group={"members": "GB0", "method": "koth-ish"}),
        lambda row: row.update(principles={"GP9": {"status": "satisfied", "reason": "x"}}),
    ],
)
def test_bad_rows_are_rejected(mutation):
    data = yaml.safe_load((DEFAULT_RULES_DIR / "scrabble_final_round.yaml").read_text())
    mutation(data["rows"][0])
    with pytest.raises(InvalidRuleTable):
        RuleTable.from_data(data)


def test_gibsonized_players_play_each_other_fewest_meetings_first(rules):
    # Four victors: the four leaders are all certain; closest rank would pair 1-2, 3-4.
    rows = [(10, 3), (10, 2), (10, 1), (10, 0), (7, 0), (6, 0)]
    fresh, fresh_games = run(rules, field(*rows), victors=4)
    assert fresh.gibsonized == ("P1", "P2", "P3", "P4")
    assert fresh_games[:2] == [(1, 2), (3, 4)]
    _, games = run(rules, field(*rows, opponents={1: [2]}), victors=4)
    assert (1, 2) not in games
    assert {frozenset(g) for g in games[:2]} <= {
        frozenset(p) for p in [(1, 3), (2, 4), (1, 4), (2, 3)]
    }


def test_draw_shares_victory_counts_the_victor_places_and_the_cap():
    from pairing_service.engine.scrabble.contention import Result, contention, finals_after
    from pairing_service.engine.scrabble.pairing.fallback import DrawSharing

    def shares(s, victors, cap):
        winning = finals_after(s, contention(s, victors, cap).relevant, Result.WIN, cap)
        sharing = DrawSharing(s, winning, s.ids, victors=victors, cap=cap)
        return bool(sharing.of_pairs(np.array([0]), np.array([1]))[0])

    # After a 1-2 draw both have 10.5; only #3 (a win takes it to 10.5) can reach them.
    s = field((10, 500), (10, 400), (9.5, 0), (8, 0), (3, 0), (2, 0))
    assert shares(s, victors=3, cap=None)
    assert not shares(s, victors=2, cap=None)
    # With a 100-point cap #3 cannot pass either on spread: the draw shares two places.
    assert shares(s, victors=2, cap=100)


@settings(max_examples=150, deadline=None)
@given(
    rows=st.lists(
        st.tuples(st.integers(0, 12).map(lambda h: h / 2), st.integers(-60, 60)),
        min_size=2,
        max_size=9,
    ),
    victors=st.integers(1, 4),
    cap=st.sampled_from([None, 10, 40]),
)
def test_draw_sharing_counts_as_the_definition_does(rows, victors, cap):
    """Each pair's answer equals the definition counted afresh: for each of the two, the
    others (not a, not b) whose winning record may reach the drawn one."""
    from pairing_service.engine.scrabble.contention import (
        Result,
        contention,
        finals_after,
        may_reach,
    )
    from pairing_service.engine.scrabble.pairing.fallback import DrawSharing

    s = field(*sorted(rows, reverse=True))
    winning = finals_after(s, contention(s, victors, cap).relevant, Result.WIN, cap)
    players = list(s.ids)
    firsts, seconds = np.triu_indices(len(players), 1)
    answers = DrawSharing(s, winning, players, victors, cap).of_pairs(firsts, seconds)
    for i, j, answer in zip(firsts.tolist(), seconds.tolist(), answers.tolist(), strict=True):
        a, b = players[i], players[j]
        drawn = finals_after(s, (a, b), Result.DRAW, cap).values()
        others = [final for q, final in winning.items() if q not in (a, b)]
        expected = all(sum(may_reach(f, mine) for f in others) < victors - 1 for mine in drawn)
        assert answer == expected
