"""The day of the event: what a director needs when something goes wrong, for
every held format, through the HTTP API.

- a late entrant (strikes, Diagonal Race, Puffing Billy), refused once a round started;
- a no-show dropped and the round seated again (strikes, Diagonal), refused once a result
  of the round is entered;
- a result fixed after the next round started: allowed when it changes no decision the
  later rounds were built on, and the answer and the history say what it changed;
- a new director token from the holder of the current one (every format);
- the tournaments a director holds, found by their tokens (every format);
- a round's seating and the standings as CSV and printable text (every format).

Every refusal writes nothing (the revision stays), and each new action can be undone.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from tests.support import assert_problem, auth

STRIKES = "/v1/strikes/tournaments"
DIAGONAL = "/v1/diagonal/events"
BILLY = "/v1/puffing-billy/events"
LEAGUE = "/v1/league/organisations"


def revision(client, base: str) -> int:
    return client.get(base).get_json()["revision"]


def kinds(client, base: str) -> list[str]:
    return [a["kind"] for a in client.get(f"{base}/history").get_json()["actions"]]


def refused(client, base: str, response, status: int, pointer: str | None = None) -> dict:
    """A problem with this status, after which the tournament is unchanged."""
    before = len(kinds(client, base))
    body = assert_problem(response, status, pointer)
    assert len(kinds(client, base)) == before
    return body


# --- strikes --------------------------------------------------------------------------------


def strikes_event(client, players: int = 9, **settings) -> tuple[str, str]:
    body = {"name": "Club night", "players": [{"id": f"P{i}"} for i in range(players)]}
    created = client.post(STRIKES, json={**body, "seed": 1, **settings}).get_json()
    return f"{STRIKES}/{created['id']}", created["token"]


def by_order(players: list[str], ranking: list[str]) -> dict:
    ordered = sorted(players, key=ranking.index)
    return {"results": [{"player": p, "score": 100 - 10 * i} for i, p in enumerate(ordered)]}


def strikes_round(client, base: str, token: str, ranking: list[str], close: bool = True) -> dict:
    rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    for table in rnd["tables"]:
        url = f"{base}/rounds/{rnd['round']}/tables/{table['table']}"
        answer = client.put(url, json=by_order(table["players"], ranking), headers=auth(token))
        assert answer.status_code == 200, answer.get_data(as_text=True)
    if close:
        closed = client.post(f"{base}/rounds/{rnd['round']}/close", headers=auth(token))
        assert closed.status_code == 200
    return rnd


def strikes_of(client, base: str) -> dict[str, float]:
    return {s["player"]: s["strikes"] for s in client.get(base).get_json()["standings"]}


def test_strikes_late_entrant_starts_with_the_most_strikes_of_anyone_still_in(client):
    base, token = strikes_event(client, threshold=23)
    early = client.post(f"{base}/players", json={"id": "E1", "name": "Early"}, headers=auth(token))
    assert early.status_code == 201 and early.headers["Location"].endswith(base)
    assert strikes_of(client, base)["E1"] == 0  # before round 1: like everyone
    ranking = ["E1", *(f"P{i}" for i in range(9))]
    strikes_round(client, base, token, ranking)
    standings = client.get(base).get_json()["standings"]
    worst_in = max(s["strikes"] for s in standings if s["status"] == "active")
    assert any(s["status"] == "eliminated" for s in standings)  # 24 strikes at 23: out
    late = client.post(f"{base}/players", json={"id": "L1", "name": "Late"}, headers=auth(token))
    assert late.status_code == 201
    row = next(s for s in late.get_json()["standings"] if s["player"] == "L1")
    assert row["strikes"] == worst_in and row["games"] == 0 and row["status"] == "active"
    entry = client.get(f"{base}/history").get_json()["actions"][-1]
    assert entry["kind"] == "player_entered" and entry["data"]["before_round"] == 2
    assert f"starting with {entry['data']['strikes']} strikes" in entry["summary"]
    # The next round seats them like anyone still in.
    rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    assert "L1" in [p for t in rnd["tables"] for p in t["players"]] + rnd["byes"]


def test_strikes_late_entry_refusals_write_nothing(client):
    base, token = strikes_event(client)
    assert_problem(client.post(f"{base}/players", json={"id": "X"}), 401)
    refused(client, base, client.post(f"{base}/players", json={"id": "X"}, headers=auth("x")), 403)
    duplicate = client.post(f"{base}/players", json={"id": "P3"}, headers=auth(token))
    refused(client, base, duplicate, 422, "/id")
    refused(client, base, client.post(f"{base}/players", json={}, headers=auth(token)), 422, "/id")
    client.post(f"{base}/rounds", headers=auth(token))
    during = client.post(f"{base}/players", json={"id": "X"}, headers=auth(token))
    assert "round 1 has started" in refused(client, base, during, 409)["detail"]


def test_strikes_late_entry_is_undone(client):
    base, token = strikes_event(client)
    client.post(f"{base}/players", json={"id": "X"}, headers=auth(token))
    undone = client.post(f"{base}/undo", headers=auth(token)).get_json()
    assert undone["undone"]["kind"] == "player_entered"
    assert "X" not in strikes_of(client, base)


def test_strikes_no_show_is_dropped_and_the_round_seated_again(client):
    base, token = strikes_event(client, players=10)
    first = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    no_show = first["tables"][0]["players"][0]
    answer = client.post(
        f"{base}/rounds/1/reseat", json={"no_shows": [no_show]}, headers=auth(token)
    )
    assert answer.status_code == 200, answer.get_data(as_text=True)
    seated = [p for t in answer.get_json()["tables"] for p in t["players"]]
    seated += answer.get_json()["byes"]
    assert no_show not in seated and len(seated) == 9
    assert [len(t["players"]) for t in answer.get_json()["tables"]] == [5, 4]  # 9 players
    row = next(s for s in client.get(base).get_json()["standings"] if s["player"] == no_show)
    assert row["status"] == "dropped" and row["dropped_before_round"] == 1
    entry = client.get(f"{base}/history").get_json()["actions"][-1]
    assert entry["kind"] == "round_reseated" and entry["data"]["no_shows"] == [no_show]
    assert no_show in entry["summary"]
    # Undo: the first seating and the player are back.
    assert client.post(f"{base}/undo", headers=auth(token)).status_code == 200
    assert client.get(f"{base}/rounds/1").get_json()["tables"] == first["tables"]
    assert no_show in {s["player"] for s in client.get(base).get_json()["standings"]}
    assert client.get(base).get_json()["standings"][0]["status"] == "active"


def test_strikes_reseat_refusals_write_nothing(client):
    base, token = strikes_event(client)
    rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    seated = rnd["tables"][0]["players"]
    url = f"{base}/rounds/1/reseat"
    refused(client, base, client.post(url, json={"no_shows": ["P99"]}, headers=auth(token)), 422)
    twice = {"no_shows": [seated[0], seated[0]]}
    refused(client, base, client.post(url, json=twice, headers=auth(token)), 422, "/no_shows/1")
    refused(client, base, client.post(url, json={"no_shows": []}, headers=auth(token)), 422)
    once = {"no_shows": [seated[0]]}
    refused(
        client, base, client.post(f"{base}/rounds/2/reseat", json=once, headers=auth(token)), 404
    )
    # Once a result of the round is entered: 409.
    table = f"{base}/rounds/1/tables/{rnd['tables'][0]['table']}"
    client.put(table, json=by_order(seated, seated), headers=auth(token))
    late = client.post(url, json={"no_shows": [seated[1]]}, headers=auth(token))
    assert "has results" in refused(client, base, late, 409)["detail"]


def test_strikes_no_show_that_leaves_too_few_players_is_refused(client):
    base, token = strikes_event(client, players=3)
    client.post(f"{base}/rounds", headers=auth(token))
    gone = client.post(f"{base}/rounds/1/reseat", json={"no_shows": ["P0"]}, headers=auth(token))
    assert "drop them instead" in refused(client, base, gone, 409)["detail"]


def test_strikes_late_correction_that_changes_an_elimination_is_refused(client):
    base, token = strikes_event(client, threshold=23)
    ranking = [f"P{i}" for i in range(9)]
    rnd = strikes_round(client, base, token, ranking)
    client.post(f"{base}/rounds", headers=auth(token))
    table = rnd["tables"][0]
    reverse = client.put(
        f"{base}/rounds/1/tables/{table['table']}",
        json=by_order(table["players"], ranking[::-1]),
        headers=auth(token),
    )
    body = refused(client, base, reverse, 409)
    assert "would change who was eliminated" in body["detail"] and "undo back" in body["detail"]


def test_strikes_late_correction_is_undone(client):
    base, token = strikes_event(client)
    ranking = [f"P{i}" for i in range(9)]
    rnd = strikes_round(client, base, token, ranking)
    client.post(f"{base}/rounds", headers=auth(token))
    before = strikes_of(client, base)
    table = rnd["tables"][0]
    url = f"{base}/rounds/1/tables/{table['table']}"
    fixed = client.put(url, json=by_order(table["players"], ranking[::-1]), headers=auth(token))
    assert fixed.status_code == 200 and fixed.get_json()["changes"]
    assert strikes_of(client, base) != before
    assert client.post(f"{base}/undo", headers=auth(token)).status_code == 200
    assert strikes_of(client, base) == before


# --- Diagonal Race --------------------------------------------------------------------------


def race(client, players: int = 8, rated: bool = True, **settings) -> tuple[str, str]:
    field = [
        {"id": f"R{i}", **({"rating": 1700 - 10 * i} if rated else {})} for i in range(players)
    ]
    created = client.post(DIAGONAL, json={"players": field, **settings}).get_json()
    return f"{DIAGONAL}/{created['id']}", created["token"]


def race_round(client, base: str, token: str, close: bool = True) -> dict:
    """A round where the player listed first in each game wins (3 pieces left)."""
    rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    for game in rnd["games"]:
        winner = {"winner": min(game["players"]), "pieces_left": 3}
        url = f"{base}/rounds/{rnd['round']}/games/{game['game']}"
        assert client.put(url, json=winner, headers=auth(token)).status_code == 200
    if close:
        assert client.post(f"{base}/rounds/{rnd['round']}/close", headers=auth(token)).status_code
    return rnd


def test_diagonal_late_entrant_starts_with_the_most_losses_of_anyone_still_in(client):
    base, token = race(client, first_round_opponents=2)
    race_round(client, base, token)
    standings = client.get(base).get_json()["standings"]
    most = max(s["losses"] for s in standings if s["status"] == "active")
    assert most == 1
    late = client.post(
        f"{base}/players", json={"id": "L1", "name": "Late", "rating": 1650}, headers=auth(token)
    )
    assert late.status_code == 201, late.get_data(as_text=True)
    row = next(s for s in late.get_json()["standings"] if s["player"] == "L1")
    assert (row["losses"], row["games"], row["status"]) == (1, 0, "active")
    rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    assert any("L1" in g["players"] for g in rnd["games"])
    # One more loss and they are out, like the others with one.
    game = next(g for g in rnd["games"] if "L1" in g["players"])
    other = next(p for p in game["players"] if p != "L1")
    client.put(f"{base}/rounds/2/games/{game['game']}", json={"winner": other}, headers=auth(token))
    log = client.get(f"{base}/history").get_json()["actions"]
    entry = next(a for a in log if a["kind"] == "player_entered")
    assert "starting with 1 loss" in entry["summary"] and entry["data"]["before_round"] == 2
    out = next(s for s in client.get(base).get_json()["standings"] if s["player"] == "L1")
    assert out["losses"] == 2


def test_diagonal_late_entry_refusals_write_nothing(client):
    base, token = race(client)
    url = f"{base}/players"
    refused(client, base, client.post(url, json={"id": "X"}, headers=auth(token)), 422, "/rating")
    refused(
        client,
        base,
        client.post(url, json={"id": "R1", "rating": 1}, headers=auth(token)),
        422,
        "/id",
    )
    unrated, unrated_token = race(client, rated=False)
    with_rating = client.post(
        f"{unrated}/players", json={"id": "X", "rating": 1500}, headers=auth(unrated_token)
    )
    refused(client, unrated, with_rating, 422, "/rating")
    listed_last = client.post(f"{unrated}/players", json={"id": "X"}, headers=auth(unrated_token))
    assert listed_last.status_code == 201
    client.post(f"{base}/rounds", headers=auth(token))
    during = client.post(url, json={"id": "X", "rating": 1}, headers=auth(token))
    assert "round 1 has started" in refused(client, base, during, 409)["detail"]


def test_diagonal_no_show_is_dropped_and_the_round_paired_again(client):
    base, token = race(client, players=8)
    first = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    answer = client.post(f"{base}/rounds/1/reseat", json={"no_shows": ["R3"]}, headers=auth(token))
    assert answer.status_code == 200, answer.get_data(as_text=True)
    games = answer.get_json()["games"]
    assert all("R3" not in g["players"] for g in games) and games != first["games"]
    row = next(s for s in client.get(base).get_json()["standings"] if s["player"] == "R3")
    assert row["status"] == "dropped" and row["dropped_before_round"] == 1
    assert "without R3" in client.get(f"{base}/history").get_json()["actions"][-1]["summary"]
    assert client.post(f"{base}/undo", headers=auth(token)).get_json()["undone"]["kind"] == (
        "round_reseated"
    )
    assert client.get(f"{base}/rounds/1").get_json()["games"] == first["games"]


def test_diagonal_reseat_refusals_write_nothing(client):
    base, token = race(client)
    rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    url = f"{base}/rounds/1/reseat"
    refused(
        client,
        base,
        client.post(url, json={"no_shows": ["Z"]}, headers=auth(token)),
        422,
        "/no_shows/0",
    )
    game = rnd["games"][0]
    client.put(f"{base}/rounds/1/games/1", json={"winner": game["players"][0]}, headers=auth(token))
    late = client.post(url, json={"no_shows": [game["players"][1]]}, headers=auth(token))
    assert "has results" in refused(client, base, late, 409)["detail"]


def test_diagonal_late_correction_says_what_it_changed_and_is_undone(client):
    base, token = race(client, players=8, first_round_opponents=2)
    rnd = race_round(client, base, token)
    paired = client.post(f"{base}/rounds", headers=auth(token)).get_json()["games"]
    losses = {s["player"]: s["losses"] for s in client.get(base).get_json()["standings"]}
    # A game whose players each end with fewer than two losses after it is turned round.
    game = next(
        g for g in rnd["games"] if losses[min(g["players"])] == 0 and losses[max(g["players"])] == 1
    )
    a, b = sorted(game["players"])
    fixed = client.put(
        f"{base}/rounds/1/games/{game['game']}", json={"winner": b}, headers=auth(token)
    )
    assert fixed.status_code == 200, fixed.get_data(as_text=True)
    changes = fixed.get_json()["changes"]
    assert any(line.startswith(f"record of {b}: ") for line in changes)
    assert changes[-1] == "round 2 was paired before this correction and is kept as it was"
    assert client.get(f"{base}/rounds/2").get_json()["games"] == paired
    assert changes[-1] in client.get(f"{base}/history").get_json()["actions"][-1]["summary"]
    assert client.post(f"{base}/undo", headers=auth(token)).status_code == 200
    result = client.get(f"{base}/rounds/1").get_json()["games"][game["game"] - 1]["result"]
    assert result["winner"] == a


# --- Puffing Billy --------------------------------------------------------------------------


def billy(client, players: str = "ABCDE") -> tuple[str, str]:
    created = client.post(BILLY, json={"players": [{"id": p} for p in players]}).get_json()
    return f"{BILLY}/{created['id']}", created["token"]


def board(client, base: str, token: str, number: int, rows: list[tuple[str, int]]):
    sheet = {"players": [{"id": p, "score": s} for p, s in rows]}
    return client.put(f"{base}/boards/{number}", json=sheet, headers=auth(token))


def test_billy_late_entrant_joins_the_preliminaries_with_no_board(client):
    base, token = billy(client)
    board(client, base, token, 1, [("A", 100), ("B", 90), ("C", 50)])
    late = client.post(f"{base}/players", json={"id": "F", "name": "Fay"}, headers=auth(token))
    assert late.status_code == 201
    assert "F" in late.get_json()["without_boards"]
    assert board(client, base, token, 2, [("F", 100), ("D", 95)]).status_code == 200
    refused(
        client,
        base,
        client.post(f"{base}/players", json={"id": "F"}, headers=auth(token)),
        422,
        "/id",
    )
    assert client.post(f"{base}/undo", headers=auth(token)).get_json()["undone"]["kind"] == (
        "board_entered"
    )
    assert client.post(f"{base}/undo", headers=auth(token)).get_json()["undone"]["kind"] == (
        "player_entered"
    )
    assert "F" not in client.get(base).get_json()["without_boards"]
    client.post(f"{base}/preliminaries/close", json={"finalists": 2}, headers=auth(token))
    after_cut = client.post(f"{base}/players", json={"id": "G"}, headers=auth(token))
    assert "preliminaries are closed" in refused(client, base, after_cut, 409)["detail"]


def test_billy_preliminary_board_corrected_in_the_final_unless_it_moves_the_cut(client):
    base, token = billy(client)
    board(client, base, token, 1, [("A", 100), ("B", 90), ("C", 50)])
    board(client, base, token, 2, [("D", 100), ("E", 95)])
    close = client.post(f"{base}/preliminaries/close", json={"finalists": 2}, headers=auth(token))
    assert close.get_json()["qualifiers"] == ["A", "D"]
    fixed = board(client, base, token, 1, [("A", 100), ("B", 80), ("C", 50)])
    assert fixed.status_code == 200 and fixed.get_json()["stage"] == "preliminary"
    changes = fixed.get_json()["changes"]
    assert "preliminary PB score of B: 2.450 → 2.400" in changes
    assert changes[-1].startswith("the cut made when the preliminaries closed stands")
    moved = board(client, base, token, 1, [("B", 100), ("A", 80), ("C", 50)])
    body = refused(client, base, moved, 409)
    assert "B would qualify" in body["detail"] and "A would no longer qualify" in body["detail"]
    assert client.post(f"{base}/undo", headers=auth(token)).get_json()["undone"]["kind"] == (
        "board_corrected"
    )
    standings = {s["id"]: s["total"] for s in client.get(base).get_json()["standings"]}
    assert standings["B"] == 2.45


# --- Meeple League ---------------------------------------------------------------------------


@dataclass
class Organisation:
    base: str
    token: str
    seats: list[list[str]]


def league_season(client, closed: bool = True) -> Organisation:
    created = client.post(LEAGUE, json={"code": "AGR", "name": "Agricola"}).get_json()
    base, token = f"{LEAGUE}/{created['id']}", created["token"]
    client.post(f"{base}/seasons", headers=auth(token))
    signups = {"players": [{"id": f"L{i}"} for i in range(7)]}
    client.post(f"{base}/seasons/1/signups", json=signups, headers=auth(token))
    client.post(f"{base}/seasons/1/form", headers=auth(token))
    games = client.get(f"{base}/seasons/1/leagues/1-A").get_json()["games"]
    for game in games:
        # L0 tops every game it plays by far; the others by their number.
        order = sorted(game["seats"], key=lambda p: int(p[1:]))
        results = [
            {"player": p, "score": 100 - 10 * i + (50 if p == "L0" else 0), "position": i + 1}
            for i, p in enumerate(order)
        ]
        url = f"{base}/seasons/1/leagues/1-A/games/{game['game']}"
        assert client.put(url, json={"results": results}, headers=auth(token)).status_code == 200
    if closed:
        assert client.post(f"{base}/seasons/1/close", headers=auth(token)).status_code == 200
    return Organisation(base, token, [g["seats"] for g in games])


def test_league_closed_season_game_corrected_when_the_order_stands(client):
    org = league_season(client)
    before = client.get(f"{org.base}/lifetime").get_json()
    order = sorted(org.seats[0], key=lambda p: int(p[1:]))
    # Same positions, a closer score: no point changes, the order stands.
    results = [
        {"player": p, "score": 100 - i + (50 if p == "L0" else 0), "position": i + 1}
        for i, p in enumerate(order)
    ]
    url = f"{org.base}/seasons/1/leagues/1-A/games/1"
    fixed = client.put(url, json={"results": results}, headers=auth(org.token))
    assert fixed.status_code == 200, fixed.get_data(as_text=True)
    assert fixed.get_json()["changes"][-1].startswith("season 1's finishing order stands")
    assert client.get(f"{org.base}/seasons/1").get_json()["status"] == "closed"
    assert client.get(f"{org.base}/lifetime").get_json() == before
    # The bottom two swap places in one game: points move, the finishing order does not.
    swapped = [dict(r) for r in results]
    swapped[-1]["position"], swapped[-2]["position"] = (
        swapped[-2]["position"],
        swapped[-1]["position"],
    )
    swapped[-1]["score"], swapped[-2]["score"] = swapped[-2]["score"], swapped[-1]["score"]
    answer = client.put(url, json={"results": swapped}, headers=auth(org.token))
    assert answer.status_code == 200, answer.get_data(as_text=True)
    changes = answer.get_json()["changes"]
    assert changes[:2] == [
        "season 1 league points of L2: 25 → 23",
        "season 1 league points of L3: 19 → 21",
    ]
    lifetime = {
        line["player"]: line for line in client.get(f"{org.base}/lifetime").get_json()["standings"]
    }
    was = {line["player"]: line for line in before["standings"]}
    assert lifetime["L3"] != was["L3"] and lifetime["L3"]["rank"] == 4  # 21 < 23: still 4th
    entry = client.get(f"{org.base}/history").get_json()["actions"][-1]
    assert entry["kind"] == "game_corrected" and "finishes" in entry["data"]
    assert changes[0] in entry["summary"]
    # Undo both corrections: the season's record is as it was closed.
    client.post(f"{org.base}/undo", headers=auth(org.token))
    client.post(f"{org.base}/undo", headers=auth(org.token))
    assert client.get(f"{org.base}/lifetime").get_json() == before


def test_league_closed_season_correction_that_moves_a_place_is_refused(client):
    org = league_season(client)
    # The middle of the table (L2 25 points, L3 19, L4 12, L5 8) turned round in their game.
    number, seats = next(
        (n, seats) for n, seats in enumerate(org.seats, 1) if set(seats) == {"L2", "L3", "L4", "L5"}
    )
    order = sorted(seats, key=lambda p: int(p[1:]))[::-1]
    results = [{"player": p, "score": 100 - 10 * i, "position": i + 1} for i, p in enumerate(order)]
    games = client.get(f"{org.base}/seasons/1/leagues/1-A").get_json()["games"]
    url = f"{org.base}/seasons/1/leagues/1-A/games/{number}"
    answer = client.put(url, json={"results": results}, headers=auth(org.token))
    body = refused(client, org.base, answer, 409)
    assert "finishing order" in body["detail"] and "undo back" in body["detail"]
    assert client.get(f"{org.base}/seasons/1/leagues/1-A").get_json()["games"] == games


def test_league_late_sign_up_after_formation_points_to_the_next_season(client):
    org = league_season(client, closed=False)
    late = client.post(
        f"{org.base}/seasons/1/signups", json={"players": [{"id": "X"}]}, headers=auth(org.token)
    )
    assert "signs up for the next season" in refused(client, org.base, late, 409)["detail"]


# --- every format: a new token, the director's list, tables to print ---------------------------


@dataclass
class Held:
    fmt: str
    base: str
    token: str
    tables: str  # a route that prints a table of this format (a round's seating, boards, ...)


def held_strikes(client) -> Held:
    base, token = strikes_event(client)
    client.post(f"{base}/rounds", headers=auth(token))
    return Held("strikes", base, token, f"{base}/rounds/1")


def held_diagonal(client) -> Held:
    base, token = race(client)
    client.post(f"{base}/rounds", headers=auth(token))
    return Held("diagonal", base, token, f"{base}/rounds/1")


def held_billy(client) -> Held:
    base, token = billy(client)
    board(client, base, token, 1, [("A", 100), ("B", 90)])
    return Held("puffing_billy", base, token, f"{base}/boards")


def held_league(client) -> Held:
    org = league_season(client, closed=False)
    return Held("league", org.base, org.token, f"{org.base}/seasons/1/leagues/1-A")


FORMATS: dict[str, Callable[..., Held]] = {
    "strikes": held_strikes,
    "diagonal": held_diagonal,
    "puffing_billy": held_billy,
    "league": held_league,
}


@pytest.fixture(params=list(FORMATS))
def held(request, client) -> Held:
    return FORMATS[request.param](client)


def test_a_new_token_replaces_the_old_one(client, held):
    before = kinds(client, held.base)
    assert_problem(client.post(f"{held.base}/token"), 401)
    assert_problem(client.post(f"{held.base}/token", headers=auth(held.token + "x")), 403)
    answer = client.post(f"{held.base}/token", headers=auth(held.token))
    assert answer.status_code == 200
    new = answer.get_json()["token"]
    assert new != held.token and len(new) >= 40
    assert answer.get_json()["revision"] == len(before) + 1
    # The old token stops working; the new one works.
    assert_problem(client.post(f"{held.base}/undo", headers=auth(held.token)), 403)
    assert_problem(client.post(f"{held.base}/token", headers=auth(held.token)), 403)
    log = client.get(f"{held.base}/history").get_json()["actions"]
    assert log[-1]["kind"] == "token_replaced" and log[-1]["data"] == {}
    assert "new director token" in log[-1]["summary"]
    for text in (
        client.get(f"{held.base}/history").get_data(as_text=True),
        client.get(f"{held.base}/export").get_data(as_text=True),
        client.get(held.base).get_data(as_text=True),
    ):
        assert new not in text and held.token not in text
    # Undo never brings the old token back: it takes back the action before.
    undone = client.post(f"{held.base}/undo", headers=auth(new)).get_json()["undone"]
    assert undone["kind"] == before[-1] and undone["kind"] != "token_replaced"
    assert_problem(client.post(f"{held.base}/undo", headers=auth(held.token)), 403)


def test_a_token_replaced_right_after_creation_leaves_nothing_to_undo(client):
    created = client.post(DIAGONAL, json={"players": [{"id": "a"}, {"id": "b"}]}).get_json()
    base = f"{DIAGONAL}/{created['id']}"
    new = client.post(f"{base}/token", headers=auth(created["token"])).get_json()["token"]
    assert (
        "nothing to undo"
        in assert_problem(client.post(f"{base}/undo", headers=auth(new)), 409)["detail"]
    )
    assert_problem(client.post(f"{DIAGONAL}/{'a' * 32}/token", headers=auth(new)), 404)


def test_the_director_lists_their_tournaments_by_their_tokens(client):
    mine = [factory(client) for factory in FORMATS.values()]
    other = held_strikes(client)  # someone else's
    tokens = [h.token for h in mine] + ["not-a-token"]
    answer = client.post("/v1/held/lookup", json={"tokens": tokens})
    assert answer.status_code == 200
    body = answer.get_json()
    listed = {t["id"]: t for t in body["tournaments"]}
    assert body["unmatched"] == [len(mine)]
    assert other.base.rsplit("/", 1)[1] not in listed
    for index, h in enumerate(mine):
        tid = h.base.rsplit("/", 1)[1]
        row = listed[tid]
        assert (row["format"], row["token"]) == (h.fmt, index)
        assert row["links"]["self"] == h.base
        assert client.get(row["links"]["history"]).status_code == 200
        assert row["revision"] == client.get(h.base).get_json()["revision"]
    statuses = {listed[h.base.rsplit("/", 1)[1]]["status"] for h in mine}
    assert statuses == {"round_open", "preliminary", "running"}
    # One token in the header.
    one = client.get("/v1/held", headers=auth(mine[1].token)).get_json()
    assert [t["format"] for t in one["tournaments"]] == ["diagonal"] and one["unmatched"] == []
    nothing = assert_problem(client.get("/v1/held", headers=auth("x" * 43)), 403)
    assert nothing["detail"] == "this token directs no tournament"


def test_the_list_refuses_bad_requests(client):
    assert_problem(client.get("/v1/held"), 401)
    assert_problem(client.post("/v1/held/lookup", json={"tokens": []}), 422, "/tokens")
    assert_problem(client.post("/v1/held/lookup", json={}), 422, "/tokens")
    assert_problem(client.post("/v1/held/lookup", json={"tokens": [1]}), 422, "/tokens/0")
    assert_problem(client.post("/v1/held/lookup", json={"tokens": ["x"] * 51}), 422, "/tokens")
    assert_problem(client.post("/v1/held/lookup", json={"tokens": ["x" * 201]}), 422, "/tokens/0")


def test_a_replaced_token_lists_nothing_and_the_new_one_does(client):
    h = held_billy(client)
    new = client.post(f"{h.base}/token", headers=auth(h.token)).get_json()["token"]
    body = client.post("/v1/held/lookup", json={"tokens": [h.token, new]}).get_json()
    assert [t["token"] for t in body["tournaments"]] == [1] and body["unmatched"] == [0]
    twice = client.post("/v1/held/lookup", json={"tokens": [new, new]}).get_json()
    assert [t["token"] for t in twice["tournaments"]] == [0] and twice["unmatched"] == []


def test_tables_print_as_csv_and_text(client, held):
    json_answer = client.get(held.tables)
    assert json_answer.mimetype == "application/json"
    for answer in (
        client.get(f"{held.tables}?format=csv"),
        client.get(held.tables, headers={"Accept": "text/csv"}),
    ):
        assert (
            answer.mimetype == "text/csv" and "attachment" in answer.headers["Content-Disposition"]
        )
        rows = list(csv.reader(io.StringIO(answer.get_data(as_text=True))))
        assert "player" in rows[0] or "player_a" in rows[0]
        assert len(rows) > 1
    for answer in (
        client.get(f"{held.tables}?format=text"),
        client.get(held.tables, headers={"Accept": "text/plain"}),
    ):
        assert answer.mimetype == "text/plain"
        lines = answer.get_data(as_text=True).splitlines()
        assert lines[0] and len(lines) > 3
    assert_problem(client.get(f"{held.tables}?format=xml"), 422, "/query/format")


def test_standings_print_as_text(client, held):
    for answer in (
        client.get(f"{held.base}/export?format=text"),
        client.get(f"{held.base}/export", headers={"Accept": "text/plain"}),
    ):
        assert answer.mimetype == "text/plain"
        text = answer.get_data(as_text=True)
        lines = text.splitlines()
        assert lines[0].endswith(": standings") and lines[1] == ""
        assert "player" in lines[2] and set(lines[3]) <= {"-", " "}
    csv_header = client.get(f"{held.base}/export?format=csv").get_data(as_text=True).split("\n")[0]
    assert lines[2].split() == csv_header.split(",")


# --- the store, on SQLite and PostgreSQL ------------------------------------------------------


def test_new_actions_never_change_a_kept_state_and_fold_back_the_same(store_app):
    """Late entry, a no-show re-seated and a replaced token, through the store: the state
    kept before each write is unchanged, and folding the log afresh gives the kept state
    after it, on both databases."""
    from pairing_service.engine.strikes.event import Entrant, Settings
    from pairing_service.engine.strikes.ledger import StrikesLedger
    from pairing_service.store import HeldStore, WrongToken

    store = store_app.extensions["pairing_store"]
    strikes = StrikesLedger(store_app.extensions["pairing_rules"].strikes)
    settings = Settings("5-4-3", 35, False, "optimize", 30, 5)
    created = strikes.created(settings, [Entrant(f"P{i}") for i in range(9)])
    held, token = store.create(strikes, "Club night", created)

    def step(decide):
        before = store.read(strikes, held.id)
        seen = [(s.player, s.strikes, s.status) for s in before.state.standings()]
        seats = [list(r.seats) for r in before.state.rounds]
        after, _ = store.write(strikes, held.id, token, decide)
        assert [(s.player, s.strikes, s.status) for s in before.state.standings()] == seen
        assert [list(r.seats) for r in before.state.rounds] == seats
        fresh = HeldStore(store.engine).read(strikes, held.id)
        assert fresh.state.standings() == after.state.standings()
        assert [r.seats for r in fresh.state.rounds] == [r.seats for r in after.state.rounds]
        return after

    step(lambda e: strikes.enter_late(e, "L1", "Late", 1000))
    started = step(strikes.start_round)
    no_show = started.state.round(1).players()[0]
    step(lambda e: strikes.reseat(e, 1, [no_show]))
    kept, new_token = store.replace_token(strikes, held.id, token)
    with pytest.raises(WrongToken):
        store.write(strikes, held.id, token, strikes.start_round)
    assert store.read(strikes, held.id) is kept and kept.revision == 5
    assert [index for index, _ in store.held_by(["x", new_token, token])] == [1]


def test_csv_cells_a_spreadsheet_would_run_as_formulas_are_written_as_text(client):
    body = {
        "players": [
            {"id": "P0", "name": '=HYPERLINK("http://x","win")'},
            {"id": "P1", "name": "@SUM(1)"},
            {"id": "P2", "name": "Ann"},
        ]
    }
    created = client.post(STRIKES, json=body).get_json()
    text = client.get(f"{STRIKES}/{created['id']}/export?format=csv").get_data(as_text=True)
    names = {row["player"]: row["name"] for row in csv.DictReader(io.StringIO(text))}
    assert names == {"P0": '\'=HYPERLINK("http://x","win")', "P1": "'@SUM(1)", "P2": "Ann"}
