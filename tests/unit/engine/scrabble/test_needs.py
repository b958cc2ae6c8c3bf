"""The needs (``explain.needs``): found for every player at once as for each alone, and
their helping games as the outcome engine finds them."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given

from pairing_service.engine.scrabble import Player, Standings
from pairing_service.engine.scrabble.contention import contention
from pairing_service.engine.scrabble.explain.needs import _worst_cases, need_text, needs
from pairing_service.engine.scrabble.judge.comparison import Judge
from pairing_service.engine.scrabble.judge.count_tables import RESULTS
from tests.support.judge_cases import SETTINGS, judge_of, rounds


@SETTINGS
@given(rounds())
def test_needs_found_for_every_player_at_once_are_each_players_own(case):
    # ``needs`` finds the helping games of every player and own result in one pass
    # (``_worst_cases``); each text is the one found for that player alone. A player
    # sitting out who can still be a victor has needs too (others' results).
    judge, pairs = judge_of(case)
    evaluation = judge.evaluate(pairs)
    standings = judge.standings
    together = needs(evaluation, list(standings.ids))
    assert [n.player for n in together] == [
        p for p in standings.ids if p in judge.contention.judged
    ]
    for need in together:
        assert need.text == need_text(evaluation, need.player), need.player
        # One line: at most one alternative after "or"; the ways simplest first (own
        # results alone, then with one game's result, two games', spread, the rest).
        assert need.text.count(", or ") <= 1, need.text
        assert need.text.startswith(need.ways[0].removesuffix(")")), need
        asked = [_asks(way) for way in need.ways]
        assert asked == sorted(asked), need.ways


def _asks(way: str) -> int:
    """How much a way asks of others, read from its words (``explain.needs`` orders by it)."""
    if " and have " not in way and " on spread" not in way and "other results" not in way:
        return 0 if way.startswith("needs to ") and not way.startswith("needs to have") else 1
    if "other results" in way:
        return 4
    if " on spread" in way:
        return 3
    condition = way.split(" and have ", 1)[1] if " and have " in way else way
    # Two games' results together join two results with " and "; a game's draw reads "A and
    # B draw" or "A and B not draw" (a player against an outsider's: "A draw").
    drawn_games = len(re.findall(r" and #\d+ \S+ (?:not )?draw\b", condition))
    return 2 if condition.count(" and ") - drawn_games >= 1 else 1


@SETTINGS
@given(rounds())
def test_helping_games_of_the_needs_are_the_outcome_engines(case):
    judge, pairs = judge_of(case)
    _assert_helping_games(judge.evaluate(pairs))


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
    (need,) = needs(evaluation, ["X"])
    assert need.ways == (
        "needs to win or draw",
        "needs to lose and have #2 R1 not win",
        "needs to lose and have #3 R2 not win",
        "needs to lose and have #4 R3 not win",
    )
    # One line to read aloud: the simplest way, one more after "or", and the rest counted.
    assert need.text == "needs to win or draw, or lose and have #2 R1 not win (2 more ways)"
    assert need_text(evaluation, "X") == need.text


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
