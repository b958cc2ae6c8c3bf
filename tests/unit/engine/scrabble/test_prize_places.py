"""Prize places: tiers, contention per place, and the final round's plan when places pay
differently (``prize_places.py``, ``pairing/prize_plan.py``)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from pairing_service.engine.scrabble import Player, PrizePlaces, Standings, advise
from pairing_service.engine.scrabble.held.gibsonization import Places
from pairing_service.engine.scrabble.held.methods import FinalRound, pair_round
from pairing_service.engine.scrabble.prize_places import (
    amount_text,
    ordinal,
    place_labels,
    place_race,
)
from pairing_service.rules import load_rules

TABLE = load_rules().scrabble


def standings(*records: tuple[str, float, int], met: dict[str, tuple[str, ...]] | None = None):
    met = met or {}
    return Standings.from_players(
        [
            Player(id=pid, half_wins=int(wins * 2), spread=spread, opponents=met.get(pid, ()))
            for pid, wins, spread in records
        ]
    )


# A (8 wins) has 1st; B and C race for 2nd (both certain of a top-3 place, cap 100); D
# cannot reach 3rd; seven players, so someone has the bye.
RACE_FOR_SECOND = standings(
    ("A", 8, 500),
    ("B", 6, 300),
    ("C", 6, 250),
    ("D", 5, 0),
    ("E", 3, -200),
    ("F", 2, -300),
    ("G", 1, -500),
)


@pytest.mark.parametrize(
    ("amounts", "boundaries", "graded"),
    [
        ((500, 300, 300, 100), (1, 3, 4), True),
        ((None, None, None), (1, 2, 3), True),
        ((100, 100), (2,), False),
        ((None,), (1,), False),
        ((200, None, None), (1, 2, 3), True),
    ],
)
def test_tiers_are_runs_of_equal_amounts(amounts, boundaries, graded):
    prizes = PrizePlaces(amounts)
    assert prizes.boundaries == boundaries
    assert prizes.graded is graded
    assert prizes.paid == len(amounts)


@pytest.mark.parametrize("amounts", [(), (100, 200), (None, 50, 60), (-1,)])
def test_amounts_that_do_not_fall_are_refused(amounts):
    with pytest.raises(ValueError, match=r"prize|place"):
        PrizePlaces(amounts)


def test_ordinals():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"
    ]  # fmt: skip


def test_race_for_second_place_worked_example():
    race = place_race(RACE_FOR_SECOND, PrizePlaces((300, 200, 100)), cap=100)
    assert race.racing == ("B", "C")
    assert race.settled == ("A",)
    assert race.line == ()
    reach = {r.player: (r.best, r.worst) for r in race.reach}
    assert reach == {"A": (1, 1), "B": (2, 3), "C": (2, 3)}
    assert race.money.clinched == ("A", "B", "C")


def test_victors_model_gives_a_racer_the_bye():
    # Three equal victors: A, B and C are all certain of a victor place, so all three are
    # Gibsonized and the lone one left (C, still racing B for 2nd money) takes the bye.
    advice = advise(RACE_FOR_SECOND, TABLE, victors=3, max_spread_per_game=100)
    bye = next(g.players[0] for g in advice.games if g.bye)
    assert advice.prize_model == "victors"
    assert set(advice.gibsonized) == {"A", "B", "C"}
    assert bye == "C"
    assert advice.places == ()
    # Only B and C race (two players): below the warning's threshold of three.
    assert not any("treats the top" in w for w in advice.warnings)


def test_graded_places_race_head_to_head_and_the_settled_player_takes_the_bye():
    advice = advise(
        RACE_FOR_SECOND, TABLE, max_spread_per_game=100, prizes=PrizePlaces((300, 200, 100))
    )
    games = {g.players for g in advice.games}
    assert advice.prize_model == "graded"
    assert advice.rule.source == "prizes"
    assert ("B", "C") in games
    assert ("A",) in games  # settled in 1st: Gibsonized, and alone, so the bye
    assert advice.gibsonized == ("A",)
    assert advice.contenders == ("B", "C")
    reason = next(g.reason for g in advice.games if g.players == ("B", "C"))
    # Both are certain of the money and finish 2nd or 3rd: the game decides 2nd.
    assert reason == "#2 and #3 race for 2nd"
    needs = {n.player: n.text for n in advice.needs}
    assert needs["A"] == "certain of 1st"
    assert needs["B"] == needs["C"] == "races for 2nd or 3rd; certain of the money"


def test_a_racer_never_gets_the_bye_or_a_non_contender_while_the_race_has_someone_free():
    # Four places paid, 3rd and 4th alike: an odd racer left over plays someone racing
    # for the money line (or a settled player), never the bye or a player out of reach.
    field = standings(
        ("A", 7, 300),
        ("B", 7, 200),
        ("C", 6, 250),
        ("D", 6, 100),
        ("E", 6, 50),
        ("F", 5, 0),
        ("G", 3, -300),
        ("H", 2, -600),
        ("I", 1, -900),
    )
    prizes = PrizePlaces((400, 200, 100, 100))
    race = place_race(field, prizes, cap=None)
    advice = advise(field, TABLE, max_spread_per_game=None, prizes=prizes)
    racers = set(race.racing)
    bye = next(g.players[0] for g in advice.games if g.bye)
    assert bye not in racers
    in_race = racers | set(race.line) | set(race.settled)
    for game in advice.games:
        if game.bye:
            continue
        a, b = game.players
        if a in racers or b in racers:
            assert {a, b} <= in_race, game


def test_equal_prizes_are_the_victors_model():
    field = standings(("A", 8, 412), ("B", 8, 120), ("C", 7, 300), ("D", 6, -40))
    by_victors = advise(field, TABLE, victors=2)
    by_prizes = advise(field, TABLE, prizes=PrizePlaces((100, 100)))
    assert by_prizes.games == by_victors.games
    assert by_prizes.rule == by_victors.rule
    assert by_prizes.prize_model == "victors"
    assert [r.player for r in by_prizes.places] == ["A", "B", "C"]


def test_graded_warning_with_victors_only_names_the_racers():
    field = standings(
        ("A", 9, 400),
        ("B", 8, 300),
        ("C", 7.5, 250),
        ("D", 7, 200),
        ("E", 7, 150),
        ("F", 6.5, 100),
        ("G", 5, 0),
        ("H", 4, -100),
    )
    advice = advise(field, TABLE, victors=5, max_spread_per_game=200)
    warning = next(w for w in advice.warnings if "treats the top 5 places as equal" in w)
    assert "`prizes`" in warning
    assert "#3 C" in warning
    graded = advise(field, TABLE, max_spread_per_game=200, prizes=PrizePlaces((None,) * 5))
    assert not any("treats the top" in w for w in graded.warnings)
    assert [g.players for g in graded.games][:2] == [("A", "B"), ("C", "D")]


def test_two_victor_events_are_not_warned():
    field = standings(("A", 8, 412), ("B", 8, 120), ("C", 8, 300), ("D", 6, -40))
    advice = advise(field, TABLE, victors=2)
    assert not any("treats the top" in w for w in advice.warnings)


def test_koth_avoids_a_back_to_back_rematch_among_racers():
    met = {"A": ("B",), "B": ("A",)}
    field = standings(
        ("A", 7, 300), ("B", 7, 200), ("C", 7, 100), ("D", 7, 0), ("E", 2, -600), ("F", 1, -900),
        met=met,
    )  # fmt: skip
    advice = advise(field, TABLE, prizes=PrizePlaces((None, None, None)))
    games = {g.players for g in advice.games}
    assert ("A", "B") not in games
    assert ("A", "C") in games and ("B", "D") in games


def test_a_settled_player_takes_the_bye_and_the_race_for_first_stands_back_to_back():
    # F races for 1st with E (they met last round), D for 2nd-3rd; G is settled in 4th;
    # C, B, A are out of the money. Seven play: the lone settled player takes the bye
    # (tsh's rule), never a racer's game; F-E is the race for 1st, kept head to head
    # though they met last round, and the round's reasons say so.
    history = {
        "A": ("F", "D", "C", "E", "B", "B", "G"),
        "B": ("C", "F", "A", "A", "C"),
        "C": ("B", "G", "A", "D", "D", "D", "B"),
        "D": ("G", "A", "F", "C", "C", "C"),
        "E": ("G", "A", "G", "F", "F"),
        "F": ("A", "B", "D", "G", "E", "E"),
        "G": ("D", "C", "E", "F", "E", "A"),
    }
    records = [("A", 0.5, -464), ("B", 1, 6), ("C", 1.5, -236), ("D", 5, -54)]
    records += [("E", 6, 141), ("F", 6.5, -192), ("G", 3, 19)]
    field = standings(*records, met=history)
    prizes = (400, 300, 200, 100)
    advice = advise(field, TABLE, max_spread_per_game=200, prizes=PrizePlaces(prizes))
    games = {g.players: g for g in advice.games}
    assert ("G",) in games and games[("G",)].bye
    assert ("F", "E") in games
    assert games[("F", "E")].reason == (
        "#1 and #2 meet again straight after their last game: the race for 1st kept head to head"
    )
    assert games[("G",)].reason == "#4 is certain of 4th: takes the bye"
    # D's one rival, E, is in the race for 1st: the reason says where, not that E was free.
    assert games[("D", "B")].reason == "#3's only rival #2 plays #1"
    assert "#1 and #2: back-to-back rematch" in advice.warnings
    # A held event's advisor round says the same facts of its posted games.
    final = FinalRound(TABLE, 4, 200, 1, field, prizes)
    held = pair_round(
        "advisor", field, field.ids, {}, 2, {}, final=final, places=Places(4, prizes, 200, 1)
    )
    assert held.rule == (
        "prize places: place races head to head; #1 and #2 meet again straight after their "
        "last game: the race for 1st kept head to head; #3's only rival #2 plays #1; #4 is "
        "certain of 4th: takes the bye"
    )


def test_a_player_certain_of_first_plays_outside_the_race_when_the_racers_are_odd():
    # A is two wins clear with one round left: certain of 1st. B, C race for 2nd and
    # 3rd, D, E, F for 3rd: five racers. A plays the highest-ranked player in no race
    # (G), never B; one racer plays H.
    field = standings(
        ("A", 12, 500), ("B", 10, 300), ("C", 10, 200), ("D", 9, 100), ("E", 9, 50),
        ("F", 9, 0), ("G", 7, 0), ("H", 6, 0),
    )  # fmt: skip
    advice = advise(field, TABLE, prizes=PrizePlaces((1000, 500, 250)))
    games = {g.players for g in advice.games}
    assert ("A", "G") in games
    racers = {"B", "C", "D", "E", "F"}
    assert all(not (set(g) & racers and "A" in g) for g in games)
    assert ("B", "C") in games
    # The audit of the recommendation finds no Gibson mistake in it.
    from pairing_service.engine.scrabble import audit

    pairs = [(g.players[0], g.players[1]) for g in advice.games if not g.bye]
    judged = audit(field, TABLE, pairs, None, prizes=PrizePlaces((1000, 500, 250)))
    assert not any("Gibson mistake" in d for d in judged.differences)


def test_a_race_for_a_place_paired_head_to_head_is_no_principle_broken():
    # Graded prizes: #2 and #3 race for 2nd-4th, #4 and #5 for 3rd down to the money line.
    # Judged with the paid places as victors, a draw between #2 and #3 puts both in the
    # money (GP4 in the victors model), and #5 facing #4 faces nobody above they must
    # pass for the money (GP2's head-to-head part); but each game is a race for a place
    # both can still take, which is what the prize rounds ask for.
    from pairing_service.engine.scrabble.judge.race import Race

    race = Race(("B", "C", "D"), (frozenset(), frozenset({"B"}), frozenset({"B"})))
    assert race.sent_away([("B", "X"), ("C", "D")]) == (0, 1, 1)
    rivals = Race(race.contenders, race.targets, {"C": frozenset({2}), "D": frozenset({2, 3})})
    assert rivals.rivals("C", "D") and not rivals.rivals("B", "D")
    assert rivals.sent_away([("B", "X"), ("C", "D")]) == (0, 0, 0)


@pytest.mark.parametrize("name", ["lg2025_r14.t", "ccc_rainy2026_C.t"])
def test_the_real_final_rounds_with_four_graded_prizes_break_no_principle(name):
    from bench.real_divisions import DIVISIONS, real_text
    from pairing_service.engine.scrabble.tsh import read_division

    text = real_text(name)
    division = read_division(text, DIVISIONS[name].planned - 1)
    field = Standings.from_players(list(division.players))
    advice = advise(field, TABLE, max_spread_per_game=500, prizes=PrizePlaces((400, 300, 200, 100)))
    statuses = {v.id: v.status for v in advice.principles}
    assert "violated" not in statuses.values(), advice.principles
    assert statuses["GP4"] in ("satisfied", "not_applicable")


def test_players_level_on_wins_and_spread_share_their_places():
    # 1st and 2nd level, then 3rd alone, then 4th and 5th level across the money line.
    records = [(20, 300), (20, 300), (18, 100), (16, 0), (16, 0), (14, -50)]
    assert place_labels((300, 200, 100, 50), records) == [
        "1st–2nd (tied: 300 + 200 split)",
        "1st–2nd (tied: 300 + 200 split)",
        "3rd · 100",
        "4th–5th (tied: 50 split)",
        "4th–5th (tied: 50 split)",
        None,
    ]
    # Level on wins but not on spread is no tie; an amount not given shows the places.
    assert place_labels((None, None), [(20, 300), (20, 299), (20, 299)]) == [
        "1st",
        "2nd–3rd (tied)",
        "2nd–3rd (tied)",
    ]
    # Beyond the paid places, the place alone when asked for (the final round's `holds`).
    assert place_labels((100,), [(9, 0), (8, 0), (8, 0)], unpaid=True) == [
        "1st · 100",
        "2nd–3rd (tied)",
        "2nd–3rd (tied)",
    ]


def test_graded_prizes_with_every_place_settled_pair_without_a_race():
    # Both paid places are settled (1st and 2nd two and more wins clear): nobody races,
    # the settled players play each other, everyone else Swiss.
    field = standings(
        ("A", 10, 100), ("B", 8, 50), ("C", 4, 0), ("D", 3, 0), ("E", 2, 0), ("F", 1, 0)
    )  # fmt: skip
    advice = advise(field, TABLE, prizes=PrizePlaces((300, 200)))
    games = {g.players for g in advice.games}
    assert ("A", "B") in games and len(games) == 3
    assert advice.contenders == ()


def test_the_race_for_first_stays_head_to_head_straight_after_a_meeting():
    # A and B alone can finish 1st and met last round; C, D and E race for 3rd. Sending A
    # and B apart would break both their races and two more: a back-to-back rematch is
    # the lesser harm (races rank above rematches), and the reason says so.
    field = standings(
        ("A", 10, 300), ("B", 10, 200), ("C", 9, -300), ("D", 8.5, 0), ("E", 8.5, -50),
        ("F", 7.5, 0), ("G", 2, 0), ("H", 1, 0),
        met={"A": ("B",), "B": ("A",)},
    )  # fmt: skip
    advice = advise(field, TABLE, max_spread_per_game=100, prizes=PrizePlaces((300, 200, 100)))
    games = {g.players: g for g in advice.games}
    assert ("A", "B") in games
    assert "race for 1st kept head to head" in games[("A", "B")].reason


def test_a_settled_player_never_meets_the_odd_racer_for_the_money_line():
    # A is certain of 1st; B, C and D race for 2nd (the money line), an odd race. The
    # race takes one player in no race for each racer, so the odd racer plays one of
    # them and A plays the best of the rest, never a racer.
    field = standings(
        ("A", 12, 300), ("B", 9, 200), ("C", 9, 100), ("D", 9, 0),
        ("E", 6, 0), ("F", 5, 0), ("G", 4, 0), ("H", 3, 0),
    )  # fmt: skip
    advice = advise(field, TABLE, max_spread_per_game=100, prizes=PrizePlaces((200, 100)))
    games = {g.players: g.reason for g in advice.games}
    assert ("A", "E") in games
    assert games[("A", "E")] == (
        "#1 is certain of 1st: plays #5, the highest-ranked player in no race"
    )
    assert ("B", "C") in games and ("D", "F") in games
    assert not any("takes the bye" in w for w in advice.warnings)


def test_amounts_are_exact_and_print_as_written():
    # Equal amounts as written are one tier, where floats would part 0.1 + 0.2 from 0.3.
    split = Decimal("0.1") + Decimal("0.2")
    assert not PrizePlaces((Decimal("0.3"), split)).graded
    assert PrizePlaces((Decimal("33.34"), Decimal("33.33"), Decimal("33.33"))).boundaries == (1, 3)
    # Whole amounts print whole, others as written (as read from a JSON number).
    amounts = (Decimal("500.0"), Decimal("33.34"), Decimal("33.33"), None)
    records = [(8, 10), (7, 0), (7, 0), (6, 0)]
    assert place_labels(amounts, records) == [
        "1st · 500",
        "2nd–3rd (tied: 33.34 + 33.33 split)",
        "2nd–3rd (tied: 33.34 + 33.33 split)",
        "4th",
    ]
    assert amount_text(Decimal("1000")) == "1000"
    assert amount_text(Decimal("0.1")) == "0.1"
