"""Meeple League through the API: abandoned games, games entered twice, seeding between
seasons, in the calculator and in the held organisation.

- A game a player dropped out of still scores: the leaver is placed last and gets nothing
  (docs/league.md).
- A game's name is unique within a season: the same game entered twice is refused by the
  calculator; the held organisation numbers its games, so a second report of a game is
  the same game again, never a second one.
- Between seasons, players level on place and division are ordered by the full tiebreaker
  chain, which a closed season records.

The rules alone: tests/unit/engine/league/test_games_and_seeding.py.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.support import assert_problem

from .test_organisations import League, players

# --- a player dropped out ----------------------------------------------------------------


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
    called = league.read(f"/players/{leaver}")["name"]  # the history names players so
    assert called in history[-7]["summary"] and "dropped out" in history[-7]["summary"]
    assert league.organiser("post", "/seasons/1/close").status_code == 200
    # Signing up again, the leaver is flagged to the organiser (the seed takes their place
    # in future events away; the GM decides), and nobody else is.
    assert league.organiser("post", "/seasons").status_code == 201
    again = {"players": [{"id": p} for p in [leaver, "p0" if leaver != "p0" else "p1"]]}
    season = league.organiser("post", "/seasons/2/signups", again).get_json()
    (flag,) = season["drop_out_flags"]
    assert flag.startswith(f"{leaver} dropped out of {first_game_name(games)}")
    assert "the GM decides" in flag
    assert [s["id"] for s in season["signups"]] == [p["id"] for p in again["players"]]
    assert league.read("/seasons/1")["drop_out_flags"] == []


def first_game_name(games: list[dict]) -> str:
    return games[0]["name"]


# --- the same game entered twice -----------------------------------------------------------


ROWS = (("A", 90, 1), ("B", 70, 2), ("C", 50, 3), ("D", 30, 4))


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
