"""A settings write changes the settings it names and keeps those it leaves out, in every
held format (a director changing one setting never resets another to its default)."""

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
