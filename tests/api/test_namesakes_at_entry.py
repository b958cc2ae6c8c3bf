"""A late entrant whose name another player has is accepted and warned of, in every held
format (two people may share a name; the organiser tells them apart); the answers to
requests that enter nobody carry no warning."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.api.test_settings_and_entries import CASES
from tests.support import auth

LATE_ENTRANT = {"id": "late", "name": "player 2", "rating": 1500}  # Player 2 is p2


def late_entrant(fmt: str) -> dict[str, object]:
    """The late entry's body: Diagonal and Scrabble entrants carry a rating."""
    if fmt in ("diagonal", "scrabble"):
        return LATE_ENTRANT
    return {key: LATE_ENTRANT[key] for key in ("id", "name")}


@pytest.mark.parametrize("fmt", sorted(CASES))
def test_a_late_entrant_who_shares_a_name_is_entered_and_warned_of(
    client: FlaskClient, fmt: str
) -> None:
    collection, create, *_ = CASES[fmt]
    made = client.post(collection, json=create).get_json()
    tid, token = made["id"], made["token"]
    entered = client.post(
        f"{collection}/{tid}/players", json=late_entrant(fmt), headers=auth(token)
    )
    assert entered.status_code == 201, entered.get_json()
    (warning,) = entered.get_json()["warnings"]
    assert warning.startswith("2 players are entered as 'Player 2' (p2, late)"), warning
    read = client.get(f"{collection}/{tid}").get_json()
    assert read["warnings"] == []  # a read enters nobody
    other = {**late_entrant(fmt), "id": "late2", "name": "Someone Else"}
    second = client.post(f"{collection}/{tid}/players", json=other, headers=auth(token))
    assert second.status_code == 201, second.get_json()
    # The namesakes entered before are not the new entrant's: nothing to warn of now.
    assert second.get_json()["warnings"] == []
