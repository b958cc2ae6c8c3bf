"""Meeple League against seed 001: points, every tiebreaker, formation, schedules, lifetime."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from pairing_service.engine.league import (
    Finish,
    Game,
    InvalidLeague,
    NewPlayer,
    Result,
    SeasonLeague,
    check_schedule,
    form_leagues,
    league_sizes,
    league_table,
    lifetime,
    meeting_bound,
    schedule,
)
from pairing_service.engine.league.table import Line, _order

SCALE = {4: (Fraction(10), Fraction(6), Fraction(3), Fraction(1))}


def g(name, *rows):
    return Game(name, tuple(Result(p, s, pos) for p, s, pos in rows))


# --- points --------------------------------------------------------------------------


def test_the_seeds_example_a_tie_for_second_and_third_is_four_and_a_half():
    lines = league_table([g("G1", ("A", 90, 1), ("B", 70, 2), ("C", 70, 2), ("D", 40, 4))], SCALE)
    points = {line.player: line.league_points for line in lines}
    assert points == {"A": 10, "B": Fraction(9, 2), "C": Fraction(9, 2), "D": 1}
    assert [line.seconds for line in lines if line.player in "BC"] == [1, 1]


def test_statistics_follow_their_definitions():
    games = [
        g("G1", ("A", 100, 1), ("B", 80, 2), ("C", 50, 3), ("D", 10, 4)),
        g("G2", ("B", 120, 1), ("A", 60, 2), ("C", 40, 3), ("E", 0, 4)),
    ]
    lines = {line.player: line for line in league_table(games, SCALE)}
    a = lines["A"]
    assert a.league_points == 16 and a.wins == 1 and a.seconds == 1
    assert a.winner_share == (Fraction(1) + Fraction(60, 120)) / 2
    assert a.margin == (100 - 80) + (60 - 120)  # won by 20, lost by 60
    assert a.total_score == 160


# --- every tiebreaker decides a case ----------------------------------------------------


def line(player, **values):
    base = dict(league_points=Fraction(10), wins=1, seconds=1, thirds=1, margin=0, total_score=100)
    base.update(values)
    made = Line(player, games=2, share_sum=Fraction(1))
    for key, value in base.items():
        setattr(made, key, value)
    return made


@pytest.mark.parametrize(
    ("changes", "decider"),
    [
        ({"league_points": Fraction(21, 2)}, "league_points"),
        ({"wins": 2}, "wins"),
        ({"seconds": 2}, "seconds"),
        ({"thirds": 2}, "thirds"),
        ({"share_sum": Fraction(3, 2)}, "winner_share"),
        ({"margin": 5}, "margin"),
        ({"total_score": 101}, "total_score"),
        ({"previous_rank": 0}, "previous_rank"),
    ],
)
def test_each_tiebreaker_decides_when_all_before_it_are_level(changes, decider):
    better, worse = line("Z"), line("A")
    for key, value in changes.items():
        setattr(better, key, value)
    ordered = _order([worse, better], 0, [])
    assert [x.player for x in ordered] == ["Z", "A"]  # not the alphabetical order
    assert ordered[0].decided_by == decider


def test_head_to_head_decides_among_the_level_players():
    # Everything level; in the games where they met, B outscored A by 30 net.
    games = [
        g("G1", ("A", 50, 1), ("B", 60, 2), ("X", 0, 3), ("Y", 0, 4)),
        g("G2", ("B", 50, 1), ("A", 30, 2), ("X", 0, 3), ("Y", 0, 4)),
    ]
    scored = [[(r, r.position) for r in game.results] for game in games]
    ordered = _order([line("A"), line("B")], 0, scored)
    assert [x.player for x in ordered] == ["B", "A"]
    assert ordered[0].decided_by == "head_to_head" and ordered[0].head_to_head == 30


def test_players_level_on_everything_share_the_rank():
    games = [
        g("G1", ("A", 50, 1), ("B", 40, 2), ("C", 30, 3), ("D", 20, 4)),
        g("G2", ("B", 50, 1), ("A", 40, 2), ("D", 30, 3), ("C", 20, 4)),
    ]
    lines = league_table(games, SCALE)
    ranks = {x.player: x.rank for x in lines}
    assert ranks["A"] == ranks["B"] == 1 and ranks["C"] == ranks["D"] == 3
    with_previous = league_table(games, SCALE, ["B", "A", "D", "C"])
    assert [x.player for x in with_previous] == ["B", "A", "D", "C"]
    assert with_previous[0].decided_by == "previous_rank"


def finishes_of(division, league, players):
    return [Finish(p, division, league, place) for place, p in enumerate(players, start=1)]


def last_season_14():
    return finishes_of(1, "1-A", [f"A{i}" for i in range(1, 8)]) + finishes_of(
        2, "2-A", [f"B{i}" for i in range(1, 8)]
    )


def test_league_sizes_follow_step_two():
    assert league_sizes(14) == [7, 7]
    assert league_sizes(45) == [7, 7, 7, 8, 8, 8]  # 45 = 6 x 7 + 3: three leagues of 8
    assert league_sizes(13) == [7, 6]  # the seed's rule cannot apply: as even as possible
    with pytest.raises(InvalidLeague):
        league_sizes(3)


def test_promotion_and_relegation_follow_from_the_sorted_list():
    last = last_season_14()
    signups = [f.player for f in last]
    formed = form_leagues(signups, last, [], [])
    league_1 = formed.leagues[0]
    # Step 3: A1-A5, then B1-B5, then A6-A7 (below Division 2's 5th), then B6-B7.
    expected = ["A1", "A2", "A3", "A4", "A5", "B1", "B2", "B3", "B4", "B5", "A6", "A7"]
    assert list(formed.order) == [*expected, "B6", "B7"]
    assert league_1.players == ("A1", "A2", "A3", "A4", "A5", "B1", "B2")
    kinds = {m.player: m.kind for m in formed.movements}
    assert kinds["B1"] == "promoted" and kinds["A7"] == "relegated" and kinds["A1"] == "stayed"


def test_a_hole_is_filled_by_a_returner_whose_finish_is_as_good():
    last = last_season_14()
    signups = [f.player for f in last if f.player != "B2"] + ["R1"]
    returning = [Finish("R1", 1, "1-A", 4)]  # 4th in Division 1 beats B2's 2nd in Division 2
    formed = form_leagues(signups, last, returning, [])
    assert formed.order.index("R1") == formed.order.index("B1") + 1
    assert "R1" in formed.holes[0] and "fills" in formed.holes[0]
    assert {m.player: m.kind for m in formed.movements}["R1"] == "returning"


def test_a_returner_who_does_not_fit_goes_to_the_bottom_and_the_list_closes_up():
    last = last_season_14()
    signups = [f.player for f in last if f.player != "A2"] + ["R1", "N1"]
    returning = [Finish("R1", 2, "2-A", 3)]  # not as good as A2's 2nd in Division 1
    formed = form_leagues(signups, last, returning, [NewPlayer("N1")])
    assert formed.order[1] == "A3" and "closes up" in formed.holes[0]
    assert list(formed.order[-2:]) == ["R1", "N1"]


def test_new_players_by_laurels_then_sign_up_order_and_eight_player_leagues():
    last = last_season_14()
    news = [
        NewPlayer("N1", Fraction(0)),
        NewPlayer("N2", Fraction(5)),
        NewPlayer("N3", Fraction(0)),
    ]
    signups = [f.player for f in last] + ["N3", "N1", "N2"]
    formed = form_leagues(signups, last, [], news)
    assert list(formed.order[-3:]) == ["N2", "N3", "N1"]
    # 17 players: two leagues of 7 and the remainder... 17 = 2 x 7 + 3 > 2: as even as possible.
    assert [len(lg.players) for lg in formed.leagues] == [6, 6, 5]
    big = [Finish(f"P{i}", 1, "1-A", 1) for i in range(1)]
    del big
    many = [f"P{i}" for i in range(46)]
    formed = form_leagues(many, [], [], [NewPlayer(p) for p in many])
    sizes = [len(lg.players) for lg in formed.leagues]
    assert sizes == [7, 7, 8, 8, 8, 8]  # 46 = 6 x 7 + 4: the four lowest leagues get an 8th
    assert [lg.name for lg in formed.leagues] == ["1-A", "2-A", "2-B", "3-A", "3-B", "3-C"]
    # Step 7: Division 2 is dealt slot by slot: P7 to 2-A, P8 to 2-B, P9 to 2-A...
    assert formed.leagues[1].players[:2] == ("P7", "P9")
    assert formed.leagues[2].players[:2] == ("P8", "P10")


def test_bad_formations_are_refused():
    with pytest.raises(InvalidLeague) as caught:
        form_leagues(["A", "B", "C", "D", "Z"], [], [], [NewPlayer(p) for p in "ABCD"])
    assert caught.value.at == ("signups",)
    with pytest.raises(InvalidLeague):
        form_leagues(["A", "A", "B", "C"], [], [], [NewPlayer(p) for p in "ABC"])


# --- schedules ---------------------------------------------------------------------------


def test_the_seven_player_grid_meets_every_pair_twice_with_every_seat_once(rules):
    players = list("ABCDEFG")
    plan = schedule(players, rules.league.seven_player_grid)
    check_schedule(plan, players)
    assert len(plan.games) == 7
    pairs = itertools.combinations(players, 2)
    assert all(plan.meetings[frozenset(p)] == 2 for p in pairs)
    assert plan.games[1] == ("D", "E", "G", "B")  # the seed's G2: 4 5 7 2


def test_eight_players_get_the_proven_optimum(rules):
    players = list("ABCDEFGH")
    plan = schedule(players, rules.league.seven_player_grid, seed=3)
    check_schedule(plan, players)
    counts = Counter(plan.meetings.get(frozenset(p), 0) for p in itertools.combinations(players, 2))
    # 8 games x 6 pairs = 48 meetings over 28 pairs: every pair twice would need 56, so at
    # best 20 pairs meet twice and 8 once (the most even split; any other has a pair at 0
    # or 3, a larger sum of squares). The schedule reaches it.
    assert meeting_bound(8) == (1, 2, 20)
    assert counts == {2: 20, 1: 8}
    for player in players:
        mine = Counter(plan.meetings[frozenset((player, q))] for q in players if q != player)
        assert mine == {2: 5, 1: 2}


@pytest.mark.parametrize("n", [4, 5, 6, 9, 10])
def test_other_league_sizes_are_balanced(rules, n):
    players = [f"P{i}" for i in range(n)]
    plan = schedule(players, rules.league.seven_player_grid)
    check_schedule(plan, players)
    low, high, _ = meeting_bound(n)
    assert all(
        low <= plan.meetings.get(frozenset(p), 0) <= high
        for p in itertools.combinations(players, 2)
    )


def test_a_point_in_a_higher_division_outranks_any_number_below():
    leagues = [
        SeasonLeague(1, "1-A", (("A", Fraction(20)), ("B", Fraction(1)))),
        SeasonLeague(1, "2-A", (("C", Fraction(40)), ("D", Fraction(30)))),
        SeasonLeague(2, "1-A", (("C", Fraction(25)), ("A", Fraction(2)))),
        SeasonLeague(2, "2-A", (("B", Fraction(39)), ("D", Fraction(38)))),
    ]
    result = lifetime(leagues)
    assert [x.player for x in result.standings] == ["C", "A", "B", "D"]
    assert result.season_winners == [(1, "A"), (2, "C")]


# --- bad input ---------------------------------------------------------------------------


def test_in_a_league_of_eight_the_bottom_two_are_seventh_and_eighth():
    # Division 2 has one league of eight: its 6th stays with Division 2's finishers, its
    # 7th and 8th go below them (the seed's "bottom two"); in a league of 7 the 6th goes.
    last = finishes_of(1, "1-A", [f"A{i}" for i in range(1, 8)]) + finishes_of(
        2, "2-A", [f"B{i}" for i in range(1, 9)]
    )
    formed = form_leagues([f.player for f in last], last, [], [])
    order = list(formed.order)
    assert order.index("B6") < order.index("A6")  # an 8-league's 6th is not relegated-like
    assert order[-2:] == ["B7", "B8"]
    seven = finishes_of(1, "1-A", [f"A{i}" for i in range(1, 8)]) + finishes_of(
        2, "2-A", [f"B{i}" for i in range(1, 8)]
    )
    order7 = list(form_leagues([f.player for f in seven], seven, [], []).order)
    assert order7[-2:] == ["B6", "B7"]
