"""One round of independent writes for each held format, for the server tests.

A workload creates a tournament over HTTP and lists its writes, each with a key: a table
(strikes), a game (Diagonal Race, a held Scrabble event), a board (Puffing Billy) or a
league game (Meeple League). ``shown`` reads back which
keys have a result, ``logged`` counts the log's result entries per key, and ``finish``
closes the round once every write is in.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from .servers import call, logged_actions

Write = tuple[str, dict[str, Any]]  # path, body of a PUT


@dataclass
class Held:
    fmt: str
    base: str  # the tournament's path
    token: str
    writes: dict[int, Write]
    games: dict[tuple[str, int], int] | None = None  # league: (league, game) -> key


def create(base_url: str, fmt: str, size: int) -> Held:
    if fmt == "strikes":
        players = [{"id": f"P{i:03d}"} for i in range(size)]
        body = {"players": players, "seed": 9}
        status, created = call(base_url, "POST", "/v1/strikes/tournaments", body)
        assert status == 201, created
        path = f"/v1/strikes/tournaments/{created['id']}"
        status, rnd = call(base_url, "POST", path + "/rounds", token=created["token"])
        assert status == 201, rnd
        writes = {
            t["table"]: (
                f"{path}/rounds/1/tables/{t['table']}",
                {
                    "results": [
                        {"player": p, "score": 500 - 37 * i} for i, p in enumerate(t["players"])
                    ]
                },
            )
            for t in rnd["tables"]
        }
    elif fmt == "diagonal":
        players = [{"id": f"P{i:03d}", "rating": 2000 - i} for i in range(size)]
        status, created = call(base_url, "POST", "/v1/diagonal/events", {"players": players})
        assert status == 201, created
        path = f"/v1/diagonal/events/{created['id']}"
        status, rnd = call(base_url, "POST", path + "/rounds", token=created["token"])
        assert status == 201, rnd
        writes = {
            g["game"]: (
                f"{path}/rounds/1/games/{g['game']}",
                {"winner": g["players"][g["game"] % 2], "pieces_left": g["game"] % 7},
            )
            for g in rnd["games"]
        }
    elif fmt == "scrabble":
        players = [{"id": f"P{i:03d}", "rating": 2000 - i} for i in range(size)]
        body = {"name": "Club open", "players": players, "rounds": 4}
        status, created = call(base_url, "POST", "/v1/scrabble/events", body)
        assert status == 201, created
        path = f"/v1/scrabble/events/{created['id']}"
        status, rnd = call(base_url, "POST", path + "/rounds", token=created["token"])
        assert status == 201, rnd
        writes = {
            g["game"]: (
                f"{path}/rounds/1/games/{g['game']}",
                {"scores": [350 + 13 * (g["game"] % 9), 400 - 11 * (g["game"] % 5)]},
            )
            for g in rnd["games"]
        }
    elif fmt == "league":
        return _league(base_url, size)
    else:
        players = [{"id": f"P{i:03d}"} for i in range(size)]
        status, created = call(base_url, "POST", "/v1/puffing-billy/events", {"players": players})
        assert status == 201, created
        path = f"/v1/puffing-billy/events/{created['id']}"
        writes = {
            board: (
                f"{path}/boards/{board}",
                {
                    "players": [
                        {"id": p["id"], "score": 1000 * (board % 5 + 1) - 90 * i}
                        for i, p in enumerate(players[4 * (board - 1) : 4 * board])
                    ]
                },
            )
            for board in range(1, size // 4 + 1)
        }
    return Held(fmt, path, created["token"], writes)


def _league(base_url: str, size: int) -> Held:
    """A season of ``size`` players formed; the writes are its game reports (organiser)."""
    status, created = call(base_url, "POST", "/v1/league/organisations", {"code": "AGR"})
    assert status == 201, created
    path, token = f"/v1/league/organisations/{created['id']}", created["token"]
    assert call(base_url, "POST", path + "/seasons", token=token)[0] == 201
    signups = {"players": [{"id": f"P{i:03d}"} for i in range(size)]}
    assert call(base_url, "POST", path + "/seasons/1/signups", signups, token)[0] == 200
    status, season = call(base_url, "POST", path + "/seasons/1/form", token=token)
    assert status == 200, season
    writes: dict[int, Write] = {}
    games: dict[tuple[str, int], int] = {}
    for lg in season["leagues"]:
        status, league = call(base_url, "GET", f"{path}/seasons/1/leagues/{lg['league']}")
        for game in league["games"]:
            key = len(writes) + 1
            games[(lg["league"], game["game"])] = key
            results = [
                {"player": p, "score": 100 - 9 * i - key % 5, "position": i + 1}
                for i, p in enumerate(game["seats"])
            ]
            writes[key] = (
                f"{path}/seasons/1/leagues/{lg['league']}/games/{game['game']}",
                {"results": results},
            )
    return Held("league", path, token, writes, games)


def shown(base_url: str, held: Held) -> dict[int, Any]:
    """Key -> the result as read back (only keys that have one)."""
    if held.fmt == "strikes":
        status, rnd = call(base_url, "GET", held.base + "/rounds/1")
        assert status == 200
        return {
            t["table"]: [r["player"] for r in t["result"]] for t in rnd["tables"] if t["result"]
        }
    if held.fmt in ("diagonal", "scrabble"):
        status, rnd = call(base_url, "GET", held.base + "/rounds/1")
        assert status == 200
        return {g["game"]: g["result"] for g in rnd["games"] if g["result"]}
    if held.fmt == "league":
        assert held.games is not None
        found = {}
        for league in {name for name, _ in held.games}:
            status, read = call(base_url, "GET", f"{held.base}/seasons/1/leagues/{league}")
            assert status == 200
            for game in read["games"]:
                if game["results"]:
                    found[held.games[(league, game["game"])]] = game["results"]
        return found
    status, boards = call(base_url, "GET", held.base + "/boards")
    assert status == 200
    return {b["board"]: [e["id"] for e in b["players"]] for b in boards["boards"]}


def expected(held: Held, key: int) -> Any:
    """What ``shown`` must give for a key once its write is in."""
    body = held.writes[key][1]
    if held.fmt == "strikes":
        return [r["player"] for r in body["results"]]
    if held.fmt == "diagonal":
        return body
    if held.fmt == "scrabble":
        won_by = abs(body["scores"][0] - body["scores"][1])  # a game played
        return {**body, "penalties": [0, 0], "forfeit": None, "spread": won_by}
    if held.fmt == "league":
        return [{**row, "dropped_out": False} for row in body["results"]]  # as read back
    return [p["id"] for p in body["players"]]


KEY = {"strikes": "table", "diagonal": "game", "scrabble": "game", "puffing_billy": "board"}


def logged(database_url: str, held: Held) -> Counter[int]:
    """Key -> how many result entries (entered, reported or corrected) the log holds."""
    tid = held.base.rsplit("/", 1)[1]

    def key(data: dict[str, Any]) -> int:
        if held.games is not None:
            return held.games[(data["league"], data["game"])]
        return int(data[KEY[held.fmt]])

    return Counter(
        key(data)
        for kind, data in logged_actions(database_url, tid)
        if kind.endswith(("_entered", "_reported", "_corrected"))
    )


def finish(base_url: str, held: Held) -> tuple[int, Any]:
    """Close the round (or the preliminaries) once every write is in."""
    if held.fmt == "puffing_billy":
        return call(
            base_url, "POST", held.base + "/preliminaries/close", {"finalists": 4}, held.token
        )
    if held.fmt == "league":
        return call(base_url, "POST", held.base + "/seasons/1/close", token=held.token)
    return call(base_url, "POST", held.base + "/rounds/1/close", token=held.token)
