"""A settings write changes the settings it names and keeps those it leaves out, in every
held format (a director changing one setting never resets another to its default); and
namesakes are warned of when an event is created."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.support import auth

PLAYERS = [{"id": f"p{i}", "name": f"Player {i}", "rating": 2000 - 10 * i} for i in range(8)]
# format: (collection, create body, the write, what the read keeps, what it changes)
CASES: dict[str, tuple[str, dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]] = {
    "strikes": (
        "/v1/strikes/tournaments",
        {"players": [{"id": p["id"], "name": p["name"]} for p in PLAYERS], "threshold": 35},
        {"late_entry_strikes": "fewest"},
        {"threshold": 35},
        {"late_entry_strikes": "fewest"},
    ),
    "diagonal": (
        "/v1/diagonal/events",
        {"players": PLAYERS, "late_entry_losses": "fewest"},
        {},
        {"late_entry_losses": "fewest"},
        {},
    ),
    "puffing_billy": (
        "/v1/puffing-billy/events",
        {
            "players": [{"id": p["id"], "name": p["name"]} for p in PLAYERS],
            "preliminary_boards_counted": 3,
            "finals_scoring": "close_play",
        },
        {"preliminary_boards_counted": 2},
        {"finals_scoring": "close_play"},
        {"preliminary_boards_counted": 2},
    ),
    "scrabble": (
        "/v1/scrabble/events",
        {"players": PLAYERS, "rounds": 7, "victors": 3},
        {"repeats_allowed": 1},
        {"victors": 3},
        {"repeats_allowed": 1},
    ),
}


@pytest.mark.parametrize("fmt", sorted(CASES))
def test_a_settings_write_keeps_the_settings_it_leaves_out(client: FlaskClient, fmt: str) -> None:
    collection, create, change, kept, changed = CASES[fmt]
    made = client.post(collection, json=create)
    assert made.status_code == 201, made.get_json()
    tid, token = made.get_json()["id"], made.get_json()["token"]
    written = client.put(f"{collection}/{tid}/settings", json=change, headers=auth(token))
    assert written.status_code == 200, written.get_json()
    read = client.get(f"{collection}/{tid}").get_json()
    for field, value in {**kept, **changed}.items():
        assert read[field] == value, field


@pytest.mark.parametrize("fmt", sorted(CASES))
def test_namesakes_are_warned_of_when_an_event_is_created(client: FlaskClient, fmt: str) -> None:
    collection, create, *_ = CASES[fmt]
    players = [dict(p) for p in create["players"]]
    players[3]["name"] = players[1]["name"].upper()  # two people called Player 1
    made = client.post(collection, json={**create, "players": players})
    assert made.status_code == 201, made.get_json()
    (warning,) = made.get_json()["warnings"]
    assert "'Player 1' (p1, p3)" in warning
    plain = client.post(collection, json=create).get_json()
    assert plain["warnings"] == []


def test_league_sign_ups_warn_of_a_name_a_new_player_shares(client: FlaskClient) -> None:
    from tests.api.league.test_organisations import League

    league = League(client)
    assert league.organiser("post", "/seasons").status_code == 201
    first = league.organiser(
        "post", "/seasons/1/signups", {"players": [{"id": "ann", "name": "Ann"}]}
    )
    assert first.get_json()["warnings"] == []
    second = league.organiser(
        "post", "/seasons/1/signups", {"players": [{"id": "ann2", "name": "Ann"}, {"id": "bo"}]}
    )
    assert second.status_code == 200, second.get_json()
    (warning,) = second.get_json()["warnings"]
    assert warning.startswith("2 players are entered as 'Ann' (ann, ann2)")
