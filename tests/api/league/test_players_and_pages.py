"""A league's players as people across seasons (records, edits, CSV sign-ups, letters to
returners), how a game with a seat empty is recorded, and the league's public pages."""

from __future__ import annotations

import re

import pytest

from tests.api.league.test_organisations import BASE, League, not_mailed, players
from tests.support import assert_problem, auth
from tests.support.held_events import undo_latest
from tests.support.mailbox import letter_to, local_smtp

MAIL = "club.example"


def csv_import(league: League, number: int, text: str, token: str | None = None, **headers):
    return league.client.post(
        f"{league.base}/seasons/{number}/signups/import",
        data=text.encode(),
        headers={"Content-Type": "text/csv", **auth(token or league.token), **headers},
    )


@pytest.fixture()
def mailing_app(tmp_path):
    from pairing_service import create_app

    with local_smtp() as (url, received):
        app = create_app(
            {"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/m.sqlite3", "SMTP_URL": url}
        )
        yield app, received
        app.extensions["pairing_store"].engine.dispose()


def test_returners_who_sign_up_by_id_get_their_letters(mailing_app):
    app, received = mailing_app
    league = League(app.test_client())
    people = players([f"p{i}" for i in range(7)])
    for person in people[:6]:
        person["email"] = f"{person['id']}@{MAIL}"
    formed = league.season(1, people)
    assert formed["letters_sent"] == 6 and not_mailed(formed) == [("p6", "no_address")]
    league.play(1)
    received.clear()
    # Season 2: the returners by id alone, one new player from a CSV file with an address.
    assert league.organiser("post", "/seasons").status_code == 201
    returners = [{"id": f"p{i}"} for i in range(7)]
    signed = league.organiser("post", "/seasons/2/signups", {"players": returners})
    assert signed.status_code == 200, signed.get_json()
    assert [s["name"] for s in signed.get_json()["signups"]] == [f"P{i}" for i in range(7)]
    imported = csv_import(league, 2, f"id,name,email\nn1,New One,n1@{MAIL}\n")
    assert imported.status_code == 200, imported.get_json()
    formed = league.organiser("post", "/seasons/2/form").get_json()
    assert formed["letters_sent"] == 7  # six returners and the new player
    assert not_mailed(formed) == [("p6", "no_address")]
    assert "before" in formed["letters_not_sent"][0]["detail"]
    # The letter the organiser sends by hand carries the player's own token.
    unsent = formed["letters_not_sent"][0]["letter"]
    own = next(t["token"] for t in formed["reporting_tokens"] if t["player"] == "p6")
    assert f"#token={own}&player=p6" in unsent
    tokens = {t["player"]: t["token"] for t in formed["reporting_tokens"]}
    text = letter_to(received, f"p3@{MAIL}")
    assert text.startswith("Dear P3,") and "season 2" in text.lower()
    link = re.search(r"(http\S+/seasons/2/report\?league=(\S+)#token=([^&\s]+)&player=p3)", text)
    assert link is not None and link.group(3) == tokens["p3"]
    assert "curl" not in text and "Authorization" not in text
    assert "curl" not in letter_to(received, f"n1@{MAIL}")
    # The letters for a mail merge carry the same link, the token a placeholder.
    merged = league.read("/seasons/2/letters")["letters"]
    assert all("curl" not in each["text"] for each in merged)
    assert "#token=<your reporting token>" in merged[0]["text"]


def test_a_players_record_read_and_edited_by_the_organiser(client):
    league = League(client)
    people = [{"id": f"p{i}", "name": f"Player {i}", "email": f"p{i}@{MAIL}"} for i in range(7)]
    league.season(1, people)
    public = league.read("/players")["players"]
    assert [p["id"] for p in public] == [f"p{i}" for i in range(7)]
    assert all(p["email"] is None for p in public)
    assert public[0]["seasons"] == [
        {
            "season": 1,
            "status": "running",
            "league": "1-A",
            "division": 1,
            "place": None,
            "league_points": None,
        }
    ]
    director = client.get(f"{league.base}/players/p2", headers=auth(league.token)).get_json()
    assert director["email"] == f"p2@{MAIL}" and director["name"] == "Player 2"
    other = League(client, code="XYZ")
    assert_problem(client.get(f"{league.base}/players", headers=auth(other.token)), 403)
    assert_problem(client.get(f"{league.base}/players/nobody"), 404)
    # Edits: the organiser's token only, a valid address, a player the record has.
    path = f"{league.base}/players/p2"
    edit = {"name": "Pia Berg", "email": f"pia@{MAIL}"}
    assert_problem(client.put(path, json=edit), 401)
    assert_problem(client.put(path, json=edit, headers=auth(other.token)), 403)
    assert_problem(
        client.put(path, json={"email": "nope"}, headers=auth(league.token)), 422, "/email"
    )
    assert_problem(client.put(path, json={"name": 5}, headers=auth(league.token)), 422, "/name")
    assert_problem(
        client.put(f"{league.base}/players/nobody", json=edit, headers=auth(league.token)), 404
    )
    edited = client.put(path, json=edit, headers=auth(league.token))
    assert edited.status_code == 200 and edited.get_json()["email"] == f"pia@{MAIL}"
    assert league.read("/players/p2")["name"] == "Pia Berg"
    table = league.read("/seasons/1/leagues/1-A")["standings"]
    assert "Pia Berg" in [line["name"] for line in table]
    letters = client.get(f"{league.base}/seasons/1/letters", headers=auth(league.token))
    mine = next(each for each in letters.get_json()["letters"] if each["player"] == "p2")
    assert mine["email"] == f"pia@{MAIL}" and mine["text"].startswith("Dear Pia Berg,")
    # Logged: the history says so (no address in public), and undo puts the record back.
    history = client.get(f"{league.base}/history").get_data(as_text=True)
    assert "player_edited" in history and "pia@" not in history
    undone = undo_latest(client, league.base, league.token)
    assert undone.status_code == 200, undone.get_json()
    assert league.read("/players/p2")["name"] == "Player 2"
    # Only the e-mail address: the name stays.
    only = client.put(path, json={"email": None}, headers=auth(league.token)).get_json()
    assert only["name"] == "Player 2" and only["email"] is None


def test_sign_ups_from_a_csv_file_all_or_nothing(client):
    league = League(client)
    assert league.organiser("post", "/seasons").status_code == 201
    good = "\ufeffID;Name;Email;laurels\nann;Ann Lee;ann@club.example;3\n\nbob;;;\n"
    answer = csv_import(league, 1, good)
    assert answer.status_code == 200, answer.get_json()
    assert [(s["id"], s["name"], s["laurels"]) for s in answer.get_json()["signups"]] == [
        ("ann", "Ann Lee", 3),
        ("bob", None, 0),
    ]
    # Each error names its line in the file and its column; nothing is written.
    bad = "id,name,email\ncat,Cat,cat@club.example\ndan,Dan,not-an-address\neve,Eve,\ncat,,\n"
    refused = assert_problem(csv_import(league, 1, bad), 422, "/lines/3/email")
    assert "line 3" in refused["detail"]
    twice = assert_problem(csv_import(league, 1, "id\ncat\ncat\n"), 422, "/lines/3/id")
    assert "line 3" in twice["errors"][0]["detail"]
    again = assert_problem(csv_import(league, 1, "id,name\ncat,Cat\nann,Ann\n"), 422, "/lines/3/id")
    assert "signed up already" in again["detail"]
    assert_problem(csv_import(league, 1, "name,email\nAnn,\n"), 422, "/lines/1")
    assert_problem(csv_import(league, 1, "id,colour\nann,red\n"), 422, "/lines/1")
    assert_problem(csv_import(league, 1, "id,laurels\nfay,many\n"), 422, "/lines/2/laurels")
    assert_problem(csv_import(league, 1, "id\n"), 422, "/lines")
    # A cell the csv module cannot read (over its size limit) is a 422, not a 500; a NUL
    # is read, and refused in its cell.
    huge = assert_problem(csv_import(league, 1, "id,name\nann," + "x" * 200_000 + "\n"), 422)
    assert huge["errors"][0]["pointer"] == "/lines" and "cannot be read as CSV" in huge["detail"]
    assert_problem(csv_import(league, 1, 'id,name\nann,"A\x00"\n'), 422, "/lines/2/name")
    assert [s["id"] for s in league.read("/seasons/1")["signups"]] == ["ann", "bob"]
    # Tokens: none (401), another organisation's (403); a body that is not CSV (415).
    path = f"{league.base}/seasons/1/signups/import"
    assert_problem(client.post(path, data=b"id\nx\n", content_type="text/csv"), 401)
    other = League(client, code="XYZ")
    assert_problem(csv_import(league, 1, "id\nx\n", token=other.token), 403)
    assert_problem(client.post(path, json={"players": []}, headers=auth(league.token)), 415)
    assert [s["id"] for s in league.read("/seasons/1")["signups"]] == ["ann", "bob"]


def test_a_csv_file_at_fault_is_answered_with_every_fault(client):
    league = League(client)
    assert league.organiser("post", "/seasons").status_code == 201
    two = "id,name,email\ncat,Cat,cat@club.example\ndan,Dan,not-an-address\ncat,,\n"
    refused = assert_problem(csv_import(league, 1, two), 422)
    assert [(e["pointer"], e["detail"]) for e in refused["errors"]] == [
        ("/lines/3/email", "line 3, email: Not a valid email address."),
        ("/lines/4/id", "line 4, id: 'cat' is listed twice (line 2)"),
    ]
    header = assert_problem(csv_import(league, 1, "Name,E-mail,name\nAnn,a@b.example,A\n"), 422)
    assert header["errors"] == [
        {
            "pointer": "/lines/1",
            "detail": "line 1 names the columns (id, name, email, laurels; id required): no id "
            "column; unknown column 'e-mail'; column 'name' twice",
        }
    ]
    # A header at fault with an id: its lines are checked too.
    both = assert_problem(csv_import(league, 1, "id,e-mail\nann,x\nann,y\n"), 422)
    assert [e["pointer"] for e in both["errors"]] == ["/lines/1", "/lines/3/id"]
    path = f"{league.base}/seasons/1/signups/import"
    excel = "id,name\nzoe,Zoë\njose,José\n".encode("windows-1252")  # Excel's "CSV"
    guessed = client.post(
        path, data=excel, headers={"Content-Type": "text/csv", **auth(league.token)}
    )
    assert guessed.status_code == 200, guessed.get_json()
    assert [(s["id"], s["name"]) for s in guessed.get_json()["signups"]] == [
        ("zoe", "Zoë"),
        ("jose", "José"),
    ]
    assert guessed.get_json()["warnings"] == [
        "the CSV file is not UTF-8: it was read as Windows-1252, as Excel saves a CSV (check "
        'accented names; save it as "CSV UTF-8" or declare charset=windows-1252 to say so)'
    ]
    declared = client.post(
        path,
        data="id,name\nzoe2,Zoë Lee\n".encode("windows-1252"),
        headers={"Content-Type": "text/csv; charset=windows-1252", **auth(league.token)},
    )
    assert declared.status_code == 200, declared.get_json()
    assert declared.get_json()["warnings"] == []  # declared: nothing was guessed


def short_game(league: League, seats: list[str], absent: str, listed: bool) -> list[dict]:
    """A game one of whose players did not come: the three who did, 120/100/80; the
    absentee listed as dropped out (score 0), or left out."""
    played = [p for p in seats if p != absent]
    results = [
        {"player": p, "score": s, "position": i + 1}
        for i, (p, s) in enumerate(zip(played, [120, 100, 80], strict=True))
    ]
    if listed:
        results.append({"player": absent, "score": 0, "position": 4, "dropped_out": True})
    return results


def test_the_default_for_a_game_with_a_seat_empty_is_todays_answer(client):
    """Unset, the setting records a no-show as the service always did: listed as dropped
    out, placed last with no points; the three who played take 10, 6, 3; the game counts
    among the absentee's, with their score. Exactly the calculator's table."""
    tables = []
    for body in ({}, {"short_games": {"mode": "dropped_out"}}):
        league = League(client)
        answer = client.post(BASE, json={"name": "X", "code": "AGR", **body})
        league.id, league.token = answer.get_json()["id"], answer.get_json()["token"]
        league.base = f"{BASE}/{league.id}"
        assert league.read()["short_games"]["mode"] == "dropped_out"
        league.season(1, players([f"p{i}" for i in range(7)]))
        game = league.read("/seasons/1/leagues/1-A")["games"][0]
        seats, absent = game["seats"], game["seats"][3]
        missing = short_game(league, seats, absent, listed=False)
        refused = assert_problem(league.report(1, "1-A", 1, missing, league.token), 422, "/results")
        assert absent in refused["detail"] and "dropped_out" in refused["detail"]
        results = short_game(league, seats, absent, listed=True)
        assert league.report(1, "1-A", 1, results, league.token).status_code == 200
        tables.append(league.read("/seasons/1/leagues/1-A")["standings"])
    assert tables[0] == tables[1]
    today = client.post(
        "/v1/league/table",
        json={"games": [{"results": results}], "previous_ranking": []},
    ).get_json()["standings"]
    held = {line["player"]: line for line in tables[0]}
    for line in today:
        mine = held[line["player"]]
        assert (mine["league_points"], mine["games"], mine["values"]["total_score"]) == (
            line["league_points"],
            line["games"],
            line["values"]["total_score"],
        )
    assert [held[p]["league_points"] for p in seats] == [10, 6, 3, 0]
    assert held[absent]["games"] == 1 and held[absent]["dropped_out"] == 1


def test_a_season_may_record_a_no_show_as_a_three_player_game(client):
    league = League(client)
    setting = {"short_games": {"mode": "three_player", "points": [10, 5, 1]}}
    assert_problem(client.post(f"{league.base}/seasons", json=setting), 401)
    opened = league.organiser("post", "/seasons", setting)
    assert opened.status_code == 201, opened.get_json()
    assert opened.get_json()["short_games"]["mode"] == "three_player"
    rising = {"short_games": {"mode": "three_player", "points": [1, 5, 10]}}
    assert_problem(
        league.organiser("put", "/seasons/1/settings", rising), 422, "/short_games/points"
    )
    unknown = {"short_games": {"mode": "bye"}}
    assert_problem(
        league.organiser("put", "/seasons/1/settings", unknown), 422, "/short_games/mode"
    )
    path = f"{league.base}/seasons/1/settings"
    assert_problem(client.put(path, json=setting), 401)
    other = League(client, code="XYZ")
    assert_problem(client.put(path, json=setting, headers=auth(other.token)), 403)
    signups = {"players": players([f"p{i}" for i in range(7)])}
    signed = league.organiser("post", "/seasons/1/signups", signups)
    assert signed.status_code == 200
    formed = league.organiser("post", "/seasons/1/form").get_json()
    tokens = {t["player"]: t["token"] for t in formed["reporting_tokens"]}
    game = league.read("/seasons/1/leagues/1-A")["games"][0]
    seats, absent = game["seats"], game["seats"][1]
    results = short_game(league, seats, absent, listed=False)
    answer = league.report(1, "1-A", 1, results, tokens[results[0]["player"]])
    assert answer.status_code == 200, answer.get_json()
    lines = {line["player"]: line for line in league.read("/seasons/1/leagues/1-A")["standings"]}
    assert [lines[r["player"]]["league_points"] for r in results] == [10, 5, 1]
    assert lines[absent]["games"] == 0 and lines[absent]["league_points"] == 0
    # Two missing is still refused; the setting is fixed once a result is in.
    second = league.read("/seasons/1/leagues/1-A")["games"][1]["seats"]
    two_missing = short_game(league, second, second[3], listed=False)[:2]
    assert_problem(league.report(1, "1-A", 2, two_missing, league.token), 422, "/results")
    back = {"short_games": {"mode": "dropped_out"}}
    assert_problem(league.organiser("put", "/seasons/1/settings", back), 409)
    page = client.get(f"/events/league/{league.id}/seasons/1").get_data(as_text=True)
    assert "3-player game" in page and "10, 5, 1" in page


def test_a_bad_short_games_setting_is_refused_naming_the_field(client):
    bad = {"name": "X", "code": "AGR", "short_games": {"mode": "three_player", "points": [9]}}
    assert_problem(client.post(BASE, json=bad), 422, "/short_games/points")
    league = League(client)
    unknown = {"short_games": {"mode": "sometimes"}}
    assert_problem(league.organiser("post", "/seasons", unknown), 422, "/short_games/mode")
    seasons = f"{league.base}/seasons"
    not_json = client.post(seasons, data=b"mode=x", headers=auth(league.token))
    assert_problem(not_json, 415)
    broken = client.post(
        seasons, data=b"{", headers={**auth(league.token), "Content-Type": "application/json"}
    )
    assert_problem(broken, 400)
    assert league.read()["seasons"] == []  # nothing was opened
    made = client.post(BASE, json={**bad, "short_games": {"mode": "three_player"}}).get_json()
    assert made["short_games"]["mode"] == "three_player"
    assert made["short_games"]["points"] == [10, 6, 3]


def test_the_setting_changes_until_the_first_result(client):
    league = League(client)
    league.season(1, players([f"p{i}" for i in range(7)]))
    setting = {"short_games": {"mode": "three_player"}}
    changed = league.organiser("put", "/seasons/1/settings", setting)
    assert changed.status_code == 200, changed.get_json()
    assert changed.get_json()["short_games"] == {
        "mode": "three_player",
        "points": [10, 6, 3],
        "words": changed.get_json()["short_games"]["words"],
    }
    assert league.read("/seasons/1")["short_games"]["mode"] == "three_player"


def test_the_public_pages_of_a_season(client):
    league = League(client)
    people = [{"id": f"p{i}", "name": f"Player {i}", "email": f"p{i}@{MAIL}"} for i in range(8)]
    league.season(1, people)
    game = league.read("/seasons/1/leagues/1-A")["games"][0]
    a, b, c, d = game["seats"]
    tied = [
        {"player": a, "score": 100, "position": 1},
        {"player": b, "score": 90, "position": 2},
        {"player": c, "score": 90, "position": 2},
        {"player": d, "score": 50, "position": 4},
    ]
    assert league.report(1, "1-A", 1, tied, league.tokens[a]).status_code == 200
    page = client.get(f"/events/league/{league.id}/seasons/1")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "League 1-A · Division 1" in html
    assert "4.5" in html and "Player 1" in html and game["name"] in html
    assert "<td>Player 1</td>" in html and "(p1)" not in html  # names, not ids
    assert "not reported yet" in html and "1 of " in html
    assert MAIL not in html
    report = client.get(f"/events/league/{league.id}/seasons/1/report?league=1-A")
    text = report.get_data(as_text=True)
    assert report.status_code == 200 and 'data-league="1-A"' in text and MAIL not in text
    assert "/events/league/report-page.js" in text
    script = client.get("/events/league/report-page.js")
    assert script.status_code == 200 and script.mimetype == "text/javascript"
    assert "league-report" in script.get_data(as_text=True)
    unknown = client.get(f"/events/league/{league.id}/seasons/1/report?league=9-Z")
    assert 'data-league=""' in unknown.get_data(as_text=True)
    assert client.get(f"/events/league/{league.id}/seasons/2").status_code == 404
    assert league.organiser("post", "/seasons/1/close").status_code == 409  # games to play
    waiting = League(client, code="XYZ")
    assert waiting.organiser("post", "/seasons").status_code == 201
    idle = client.get(f"/events/league/{waiting.id}/seasons/1/report").get_data(as_text=True)
    assert "not being played" in idle and 'id="report"' not in idle
    organisation = client.get(f"/events/league/{league.id}").get_data(as_text=True)
    assert f"/events/league/{league.id}/seasons/1" in organisation and MAIL not in organisation
