"""Held tournaments of every format made through the API, for the day-of-event tests: one
of each (``FORMATS``), the history's kinds and the revision, a refusal that writes
nothing, an undo of the latest action and a new director token, made as a client must
(naming the entry; with an Idempotency-Key)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass

from pairing_service.engine.event_log import STORE_KINDS
from tests.support import assert_problem, auth, if_match

STRIKES = "/v1/strikes/tournaments"
DIAGONAL = "/v1/diagonal/events"
BILLY = "/v1/puffing-billy/events"
LEAGUE = "/v1/league/organisations"
SCRABBLE = "/v1/scrabble/events"


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


def latest_entry(client, base: str) -> int | None:
    """The seq of the latest action still in effect (what an undo takes back), if any."""
    actions = client.get(f"{base}/history").get_json()["actions"][1:]  # the creation stays
    live = [
        a["seq"]
        for a in actions
        if a["undone_by"] is None and a["kind"] != "undone" and a["kind"] not in STORE_KINDS
    ]
    return live[-1] if live else None


def undo_latest(client, base: str, token: str, headers: dict[str, str] | None = None):
    """Undo the latest action still in effect, naming it (``?entry=``) as an undo must;
    with nothing left to undo, an undo that names none (409)."""
    latest = latest_entry(client, base)
    url = f"{base}/undo" if latest is None else f"{base}/undo?entry={latest}"
    return client.post(url, headers={**auth(token), **(headers or {})})


def new_token(client, base: str, token: str):
    """A new director token, asked for with an Idempotency-Key, as a rotation must be."""
    key = {"Idempotency-Key": str(uuid.uuid4())}
    return client.post(f"{base}/token", headers={**auth(token), **key})


def strikes_event(client, players: int = 9, **settings) -> tuple[str, str]:
    body = {"name": "Club night", "players": [{"id": f"P{i}"} for i in range(players)]}
    created = client.post(STRIKES, json={**body, "seed": 1, **settings}).get_json()
    return f"{STRIKES}/{created['id']}", created["token"]


def race(client, players: int = 8, rated: bool = True, **settings) -> tuple[str, str]:
    field = [
        {"id": f"R{i}", **({"rating": 1700 - 10 * i} if rated else {})} for i in range(players)
    ]
    created = client.post(DIAGONAL, json={"players": field, **settings}).get_json()
    return f"{DIAGONAL}/{created['id']}", created["token"]


def scrabble_event(client, players: int = 8, rounds: int = 4) -> tuple[str, str]:
    field = [{"id": f"W{i}", "rating": 1900 - 20 * i} for i in range(players)]
    body = {"name": "Club open", "players": field, "rounds": rounds}
    created = client.post(SCRABBLE, json=body).get_json()
    return f"{SCRABBLE}/{created['id']}", created["token"]


def billy(client, players: str = "ABCDE") -> tuple[str, str]:
    created = client.post(BILLY, json={"players": [{"id": p} for p in players]}).get_json()
    return f"{BILLY}/{created['id']}", created["token"]


def board(
    client, base: str, token: str, number: int, rows: list[tuple[str, int]], correcting=False
):
    """Enter a board; ``correcting``: at the event's current revision, as a correction of
    a board that stands must be."""
    sheet = {"players": [{"id": p, "score": s} for p, s in rows]}
    headers = {**auth(token), **(if_match(client, base) if correcting else {})}
    return client.put(f"{base}/boards/{number}", json=sheet, headers=headers)


@dataclass
class Organisation:
    base: str
    token: str
    seats: list[list[str]]


def league_season(client, closed: bool = True, reported: bool = True) -> Organisation:
    created = client.post(LEAGUE, json={"code": "AGR", "name": "Agricola"}).get_json()
    base, token = f"{LEAGUE}/{created['id']}", created["token"]
    client.post(f"{base}/seasons", headers=auth(token))
    signups = {"players": [{"id": f"L{i}"} for i in range(7)]}
    client.post(f"{base}/seasons/1/signups", json=signups, headers=auth(token))
    client.post(f"{base}/seasons/1/form", headers=auth(token))
    games = client.get(f"{base}/seasons/1/leagues/1-A").get_json()["games"]
    for game in games if reported else ():
        # L0 tops every game it plays by far; the others by their number.
        order = sorted(game["seats"], key=lambda p: int(p[1:]))
        results = [
            {"player": p, "score": 100 - 10 * i + (50 if p == "L0" else 0), "position": i + 1}
            for i, p in enumerate(order)
        ]
        url = f"{base}/seasons/1/leagues/1-A/games/{game['game']}"
        assert client.put(url, json={"results": results}, headers=auth(token)).status_code == 200
    if closed and reported:
        assert client.post(f"{base}/seasons/1/close", headers=auth(token)).status_code == 200
    return Organisation(base, token, [g["seats"] for g in games])


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


def held_scrabble(client) -> Held:
    base, token = scrabble_event(client)
    client.post(f"{base}/rounds", headers=auth(token))
    return Held("scrabble", base, token, f"{base}/rounds/1")


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
    "scrabble": held_scrabble,
}


@dataclass
class Slot:
    """Somewhere a result is entered, empty, and two different results for it."""

    base: str
    token: str
    url: str
    first: dict
    second: dict


def strikes_slot(client) -> Slot:
    base, token = strikes_event(client)
    players = client.post(f"{base}/rounds", headers=auth(token)).get_json()["tables"][0]["players"]

    def sheet(order: list[str]) -> dict:
        return {"results": [{"player": p, "score": 50 - i} for i, p in enumerate(order)]}

    url = f"{base}/rounds/1/tables/1"
    return Slot(base, token, url, sheet(players), sheet(players[::-1]))


def diagonal_slot(client) -> Slot:
    base, token = race(client)
    game = client.post(f"{base}/rounds", headers=auth(token)).get_json()["games"][0]
    a, b = game["players"]
    url = f"{base}/rounds/1/games/{game['game']}"
    return Slot(base, token, url, {"winner": a, "pieces_left": 2}, {"winner": b, "pieces_left": 1})


def scrabble_slot(client) -> Slot:
    base, token = scrabble_event(client)
    game = client.post(f"{base}/rounds", headers=auth(token)).get_json()["games"][0]
    url = f"{base}/rounds/1/games/{game['game']}"
    return Slot(base, token, url, {"scores": [420, 380]}, {"scores": [380, 420]})


def billy_slot(client) -> Slot:
    base, token = billy(client)

    def sheet(rows: list[tuple[str, int]]) -> dict:
        return {"players": [{"id": p, "score": s} for p, s in rows]}

    first, second = sheet([("A", 100), ("B", 90)]), sheet([("B", 100), ("A", 90)])
    return Slot(base, token, f"{base}/boards/1", first, second)


def league_slot(client) -> Slot:
    org = league_season(client, reported=False)
    seats = org.seats[0]

    def sheet(order: list[str]) -> dict:
        return {
            "results": [
                {"player": p, "score": 90 - 10 * i, "position": i + 1} for i, p in enumerate(order)
            ]
        }

    url = f"{org.base}/seasons/1/leagues/1-A/games/1"
    return Slot(org.base, org.token, url, sheet(seats), sheet(seats[::-1]))


SLOTS: dict[str, Callable[..., Slot]] = {
    "strikes": strikes_slot,
    "diagonal": diagonal_slot,
    "puffing_billy": billy_slot,
    "league": league_slot,
    "scrabble": scrabble_slot,
}
