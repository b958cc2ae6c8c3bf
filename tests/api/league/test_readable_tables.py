"""Meeple League tables as people read them: display names beside the ids, league points
as decimals (30.5, not 61/2), what put each player above the next with both values, and
the table as CSV and printable text; the lifetime table the same way."""

from __future__ import annotations

import csv
import io

from .test_organisations import League

NAMES = ["Ann Ash", "Bob Birch", "Cat Cedar", "Dan Dogwood", "Eve Elm", "Fay Fir", "Gus Gum"]


def tied_for_second(seats: list[str], tied: bool = True) -> list[dict]:
    """Seat 1 wins; seats 2 and 3 tie for 2nd (4.5 points each); seat 4 last. Not
    ``tied``: seats 1 to 4 in order."""
    scores, positions = ((100, 80, 80, 50), (1, 2, 2, 4)) if tied else ((9, 8, 7, 6), (1, 2, 3, 4))
    return [
        {"player": p, "score": s, "position": n}
        for p, s, n in zip(seats, scores, positions, strict=True)
    ]


def named_league(client) -> League:
    league = League(client)
    league.season(1, [{"id": f"p{i}", "name": name} for i, name in enumerate(NAMES)])
    return league


def test_a_league_table_reads_with_names_decimals_and_why(client):
    league = named_league(client)
    seats = league.read("/seasons/1/leagues/1-A")["games"][0]["seats"]
    assert league.report(1, "1-A", 1, tied_for_second(seats), league.token).status_code == 200
    page = league.read("/seasons/1/leagues/1-A")
    lines = page["standings"]
    names = dict(zip((f"p{i}" for i in range(7)), NAMES, strict=True))
    assert [line["name"] for line in lines] == [names[line["player"]] for line in lines]
    top, second, third = lines[:3]
    assert top["player"] == seats[0] and top["ahead_on"] == "league points 10 v 4.5"
    # Level on everything the game gives: the ranking coming into the season decides.
    assert {second["player"], third["player"]} == set(seats[1:3])
    assert second["decided_by"] == "previous_rank"
    ranks = sorted(line["values"]["previous_rank"] for line in (second, third))
    assert second["ahead_on"] == f"rank coming into the season {ranks[0]} v {ranks[1]}"
    assert third["ahead_on"] == "league points 4.5 v 1"

    text = league.client.get(league.base + "/seasons/1/leagues/1-A?rows=standings&format=text")
    assert text.mimetype == "text/plain"
    printed = text.get_data(as_text=True)
    assert "league 1-A: table" in printed and "4.5" in printed and "9/2" not in printed
    answer = league.client.get(
        league.base + "/seasons/1/leagues/1-A?rows=standings", headers={"Accept": "text/csv"}
    )
    assert answer.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(answer.get_data(as_text=True))))
    assert [row["player"] for row in rows] == [line["player"] for line in lines]
    assert (rows[0]["name"], rows[0]["league_points"], rows[0]["wins"]) == (
        names[seats[0]],
        "10",
        "1",
    )
    assert [row["league_points"] for row in rows[1:4]] == ["4.5", "4.5", "1"]
    assert rows[1]["winner_share"] == "0.8" and rows[1]["seconds"] == "1"
    assert rows[1]["ahead_on"] == second["ahead_on"]
    # Without rows=standings the CSV stays the games, a line a seat.
    games = league.client.get(league.base + "/seasons/1/leagues/1-A?format=csv")
    assert games.get_data(as_text=True).startswith("game,name,seat,player")


def test_the_lifetime_table_reads_with_names_and_decimals(client):
    league = named_league(client)
    for game in league.read("/seasons/1/leagues/1-A")["games"]:
        results = tied_for_second(game["seats"], tied=game["game"] == 1)
        assert league.report(1, "1-A", game["game"], results, league.token).status_code == 200
    assert league.organiser("post", "/seasons/1/close").status_code == 200
    lifetime = league.read("/lifetime")["standings"]
    assert sorted(line["name"] for line in lifetime) == sorted(NAMES)
    exported = league.client.get(league.base + "/export?format=csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(exported)))
    assert list(rows[0]) == ["rank", "player", "name", "seasons", "division_1"]
    by_player = {line["player"]: line for line in lifetime}
    for row in rows:
        points = by_player[row["player"]]["by_division"][0]["league_points"]
        assert row["division_1"] == f"{points:g}"
        assert row["name"] == by_player[row["player"]]["name"]
    assert any(row["division_1"].endswith(".5") for row in rows)
    assert not any("/" in row["division_1"] for row in rows)
