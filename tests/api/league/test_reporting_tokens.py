"""Players' reporting tokens as the organiser handles them: the letters read with the
director token carry each player's working token (to send by hand without a mail server),
one player's token reissued (the old one retired at once, a retry answering the same new
token), and no public read ever showing one."""

from __future__ import annotations

import re
import uuid

from pairing_service import create_app
from tests.api.league.test_organisations import League, players
from tests.support import assert_problem, auth
from tests.support.held_events import new_token

PEOPLE = [f"p{i}" for i in range(8)]
PUBLIC = "https://pairing.club.example"


def letters(league: League, token: str | None = None) -> dict:
    headers = auth(token) if token else {}
    answer = league.client.get(f"{league.base}/seasons/1/letters", headers=headers)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def linked_token(text: str) -> str:
    found = re.search(r"/seasons/1/report\?league=\S+#token=([^&\s]+)&player=", text)
    assert found is not None, text
    return found.group(1)


def a_game_of(league: League, player: str) -> tuple[str, dict]:
    for entry in league.read("/seasons/1")["leagues"]:
        games = league.read(f"/seasons/1/leagues/{entry['league']}")["games"]
        for game in games:
            if player in game["seats"] and game["results"] is None:
                return entry["league"], game
    raise AssertionError(f"{player} has no game to report")


def report(league: League, player: str, token: str):
    name, game = a_game_of(league, player)
    return league.report(1, name, game["game"], league.results(game["seats"]), token)


def reissue(league: League, player: str, key: str | None = None, token: str | None = None):
    headers = {**auth(token or league.token)}
    if key is not None:
        headers["Idempotency-Key"] = key
    return league.client.post(f"{league.base}/seasons/1/players/{player}/token", headers=headers)


def test_the_organiser_reads_each_players_letter_with_their_token(client):
    league = League(client)
    league.season(1, players(PEOPLE))
    mine = letters(league, league.token)
    assert [each["player"] for each in mine["letters"]] == PEOPLE
    for each in mine["letters"]:
        assert linked_token(each["text"]) == league.tokens[each["player"]]
        assert each["token_filled_in"] is True
    # The token in the letter is the one that reports the player's games.
    assert report(league, "p3", linked_token(mine["letters"][3]["text"])).status_code == 200
    # Links built from the test client's localhost would not open on a phone: said.
    assert "PAIRING_PUBLIC_URL" in mine["link_warning"]
    # No public read shows a token: the letters, as JSON or text, the history, the export.
    public = letters(league)
    assert all(not each["token_filled_in"] for each in public["letters"])
    assert all("#token=<your reporting token>" in each["text"] for each in public["letters"])
    reads = [
        client.get(f"{league.base}/seasons/1/letters", headers={"Accept": "text/plain"}),
        client.get(f"{league.base}/history"),
        client.get(f"{league.base}/export"),
        client.get(f"{league.base}/seasons/1"),
    ]
    for read in reads:
        assert read.status_code == 200
        text = read.get_data(as_text=True)
        assert not any(token in text for token in league.tokens.values())
        assert '"salt"' not in text and "reporters" not in text


def test_the_letters_carry_no_warning_with_a_public_address(tmp_path):
    app = create_app(
        {"TESTING": True, "SQLITE_PATH": str(tmp_path / "p.sqlite3"), "PUBLIC_URL": PUBLIC}
    )
    league = League(app.test_client())
    league.season(1, players(PEOPLE))
    mine = letters(league, league.token)
    assert mine["link_warning"] is None
    assert mine["letters"][0]["text"].count(f"{PUBLIC}/events/league/{league.id}/seasons/1/") == 1
    app.extensions["pairing_store"].engine.dispose()


def test_a_retried_formation_answers_the_same_tokens(client):
    league = League(client)
    assert league.organiser("post", "/seasons").status_code == 201
    path = f"{league.base}/seasons/1"
    signed = client.post(
        f"{path}/signups", json={"players": players(PEOPLE)}, headers=auth(league.token)
    )
    assert signed.status_code == 200
    headers = {**auth(league.token), "Idempotency-Key": str(uuid.uuid4())}
    first = client.post(f"{path}/form", headers=headers)
    again = client.post(f"{path}/form", headers=headers)  # its answer was lost
    assert first.status_code == 200 and again.status_code == 200, again.get_json()
    assert again.get_json()["reporting_tokens"] == first.get_json()["reporting_tokens"]
    assert len(first.get_json()["reporting_tokens"]) == len(PEOPLE)


def test_one_players_token_reissued_retires_the_old_one_at_once(client):
    league = League(client)
    league.season(1, players(PEOPLE))
    old = league.tokens["p2"]
    # A key is required, so that a lost answer can be asked for again: nothing replaced.
    assert_problem(reissue(league, "p2"), 400)
    key = str(uuid.uuid4())
    assert_problem(reissue(league, "p2", key, token=old), 403)  # not a player's to ask
    assert_problem(reissue(league, "nobody", key), 404)
    history = len(league.read("/history")["actions"])
    answer = reissue(league, "p2", key)
    assert answer.status_code == 200, answer.get_json()
    new = answer.get_json()["token"]
    assert new != old and answer.get_json()["player"] == "p2"
    assert linked_token(answer.get_json()["letter"]) == new
    assert len(league.read("/history")["actions"]) == history + 1
    # The answer lost: the same request with the same key answers the same token.
    retried = reissue(league, "p2", key)
    assert retried.status_code == 200 and retried.get_json()["token"] == new
    assert len(league.read("/history")["actions"]) == history + 1
    # The old token reports nothing; the new one does; the others' still work.
    assert_problem(report(league, "p2", old), 403)
    assert report(league, "p2", new).status_code == 200
    assert report(league, "p5", league.tokens["p5"]).status_code == 200
    shown = {
        each["player"]: linked_token(each["text"])
        for each in letters(league, league.token)["letters"]
    }
    assert shown["p2"] == new and shown["p5"] == league.tokens["p5"]
    # The history says a token was reissued, never which.
    text = client.get(f"{league.base}/history").get_data(as_text=True)
    assert new not in text and old not in text and '"salt"' not in text
    assert "P2's reporting token reissued" in text  # by the name the organiser typed
    # A second reissue with a new key retires the first's token; its key's retry is told.
    again = reissue(league, "p2", str(uuid.uuid4()))
    assert again.status_code == 200 and again.get_json()["token"] != new
    assert_problem(reissue(league, "p2", key), 409)
    assert_problem(report(league, "p2", new), 403)


def test_after_the_director_token_is_replaced_the_letters_need_a_reissue(client):
    league = League(client)
    league.season(1, players(PEOPLE))
    rotated = new_token(client, league.base, league.token)
    assert rotated.status_code == 200, rotated.get_json()
    league.token = rotated.get_json()["token"]
    mine = letters(league, league.token)["letters"]
    assert not any(each["token_filled_in"] for each in mine)  # told, never a wrong token
    assert all("#token=<your reporting token>" in each["text"] for each in mine)
    assert reissue(league, "p4", str(uuid.uuid4())).status_code == 200
    mine = {each["player"]: each for each in letters(league, league.token)["letters"]}
    assert mine["p4"]["token_filled_in"] and not mine["p1"]["token_filled_in"]
    # The players' tokens still work: only the organiser's changed.
    assert report(league, "p1", league.tokens["p1"]).status_code == 200


def test_no_token_is_reissued_once_the_season_is_closed(client):
    league = League(client)
    league.season(1, players(PEOPLE))
    league.play(1)
    assert_problem(reissue(league, "p2", str(uuid.uuid4())), 409)
    assert not any(each["token_filled_in"] for each in letters(league, league.token)["letters"])


def test_mailed_letters_and_a_reissue_link_the_public_address_whatever_the_host(tmp_path):
    from tests.api.test_public_links import FOREIGN, ForeignHostClient
    from tests.support.mailbox import letter_to, local_smtp

    with local_smtp() as (url, received):
        settings = {"PUBLIC_URL": PUBLIC, "ALLOWED_HOSTS": "*", "SMTP_URL": url}
        app = create_app({"TESTING": True, "SQLITE_PATH": str(tmp_path / "p.sqlite3"), **settings})
        app.test_client_class = ForeignHostClient
        league = League(app.test_client())
        people = [dict(p, email=f"{p['id']}@club.example") for p in players(PEOPLE)]
        formed = league.season(1, people)
        assert formed["letters_sent"] == len(PEOPLE) and formed["link_warning"] is None
        mailed = letter_to(received, "p1@club.example")
        assert FOREIGN not in mailed
        assert f"{PUBLIC}/events/league/{league.id}/seasons/1/report?league=" in mailed
        assert linked_token(mailed) == league.tokens["p1"]
        again = reissue(league, "p1", str(uuid.uuid4())).get_json()
        assert FOREIGN not in again["letter"] and again["link_warning"] is None
        assert f"{PUBLIC}/events/league/{league.id}/seasons/1/report?" in again["letter"]
        app.extensions["pairing_store"].engine.dispose()


def test_letters_from_a_loopback_address_are_flagged_and_mailed(tmp_path):
    from tests.support.mailbox import local_smtp

    with local_smtp() as (url, received):
        settings = {"SQLITE_PATH": str(tmp_path / "p.sqlite3"), "SMTP_URL": url}
        app = create_app({"TESTING": True, **settings})
        league = League(app.test_client())  # at http://localhost/
        people = [dict(p, email=f"{p['id']}@club.example") for p in players(PEOPLE)]
        formed = league.season(1, people)
        # Said in the answer; mailed all the same (a club's own network can be meant).
        assert "PAIRING_PUBLIC_URL" in formed["link_warning"]
        assert formed["letters_sent"] == len(PEOPLE) and len(received) == len(PEOPLE)
        assert "PAIRING_PUBLIC_URL" in letters(league, league.token)["link_warning"]
        answer = reissue(league, "p0", str(uuid.uuid4())).get_json()
        assert "PAIRING_PUBLIC_URL" in answer["link_warning"]
        app.extensions["pairing_store"].engine.dispose()
