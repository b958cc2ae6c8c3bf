"""Meeple League: abandoned games, games entered twice, seeding between seasons.

- A game a player dropped out of still scores (seed 001 tracks "the number of players in
  that game" and has a Dropping Out section): the players who finished take the points of
  their places; the leaver is placed last and gets nothing (docs/league.md).
- A game's name is unique within a season: the same game entered twice is refused, in the
  calculator and in the held organisation (whose games are numbered, so a second report of
  a game is the same game again, never a second one).
- Between seasons, players level on place and division are ordered by the same full
  tiebreaker chain as within a season, not by the order they were listed in.
"""

from __future__ import annotations

from datetime import UTC, datetime
from fractions import Fraction

import pytest

from pairing_service.engine.event_log import Action, Entry
from pairing_service.engine.league import (
    Finish,
    Game,
    InvalidLeague,
    Result,
    form_leagues,
    league_table,
)
from pairing_service.engine.league.ledger import LeagueLedger
from tests.support import assert_problem

from .test_organisations import League, players

SCALE = {4: (Fraction(10), Fraction(6), Fraction(3), Fraction(1))}


def game(name, *rows):
    """Rows of (player, score, position) or (player, score, position, dropped_out)."""
    return Game(name, tuple(Result(*row) for row in rows))


def by_player(lines):
    return {line.player: line for line in lines}


# --- a player dropped out ----------------------------------------------------------------


def test_a_game_a_player_abandoned_still_scores():
    abandoned = game("G1", ("A", 90, 1), ("B", 70, 2), ("C", 50, 3), ("D", 30, 4, True))
    lines = by_player(league_table([abandoned], SCALE))
    assert {p: line.league_points for p, line in lines.items()} == {
        "A": 10,
        "B": 6,
        "C": 3,
        "D": 0,  # the leaver: last, and not the point a finisher earns for 4th
    }
    leaver = lines["D"]
    assert leaver.games == 1 and leaver.dropouts == 1 and leaver.total_score == 30
    assert lines["A"].dropouts == 0 and lines["A"].wins == 1
    assert [line.player for line in league_table([abandoned], SCALE)][-1] == "D"


def test_two_leavers_get_nothing_and_no_place_counts_for_them():
    # Two left: they share the last places; neither counts a 3rd place.
    abandoned = game("G1", ("A", 90, 1), ("B", 70, 2), ("C", 60, 3, True), ("D", 65, 3, True))
    lines = by_player(league_table([abandoned], SCALE))
    assert (lines["A"].league_points, lines["B"].league_points) == (10, 6)
    assert lines["C"].league_points == lines["D"].league_points == 0
    assert lines["C"].thirds == lines["D"].thirds == 0


@pytest.mark.parametrize(
    ("rows", "field"),
    [
        # A leaver is placed below every player who finished.
        ((("A", 90, 1, True), ("B", 70, 2), ("C", 50, 3), ("D", 30, 4)), "games/0/results/0"),
        ((("A", 90, 1), ("B", 70, 2, True), ("C", 50, 2), ("D", 30, 4)), "games/0/results/1"),
        # Somebody has to finish the game.
        ((("A", 9, 1, True), ("B", 7, 2, True), ("C", 5, 3, True), ("D", 3, 4, True)), "games/0"),
    ],
)
def test_a_leaver_is_placed_last_and_someone_finishes(rows, field):
    with pytest.raises(InvalidLeague) as caught:
        league_table([game("G1", *rows)], SCALE)
    assert caught.value.field.startswith(field)


def test_a_game_listed_without_its_leaver_says_how_to_report_one():
    with pytest.raises(InvalidLeague) as caught:
        league_table([game("G1", ("A", 90, 1), ("B", 70, 2), ("C", 50, 3))], SCALE)
    assert caught.value.field == "games/0/results"
    assert "not 3" in caught.value.message and "dropped_out" in caught.value.message


def test_the_table_endpoint_scores_an_abandoned_game(client):
    results = [
        {"player": "A", "score": 90, "position": 1},
        {"player": "B", "score": 70, "position": 2},
        {"player": "C", "score": 50, "position": 3},
        {"player": "D", "score": 30, "position": 4, "dropped_out": True},
    ]
    answer = client.post("/v1/league/table", json={"games": [{"name": "G1", "results": results}]})
    assert answer.status_code == 200, answer.get_json()
    lines = {line["player"]: line for line in answer.get_json()["standings"]}
    assert lines["D"]["league_points"] == 0 and lines["D"]["dropped_out"] == 1
    assert lines["C"]["league_points"] == 3 and lines["C"]["dropped_out"] == 0
    bad = [dict(r, dropped_out=r["player"] == "A") for r in results]
    assert_problem(
        client.post("/v1/league/table", json={"games": [{"name": "G1", "results": bad}]}),
        422,
        "/games/0/results/0/position",
    )


def test_a_held_game_with_a_leaver_is_reported_and_closes_the_season(client):
    league = League(client)
    league.season(1, players([f"p{i}" for i in range(7)]))
    games = league.read("/seasons/1/leagues/1-A")["games"]
    leaver = games[0]["seats"][3]
    for held in games:
        results = league.results(held["seats"])
        if held["game"] == 1:
            results[3]["dropped_out"] = True
        winner = results[0]["player"]
        answer = league.report(1, "1-A", held["game"], results, league.tokens[winner])
        assert answer.status_code == 200, answer.get_json()
    shown = league.read("/seasons/1/leagues/1-A")
    first = shown["games"][0]["results"]
    assert [r["dropped_out"] for r in first] == [False, False, False, True]
    assert not any(r["dropped_out"] for g in shown["games"][1:] for r in g["results"])
    line = next(line for line in shown["standings"] if line["player"] == leaver)
    assert line["dropped_out"] == 1
    history = league.read("/history")["actions"]
    assert f"{leaver}" in history[-7]["summary"] and "dropped out" in history[-7]["summary"]
    assert league.organiser("post", "/seasons/1/close").status_code == 200


# --- the same game entered twice -----------------------------------------------------------


ROWS = (("A", 90, 1), ("B", 70, 2), ("C", 50, 3), ("D", 30, 4))


@pytest.mark.parametrize("again", ["AGR S1 L1-A G1", "agr s1  l1-a g1 "])
def test_the_same_game_entered_twice_is_refused(again):
    with pytest.raises(InvalidLeague) as caught:
        league_table([game("AGR S1 L1-A G1", *ROWS), game(again, *ROWS)], SCALE)
    assert caught.value.field == "games/1/name"
    assert "games/0" in caught.value.message


def test_unnamed_games_are_each_counted():
    lines = by_player(league_table([game("", *ROWS), game("", *ROWS)], SCALE))
    assert lines["A"].games == 2


def test_the_table_endpoint_refuses_a_game_entered_twice(client):
    results = [{"player": p, "score": s, "position": pos} for p, s, pos in ROWS]
    body = {"games": [{"name": "G1", "results": results}, {"name": "G1", "results": results}]}
    problem = assert_problem(client.post("/v1/league/table", json=body), 422, "/games/1/name")
    assert "G1" in problem["detail"]


def test_a_held_game_reported_twice_counts_once(client):
    league = League(client)
    league.season(1, players([f"p{i}" for i in range(7)]))
    seats = league.read("/seasons/1/leagues/1-A")["games"][0]["seats"]
    results = league.results(seats)
    assert league.report(1, "1-A", 1, results, league.tokens[seats[0]]).status_code == 200
    revision = league.read()["revision"]
    # Again, by another player of the game and by the organiser: the same game, once.
    assert league.report(1, "1-A", 1, results, league.tokens[seats[1]]).status_code == 200
    assert league.report(1, "1-A", 1, results, league.token).status_code == 200
    assert league.read()["revision"] == revision
    table = league.read("/seasons/1/leagues/1-A")["standings"]
    assert {line["player"]: line["games"] for line in table if line["player"] in seats} == {
        p: 1 for p in seats
    }


# --- seeding between seasons: the full chain -------------------------------------------------


def two_divisions(**better):
    """1-A, then 2-A and 2-B; B1 (2-A) and C1 (2-B) level on place, points and wins, C1
    listed after B1 but better on ``better``."""
    last = [Finish(f"A{i}", 1, "1-A", i, Fraction(30 - i), 2) for i in range(1, 8)]
    level = {"league_points": Fraction(28), "wins": 2}
    last.append(Finish("B1", 2, "2-A", 1, **level))
    last.append(Finish("C1", 2, "2-B", 1, **level, **better))
    for league, letter in (("2-A", "B"), ("2-B", "C")):
        last += [Finish(f"{letter}{i}", 2, league, i, Fraction(20 - i)) for i in range(2, 8)]
    return last


@pytest.mark.parametrize(
    "better",
    [
        {"seconds": 1},
        {"thirds": 1},
        {"winner_share": Fraction(9, 10)},
        {"margin": 5},
        {"total_score": 400},
        {"previous_rank": 3},
    ],
)
def test_formation_orders_level_finishers_by_the_full_chain(better):
    last = two_divisions(**better)
    formed = form_leagues([f.player for f in last], last, [], [])
    order = list(formed.order)
    assert order.index("C1") < order.index("B1"), order  # not the listing order


def test_formation_falls_back_to_the_listing_order_only_when_the_chain_is_level():
    last = two_divisions()
    order = list(form_leagues([f.player for f in last], last, [], []).order)
    assert order.index("B1") < order.index("C1")


def test_the_formation_endpoint_reads_the_chain(client):
    def row(player, league, place, **extra):
        return {"player": player, "league": league, "place": place, "league_points": 20, **extra}

    last = [row(f"A{i}", "1-A", i) for i in range(1, 8)]
    last += [row(f"B{i}", "2-A", i) for i in range(1, 8)]
    last += [row(f"C{i}", "2-B", i) for i in range(1, 8)]
    last[14] = row("C1", "2-B", 1, seconds=2, winner_share=0.8, margin=-3, previous_rank=9)
    body = {"signups": [r["player"] for r in last], "last_season": last}
    answer = client.post("/v1/league/formation", json=body)
    assert answer.status_code == 200, answer.get_json()
    order = answer.get_json()["order"]
    assert order.index("C1") < order.index("B1")
    last[14] = row("C1", "2-B", 1, previous_rank=0)
    assert_problem(
        client.post("/v1/league/formation", json=body | {"last_season": last}),
        422,
        "/last_season/14/previous_rank",
    )


def test_a_closed_season_records_every_tiebreaker_for_the_next_formation(client):
    league = League(client)
    league.season(1, players([f"p{i}" for i in range(7)]))
    league.play(1)
    closed = league.read("/history")["actions"][-1]
    assert closed["kind"] == "season_closed"
    table = league.read("/seasons/1/leagues/1-A")["standings"]
    recorded = {f["player"]: f for f in closed["data"]["finishes"]}
    for line in table:
        finish = recorded[line["player"]]
        values = line["values"]
        assert (finish["seconds"], finish["thirds"]) == (values["seconds"], values["thirds"])
        assert (finish["margin"], finish["total_score"]) == (
            values["margin"],
            values["total_score"],
        )
        assert float(Fraction(finish["winner_share"])) == pytest.approx(values["winner_share"])
        assert finish["previous_rank"] == values["previous_rank"]


def test_a_season_closed_before_the_chain_was_recorded_still_folds(rules):
    """Logs written before the full tiebreaker chain have finishes with points and wins only."""
    ledger = LeagueLedger(rules.league)
    now = datetime.now(UTC)
    log = [
        Entry(1, LeagueLedger.created("AGR"), now),
        Entry(2, Action("season_opened", {"season": 1}), now),
        Entry(
            3,
            Action(
                "season_closed",
                {
                    "season": 1,
                    "winner": "a",
                    "finishes": [
                        {
                            "player": "a",
                            "division": 1,
                            "league": "1-A",
                            "place": 1,
                            "league_points": "12",
                            "wins": 1,
                            "league_size": 4,
                        }
                    ],
                },
            ),
            now,
        ),
    ]
    org = ledger.fold(log)
    finish = org.season(1).finishes[0]
    assert (finish.seconds, finish.margin, finish.previous_rank) == (0, 0, None)
