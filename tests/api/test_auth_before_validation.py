"""A held write checks its token before its body: 401 without one, 403 with another
tournament's, 404 for no such tournament, and only then 422 for a bad body, so an
unauthenticated caller learns nothing about the body it sent."""

from __future__ import annotations

import pytest

from tests.support import auth
from tests.support.held_events import FORMATS

BAD = {"results": "not a list", "players": 7, "no_shows": 3}
# A write of each format whose body the BAD one breaks.
WRITES = {
    "scrabble": "/players",
    "strikes": "/players",
    "diagonal": "/players",
    "puffing_billy": "/players",
    "league": "/seasons/1/signups",
}


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_the_token_is_checked_before_the_body(client, fmt):
    assert set(WRITES) == set(FORMATS)
    held = FORMATS[fmt](client)
    other = FORMATS[fmt](client)
    write = held.base + WRITES[fmt]
    assert client.post(write, json=BAD).status_code == 401
    assert client.post(write, json=BAD, headers=auth(other.token)).status_code == 403
    unknown = held.base.rsplit("/", 1)[0] + "/" + "0" * 32 + WRITES[fmt]
    assert client.post(unknown, json=BAD, headers=auth(held.token)).status_code == 404
    answered = client.post(write, json=BAD, headers=auth(held.token))
    assert answered.status_code == 422  # the body is read only now


def test_a_players_report_is_refused_early_only_without_a_token(client):
    league = FORMATS["league"](client)
    game = f"{league.base}/seasons/1/leagues/1-A/games/1"
    assert client.put(game, json=BAD).status_code == 401
    # Any token may be a player's: the body is read, then the token judged.
    assert client.put(game, json=BAD, headers=auth("someone")).status_code == 422
