"""Backup and restore of one held event, for every format: an event run partway (results,
a correction, an undo, a new director token), backed up, imported into a second app on
another database (SQLite, and PostgreSQL where it runs), reads the same on every GET
route; the copy has its own token and takes further results; a league's players' own
reporting tokens still work. Backups are the director's; a tampered backup is refused,
naming where, and writes nothing; a retried import makes one copy."""

from __future__ import annotations

import copy
import json
import re
import threading
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

import pytest
from sqlalchemy import func, select

from pairing_service.store import schema
from tests.support import assert_problem, auth, correcting, make_app
from tests.support.held_events import (
    BILLY,
    DIAGONAL,
    LEAGUE,
    SLOTS,
    STRIKES,
    billy,
    board,
    league_season,
    new_token,
    race,
)

MAIL = "mailbox.example"


@dataclass
class Event:
    fmt: str
    collection: str
    id: str
    token: str
    values: dict[str, str]  # path parameters of its reads: number, board, league
    reporters: dict[str, str] | None = None  # a league's players' reporting tokens

    @property
    def base(self) -> str:
        return f"{self.collection}/{self.id}"


def _rotate(client, base: str, token: str) -> str:
    """A new director token (the log records it), used at once."""
    new = new_token(client, base, token).get_json()["token"]
    assert client.get("/v1/held", headers=auth(new)).status_code == 200
    return new


def _undo_last(client, base: str, token: str) -> None:
    actions = client.get(f"{base}/history").get_json()["actions"]
    latest = actions[-1]["seq"]
    assert client.post(f"{base}/undo?entry={latest}", headers=auth(token)).status_code == 200


def strikes(client) -> Event:
    players = [{"id": f"P{i}", "name": f"Player {i}"} for i in range(9)]
    made = client.post(STRIKES, json={"name": "Club night", "players": players, "seed": 1})
    event_id, token = made.get_json()["id"], made.get_json()["token"]
    base = f"{STRIKES}/{event_id}"
    tables = client.post(f"{base}/rounds", headers=auth(token)).get_json()["tables"]
    for table in tables:
        results = [{"player": p, "score": 90 - 10 * i} for i, p in enumerate(table["players"])]
        url = f"{base}/rounds/1/tables/{table['table']}"
        assert client.put(url, json={"results": results}, headers=auth(token)).status_code == 200
    first = tables[0]["players"]
    fixed = [{"player": p, "score": 10 + 10 * i} for i, p in enumerate(first)]
    url = f"{base}/rounds/1/tables/1"
    answer = client.put(url, json={"results": fixed}, headers=correcting(client, base, token))
    assert answer.status_code == 200, answer.get_json()
    assert client.post(f"{base}/rounds/1/close", headers=auth(token)).status_code == 200
    assert (
        client.post(f"{base}/players", json={"id": "late"}, headers=auth(token)).status_code == 201
    )
    _undo_last(client, base, token)
    token = _rotate(client, base, token)
    assert client.post(f"{base}/rounds", headers=auth(token)).status_code == 201
    return Event("strikes", STRIKES, event_id, token, {"number": "2"})


def diagonal(client, players: int = 8) -> Event:
    base, token = race(client, players)
    games = client.post(f"{base}/rounds", headers=auth(token)).get_json()["games"]
    for game in games:
        url = f"{base}/rounds/1/games/{game['game']}"
        body = {"winner": game["players"][0], "pieces_left": 3}
        assert client.put(url, json=body, headers=auth(token)).status_code == 200
    fixed = {"winner": games[0]["players"][1], "pieces_left": 2}
    answer = client.put(
        f"{base}/rounds/1/games/1", json=fixed, headers=correcting(client, base, token)
    )
    assert answer.status_code == 200, answer.get_json()
    assert client.post(f"{base}/rounds/1/close", headers=auth(token)).status_code == 200
    late = {"id": "late", "rating": 1500}
    assert client.post(f"{base}/players", json=late, headers=auth(token)).status_code == 201
    _undo_last(client, base, token)
    token = _rotate(client, base, token)
    assert client.post(f"{base}/rounds", headers=auth(token)).status_code == 201
    return Event("diagonal", DIAGONAL, base.rsplit("/", 1)[1], token, {"number": "2"})


def puffing_billy(client) -> Event:
    base, token = billy(client)
    assert board(client, base, token, 1, [("A", 100), ("B", 90), ("C", 40)]).status_code == 200
    assert board(client, base, token, 2, [("D", 70), ("E", 75), ("A", 10)]).status_code == 200
    again = board(client, base, token, 1, [("A", 100), ("B", 95), ("C", 20)], correcting=True)
    assert again.status_code == 200, again.get_json()
    assert client.post(f"{base}/players", json={"id": "F"}, headers=auth(token)).status_code == 201
    assert board(client, base, token, 3, [("F", 50), ("B", 60)]).status_code == 200
    _undo_last(client, base, token)
    token = _rotate(client, base, token)
    close = client.post(f"{base}/preliminaries/close", json={"finalists": 3}, headers=auth(token))
    assert close.status_code == 200, close.get_json()
    return Event("puffing_billy", BILLY, base.rsplit("/", 1)[1], token, {"board": "2"})


def _league_results(seats: list[str]) -> list[dict]:
    order = sorted(seats)
    return [{"player": p, "score": 100 - 10 * i, "position": i + 1} for i, p in enumerate(order)]


def league(client) -> Event:
    created = client.post(LEAGUE, json={"code": "AGR", "name": "Agricola"}).get_json()
    base, token = f"{LEAGUE}/{created['id']}", created["token"]
    assert client.post(f"{base}/seasons", headers=auth(token)).status_code == 201
    players = [{"id": f"m{i}", "name": f"M {i}", "email": f"m{i}@{MAIL}"} for i in range(7)]
    signed = client.post(
        f"{base}/seasons/1/signups", json={"players": players}, headers=auth(token)
    )
    assert signed.status_code == 200, signed.get_json()
    formed = client.post(f"{base}/seasons/1/form", headers=auth(token)).get_json()
    reporters = {t["player"]: t["token"] for t in formed["reporting_tokens"]}
    games = client.get(f"{base}/seasons/1/leagues/1-A").get_json()["games"]
    url = f"{base}/seasons/1/leagues/1-A/games"
    first, second = games[0], games[1]
    results = _league_results(first["seats"])  # reported by a player who played it
    reported = client.put(
        f"{url}/{first['game']}",
        json={"results": results},
        headers=auth(reporters[first["seats"][0]]),
    )
    assert reported.status_code == 200, reported.get_json()
    swapped = [dict(r, score=r["score"] + 1) for r in results]
    fixed = client.put(
        f"{url}/{first['game']}", json={"results": swapped}, headers=correcting(client, base, token)
    )
    assert fixed.status_code == 200, fixed.get_json()
    body = {"results": _league_results(second["seats"])}
    assert client.put(f"{url}/{second['game']}", json=body, headers=auth(token)).status_code == 200
    _undo_last(client, base, token)
    token = _rotate(client, base, token)
    values = {"number": "1", "league": "1-A", "player": "m0"}
    return Event("league", LEAGUE, created["id"], token, values, reporters)


SCRABBLE = "/v1/scrabble/events"


def _scrabble_game(client, base: str, token: str, number: int, game: dict) -> None:
    scores = [400 + 7 * game["game"], 380 - 3 * game["game"]]
    url = f"{base}/rounds/{number}/games/{game['game']}"
    assert client.put(url, json={"scores": scores}, headers=auth(token)).status_code == 200


def scrabble(client) -> Event:
    """Three rounds, two prize places: a correction (to a result with a penalty), a
    withdrawal, a late entrant, a forfeit, a result with penalties, the withdrawn player
    reinstated, a new token; round 3 (the advisor's) paired."""
    players = [{"id": f"S{i}", "name": f"Player {i}", "rating": 1800 - 20 * i} for i in range(9)]
    body = {"name": "Club open", "players": players, "rounds": 3, "spread_cap": 300}
    made = client.post(SCRABBLE, json={**body, "prizes": [100, 50]}).get_json()
    event_id, token = made["id"], made["token"]
    base = f"{SCRABBLE}/{event_id}"
    first = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    for game in first["games"]:
        _scrabble_game(client, base, token, 1, game)
    fixed = client.put(
        f"{base}/rounds/1/games/1",
        json={"scores": [300, 420], "penalties": [0, 10]},
        headers=correcting(client, base, token),
    )
    assert fixed.status_code == 200, fixed.get_json()
    assert client.post(f"{base}/rounds/1/close", headers=auth(token)).status_code == 200
    assert client.post(f"{base}/players/S8/drop", headers=auth(token)).status_code == 200
    late = client.post(f"{base}/players", json={"id": "late", "rating": 1500}, headers=auth(token))
    assert late.status_code == 201, late.get_json()
    second = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    forfeit = {"forfeit": second["games"][0]["players"][1]}
    url = f"{base}/rounds/2/games/1"
    assert client.put(url, json=forfeit, headers=auth(token)).status_code == 200
    for game in second["games"][1:]:
        _scrabble_game(client, base, token, 2, game)
    penalised = {"scores": [390, 410], "penalties": [20, 5]}
    url = f"{base}/rounds/2/games/2"
    assert (
        client.put(url, json=penalised, headers=correcting(client, base, token)).status_code == 200
    )
    assert client.post(f"{base}/rounds/2/close", headers=auth(token)).status_code == 200
    assert client.post(f"{base}/players/S7/drop", headers=auth(token)).status_code == 200
    _undo_last(client, base, token)
    assert client.post(f"{base}/players/S8/reinstate", headers=auth(token)).status_code == 200
    token = _rotate(client, base, token)
    assert client.post(f"{base}/rounds", headers=auth(token)).status_code == 201
    return Event("scrabble", SCRABBLE, event_id, token, {"number": "3"})


def _scrabble_kinds(client) -> Event:
    """Settings changed, a no-show paired out, an undo, a scorekeeper issued and revoked."""
    players = [{"id": f"S{i}", "rating": 1700 - 10 * i} for i in range(6)]
    made = client.post(SCRABBLE, json={"players": players, "rounds": 2}).get_json()
    base, token = f"{SCRABBLE}/{made['id']}", made["token"]
    changed = client.put(f"{base}/settings", json={"prizes": [40, None]}, headers=auth(token))
    assert changed.status_code == 200, changed.get_json()
    paired = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    no_show = paired["games"][0]["players"][0]
    again = client.post(
        f"{base}/rounds/1/reseat", json={"no_shows": [no_show]}, headers=auth(token)
    )
    assert again.status_code == 200, again.get_json()
    _undo_last(client, base, token)
    _clock_started_and_stopped(client, base, token)
    _scorekeeper_issued_and_revoked(client, base, token)
    return Event("scrabble", SCRABBLE, made["id"], token, {"number": "1"})


def _scrabble_imported(client) -> Event:
    """Rounds imported from a tsh file (a bye, a forfeit, unplayed rounds, a player marked
    off), a result of one corrected, then the next round paired by the service."""
    tsh = (
        "Able, Ann 1800 2 3 4 ; 420 390 410\n"
        "Baker, Bob 1750 1 6 5 ; 380 400 450\n"
        "Cole, Cat 1700 4 1 6 ; 350 401 380 ; penalty -20\n"
        "Dunn, Dan 1650 3 0 1 ; 300 -50 330 ; penalty 0 0 -10\n"
        "Eve, Emma 1600 0 0 2 ; 0 0 360\n"
        "Fay, Finn 1550 0 2 3 ; 50 370 390 ; off 0\n"
    )
    made = client.post(f"{SCRABBLE}/import-tsh", json={"tsh": tsh, "rounds": 5})
    assert made.status_code == 201, made.get_json()
    base, token = f"{SCRABBLE}/{made.get_json()['id']}", made.get_json()["token"]
    fixed = client.put(
        f"{base}/rounds/3/games/1",
        json={"scores": [400, 330]},
        headers=correcting(client, base, token),
    )
    assert fixed.status_code == 200, fixed.get_json()
    assert client.post(f"{base}/rounds", headers=auth(token)).status_code == 201
    return Event("scrabble", SCRABBLE, made.get_json()["id"], token, {"number": "4"})


def _scrabble_round_robin(client) -> Event:
    """A round robin (its pairing system): a round played, a player withdrawn and the next
    round's no-show paired out, their opponents given byes."""
    players = [{"id": f"S{i}", "rating": 1700 - 10 * i} for i in range(8)]
    body = {"players": players, "rounds": 7, "pairing_system": "round_robin"}
    made = client.post(SCRABBLE, json=body).get_json()
    base, token = f"{SCRABBLE}/{made['id']}", made["token"]
    first = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    for game in first["games"]:
        _scrabble_game(client, base, token, 1, game)
    assert client.post(f"{base}/rounds/1/close", headers=auth(token)).status_code == 200
    assert client.post(f"{base}/players/S7/drop", headers=auth(token)).status_code == 200
    second = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    assert len(second["sat_out"]) == 1  # S7's opponent
    no_show = {"no_shows": [second["games"][0]["players"][0]]}
    again = client.post(f"{base}/rounds/2/reseat", json=no_show, headers=auth(token))
    assert again.status_code == 200 and len(again.get_json()["sat_out"]) == 2
    return Event("scrabble", SCRABBLE, made["id"], token, {"number": "2"})


BUILDERS = {
    "scrabble": scrabble,
    "strikes": strikes,
    "diagonal": diagonal,
    "puffing_billy": puffing_billy,
    "league": league,
}


@pytest.fixture(params=["sqlite", "postgresql"])
def other_app(request, tmp_path):
    """A second instance, on a database of its own."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path}/copy.sqlite3"
    else:
        url = request.getfixturevalue("postgres_url")
    made = make_app(url)
    yield made
    made.extensions["pairing_store"].engine.dispose()


def tournaments(app) -> int:
    with app.extensions["pairing_store"].engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(schema.tournaments)).scalar_one()


def _reads(client, event: Event) -> list[str]:
    """Every GET route of the event's format (OpenAPI), and its public pages, filled."""
    document = client.get("/openapi.json").get_json()
    prefix = event.collection + "/{tournament_id}"
    urls = []
    values = {"tournament_id": event.id, **event.values}
    for path, operations in document["paths"].items():
        # The scorekeepers' list is the copy's own: a backup carries no scorekeeper tokens,
        # so on the copy they are revoked (test_results_a_scorekeeper_entered_...).
        if path.endswith("/scorekeepers"):
            continue
        if "get" in operations and path.startswith(prefix):
            urls.append(re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], path))
    page = f"/events/{event.fmt.replace('_', '-')}/{event.id}"
    return [*urls, page, f"{page}/slips"]


TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(\+00:00|Z)?")
REQUEST = re.compile(r"urn:pairing-advisor:request:[0-9a-f]+")
VARIANTS = ({}, {"Accept": "text/plain"}, {"Accept": "text/csv"})


def _answers(client, event: Event) -> dict[tuple[str, str, bool], tuple[int, str, str | None]]:
    """Every read of the event, public and the director's, in every form it has; the
    event's id (and paths) written as ``ID``."""
    answers = {}
    for url in _reads(client, event):
        for variant in VARIANTS:
            for director in (False, True):
                headers = {**variant, **(auth(event.token) if director else {})}
                answer = client.get(url, headers=headers)
                text = answer.get_data(as_text=True).replace(event.id, "ID")
                text = REQUEST.sub("request", text)  # a problem names its request
                key = (url.replace(event.id, "ID"), json.dumps(variant), director)
                answers[key] = (answer.status_code, text, answer.headers.get("ETag"))
    return answers


def _backup(client, event: Event) -> dict:
    answer = client.get(f"{event.base}/backup", headers=auth(event.token))
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.headers["Cache-Control"] == "private, no-store"
    return answer.get_json()


def _import(client, collection: str, document: dict, **headers: str):
    return client.post(f"{collection}/import", json=document, headers=headers)


@pytest.mark.parametrize("fmt", sorted(BUILDERS))
def test_a_restored_event_reads_the_same_everywhere_and_plays_on(app, other_app, fmt):
    client, other = app.test_client(), other_app.test_client()
    event = BUILDERS[fmt](client)
    document = _backup(client, event)
    assert document["format"] == "pairing-advisor-backup" and document["version"] == 1
    kinds = [entry["kind"] for entry in document["log"]]
    assert {"undone", "token_replaced"} <= set(kinds)
    assert any(kind.endswith("_corrected") for kind in kinds)

    answer = _import(other, event.collection, document)
    assert answer.status_code == 201, answer.get_data(as_text=True)
    made = answer.get_json()
    assert made["id"] != event.id and made["tournament"]["id"] == made["id"]
    assert answer.headers["Location"].endswith(f"{event.collection}/{made['id']}")
    restored = Event(
        fmt, event.collection, made["id"], made["token"], event.values, event.reporters
    )

    original, copied = _answers(client, event), _answers(other, restored)
    assert original.keys() == copied.keys()
    assert sum(status == 200 for status, _, _ in original.values()) >= 20
    for key, expected in original.items():
        assert copied[key] == expected, key
    # The director's list finds the copy by its token, as it stands.
    listed = other.get("/v1/held", headers=auth(restored.token)).get_json()
    (held,) = listed["tournaments"]
    assert held["id"] == restored.id and held["revision"] == document["tournament"]["revision"]
    # The backup of the copy is the backup.
    assert _backup(other, restored) == document
    # Tokens: the old one is refused on the copy, the new one is refused on the original.
    assert other.post(f"{restored.base}/undo", headers=auth(event.token)).status_code == 403
    assert client.post(f"{event.base}/undo", headers=auth(restored.token)).status_code == 403
    # The copy plays on, exactly as the original does.
    for side, played in ((client, event), (other, restored)):
        assert _play_on(side, played) == 200
    # The same reads again, but for the times of the entries just logged.
    after, copied_after = _answers(client, event), _answers(other, restored)
    assert after != original
    for key, (status, text, tag) in after.items():
        assert copied_after[key][0] == status and copied_after[key][2] == tag, key
        assert TIME.sub("T", copied_after[key][1]) == TIME.sub("T", text), key


def _play_on(client, event: Event) -> int:
    """One more action of the format, with the director token (a league: a player's own
    reporting token, issued before the backup)."""
    base, headers = event.base, auth(event.token)
    if event.fmt == "strikes":
        table = client.get(f"{base}/rounds/2").get_json()["tables"][0]
        results = [{"player": p, "place": i + 1} for i, p in enumerate(table["players"])]
        return client.put(
            f"{base}/rounds/2/tables/{table['table']}", json={"results": results}, headers=headers
        ).status_code
    if event.fmt == "diagonal":
        game = client.get(f"{base}/rounds/2").get_json()["games"][0]
        body = {"winner": game["players"][-1], "pieces_left": 1}
        url = f"{base}/rounds/2/games/{game['game']}"
        return client.put(url, json=body, headers=headers).status_code
    if event.fmt == "scrabble":
        game = client.get(f"{base}/rounds/3").get_json()["games"][0]
        url = f"{base}/rounds/3/games/{game['game']}"
        return client.put(url, json={"scores": [410, 395]}, headers=headers).status_code
    if event.fmt == "puffing_billy":
        qualifiers = client.get(base).get_json()["qualifiers"]
        rows = [(p, 300 - 10 * i) for i, p in enumerate(qualifiers)]
        return board(client, base, event.token, 4, rows).status_code
    games = client.get(f"{base}/seasons/1/leagues/1-A").get_json()["games"]
    game = next(g for g in games if g["results"] is None)
    results = _league_results(game["seats"])
    reporters = event.reporters or {}
    token = reporters.get(game["seats"][0], event.token)
    url = f"{base}/seasons/1/leagues/1-A/games/{game['game']}"
    return client.put(url, json={"results": results}, headers=auth(token)).status_code


def test_a_leagues_players_report_with_their_own_tokens_on_the_copy(app, tmp_path):
    client = app.test_client()
    event = league(client)
    other_app = make_app(f"sqlite:///{tmp_path}/copy.sqlite3")
    other = other_app.test_client()
    made = _import(other, LEAGUE, _backup(client, event)).get_json()
    base = f"{LEAGUE}/{made['id']}"
    games = other.get(f"{base}/seasons/1/leagues/1-A").get_json()["games"]
    game = next(g for g in games if g["results"] is None)
    reporter = next(iter(event.reporters or {}))
    outsider = next(p for p in event.reporters or {} if p not in game["seats"])
    url = f"{base}/seasons/1/leagues/1-A/games/{game['game']}"
    body = {"results": _league_results(game["seats"])}
    assert other.put(url, json=body, headers=auth(event.reporters[outsider])).status_code == 403
    player = game["seats"][1]
    answer = other.put(url, json=body, headers=auth(event.reporters[player]))
    assert answer.status_code == 200, answer.get_json()
    actions = other.get(f"{base}/history").get_json()["actions"]
    assert actions[-1]["actor"] == player and reporter in event.reporters
    other_app.extensions["pairing_store"].engine.dispose()


@pytest.mark.parametrize("held", ["strikes", "puffing_billy"])
def test_results_a_scorekeeper_entered_restore_and_their_tokens_do_not(app, tmp_path, held):
    """The history names the scorekeepers as it did; on the copy they are listed revoked
    (a backup holds no token) and the director's next one is numbered on."""
    client = app.test_client()
    slot = SLOTS[held](client)
    issued = client.post(
        f"{slot.base}/scorekeepers", json={"name": "Desk"}, headers=auth(slot.token)
    )
    keeper = issued.get_json()
    assert client.put(slot.url, json=slot.first, headers=auth(keeper["token"])).status_code == 200
    client.delete(f"{slot.base}/scorekeepers/1", headers=auth(slot.token))
    document = client.get(f"{slot.base}/backup", headers=auth(slot.token)).get_json()
    assert keeper["token"] not in json.dumps(document) and "Desk" not in json.dumps(document)
    other_app = make_app(f"sqlite:///{tmp_path}/copy.sqlite3")
    other = other_app.test_client()
    collection = slot.base.rsplit("/", 1)[0]
    made = _import(other, collection, document)
    assert made.status_code == 201, made.get_json()
    base, token = f"{collection}/{made.get_json()['id']}", made.get_json()["token"]
    original = client.get(f"{slot.base}/history").get_json()["actions"]
    copied = other.get(f"{base}/history").get_json()["actions"]
    assert [(a["kind"], a["actor"]) for a in copied] == [(a["kind"], a["actor"]) for a in original]
    (listed,) = other.get(f"{base}/scorekeepers", headers=auth(token)).get_json()["scorekeepers"]
    assert listed["number"] == 1 and listed["revoked_at"] is not None
    url = slot.url.replace(slot.base, base)
    assert other.put(url, json=slot.second, headers=auth(keeper["token"])).status_code == 403
    again = other.post(f"{base}/scorekeepers", json={"name": "Desk"}, headers=auth(token))
    assert again.get_json()["number"] == 2
    # A result logged by a scorekeeper the log never issued is refused.
    forged = copy.deepcopy(document)
    index, entered = next((i, e) for i, e in enumerate(forged["log"]) if e["actor"] != "director")
    entered["actor"] = "scorekeeper 9"
    assert_problem(_import(other, collection, forged), 422, f"/log/{index}/actor")
    other_app.extensions["pairing_store"].engine.dispose()


@pytest.mark.parametrize("fmt", sorted(BUILDERS))
def test_only_the_director_reads_a_backup(client, fmt):
    event = BUILDERS[fmt](client)
    other = BUILDERS[fmt](client)
    assert_problem(client.get(f"{event.base}/backup"), 401)
    assert_problem(client.get(f"{event.base}/backup", headers=auth(other.token)), 403)
    assert_problem(client.get(f"{event.base}/backup", headers=auth("not-a-token")), 403)
    missing = f"{event.collection}/{uuid.uuid4().hex}/backup"
    assert_problem(client.get(missing, headers=auth(event.token)), 404)
    document = _backup(client, event)
    assert event.token not in json.dumps(document)
    if fmt == "league":  # what the copy needs, which no other read answers
        assert f"m3@{MAIL}" in json.dumps(document)
        formed = next(e for e in document["log"] if e["kind"] == "season_formed")
        assert len(formed["data"]["reporters"]) == 7


def _tampered(client) -> tuple[str, dict]:
    event = strikes(client)
    return event.collection, _backup(client, event)


def _entry(document: dict, kind: str) -> int:
    return next(i for i, e in enumerate(document["log"]) if e["kind"] == kind)


def _refuse(document: dict, where: str) -> dict:
    """Each way of tampering: what it does to the document, and where the problem is."""
    changed = copy.deepcopy(document)
    log = changed["log"]
    if where == "strikes":  # a table's strikes that its places do not give
        index = _entry(changed, "result_entered")
        log[index]["data"]["results"][0]["strikes"] = "7/2"
        return changed
    if where == "closed-early":  # the round closed before its results
        index = _entry(changed, "result_entered")
        log.insert(index, {**log[_entry(changed, "round_closed")], "seq": index + 1})
        for seq, entry in enumerate(log, start=1):
            entry["seq"] = seq
        changed["tournament"]["revision"] += 1
        return changed
    if where == "unknown-kind":
        log[1]["kind"] = "round_won"
    if where == "missing-key":
        del log[1]["data"]["seats"]
    if where == "undo-of-nothing":
        index = _entry(changed, "undone")
        log[index]["data"]["entry"] = 1
    if where == "player-acts":
        log[1]["actor"] = "P1"
    if where == "seq":
        log[2]["seq"] = 7
    if where == "format":
        changed["tournament"]["format"] = "diagonal"
    if where == "version":
        changed["version"] = 2
    if where == "document":
        changed["format"] = "something-else"
    if where == "no-log":
        del changed["log"]
    if where == "revision":
        changed["tournament"]["revision"] = 2
    if where == "truncated":
        changed["log"] = log[1:]
    if where in MISTYPED_OR_MISDATED:
        _mistype_or_misdate(changed, where)
    return changed


MISTYPED_OR_MISDATED = {
    "version-as-text",
    "seq-as-text",
    "entry-in-1970",
    "entry-in-2100",
    "entry-before-creation",
    "created-in-1970",
    "created-in-2100",
}


def _mistype_or_misdate(changed: dict, where: str) -> None:
    """A number sent as text, or a history dated outside the event's life."""
    log = changed["log"]
    if where == "version-as-text":
        changed["version"] = "1"
    if where == "seq-as-text":
        log[2]["seq"] = "3"
    if where == "entry-in-1970":
        log[2]["at"] = "1970-01-01T00:00:00+00:00"
    if where == "entry-in-2100":
        log[2]["at"] = "2100-01-01T00:00:00+00:00"
    if where == "entry-before-creation":
        created = datetime.fromisoformat(changed["tournament"]["created_at"])
        log[2]["at"] = (created - timedelta(seconds=1)).isoformat()
    if where == "created-in-1970":  # the whole history dated then
        for entry in [changed["tournament"], *log]:
            key = "created_at" if entry is changed["tournament"] else "at"
            entry[key] = "1970-01-01T00:00:00+00:00"
    if where == "created-in-2100":
        changed["tournament"]["created_at"] = "2100-01-01T00:00:00+00:00"


TAMPERED = {
    "strikes": "/log/2",
    "closed-early": "/log/2",
    "unknown-kind": "/log/1/kind",
    "missing-key": "/log/1/data",
    "undo-of-nothing": None,  # the undo's index differs by format; the detail names it
    "player-acts": "/log/1/actor",
    "seq": "/log/2/seq",
    "format": "/tournament/format",
    "version": "/version",
    "document": "/format",
    "no-log": "/log",
    "revision": "/tournament/revision",
    "truncated": "/log/0/seq",
    "version-as-text": "/version",
    "seq-as-text": "/log/2/seq",
    "entry-in-1970": "/log/2/at",
    "entry-in-2100": "/log/2/at",
    "entry-before-creation": "/log/2/at",
    "created-in-1970": "/tournament/created_at",
    "created-in-2100": "/tournament/created_at",
}


@pytest.mark.parametrize("where", sorted(TAMPERED))
def test_a_tampered_backup_is_refused_naming_where_and_writes_nothing(app, client, where):
    collection, document = _tampered(client)
    before = tournaments(app)
    answer = _import(client, collection, _refuse(document, where))
    problem = assert_problem(answer, 422, TAMPERED[where])
    if where == "undo-of-nothing":
        index = _entry(document, "undone")
        assert problem["errors"][0]["pointer"] == f"/log/{index}"
        assert "undone" in problem["detail"]
    assert tournaments(app) == before
    # The document untouched imports.
    assert _import(client, collection, document).status_code == 201


def test_a_backup_from_a_clock_a_minute_ahead_still_imports(app, client):
    """Two instances' clocks differ a little: a backup made on one a minute ahead of this
    one, restored at once, is within the event's life."""
    collection, document = _tampered(client)
    ahead = copy.deepcopy(document)
    for entry in [ahead["tournament"], *ahead["log"]]:
        key = "created_at" if entry is ahead["tournament"] else "at"
        entry[key] = (datetime.fromisoformat(entry[key]) + timedelta(minutes=1)).isoformat()
    assert _import(client, collection, ahead).status_code == 201


def test_a_backup_that_is_not_json_is_a_400(app, client):
    collection, document = _tampered(client)
    text = json.dumps(document)
    answer = client.post(
        f"{collection}/import", data=text[: len(text) // 2], content_type="application/json"
    )
    assert_problem(answer, 400)
    assert tournaments(app) == 1


def test_a_backup_of_another_format_is_refused_at_its_import(app, client):
    _, document = _tampered(client)
    problem = assert_problem(_import(client, DIAGONAL, document), 422, "/tournament/format")
    assert "strikes" in problem["detail"]
    assert tournaments(app) == 1


def test_a_retried_import_answers_the_same_copy(app, client):
    collection, document = _tampered(client)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = _import(client, collection, document, **key)
    assert first.status_code == 201
    again = _import(client, collection, document, **key)
    assert again.status_code == 201
    assert again.get_json() == first.get_json()
    assert again.headers["Location"] == first.headers["Location"]
    assert tournaments(app) == 2
    other = {**document, "tournament": {**document["tournament"], "name": "Renamed"}}
    assert_problem(_import(client, collection, other, **key), 422)
    assert _import(client, collection, document).status_code == 201  # no key: a new copy
    assert tournaments(app) == 3


# --- every kind of every format's log -----------------------------------------------------


def _strikes_kinds(client) -> Event:
    """Drops, a re-seat for a no-show, and the kinds of ``strikes``."""
    event = strikes(client)
    base, token = event.base, event.token
    seated = client.get(f"{base}/rounds/2").get_json()["tables"][0]["players"]
    answer = client.post(
        f"{base}/rounds/2/reseat", json={"no_shows": [seated[0]]}, headers=auth(token)
    )
    assert answer.status_code == 200, answer.get_json()
    _clock_started_and_stopped(client, base, token)
    for table in client.get(f"{base}/rounds/2").get_json()["tables"]:
        results = [{"player": p, "place": i + 1} for i, p in enumerate(table["players"])]
        url = f"{base}/rounds/2/tables/{table['table']}"
        assert client.put(url, json={"results": results}, headers=auth(token)).status_code == 200
    assert client.post(f"{base}/rounds/2/close", headers=auth(token)).status_code == 200
    standing = client.get(base).get_json()["standings"]
    still_in = next(s["player"] for s in standing if s["status"] == "active")
    dropped = client.post(f"{base}/players/{still_in}/drop", headers=auth(token))
    assert dropped.status_code == 200, dropped.get_json()
    _scorekeeper_issued_and_revoked(client, base, token)
    back = client.post(f"{base}/players/{still_in}/reinstate", headers=auth(token))
    assert back.status_code == 200, back.get_json()
    return event


def _strikes_settings(client) -> Event:
    """Settings changed before the first result, then a round."""
    players = [{"id": f"P{i}"} for i in range(9)]
    made = client.post(STRIKES, json={"players": players, "seed": 1}).get_json()
    base, token = f"{STRIKES}/{made['id']}", made["token"]
    body = {"threshold": 30, "late_entry_strikes": "mean"}
    assert client.put(f"{base}/settings", json=body, headers=auth(token)).status_code == 200
    assert client.post(f"{base}/rounds", headers=auth(token)).status_code == 201
    return Event("strikes", STRIKES, made["id"], token, {"number": "1"})


def _diagonal_settings(client) -> Event:
    base, token = race(client)
    body = {"late_entry_losses": "fewest"}
    assert client.put(f"{base}/settings", json=body, headers=auth(token)).status_code == 200
    assert client.post(f"{base}/rounds", headers=auth(token)).status_code == 201
    return Event("diagonal", DIAGONAL, base.rsplit("/", 1)[1], token, {"number": "1"})


def _clock_started_and_stopped(client, base: str, token: str) -> None:
    """The open round's clock started, then stopped (store entries the state ignores)."""
    started = client.post(f"{base}/clock", json={"minutes": 40}, headers=auth(token))
    assert started.status_code == 200, started.get_json()
    assert client.delete(f"{base}/clock", headers=auth(token)).status_code == 200


def _scorekeeper_issued_and_revoked(client, base: str, token: str) -> None:
    issued = client.post(f"{base}/scorekeepers", json={"name": "Desk"}, headers=auth(token))
    assert issued.status_code == 201, issued.get_json()
    number = issued.get_json()["number"]
    revoked = client.delete(f"{base}/scorekeepers/{number}", headers=auth(token))
    assert revoked.status_code == 200


def _diagonal_kinds(client) -> Event:
    event = diagonal(client, players=16)
    base, token = event.base, event.token
    playing = client.get(f"{base}/rounds/2").get_json()["games"][0]["players"]
    answer = client.post(
        f"{base}/rounds/2/reseat", json={"no_shows": [playing[0]]}, headers=auth(token)
    )
    assert answer.status_code == 200, answer.get_json()
    _clock_started_and_stopped(client, base, token)
    for game in client.get(f"{base}/rounds/2").get_json()["games"]:
        url = f"{base}/rounds/2/games/{game['game']}"
        body = {"winner": game["players"][0], "pieces_left": 1}
        assert client.put(url, json=body, headers=auth(token)).status_code == 200
    assert client.post(f"{base}/rounds/2/close", headers=auth(token)).status_code == 200
    standing = client.get(base).get_json()["standings"]
    still_in = next(s["player"] for s in standing if s["status"] == "active")
    dropped = client.post(f"{base}/players/{still_in}/drop", headers=auth(token))
    assert dropped.status_code == 200, dropped.get_json()
    _scorekeeper_issued_and_revoked(client, base, token)
    back = client.post(f"{base}/players/{still_in}/reinstate", headers=auth(token))
    assert back.status_code == 200, back.get_json()
    return event


def _billy_kinds(client) -> Event:
    created = client.post(BILLY, json={"players": [{"id": p} for p in "ABCD"]}).get_json()
    base, token = f"{BILLY}/{created['id']}", created["token"]
    counted = {"preliminary_boards_counted": 1}
    assert client.put(f"{base}/settings", json=counted, headers=auth(token)).status_code == 200
    assert board(client, base, token, 1, [("A", 100), ("B", 90)]).status_code == 200
    assert board(client, base, token, 2, [("C", 80), ("D", 70)]).status_code == 200
    close = client.post(f"{base}/preliminaries/close", json={"finalists": 2}, headers=auth(token))
    assert close.status_code == 200, close.get_json()
    finalists = client.get(base).get_json()["qualifiers"]
    rows = [(p, 200 - 10 * i) for i, p in enumerate(finalists)]
    assert board(client, base, token, 3, rows).status_code == 200
    assert client.post(f"{base}/final/close", headers=auth(token)).status_code == 200
    _scorekeeper_issued_and_revoked(client, base, token)
    return Event("puffing_billy", BILLY, created["id"], token, {"board": "3"})


def _league_kinds(client) -> Event:
    org = league_season(client, closed=True, reported=True)
    base, token = org.base, org.token
    games = client.get(f"{base}/seasons/1/leagues/1-A").get_json()["games"]
    game = games[-1]
    bumped = [dict(r, score=r["score"] + 1) for r in game["results"]]
    for result in bumped:
        result.pop("dropped_out", None)
    url = f"{base}/seasons/1/leagues/1-A/games/{game['game']}"
    fixed = client.put(url, json={"results": bumped}, headers=correcting(client, base, token))
    assert fixed.status_code == 200, fixed.get_json()
    edit = {"name": "Lee", "email": "lee@example.org"}
    assert client.put(f"{base}/players/L0", json=edit, headers=auth(token)).status_code == 200
    short = {"short_games": {"mode": "three_player", "points": [9, 5, 2]}}
    assert client.post(f"{base}/seasons", json=short, headers=auth(token)).status_code == 201
    dropped = {"short_games": {"mode": "dropped_out"}}
    changed = client.put(f"{base}/seasons/2/settings", json=dropped, headers=auth(token))
    assert changed.status_code == 200, changed.get_json()
    event_id = base.rsplit("/", 1)[1]
    return Event(
        "league", LEAGUE, event_id, token, {"number": "1", "league": "1-A", "player": "L0"}
    )


def _league_token_reissued(client) -> Event:
    org = league_season(client, closed=False, reported=False)
    headers = {**auth(org.token), "Idempotency-Key": str(uuid.uuid4())}
    reissued = client.post(f"{org.base}/seasons/1/players/L0/token", headers=headers)
    assert reissued.status_code == 200, reissued.get_json()
    # The copy gets a director token of its own, which the players' tokens were not
    # derived from: its letters show placeholders, as the original's do once replaced.
    rotated = new_token(client, org.base, org.token)
    assert rotated.status_code == 200, rotated.get_json()
    event_id = org.base.rsplit("/", 1)[1]
    values = {"number": "1", "league": "1-A", "player": "L0"}
    return Event("league", LEAGUE, event_id, rotated.get_json()["token"], values)


KINDS = {
    "strikes": (strikes, _strikes_kinds, _strikes_settings),
    "diagonal": (diagonal, _diagonal_kinds, _diagonal_settings),
    "puffing_billy": (puffing_billy, _billy_kinds),
    "league": (league, _league_kinds, _league_token_reissued),
    "scrabble": (scrabble, _scrabble_kinds, _scrabble_imported, _scrabble_round_robin),
}


@pytest.mark.parametrize("fmt", sorted(KINDS))
def test_every_kind_of_entry_restores_on_the_same_instance(app, client, fmt):
    ledger = app.extensions["pairing_ledgers"][fmt]
    seen: set[str] = set()
    for build in KINDS[fmt]:
        event = build(client)
        document = _backup(client, event)
        seen |= {entry["kind"] for entry in document["log"]}
        answer = _import(client, event.collection, document)
        assert answer.status_code == 201, answer.get_data(as_text=True)
        made = answer.get_json()
        restored = Event(fmt, event.collection, made["id"], made["token"], event.values)
        assert _backup(client, restored) == document
        assert _answers(client, restored) == _answers(client, event)
    # Every kind the format logs was restored (a kind added later needs its replay); a
    # league's players have their own tokens, it issues no scorekeepers; only formats
    # played in rounds run a round's clock.
    logged = set(ledger.events.events)
    if fmt == "league":
        logged -= {"scorekeeper_added", "scorekeeper_revoked"}
    if fmt in ("league", "puffing_billy"):
        logged -= {"clock_started", "clock_stopped"}
    assert seen == logged


# --- an entry the rules refuse, in every format -------------------------------------------


def _first(document: dict, *kinds: str) -> tuple[int, dict]:
    index = next(i for i, e in enumerate(document["log"]) if e["kind"] in kinds)
    return index, document["log"][index]


def _break_a_rule(fmt: str, document: dict) -> int:
    """Change one entry of the backup so that the format's rules refuse it; its index."""
    if fmt == "strikes":  # a table the round does not have
        index, entry = _first(document, "result_entered")
        entry["data"]["table"] = 99
    elif fmt == "diagonal":  # a winner who did not play the game
        index, entry = _first(document, "result_entered")
        entry["data"]["winner"] = "R-nobody"
    elif fmt == "puffing_billy":  # a placement its score does not give
        index, entry = _first(document, "board_entered")
        entry["data"]["players"][0]["placement"] = "9.000"
    elif fmt == "scrabble":  # a game the round does not have
        index, entry = _first(document, "result_entered")
        entry["data"]["game"] = 99
    else:  # a report by a player who did not play the game
        index, entry = _first(document, "game_reported")
        seats = {r["player"] for r in entry["data"]["results"]}
        entry["actor"] = next(f"m{i}" for i in range(7) if f"m{i}" not in seats)
    return index


@pytest.mark.parametrize("fmt", sorted(BUILDERS))
def test_an_entry_the_rules_refuse_fails_the_whole_import(app, client, fmt):
    event = BUILDERS[fmt](client)
    document = _backup(client, event)
    before = tournaments(app)
    index = _break_a_rule(fmt, document)
    problem = assert_problem(_import(client, event.collection, document), 422, f"/log/{index}")
    assert problem["rule"] == "backup-replays"
    assert f"entry {index + 1} (" in problem["detail"]
    assert tournaments(app) == before


def test_a_key_the_log_does_not_know_is_refused_not_copied(app, client):
    collection, document = _tampered(client)
    changed = copy.deepcopy(document)
    changed["log"][0]["data"]["players"][2]["email"] = f"p2@{MAIL}"
    problem = assert_problem(
        _import(client, collection, changed), 422, "/log/0/data/players/2/email"
    )
    assert problem["rule"] == "backup-replays"
    assert tournaments(app) == 1


def test_racing_imports_with_one_key_make_one_copy(store_app):
    client = store_app.test_client()
    collection, document = _tampered(client)
    headers = {"Idempotency-Key": str(uuid.uuid4())}
    answers: list = []

    def restore() -> None:
        answer = store_app.test_client().post(
            f"{collection}/import", json=document, headers=headers
        )
        answers.append((answer.status_code, answer.get_json()))

    threads = [threading.Thread(target=restore) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {status for status, _ in answers} == {201}
    assert len({(made["id"], made["token"]) for _, made in answers}) == 1
    assert tournaments(store_app) == 2  # the original and one copy


def test_an_entry_no_request_could_have_made_is_refused(app, client):
    collection, document = _tampered(client)
    # A creation the create's schema refuses (the rules alone would take it).
    changed = copy.deepcopy(document)
    changed["log"][0]["data"]["settings"]["plans"] = 10**9
    problem = assert_problem(_import(client, collection, changed), 422, "/log/0/data")
    assert "/plans" in problem["detail"] and problem["rule"] == "backup-replays"
    # A league sign-up with an address no sign-up takes.
    event = league(client)
    document = _backup(client, event)
    index, entry = _first(document, "signed_up")
    entry["data"]["players"][1]["email"] = "not an address"
    problem = assert_problem(_import(client, LEAGUE, document), 422, f"/log/{index}/data")
    assert "/players/1/email" in problem["detail"]
    assert tournaments(app) == 2  # the two originals


def test_a_scrabble_result_with_penalties_restores_and_a_bad_one_is_refused(app, client):
    event = scrabble(client)
    document = _backup(client, event)
    penalised = [e for e in document["log"] if e["data"].get("penalties")]
    assert [e["data"]["penalties"] for e in penalised] == [[0, 10], [20, 5]]
    answer = _import(client, SCRABBLE, document)
    assert answer.status_code == 201, answer.get_data(as_text=True)
    made = answer.get_json()
    restored = Event("scrabble", SCRABBLE, made["id"], made["token"], event.values)
    standings = client.get(restored.base).get_json()["standings"]
    assert standings == client.get(event.base).get_json()["standings"]
    game = client.get(f"{restored.base}/rounds/2").get_json()["games"][1]
    assert game["result"]["scores"] == [390, 410] and game["result"]["penalties"] == [20, 5]
    before = tournaments(app)
    for bad in ([-5, 0], [0, 1.5], [0, 501]):
        changed = copy.deepcopy(document)
        index = changed["log"].index(penalised[1])
        changed["log"][index]["data"]["penalties"] = bad
        problem = assert_problem(_import(client, SCRABBLE, changed), 422, f"/log/{index}/data")
        assert "/penalties" in problem["detail"] and problem["rule"] == "backup-replays"
    assert tournaments(app) == before
