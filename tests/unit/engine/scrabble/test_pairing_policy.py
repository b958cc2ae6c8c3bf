"""The round's cost among pairings the principles score alike (cost.py): no
back-to-back rematch, no meeting past the repeat allowance, then the distance from the
method's ideal pairing weighed against each repeat's weight; the seed's GP2 read in full
(judge/race.py)."""

from __future__ import annotations

import pytest

from pairing_service.engine.scrabble import Player, Standings, advise
from pairing_service.engine.scrabble.contention import contention
from pairing_service.engine.scrabble.cost import (
    RECENCY,
    REPEAT_WEIGHTS,
    RepeatPolicy,
    repeat_weight,
)
from pairing_service.engine.scrabble.judge.candidates import OUTSIDER
from pairing_service.engine.scrabble.judge.race import race_of
from pairing_service.engine.scrabble.pairing.swiss import SwissMemo, pair_swiss
from tests.support import field, rank_pairs

FOUR_LEVEL = ((5, 40), (5, 30), (5, 20), (5, 10))


def _swiss(opponents: dict[int, list[int | None]], allowance: int) -> list[tuple[int, int]]:
    s = field(*FOUR_LEVEL, opponents=opponents)
    pairs = pair_swiss(s, s.ids, SwissMemo(RepeatPolicy(allowance)))
    return sorted(tuple(sorted((s.rank(a), s.rank(b)))) for a, b in pairs)  # type: ignore[misc]


def test_a_repeat_weighs_more_with_each_meeting_and_the_more_recent_it_is():
    assert repeat_weight(0, 0) == 0
    weights = [repeat_weight(met, 8) for met in range(1, 7)]
    assert weights == sorted(weights) and len(set(weights)) == len(weights)
    by_age = [repeat_weight(1, ago) for ago in (1, 2, 4, 8, 16)]
    assert by_age == sorted(by_age, reverse=True)
    # Two rounds after (RECENCY 4): three times the weight of a meeting long ago.
    assert by_age[1] == REPEAT_WEIGHTS[1] * (2 + RECENCY) // 2 == 3 * REPEAT_WEIGHTS[1]


def test_a_swap_of_neighbours_avoids_a_second_meeting():
    # 1-3 met five rounds ago: 1-4, 2-3 moves each player one place from the Swiss order.
    history = {1: [3, 5, 6, 7, 8], 3: [1, 5, 6, 7, 8]}
    s = field(*FOUR_LEVEL, (1, 0), (1, 0), (1, 0), (1, 0), opponents=history)
    pairs = pair_swiss(s, s.ids, SwissMemo(RepeatPolicy(2)))
    top = sorted(tuple(sorted((s.rank(a), s.rank(b)))) for a, b in pairs)[:2]
    assert top == [(1, 4), (2, 3)]


def test_the_leader_is_not_sent_down_the_field_to_avoid_second_meetings():
    # A long event: #1 has met #2-#12 once each, long ago, and nobody below. Avoiding
    # every repeat sends #1 to #13 (the old lexicographic rule); the round's cost keeps
    # #1 within a few places, a second meeting weighed against the distance.
    rows = [(20 - i, 0) for i in range(20)]  # every player alone in a win group
    history: dict[int, list[int | None]] = {1: list(range(2, 13)) + [None] * 10}
    for opponent in range(2, 13):
        history[opponent] = [1] + [None] * 10
    s = field(*rows, opponents=history)
    pairs = pair_swiss(s, s.ids, SwissMemo(RepeatPolicy(2)))
    opponent = next(b if a == "P1" else a for a, b in pairs if "P1" in (a, b))
    assert s.rank(opponent) <= 4
    strict = pair_swiss(s, s.ids, SwissMemo(RepeatPolicy(0)))
    far = next(b if a == "P1" else a for a, b in strict if "P1" in (a, b))
    assert s.rank(far) >= 13  # with no repeat allowed, every repeat is avoided first


def test_a_third_meeting_is_past_an_allowance_of_one():
    history = {1: [3, 3, 2], 3: [1, 1, 4], 2: [4, 4, 1], 4: [2, 2, 3]}
    assert (1, 3) not in _swiss(history, 1)
    # Under 2 it is weighed: 1-2 is back to back, 1-4 and 2-3 fresh: still avoided.
    assert (1, 3) not in _swiss(history, 2)


def test_a_back_to_back_rematch_is_avoided_whatever_the_allowance():
    history = {1: [3], 3: [1]}  # they met in the last round
    for allowance in (0, 1, 5):
        assert (1, 3) not in _swiss(history, allowance)


def test_the_policy_refuses_an_allowance_past_the_matchings_ceiling():
    with pytest.raises(ValueError):
        RepeatPolicy(16)
    with pytest.raises(ValueError):
        RepeatPolicy(-1)


def test_the_race_pairs_a_chaser_with_the_player_they_must_pass(rules):
    # #1 is certain (three wins clear under a 250 cap); #2 holds the other place, #3 and
    # #4 chase it. The director's pairing: 2-3 head to head (and #1 takes on the best
    # player out of contention), never #2 against the bottom of the field.
    s = field(
        (13, 900), (10, 300), (10, 100), (9.5, 50), *[(6 - i * 0.5, -50 * i) for i in range(8)]
    )
    advice = advise(s, rules.scrabble, max_spread_per_game=250)
    games = rank_pairs(s, advice)
    assert advice.gibsonized == ("P1",)
    assert (2, 3) in games
    gp2 = next(v for v in advice.principles if v.id == "GP2")
    assert gp2.status in ("satisfied", "unavoidable")


def test_race_targets_are_the_contenders_above_a_chaser_they_can_pass():
    s = field((10, 300), (10, 200), (9, 100), (8, 0), (5, 0), (4, 0))
    in_contention = contention(s, 2, None)
    race = race_of(s, in_contention, 2, None, 1)
    targets = dict(zip(race.contenders, race.targets, strict=True))
    assert targets["P1"] == targets["P2"] == frozenset()  # they hold the two places
    assert targets["P3"] == {"P1", "P2"}  # a win over either can carry #3 level or past
    assert race.sent_away([("P1", "P2"), ("P3", OUTSIDER)]) == (0, 0, 1) + (
        (0,) if "P4" in targets else ()
    )
    # With more rounds left, nobody is sent away by one round's pairing.
    later = race_of(s, contention(s, 2, None, 2), 2, None, 2)
    assert not any(later.sent_away([("P1", "P2")]))


def test_a_rows_back_to_back_rematch_gives_way_to_an_equally_principled_pairing(rules):
    # 0/0/0/0 pairs 1-4, 2-3; #1 and #4 met in the last round. 1-3, 2-4 keeps every
    # principle the same, so it is recommended and the row's pairing is named beside it.
    tail = ((6, 0), (5, 0), (4, 0), (3, 0))
    s = field(
        (10, 300), (10, 200), (10, 100), (10, 0), (8, -100), *tail, opponents={1: [4], 4: [1]}
    )
    advice = advise(s, rules.scrabble)
    assert rank_pairs(s, advice)[:2] == [(1, 3), (2, 4)]
    assert advice.rule.id == "0/0/0/0" and advice.rule.method == "row without its rematch"
    [alternative] = advice.alternatives
    assert alternative.source == "table"
    assert [tuple(s.rank(p) for p in g.players) for g in alternative.games][:2] == [(1, 4), (2, 3)]
    assert [v.status for v in advice.principles] == [v.status for v in alternative.principles]
    assert any("straight after their last game" in w for w in advice.warnings)
    # The first line posts the rematch-free pairing and says why not the row's.
    assert advice.headline == (
        "Post 1-3, 2-4, 5-6, 7-8, 9-bye (row 0/0/0/0 without its rematch: the row's 1-4, 2-3 "
        "would repeat a game of the last round)."
    )


def test_a_rows_pairing_stands_when_its_repeat_is_not_back_to_back(rules):
    tail = ((6, 0), (5, 0), (4, 0), (3, 0))
    s = field(
        (10, 300), (10, 200), (10, 100), (10, 0), (8, -100), *tail, opponents={1: [4, 2], 4: [1, 3]}
    )
    advice = advise(s, rules.scrabble)
    assert advice.rule.source == "table"
    assert rank_pairs(s, advice)[:2] == [(1, 4), (2, 3)]
    assert not advice.alternatives


def test_with_rounds_left_contenders_are_paired_by_rank_not_across_the_field(rules):
    # Two and three rounds left: GP1, GP3 and GP4 judge only a final round, so the
    # principles tie and the policy pairs the contention group by rank (KOTH), where the
    # weighted matching alone paired it top against bottom across four win groups.
    lower = [(5 - i * 0.5, -100 - 10 * i) for i in range(8)]
    s = field(
        (11, 300), (10, 200), (10, 100), (9, 50), (9, 0), (8, -20), (8, -50), (7, -100), *lower
    )
    for rounds_left in (2, 3):
        advice = advise(s, rules.scrabble, rounds_left=rounds_left, max_spread_per_game=250)
        games = rank_pairs(s, advice)
        contenders = {s.rank(p) for p in advice.contenders}
        for game in games:
            if contenders & set(game) and len(game) == 2:
                assert abs(game[0] - game[1]) == 1, games


def test_the_audit_names_a_gibson_mistake(rules):
    # Albany 2024 A before its final: the clinched #1 played contender #3.
    from pairing_service.engine.scrabble import audit

    s = field(
        (13, 900), (10, 300), (10, 100), (9.5, 50), *[(6 - i * 0.5, -50 * i) for i in range(8)]
    )
    ids = list(s.ids)
    pairs = [(ids[0], ids[2]), (ids[1], ids[3])] + [
        (ids[i], ids[i + 1]) for i in range(4, len(ids), 2)
    ]
    result = audit(s, rules.scrabble, pairs, None, max_spread_per_game=250)
    assert any(
        d.startswith("#1 Player 1 is certain of a victor place but plays #3 Player 3")
        and "Gibson mistake" in d
        for d in result.differences
    )
    recommended = [g.players for g in result.recommendation.games]
    assert ("P1", "P3") not in recommended


def test_the_audit_says_when_only_the_pairing_policy_differs(rules):
    from pairing_service.engine.scrabble import audit

    s = field(
        (10, 300),
        (10, 200),
        (10, 100),
        (10, 0),
        (8, -100),
        (6, 0),
        (5, 0),
        (4, 0),
        (3, 0),
        (2, 0),
        opponents={6: [7], 7: [6]},
    )
    advice = advise(s, rules.scrabble)
    pairs = [g.players for g in advice.games if not g.bye]
    # Swap the bottom games' partners: the principles cannot tell, a rematch appears.
    swapped = [p for p in pairs if not {"P6", "P7", "P8", "P9"} & set(p)]
    swapped += [("P6", "P7"), ("P8", "P9")]
    assert sorted(map(sorted, swapped)) != sorted(map(sorted, pairs))
    result = audit(s, rules.scrabble, swapped, None)
    text = " ".join(result.differences)
    assert "the principles judge both pairings alike" in text
    assert "back-to-back rematches 0 (proposal 1)" in text


def test_a_row_giving_way_for_fewer_repeats_says_how_many_each_holds(rules):
    # Eight players who have met in pairs over seven rounds. Row 0/0.5/0.5/1 pairs #1 with
    # #4 straight after their last game; the principles' pairing avoids that rematch but
    # holds as many meetings past the allowance: recommended, and the warning counts both
    # rather than claiming the principles' pairing repeats nothing.
    met = {
        "A": "BBFBGBD", "B": "AAEACAE", "C": "DDGDBDH", "D": "CCHCECA",
        "E": "FFBFDFB", "F": "EEAEHEG", "G": "HHCHAHF", "H": "GGDGFGC",
    }  # fmt: skip
    records = [("A", 9, -8), ("B", 8.5, 0), ("C", 8.5, 204), ("D", 8, 186), ("E", 7.5, 230)]
    records += [("F", 4.5, -179), ("G", 4, -284), ("H", 4, -171)]
    s = Standings.from_players(
        [Player(p, int(w * 2), spread, opponents=tuple(met[p])) for p, w, spread in records]
    )
    advice = advise(s, rules.scrabble, victors=2, repeats_allowed=2)
    assert advice.rule.id == "0/0.5/0.5/1" and advice.preferred == "principles"
    assert ("A", "D") not in {g.players for g in advice.games}
    assert (
        "row 0/0.5/0.5/1's pairing holds 1 back-to-back rematch and 4 meetings past the "
        "allowance of 2; the pairing that ranks above it on the principles holds 0 "
        "back-to-back rematches and 4 meetings past the allowance of 2, and is recommended "
        "(the row's beside it)"
    ) in advice.warnings


@pytest.mark.parametrize(("victors", "words"), [(1, "1 victor uses"), (3, "3 victors use")])
def test_the_fallback_warning_counts_victors_in_words(rules, victors, words):
    s = field((8, 100), (7, 50), (6, 0), (5, 0), (4, 0), (3, 0))
    advice = advise(s, rules.scrabble, victors=victors)
    assert f"the seed's table is for two victors; {words} the fallback" in advice.warnings
