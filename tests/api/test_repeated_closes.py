"""One contract for every format: closing what is closed already (a round, the
preliminaries with the same cut, the final, a league season) answers 200 as done and
writes nothing, as a repeated result does; closing it differently is a 409."""

from __future__ import annotations

from tests.support import assert_problem, auth
from tests.support.held_events import (
    billy,
    board,
    kinds,
    league_season,
    race,
    scrabble_event,
    strikes_event,
)


def twice(client, url: str, token: str, **body) -> list[int]:
    sent = {"json": body} if body else {}
    return [client.post(url, headers=auth(token), **sent).status_code for _ in range(2)]


def test_a_closed_round_closes_again_as_done(client):
    for make, result in (
        (
            strikes_event,
            lambda t: {
                "results": [{"player": p, "score": 9 - i} for i, p in enumerate(t["players"])]
            },
        ),
        (race, lambda g: {"winner": g["players"][0], "pieces_left": 1}),
        (scrabble_event, lambda g: {"scores": [420, 380]}),
    ):
        base, token = make(client)
        started = client.post(f"{base}/rounds", headers=auth(token)).get_json()
        for place in started.get("tables") or started.get("games"):
            at = f"tables/{place['table']}" if "table" in place else f"games/{place['game']}"
            assert (
                client.put(
                    f"{base}/rounds/1/{at}", json=result(place), headers=auth(token)
                ).status_code
                == 200
            )
        assert twice(client, f"{base}/rounds/1/close", token) == [200, 200]
        assert kinds(client, base).count("round_closed") == 1


def test_puffing_billy_closes_again_as_done_and_refuses_another_cut(client):
    base, token = billy(client, "ABCD")
    board(client, base, token, 1, [("A", 100), ("B", 90)])
    board(client, base, token, 2, [("C", 100), ("D", 90)])
    assert twice(client, f"{base}/preliminaries/close", token, finalists=2) == [200, 200]
    assert kinds(client, base).count("preliminaries_closed") == 1
    other_cut = client.post(
        f"{base}/preliminaries/close", json={"finalists": 3}, headers=auth(token)
    )
    assert "with 2 to qualify" in assert_problem(other_cut, 409)["detail"]
    board(client, base, token, 3, [("A", 100), ("C", 90)])
    assert twice(client, f"{base}/final/close", token) == [200, 200]
    assert kinds(client, base).count("final_closed") == 1


def test_a_closed_league_season_closes_again_as_done(client):
    org = league_season(client, closed=True)
    assert client.post(f"{org.base}/seasons/1/close", headers=auth(org.token)).status_code == 200
    assert kinds(client, org.base).count("season_closed") == 1
