"""The day of the event, for every held format alike, through the HTTP API: a new director
token from the holder of the current one, the tournaments a director holds found by their
tokens, a round's seating and the standings as CSV and printable text; and the store's
kept states under the day's new actions, on SQLite and PostgreSQL.

What each format adds (late entrants, no-shows, late corrections) is in
tests/api/<format>/test_day_of_event.py. Every refusal writes nothing (the revision stays),
and each new action can be undone.
"""

from __future__ import annotations

import csv
import io

import pytest

from tests.support import assert_problem, auth
from tests.support.held_events import (
    DIAGONAL,
    FORMATS,
    STRIKES,
    Held,
    held_billy,
    held_strikes,
    kinds,
    new_token,
    undo_latest,
)


@pytest.fixture(params=list(FORMATS))
def held(request, client) -> Held:
    return FORMATS[request.param](client)


def test_a_new_token_replaces_the_old_one(client, held):
    before = kinds(client, held.base)
    assert_problem(client.post(f"{held.base}/token"), 401)
    assert_problem(client.post(f"{held.base}/token", headers=auth(held.token + "x")), 403)
    answer = new_token(client, held.base, held.token)
    assert answer.status_code == 200
    new = answer.get_json()["token"]
    assert new != held.token and len(new) >= 40
    assert answer.get_json()["revision"] == len(before) + 1
    # The old token stops working (only the rotation's key asks again: test_token_retry.py).
    assert_problem(client.post(f"{held.base}/undo", headers=auth(held.token)), 403)
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
    undone = undo_latest(client, held.base, new).get_json()["undone"]
    assert undone["kind"] == before[-1] and undone["kind"] != "token_replaced"
    assert_problem(client.post(f"{held.base}/undo", headers=auth(held.token)), 403)


def test_a_token_replaced_right_after_creation_leaves_nothing_to_undo(client):
    created = client.post(DIAGONAL, json={"players": [{"id": "a"}, {"id": "b"}]}).get_json()
    base = f"{DIAGONAL}/{created['id']}"
    new = new_token(client, base, created["token"]).get_json()["token"]
    assert (
        "nothing to undo"
        in assert_problem(client.post(f"{base}/undo", headers=auth(new)), 409)["detail"]
    )
    assert_problem(new_token(client, f"{DIAGONAL}/{'a' * 32}", new), 404)


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
    new = new_token(client, h.base, h.token).get_json()["token"]
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


def test_new_actions_never_change_a_kept_state_and_fold_back_the_same(store_app):
    """Late entry, a no-show re-seated and a replaced token, through the store: the state
    kept before each write is unchanged, and folding the log afresh gives the kept state
    after it, on both databases."""
    from pairing_service.engine.strikes.ledger import StrikesLedger
    from pairing_service.engine.strikes.records import Entrant, Settings
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
    kept, new_token = store.replace_token(strikes, held.id, token, "a-rotation-key-of-a-client")
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
