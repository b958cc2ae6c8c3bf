"""The strikes engine against seed 000: strikes, table plans, seating, endings, planner."""

from __future__ import annotations

import random
import re
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest

from pairing_service.engine.strikes import (
    Contestant,
    Finish,
    InvalidInput,
    NoTablePlan,
    RoundType,
    Scored,
    TablePlan,
    decide,
    decide_after_drops,
    decide_tiebreak,
    meetings,
    round_type,
    score_table,
    seat,
    simulate,
    table_plan,
)
from pairing_service.engine.strikes.plans import fill_tables
from tests.support import seed_text

SEED = "000_0a3360392467a75f.txt"


@pytest.fixture(scope="module")
def strikes_rules(rules):
    return rules.strikes


def strikes_of(rules, *finishes: Finish) -> dict[str, Fraction]:
    return {s.player: s.strikes for s in score_table(finishes, rules.strikes_by_place)}


# --- strikes by place -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "expected"),
    [(5, [0, 6, 12, 18, 24]), (4, [0, 8, 16, 24]), (3, [0, 12, 24]), (2, [0, 24])],
)
def test_strikes_by_place_without_ties(strikes_rules, size, expected):
    finishes = [Finish(f"P{i}", score=100 - i) for i in range(size)]
    got = strikes_of(strikes_rules, *finishes)
    assert [got[f"P{i}"] for i in range(size)] == expected


def test_seed_example_tie_for_second_third_fourth_gives_twelve_each(strikes_rules):
    got = strikes_of(
        strikes_rules,
        Finish("A", score=90),
        Finish("B", score=70),
        Finish("C", score=70),
        Finish("D", score=70),
        Finish("E", score=10),
    )
    assert got == {"A": 0, "B": 12, "C": 12, "D": 12, "E": 24}


def test_tie_for_first_at_four_players_is_four_each(strikes_rules):
    got = strikes_of(
        strikes_rules,
        Finish("A", place=1),
        Finish("B", place=1),
        Finish("C", place=3),
        Finish("D", place=4),
    )
    assert got == {"A": 4, "B": 4, "C": 16, "D": 24}


def test_dense_places_mean_the_same_tie(strikes_rules):
    dense = score_table(
        [Finish("A", place=1), Finish("B", place=2), Finish("C", place=2), Finish("D", place=3)],
        strikes_rules.strikes_by_place,
    )
    assert [(s.player, s.place, s.strikes) for s in dense] == [
        ("A", 1, 0),
        ("B", 2, 12),
        ("C", 2, 12),
        ("D", 4, 24),
    ]


def test_fractions_stay_exact():
    odd_table = {3: (0, 1, 2)}  # ties of two share 3/2 or 1/2: kept exact
    got = score_table([Finish("A", score=5), Finish("B", score=1), Finish("C", score=1)], odd_table)
    assert [s.strikes for s in got] == [0, Fraction(3, 2), Fraction(3, 2)]


def test_output_is_best_place_first_and_ties_keep_input_order(strikes_rules):
    got = score_table(
        [Finish("Z", score=1), Finish("Y", score=9), Finish("X", score=9)],
        strikes_rules.strikes_by_place,
    )
    assert [(s.player, s.place) for s in got] == [("Y", 1), ("X", 1), ("Z", 3)]
    assert got[0].strikes == 6


@pytest.mark.parametrize(
    ("finishes", "at"),
    [
        ([Finish("A", score=1)], ("results",)),
        ([Finish(f"P{i}", score=i) for i in range(6)], ("results",)),
        (
            [Finish("A", score=1), Finish("A", score=2), Finish("B", score=3)],
            ("results", 1, "player"),
        ),
        ([Finish("A", score=1), Finish("B", place=2), Finish("C", score=3)], ("results",)),
        (
            [Finish("A", score=1, place=1), Finish("B", score=2), Finish("C", score=3)],
            ("results", 0),
        ),
        ([Finish("A"), Finish("B", score=2), Finish("C", score=3)], ("results", 0)),
        ([Finish("A", place=2), Finish("B", place=3), Finish("C", place=4)], ("results",)),
        ([Finish("A", place=1), Finish("B", place=1), Finish("C", place=2)], None),
        ([Finish("A", place=1), Finish("B", place=3), Finish("C", place=3)], ("results",)),
    ],
)
def test_bad_results_are_refused(strikes_rules, finishes, at):
    if at is None:  # a dense tie is fine
        score_table(finishes, strikes_rules.strikes_by_place)
        return
    with pytest.raises(InvalidInput) as caught:
        score_table(finishes, strikes_rules.strikes_by_place)
    assert caught.value.at == at


# --- table plans ------------------------------------------------------------------------


def seed_tables() -> dict[str, dict[int, list[int]]]:
    """Both table plans read straight from the seed's text (independently of rules/)."""
    text = seed_text(SEED)
    first = text.index("P's rem.")
    second = text.index("P's rem.", first + 1)
    tables: dict[str, dict[int, list[int]]] = {}
    for game, chunk, width in (("5-4-3", text[first:second], 9), ("4-3", text[second:], 6)):
        rows = {}
        for line in chunk.splitlines():
            parts = line.split()
            if parts and re.fullmatch(r"\d+", parts[0]) and len(parts) > width:
                rows[int(parts[0])] = [int(x) for x in parts[1:]]
        tables[game] = rows
    return tables


def counts(plan_groups: tuple[int, ...], sizes: tuple[int, ...]) -> list[int]:
    return [plan_groups.count(size) for size in sizes]


@pytest.mark.parametrize("game", ["5-4-3", "4-3"])
def test_table_plans_reproduce_the_seed_cell_by_cell(strikes_rules, game):
    sizes = strikes_rules.plans[game].table_sizes
    rows = seed_tables()[game]
    assert sorted(rows) == list(range(6, 51))
    for players, cells in rows.items():
        random_plan = table_plan(players, RoundType.RANDOM, game, strikes_rules)
        split_plan = table_plan(players, RoundType.SPLIT, game, strikes_rules)
        assert len(random_plan.groups) == 1
        got = counts(random_plan.groups[0], sizes)
        for group in split_plan.groups:
            got += counts(group, sizes)
        assert got == cells, f"{game}, {players} players"
        assert len(split_plan.groups) == (2 if players <= 30 else 3)


@pytest.mark.parametrize("game", ["5-4-3", "4-3"])
def test_the_fill_rule_reproduces_every_seed_random_round_and_group(strikes_rules, game):
    sizes = strikes_rules.plans[game].table_sizes
    for players, plan in strikes_rules.plans[game].by_players.items():
        assert fill_tables(players, sizes) == plan.random
        for group in plan.split:
            assert fill_tables(sum(group), sizes) == group


@pytest.mark.parametrize("game", ["5-4-3", "4-3"])
@pytest.mark.parametrize("kind", list(RoundType))
def test_plans_beyond_the_seed_seat_everyone_at_allowed_tables(strikes_rules, game, kind):
    sizes = set(strikes_rules.plans[game].table_sizes)
    for players in range(51, 400):
        plan = table_plan(players, kind, game, strikes_rules)
        assert plan.seated == players and plan.byes == 0
        assert all(size in sizes for group in plan.groups for size in group)
        assert all(list(group) == sorted(group, reverse=True) for group in plan.groups)
        if kind is RoundType.SPLIT:
            group_sizes = [sum(g) for g in plan.groups]
            assert len(plan.groups) == -(-players // 20)
            assert group_sizes == sorted(group_sizes, reverse=True)
            assert max(group_sizes) - min(group_sizes) <= 1


@pytest.mark.parametrize("kind", list(RoundType))
def test_three_to_five_players_play_one_table(strikes_rules, kind):
    for players in (3, 4, 5):
        assert table_plan(players, kind, "5-4-3", strikes_rules) == TablePlan(((players,),))
    for players in (3, 4):
        assert table_plan(players, kind, "4-3", strikes_rules) == TablePlan(((players,),))


def test_five_left_in_a_four_three_game(strikes_rules):
    with_pairs = table_plan(5, RoundType.SPLIT, "4-3", strikes_rules, two_player_games=True)
    assert with_pairs == TablePlan(((3, 2),))
    without = table_plan(5, RoundType.SPLIT, "4-3", strikes_rules, two_player_games=False)
    assert without == TablePlan(((4,),), byes=1)


def test_two_players_need_two_player_games(strikes_rules):
    assert table_plan(2, RoundType.RANDOM, "5-4-3", strikes_rules, two_player_games=True) == (
        TablePlan(((2,),))
    )
    with pytest.raises(NoTablePlan):
        table_plan(2, RoundType.RANDOM, "5-4-3", strikes_rules)
    with pytest.raises(NoTablePlan):
        table_plan(1, RoundType.RANDOM, "4-3", strikes_rules, two_player_games=True)


def test_round_types_alternate_after_a_random_first_round():
    assert [round_type(n).value for n in range(1, 7)] == [
        "random",
        "split",
        "random",
        "split",
        "random",
        "split",
    ]
    with pytest.raises(ValueError):
        round_type(0)


# --- seating ----------------------------------------------------------------------------


def field_with_history(size: int, rounds: int, seed: int, rules):
    """A field after ``rounds`` of random seating, with random results."""
    rng = random.Random(seed)
    strikes = {f"P{i}": Fraction(0) for i in range(size)}
    history: list[tuple[str, ...]] = []
    for number in range(1, rounds + 1):
        plan = table_plan(size, round_type(number), "5-4-3", rules)
        seating = seat(
            [Contestant(p, s) for p, s in strikes.items()],
            history,
            plan,
            rules.detrimental_points,
            strategy="best_of_random",
            plans=1,
            seed=rng.randrange(10**6),
        )
        for table in seating.tables:
            history.append(table.players)
            places = list(range(1, len(table.players) + 1))
            rng.shuffle(places)
            for s in score_table(
                [Finish(p, place=q) for p, q in zip(table.players, places, strict=True)],
                rules.strikes_by_place,
            ):
                strikes[s.player] += s.strikes
    return [Contestant(p, s) for p, s in strikes.items()], history


def recount(seating, history, points_by_meetings) -> int:
    """Detrimental points recomputed from the seed's definition, independently."""
    total = 0
    for table in seating.tables:
        for first, second in combinations(table.players, 2):
            times = sum(1 for old in history if first in old and second in old)
            total += points_by_meetings[min(times, 5)]
    return total


def test_detrimental_points_follow_the_seed_scale(strikes_rules):
    assert [strikes_rules.points_for_meetings(n) for n in range(8)] == [0, 1, 2, 4, 7, 10, 10, 10]
    history = [("A", "B", "C")] * 6 + [("A", "D")] * 3
    players = [Contestant(p) for p in "ABCD"]
    seating = seat(players, history, TablePlan(((4,),)), strikes_rules.detrimental_points)
    # A-B, A-C, B-C met 6 times (10 each); A-D 3 times (4); the rest never.
    assert seating.detrimental_points == 34


@pytest.mark.parametrize("size", [20, 40, 100])
@pytest.mark.parametrize("kind", list(RoundType))
def test_optimize_is_never_worse_than_best_of_random(strikes_rules, size, kind):
    players, history = field_with_history(size, 4, seed=size, rules=strikes_rules)
    plan = table_plan(size, kind, "5-4-3", strikes_rules)
    for seed in range(3):
        best = seat(
            players,
            history,
            plan,
            strikes_rules.detrimental_points,
            strategy="best_of_random",
            seed=seed,
        )
        optimized = seat(players, history, plan, strikes_rules.detrimental_points, seed=seed)
        assert optimized.random_plans_points == best.detrimental_points
        assert optimized.detrimental_points <= best.detrimental_points
        assert recount(optimized, history, strikes_rules.detrimental_points) == (
            optimized.detrimental_points
        )
        assert recount(best, history, strikes_rules.detrimental_points) == best.detrimental_points


def test_optimize_finds_a_repeat_free_seating_where_random_plans_do_not(strikes_rules):
    players, history = field_with_history(100, 5, seed=3, rules=strikes_rules)
    plan = table_plan(100, RoundType.RANDOM, "5-4-3", strikes_rules)
    best = seat(players, history, plan, strikes_rules.detrimental_points, strategy="best_of_random")
    optimized = seat(players, history, plan, strikes_rules.detrimental_points)
    assert best.detrimental_points > 0
    assert optimized.detrimental_points == 0


def test_the_same_seed_gives_the_same_seating(strikes_rules):
    players, history = field_with_history(40, 3, seed=9, rules=strikes_rules)
    plan = table_plan(40, RoundType.SPLIT, "5-4-3", strikes_rules)
    runs = [
        seat(players, history, plan, strikes_rules.detrimental_points, seed=5) for _ in range(2)
    ]
    assert runs[0] == runs[1]
    other = seat(players, history, plan, strikes_rules.detrimental_points, seed=6)
    assert other.tables != runs[0].tables


def test_split_groups_take_the_fewest_strikes_first(strikes_rules):
    players = [Contestant(f"P{i}", Fraction(i)) for i in range(26)]
    plan = table_plan(26, RoundType.SPLIT, "5-4-3", strikes_rules)
    seating = seat(players, [], plan, strikes_rules.detrimental_points, seed=1)
    group_of = {p: t.group for t in seating.tables for p in t.players}
    assert {p for p, g in group_of.items() if g == 1} == {f"P{i}" for i in range(13)}
    assert [len(t.players) for t in seating.tables] == [5, 4, 4, 5, 4, 4]


def test_a_tie_at_the_group_boundary_goes_the_way_that_avoids_repeats(strikes_rules):
    # Six players, split 3 + 3. C and D tie at the boundary; C met A and B four times each.
    strikes = {"A": 0, "B": 0, "C": 10, "D": 10, "E": 20, "F": 20}
    players = [Contestant(p, Fraction(s)) for p, s in strikes.items()]
    history = [("A", "C"), ("B", "C")] * 4
    plan = table_plan(6, RoundType.SPLIT, "5-4-3", strikes_rules)
    for seed in range(5):
        seating = seat(players, history, plan, strikes_rules.detrimental_points, seed=seed)
        assert seating.detrimental_points == 0
        assert set(seating.tables[0].players) == {"A", "B", "D"}
        assert seating.tables[0].group == 1


def test_unequal_strikes_never_cross_a_group_boundary(strikes_rules):
    # B would avoid every repeat in G2, but 5 strikes belong in G1: the repeat stays.
    strikes = {"A": 0, "B": 5, "C": 6, "D": 10, "E": 20, "F": 20}
    players = [Contestant(p, Fraction(s)) for p, s in strikes.items()]
    plan = table_plan(6, RoundType.SPLIT, "5-4-3", strikes_rules)
    seating = seat(players, [("A", "B")] * 5, plan, strikes_rules.detrimental_points)
    assert set(seating.tables[0].players) == {"A", "B", "C"}
    assert seating.detrimental_points == 10


def test_the_bye_goes_to_the_fewest_strikes(strikes_rules):
    players = [Contestant(p, Fraction(s)) for p, s in zip("ABCDE", [20, 3, 9, 30, 12], strict=True)]
    plan = table_plan(5, RoundType.RANDOM, "4-3", strikes_rules)
    seating = seat(players, [], plan, strikes_rules.detrimental_points)
    assert seating.byes == ("B",)
    assert sorted(seating.tables[0].players) == ["A", "C", "D", "E"]


def test_fractional_strikes_keep_their_exact_order_across_groups(strikes_rules):
    # 35/2 lies between 17 and 18; 70/4 is the same number, so the two tie at the boundary.
    strikes = [Fraction(17), Fraction(35, 2), Fraction(70, 4), Fraction(18), Fraction(36), 40]
    players = [Contestant(p, Fraction(s)) for p, s in zip("ABCDEF", strikes, strict=True)]
    plan = table_plan(6, RoundType.SPLIT, "5-4-3", strikes_rules)
    for seed in range(4):
        seating = seat(players, [("A", "B")] * 5, plan, strikes_rules.detrimental_points, seed=seed)
        assert set(seating.tables[0].players) == {"A", "B", "C"}  # B, C equal: no way around
        assert seating.tables[0].group == 1


def test_seating_compares_strikes_per_player_not_per_random_plan(strikes_rules, monkeypatch):
    """The planner's speed: the 30 random plans sorted 200 players by Fraction strikes
    each (about 59,000 Fraction comparisons a round, most of the time at 200 players).
    Strikes are ranked as integers once; the exact fractions are compared a few times per
    player."""
    calls = Counter()
    for name in ("__eq__", "__lt__", "__le__", "__gt__", "__ge__"):
        compare = getattr(Fraction, name)

        def counted(self, other, _compare=compare, _name=name):
            calls[_name] += 1
            return _compare(self, other)

        monkeypatch.setattr(Fraction, name, counted)
    rng = random.Random(1)
    players = [Contestant(f"P{i}", Fraction(rng.randrange(0, 70, 2))) for i in range(200)]
    for kind in RoundType:
        calls.clear()
        plan = table_plan(200, kind, "5-4-3", strikes_rules)
        seat(players, [], plan, strikes_rules.detrimental_points, seed=1)
        assert sum(calls.values()) < 10 * len(players)


def test_seating_refuses_a_field_the_plan_does_not_fit(strikes_rules):
    with pytest.raises(InvalidInput):
        seat([Contestant("A"), Contestant("B")], [], TablePlan(((3,),)), [0, 1])
    with pytest.raises(InvalidInput):
        seat([Contestant("A"), Contestant("A"), Contestant("B")], [], TablePlan(((3,),)), [0, 1])


def test_meetings_count_each_table_once_per_pair():
    met = meetings([("A", "B", "C"), ("A", "B"), ("B", "A", "A")])
    assert met[frozenset("AB")] == 3
    assert met[frozenset("AC")] == 1
    assert frozenset("A") not in met


# --- endings ----------------------------------------------------------------------------


def table(*rows: tuple[str, int, int | None]) -> list[Scored]:
    return [Scored(player, place, Fraction(0), score) for player, place, score in rows]


def totals(**strikes: int) -> dict[str, Fraction]:
    return {player: Fraction(value) for player, value in strikes.items()}


ONE_TABLE = table(("X", 1, 50), ("Y", 2, 40), ("Z", 3, 30), ("W", 4, 20))


def test_more_than_two_survivors_continue():
    ending = decide([ONE_TABLE], [], totals(X=10, Y=20, Z=30, W=40), 35)
    assert not ending.finished and ending.rule == "continues"


def test_one_survivor_wins():
    ending = decide([ONE_TABLE], [], totals(X=10, Y=40, Z=40, W=40), 35)
    assert ending.finished and ending.winners == ("X",)


def test_one_table_fewer_strikes_and_won_the_final_game():
    ending = decide([ONE_TABLE], [], totals(X=10, Y=20, Z=40, W=40), 35)
    assert ending.winners == ("X",) and ending.rule == "one-table"


def test_one_table_fewer_strikes_came_second_gives_dual_winners():
    game = table(("Y", 1, 50), ("X", 2, 40), ("Z", 3, 30), ("W", 4, 20))
    ending = decide([game], [], totals(X=10, Y=20, Z=40, W=40), 35, two_player_games=True)
    assert set(ending.winners) == {"X", "Y"}
    assert ending.tiebreak_game
    assert not decide([game], [], totals(X=10, Y=20, Z=40, W=40), 35).tiebreak_game


def test_one_table_fewer_strikes_came_third_or_worse_the_game_winner_wins():
    game = table(("Y", 1, 50), ("Z", 2, 40), ("X", 3, 30), ("W", 4, 20))
    ending = decide([game], [], totals(X=10, Y=30, Z=40, W=40), 35)
    assert ending.winners == ("Y",)


def test_one_table_tied_strikes_the_game_winner_wins():
    game = table(("Y", 1, 50), ("Z", 2, 40), ("X", 3, 30))
    ending = decide([game], [], totals(X=20, Y=20, Z=40), 35)
    assert ending.winners == ("Y",)


def test_two_tables_fewer_strikes_wins_whatever_the_game():
    tables = [
        table(("A", 1, 60), ("B", 2, 50), ("C", 3, 40)),
        table(("D", 1, 70), ("E", 2, 20), ("F", 3, 10)),
    ]
    ending = decide(tables, [], totals(A=30, B=40, C=40, D=20, E=40, F=50), 35)
    assert ending.winners == ("D",) and ending.rule == "several-tables"


def test_two_tables_tied_strikes_the_larger_margin_of_victory_wins():
    tables = [
        table(("A", 1, 60), ("B", 2, 50), ("C", 3, 40)),  # A by 10
        table(("D", 1, 70), ("E", 2, 40), ("F", 3, 10)),  # D by 30
    ]
    ending = decide(tables, [], totals(A=20, B=40, C=40, D=20, E=40, F=50), 35)
    assert ending.winners == ("D",)


def test_two_tables_tied_strikes_and_margins_are_dual_winners():
    tables = [
        table(("A", 1, 60), ("B", 2, 50), ("C", 3, 40)),
        table(("D", 1, 70), ("E", 2, 60), ("F", 3, 10)),
    ]
    ending = decide(tables, [], totals(A=20, B=40, C=40, D=20, E=40, F=50), 35)
    assert set(ending.winners) == {"A", "D"}
    no_scores = [table(("A", 1, None), ("B", 2, None), ("C", 3, None)), tables[1]]
    assert set(decide(no_scores, [], totals(A=20, B=40, C=40, D=20, E=40, F=50), 35).winners) == {
        "A",
        "D",
    }


def test_everyone_eliminated_fewest_strikes_among_the_final_round_win():
    game = table(("A", 1, 50), ("B", 1, 50), ("C", 3, 10))
    ending = decide([game], [], totals(A=36, B=38, C=60), 35)
    assert ending.winners == ("A",) and ending.rule == "all-eliminated"
    tied = decide([game], [], totals(A=36, B=36, C=60), 35, two_player_games=True)
    assert set(tied.winners) == {"A", "B"} and tied.tiebreak_game


def test_the_tiebreak_game_decides_regardless_of_strikes():
    dual = decide(
        [table(("Y", 1, 50), ("X", 2, 40), ("Z", 3, 30))], [], totals(X=10, Y=20, Z=40), 35
    )
    assert decide_tiebreak(table(("Y", 2, 10), ("X", 1, 30)), dual).winners == ("X",)
    assert set(decide_tiebreak(table(("Y", 1, 10), ("X", 1, 10)), dual).winners) == {"X", "Y"}


def test_a_tie_with_a_bye_says_the_bye_left_no_margin_not_that_scores_are_missing():
    game = table(("A", 1, 60), ("B", 2, 50), ("C", 3, 40), ("D", 4, 30))
    ending = decide([game], ["E"], totals(A=20, B=40, C=40, D=40, E=20), 35)
    assert set(ending.winners) == {"A", "E"} and ending.rule == "several-tables"
    assert ending.reason == (
        "tied on strikes; no margin of victory to compare "
        "(E had a bye in the final round): dual winners"
    )
    by_places = table(("A", 1, None), ("B", 2, None), ("C", 3, None), ("D", 4, None))
    ending = decide([by_places], ["E"], totals(A=20, B=40, C=40, D=40, E=20), 35)
    assert "A's table was entered by places, without scores" in ending.reason
    assert "E had a bye" in ending.reason


# --- endings after drops ----------------------------------------------------------------


def test_drops_leaving_one_player_make_them_the_winner():
    ending = decide_after_drops(["Z"], [ONE_TABLE], [], totals(X=10, Y=20, Z=30, W=40))
    assert ending.finished and ending.winners == ("Z",) and ending.rule == "last-survivor"
    assert not ending.tiebreak_game


def test_drops_leaving_two_fewer_strikes_wins_whatever_their_places():
    # The seed's one-table rule would make Z and W dual winners or hand it to W; after
    # drops the final game only breaks a tie on strikes.
    ending = decide_after_drops(["Z", "W"], [ONE_TABLE], [], totals(X=10, Y=20, Z=34, W=30))
    assert ending.winners == ("W",) and ending.rule == "after-drops"
    assert ending.reason == "the last two cannot play a 2-player game; fewer strikes (30 to 34)"


def test_drops_leaving_two_tied_on_strikes_use_the_seeds_tiebreak_for_the_round():
    one_table = decide_after_drops(["W", "Z"], [ONE_TABLE], [], totals(X=0, Y=8, Z=30, W=30))
    assert one_table.winners == ("Z",)  # placed higher in the final game
    assert one_table.reason.endswith("tied on strikes; placed higher in the final game")
    tables = [
        table(("A", 1, 60), ("B", 2, 50), ("C", 3, 40)),  # A by 10
        table(("D", 1, 70), ("E", 2, 40), ("F", 3, 10)),  # D by 30
    ]
    strikes = totals(A=20, B=12, C=24, D=20, E=12, F=24)
    assert decide_after_drops(["A", "D"], tables, [], strikes).winners == ("D",)
    bye = decide_after_drops(["A", "E"], [ONE_TABLE], ["E"], totals(A=20, E=20))
    assert set(bye.winners) == {"A", "E"} and "E had a bye in the final round" in bye.reason


def test_drops_before_the_first_round_leave_dual_winners():
    ending = decide_after_drops(["A", "B"], [], [], totals(A=0, B=0))
    assert set(ending.winners) == {"A", "B"} and "no game was played" in ending.reason
    with pytest.raises(ValueError):
        decide_after_drops(["A", "B", "C"], [], [], totals(A=0, B=0, C=0))


# --- planner ----------------------------------------------------------------------------


def test_planner_is_seeded_and_longer_thresholds_run_longer(strikes_rules):
    first = simulate(40, "5-4-3", 35, strikes_rules, events=40, seed=3)
    assert first == simulate(40, "5-4-3", 35, strikes_rules, events=40, seed=3)
    assert sum(first.rounds.values()) == 40
    assert sum(first.games_per_player.values()) == 40 * 40
    means = [
        simulate(40, "5-4-3", t, strikes_rules, events=40, seed=3).mean_rounds for t in (23, 35, 47)
    ]
    assert means[0] < means[1] < means[2]


def test_planner_agrees_with_the_seeds_five_six_seven_rounds_at_forty(strikes_rules):
    for threshold, rounds in ((23, 5), (35, 6), (47, 7)):
        report = simulate(40, "5-4-3", threshold, strikes_rules, events=60, seed=1)
        assert abs(report.mean_rounds - rounds) <= 0.6
