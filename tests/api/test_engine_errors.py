"""Every error an engine raises on purpose is answered in one place, by its kind: a refusal
of input at its field (422), a state that does not allow the action (409), an actor who may
not take it (403), something that is not there (404); any other kind is the service's own
fault, a logged 500 that says nothing of the engine's message."""

from __future__ import annotations

import pytest
from flask import Flask

from pairing_service.engine.errors import Conflict, FieldError, NotFound, NotPermitted
from pairing_service.engine.matching import NoPerfectMatching
from pairing_service.engine.scrabble.tsh import TshError


@pytest.mark.parametrize(
    ("raised", "status"),
    [
        (FieldError(("players", 2, "rating"), "must be a number"), 422),
        (Conflict("the round is closed"), 409),
        (NotPermitted("only a player of the game reports it"), 403),
        (NotFound("there is no table 9"), 404),
        (NoPerfectMatching("only 3 of 4 pairs can be formed"), 500),
        (TshError(3, "a score is missing"), 500),
    ],
)
def test_an_engine_error_is_answered_by_its_kind(
    app: Flask, raised: Exception, status: int
) -> None:
    @app.get("/raise-for-test")
    def raise_it() -> str:
        raise raised

    answer = app.test_client().get("/raise-for-test")
    assert answer.status_code == status
    assert answer.mimetype == "application/problem+json"
    detail = answer.get_json()["detail"]
    if status == 500:
        assert str(raised) not in detail  # the engine's words are for the log, not the client
    elif status == 422:
        assert answer.get_json()["errors"][0]["pointer"].endswith("/players/2/rating")
    else:
        assert detail == str(raised)
