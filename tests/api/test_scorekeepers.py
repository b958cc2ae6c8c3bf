"""Scorekeepers: a director issues tokens that enter results and nothing else, limited to
one round if the director says so, and revokes them; the history names the scorekeeper as
the actor of each result they entered, never their token or the director's label."""

from __future__ import annotations

import re
import uuid

import pytest

from pairing_service.api.held.blueprint import WRITER
from tests.support import assert_problem, auth, correcting
from tests.support.held_events import SLOTS, Slot, race, scrabble_event, strikes_event

RESULT_FORMATS = ("strikes", "diagonal", "puffing_billy", "scrabble")


@pytest.fixture(params=RESULT_FORMATS)
def slot(request, client) -> Slot:
    return SLOTS[request.param](client)


def issue(client, base: str, token: str, **body):
    return client.post(
        f"{base}/scorekeepers", json={"name": "Desk by the door", **body}, headers=auth(token)
    )


def history(client, base: str) -> list[dict]:
    return client.get(f"{base}/history").get_json()["actions"]


def test_a_scorekeeper_enters_results_and_the_history_names_them(client, slot):
    issued = issue(client, slot.base, slot.token)
    assert issued.status_code == 201, issued.get_json()
    keeper = issued.get_json()
    assert keeper["number"] == 1 and keeper["round"] is None and keeper["revoked_at"] is None
    entered = client.put(slot.url, json=slot.first, headers=auth(keeper["token"]))
    assert entered.status_code == 200, entered.get_json()
    actions = history(client, slot.base)
    assert actions[-1]["actor"] == "scorekeeper 1"
    assert actions[-2]["kind"] == "scorekeeper_added" and actions[-2]["actor"] == "director"
    public = client.get(f"{slot.base}/history").get_data(as_text=True)
    assert keeper["token"] not in public and "Desk by the door" not in public


def _director_writes(app, base: str, fmt_prefix: str) -> list[tuple[str, str]]:
    """Every write of the format that needs the director token, as (method, path) with
    the tournament's id and 1 (or a player) in the other parts of the path."""
    tournament_id = base.rsplit("/", 1)[1]
    found = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(fmt_prefix + "/<"):
            continue
        view = app.view_functions[rule.endpoint]
        for method in sorted((rule.methods or set()) - {"GET", "HEAD", "OPTIONS"}):
            marked = getattr(getattr(view, "view_class", None), method.lower(), None)
            if getattr(marked, WRITER, None) in ("director", "others"):
                path = rule.rule.replace("<hex32:tournament_id>", tournament_id)
                path = re.sub(r"<player_id:\w+>", "P0", path)
                found.append((method, re.sub(r"<int[^>]*>", "1", path)))
    return found


def test_a_scorekeepers_token_is_refused_for_every_other_write(app, client):
    base, token = strikes_event(client)
    client.post(f"{base}/rounds", headers=auth(token))
    keeper = issue(client, base, token).get_json()
    writes = _director_writes(app, base, "/v1/strikes/tournaments")
    paths = {path.removeprefix(base) for _, path in writes}
    assert {"/undo", "/token", "/rounds", "/rounds/1/close", "/scorekeepers"} <= paths
    before = len(history(client, base))
    for method, path in writes:
        answer = client.open(path, method=method, json={}, headers=auth(keeper["token"]))
        body = assert_problem(answer, 403)
        assert "enters results and nothing else" in body["detail"], (method, path)
    assert len(history(client, base)) == before


def test_a_revoked_token_is_refused_and_its_results_stand(client, slot):
    keeper = issue(client, slot.base, slot.token).get_json()
    assert client.put(slot.url, json=slot.first, headers=auth(keeper["token"])).status_code == 200
    revoked = client.delete(f"{slot.base}/scorekeepers/1", headers=auth(slot.token))
    assert revoked.status_code == 200 and revoked.get_json()["revoked_at"] is not None
    again = client.delete(f"{slot.base}/scorekeepers/1", headers=auth(slot.token))
    assert again.get_json() == revoked.get_json()  # revoking twice writes nothing more
    kinds = [a["kind"] for a in history(client, slot.base)]
    assert kinds.count("scorekeeper_revoked") == 1
    refused = client.put(slot.url, json=slot.second, headers=auth(keeper["token"]))
    assert "revoked" in assert_problem(refused, 403)["detail"]
    assert history(client, slot.base)[-2]["actor"] == "scorekeeper 1"  # the result stands


def test_a_token_for_one_round_enters_that_rounds_results_only(client):
    base, token = race(client)
    game = client.post(f"{base}/rounds", headers=auth(token)).get_json()["games"][0]
    keeper = issue(client, base, token, round=2).get_json()
    assert keeper["round"] == 2
    result = {"winner": game["players"][0], "pieces_left": 2}
    url = f"{base}/rounds/1/games/{game['game']}"
    refused = client.put(url, json=result, headers=auth(keeper["token"]))
    assert "round 2 only" in assert_problem(refused, 403)["detail"]
    every_round = issue(client, base, token, name="Second desk").get_json()
    assert client.put(url, json=result, headers=auth(every_round["token"])).status_code == 200
    assert history(client, base)[-1]["actor"] == "scorekeeper 2"


def test_boards_have_no_rounds_to_limit_a_token_to(client):
    slot = SLOTS["puffing_billy"](client)
    assert_problem(issue(client, slot.base, slot.token, round=1), 422, "/round")


def test_only_the_director_lists_scorekeepers_and_never_sees_a_token(client, slot):
    keeper = issue(client, slot.base, slot.token).get_json()
    url = f"{slot.base}/scorekeepers"
    assert_problem(client.get(url), 401)
    assert_problem(client.get(url, headers=auth(keeper["token"])), 403)
    other = SLOTS["strikes"](client)
    assert_problem(client.get(url, headers=auth(other.token)), 403)
    listed = client.get(url, headers=auth(slot.token))
    assert listed.status_code == 200
    (shown,) = listed.get_json()["scorekeepers"]
    assert shown["name"] == "Desk by the door" and "token" not in shown


def test_issuing_with_an_idempotency_key_is_safe_to_retry(client, slot):
    key = {"Idempotency-Key": str(uuid.uuid4())}
    body = {"name": "Desk by the door"}
    headers = {**auth(slot.token), **key}
    first = client.post(f"{slot.base}/scorekeepers", json=body, headers=headers)
    retried = client.post(f"{slot.base}/scorekeepers", json=body, headers=headers)
    assert first.status_code == retried.status_code == 201
    assert retried.get_json() == first.get_json()
    kinds = [a["kind"] for a in history(client, slot.base)]
    assert kinds.count("scorekeeper_added") == 1
    assert (
        client.put(slot.url, json=slot.first, headers=auth(first.get_json()["token"])).status_code
        == 200
    )
    other_body = client.post(
        f"{slot.base}/scorekeepers", json={"name": "Another desk"}, headers=headers
    )
    assert_problem(other_body, 422)


def test_a_league_has_no_scorekeepers(client):
    slot = SLOTS["league"](client)
    assert client.post(f"{slot.base}/scorekeepers", json={"name": "x"}).status_code in (404, 405)


def _strikes_sheet(players: list[str], reverse: bool) -> dict:
    order = players[::-1] if reverse else players
    return {"results": [{"player": p, "score": 50 - i} for i, p in enumerate(order)]}


def _race_sheet(players: list[str], reverse: bool) -> dict:
    return {"winner": players[-1 if reverse else 0], "pieces_left": 2}


def _scrabble_sheet(players: list[str], reverse: bool) -> dict:
    return {"scores": [380, 420] if reverse else [420, 380]}


# A format run round by round: how it is made, where a round's results go, and a result.
ROUNDS = {
    "strikes": (strikes_event, "tables", "table", _strikes_sheet),
    "diagonal": (race, "games", "game", _race_sheet),
    "scrabble": (scrabble_event, "games", "game", _scrabble_sheet),
}


@pytest.mark.parametrize("fmt", sorted(ROUNDS))
def test_a_scorekeeper_cannot_correct_a_closed_round(client, fmt):
    make, where, key, sheet = ROUNDS[fmt]
    base, token = make(client)
    seated = client.post(f"{base}/rounds", headers=auth(token)).get_json()[where]
    round_one = issue(client, base, token, round=1).get_json()["token"]
    every_round = issue(client, base, token, name="Second desk").get_json()["token"]
    urls = {}
    for item in seated:
        if len(item["players"]) < 2:  # a bye
            continue
        urls[item[key]] = (f"{base}/rounds/1/{where}/{item[key]}", item["players"])
        url, players = urls[item[key]]
        entered = client.put(url, json=sheet(players, False), headers=auth(round_one))
        assert entered.status_code == 200, entered.get_json()
    assert client.post(f"{base}/rounds/1/close", headers=auth(token)).status_code == 200
    url, players = next(iter(urls.values()))
    for started in (False, True):
        if started:
            assert client.post(f"{base}/rounds", headers=auth(token)).status_code == 201
        before = history(client, base)
        for keeper in (round_one, every_round):
            late = client.put(
                url, json=sheet(players, True), headers=correcting(client, base, keeper)
            )
            detail = assert_problem(late, 403)["detail"]
            assert "round 1 is closed" in detail and "director" in detail
            # What stands, sent again (a retry of a lost answer): done, nothing written.
            again = client.put(url, json=sheet(players, False), headers=auth(keeper))
            assert again.status_code == 200, again.get_json()
        assert history(client, base) == before
    # The director corrects it (or is told why not by the rules, never as a scorekeeper).
    fixed = client.put(url, json=sheet(players, True), headers=correcting(client, base, token))
    assert fixed.status_code in (200, 409), fixed.get_json()


def test_a_scorekeeper_cannot_correct_a_preliminary_board_after_the_cut(client):
    slot = SLOTS["puffing_billy"](client)
    keeper = issue(client, slot.base, slot.token).get_json()["token"]
    assert client.put(slot.url, json=slot.first, headers=auth(keeper)).status_code == 200
    second = f"{slot.base}/boards/2"
    board_two = {"players": [{"id": p, "score": 100 - i} for i, p in enumerate("CDE")]}
    assert client.put(second, json=board_two, headers=auth(keeper)).status_code == 200
    closed = client.post(
        f"{slot.base}/preliminaries/close", json={"finalists": 2}, headers=auth(slot.token)
    )
    assert closed.status_code == 200, closed.get_json()
    before = history(client, slot.base)
    late = client.put(slot.url, json=slot.second, headers=correcting(client, slot.base, keeper))
    detail = assert_problem(late, 403)["detail"]
    assert "preliminaries are closed" in detail and "director" in detail
    assert client.put(slot.url, json=slot.first, headers=auth(keeper)).status_code == 200
    assert history(client, slot.base) == before


def test_a_scorekeeper_reads_what_their_own_token_may_enter(client, slot):
    """The phone page asks with the scorekeeper's token which round it enters; the answer
    names neither another token nor the director's label, and other tokens are refused."""
    by_round = "/rounds/" in slot.url  # boards have no rounds to limit a token to
    body = {"round": 1} if by_round else {}
    first = issue(client, slot.base, slot.token, **body).get_json()
    other = issue(client, slot.base, slot.token, name="Second desk").get_json()
    own = client.get(f"{slot.base}/scorekeepers/me", headers=auth(first["token"]))
    assert own.status_code == 200, own.get_json()
    expected_round = 1 if by_round else None
    assert own.get_json() == {"number": 1, "round": expected_round, "revoked": False}
    text = own.get_data(as_text=True)
    assert other["token"] not in text and "Desk by the door" not in text
    client.delete(f"{slot.base}/scorekeepers/1", headers=auth(slot.token))
    again = client.get(f"{slot.base}/scorekeepers/me", headers=auth(first["token"]))
    assert again.get_json()["revoked"] is True
    director = client.get(f"{slot.base}/scorekeepers/me", headers=auth(slot.token))
    assert_problem(director, 403)
    assert_problem(client.get(f"{slot.base}/scorekeepers/me"), 401)
