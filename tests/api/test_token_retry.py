"""A new director token is safe to retry, for every held format: when the answer to
``POST …/token`` is lost, the same request with the old token answers the same new token,
writing nothing, until the new token is first used; then the old token is refused for
good. Another tournament's token never gets it."""

from __future__ import annotations

import pytest

from tests.support import assert_problem, auth
from tests.support.held_events import FORMATS, Held, held_strikes, kinds


@pytest.fixture(params=sorted(FORMATS))
def held(request, client) -> Held:
    return FORMATS[request.param](client)


def rotate(client, held: Held, token: str):
    return client.post(f"{held.base}/token", headers=auth(token))


def test_a_retry_with_the_old_token_answers_the_same_new_token(client, held):
    first = rotate(client, held, held.token)
    assert first.status_code == 200
    history = kinds(client, held.base)
    for _ in range(2):  # the answer was lost, and lost again
        again = rotate(client, held, held.token)
        assert again.status_code == 200, again.get_json()
        assert again.get_json() == first.get_json()
    assert kinds(client, held.base) == history  # nothing written by the retries
    assert history.count("token_replaced") == 1
    # The old token does nothing else meanwhile.
    assert_problem(client.post(f"{held.base}/undo", headers=auth(held.token)), 403)


def test_the_old_token_dies_once_the_new_one_is_used(client, held):
    new = rotate(client, held, held.token).get_json()["token"]
    assert client.post(f"{held.base}/undo", headers=auth(new)).status_code == 200
    assert_problem(rotate(client, held, held.token), 403)
    assert_problem(client.post(f"{held.base}/undo", headers=auth(held.token)), 403)


@pytest.mark.parametrize(
    "use",
    [
        lambda client, held, new: client.get("/v1/held", headers=auth(new)),
        lambda client, held, new: client.post("/v1/held/lookup", json={"tokens": [new]}),
        lambda client, held, new: client.post(f"{held.base}/token", headers=auth(new)),
        # refused by the rules (nothing to undo twice over is not the point): still a use
        lambda client, held, new: client.post(f"{held.base}/undo?entry=1", headers=auth(new)),
    ],
    ids=["list", "lookup", "rotate-again", "refused-write"],
)
def test_any_use_of_the_new_token_retires_the_old(client, use):
    held = held_strikes(client)
    new = rotate(client, held, held.token).get_json()["token"]
    assert use(client, held, new).status_code in (200, 409)
    assert_problem(rotate(client, held, held.token), 403)


def test_a_third_partys_token_is_still_refused(client, held):
    stranger = held_strikes(client)
    assert_problem(rotate(client, held, stranger.token), 403)
    new = rotate(client, held, held.token).get_json()["token"]
    assert_problem(rotate(client, held, stranger.token), 403)
    assert_problem(rotate(client, held, held.token + "x"), 403)
    # The retry of one tournament's rotation is no key to another's.
    assert_problem(rotate(client, stranger, held.token), 403)
    assert rotate(client, held, held.token).get_json()["token"] == new


def test_a_second_rotation_retries_from_its_own_old_token(client, held):
    second = rotate(client, held, held.token).get_json()["token"]
    third = rotate(client, held, second).get_json()["token"]
    assert len({held.token, second, third}) == 3
    assert rotate(client, held, second).get_json()["token"] == third
    assert_problem(rotate(client, held, held.token), 403)
