"""Held Meeple League organisations (seed 001) through the API: seasons run themselves."""

from __future__ import annotations

import random
import re
from collections import Counter
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from itertools import combinations

import pytest

from tests.support import assert_problem, auth
from tests.support import correcting as correcting_headers
from tests.support.mailbox import local_smtp

BASE = "/v1/league/organisations"


class League:
    """An organisation driven through the API as its organiser and players would."""

    def __init__(self, client, code: str = "AGR") -> None:
        self.client = client
        answer = client.post(BASE, json={"name": "Agricola League", "code": code})
        assert answer.status_code == 201, answer.get_json()
        self.id, self.token = answer.get_json()["id"], answer.get_json()["token"]
        self.base = f"{BASE}/{self.id}"
        self.tokens: dict[str, str] = {}
        self.rng = random.Random(7)

    def organiser(self, method: str, path: str, body=None):
        return getattr(self.client, method)(self.base + path, json=body, headers=auth(self.token))

    def read(self, path: str = "") -> dict:
        answer = self.client.get(self.base + path)
        assert answer.status_code == 200, answer.get_json()
        return answer.get_json()

    def season(self, number: int, players: list[dict]) -> dict:
        assert self.organiser("post", "/seasons").status_code == 201
        signed = self.organiser("post", f"/seasons/{number}/signups", {"players": players})
        assert signed.status_code == 200, signed.get_json()
        formed = self.organiser("post", f"/seasons/{number}/form")
        assert formed.status_code == 200, formed.get_json()
        body = formed.get_json()
        self.tokens = {t["player"]: t["token"] for t in body["reporting_tokens"]}
        return body

    def results(self, seats: list[str]) -> list[dict]:
        scores = sorted((self.rng.randint(40, 160) for _ in seats), reverse=True)
        return [
            {"player": p, "score": s, "position": i + 1}
            for i, (p, s) in enumerate(zip(seats, scores, strict=True))
        ]

    def report(self, number: int, league: str, game: int, results, token: str, correcting=False):
        """``correcting``: at the organisation's current revision, as a correction must be."""
        path = f"{self.base}/seasons/{number}/leagues/{league}/games/{game}"
        headers = correcting_headers(self.client, self.base, token) if correcting else auth(token)
        return self.client.put(path, json={"results": results}, headers=headers)

    def play(self, number: int) -> dict:
        """Every game reported by its winner (the seed), then the season closed."""
        for league in self.read(f"/seasons/{number}")["leagues"]:
            for game in self.read(f"/seasons/{number}/leagues/{league['league']}")["games"]:
                results = self.results(game["seats"])
                winner = results[0]["player"]
                answer = self.report(
                    number, league["league"], game["game"], results, self.tokens[winner]
                )
                assert answer.status_code == 200, answer.get_json()
        closed = self.organiser("post", f"/seasons/{number}/close")
        assert closed.status_code == 200, closed.get_json()
        return closed.get_json()


def players(ids, **extra) -> list[dict]:
    return [{"id": p, "name": p.title(), **extra} for p in ids]


def test_three_seasons_formed_from_the_services_own_record(client):
    league = League(client)
    first = [f"p{i:02d}" for i in range(21)]
    # Season 1: everyone is new; laurels first, then sign-up order.
    body = league.season(1, [*players(first[:20]), {"id": first[20], "laurels": 5}])
    assert [lg["league"] for lg in body["leagues"]] == ["1-A", "2-A", "2-B"]
    assert body["leagues"][0]["players"][0] == "p20"  # the laurels put p20 on top
    assert {m["movement"] for m in body["movements"]} == {"new"}
    assert len(league.tokens) == 21
    table = league.read("/seasons/1/leagues/1-A")
    names = [g["name"] for g in table["games"]]
    assert names == [f"AGR S1 L1-A G{k}" for k in range(1, 8)]
    # The seed's grid: every pair twice, four games and each seat once per player.
    meetings = Counter(
        frozenset(pair) for g in table["games"] for pair in combinations(g["seats"], 2)
    )
    assert set(meetings.values()) == {2} and len(meetings) == 21
    seats = Counter((p, i) for g in table["games"] for i, p in enumerate(g["seats"]))
    assert set(seats.values()) == {1} and len(seats) == 28
    closed = league.play(1)
    top = league.read("/seasons/1/leagues/1-A")["standings"]
    assert closed["winner"] == top[0]["player"]
    assert len(closed["promoted"]) == 2 and len(closed["relegated"]) == 2
    assert set(closed["relegated"]) == {line["player"] for line in top[-2:]}

    # Season 2: two drop out, four join; the formation is the calculator's on the record,
    # level places across leagues ordered by the season's whole tiebreaker chain.
    second = [p for p in first if p not in ("p00", "p05")] + ["n1", "n2", "n3", "n4"]
    body = league.season(2, players(second))
    chain = ("wins", "seconds", "thirds", "winner_share", "margin", "total_score")
    finishes = [
        {
            "player": line["player"],
            "league": lg["league"],
            "place": place,
            "league_points": line["league_points"],  # exact here: 10, 6, 3, 1 sums
            **{name: line["values"][name] for name in chain},
            "previous_rank": line["values"]["previous_rank"],
        }
        for lg in league.read("/seasons/1")["leagues"]
        for place, line in enumerate(
            league.read(f"/seasons/1/leagues/{lg['league']}")["standings"], start=1
        )
    ]
    calculator = client.post(
        "/v1/league/formation",
        json={
            "signups": second,
            "last_season": finishes,
            "returning": [],
            "new_players": [{"player": p} for p in ("n1", "n2", "n3", "n4")],
        },
    ).get_json()
    assert "divisions" in calculator, calculator
    held_order = [p for lg in body["leagues"] for p in lg["players"]]
    calculated = [p for d in calculator["divisions"] for lg in d["leagues"] for p in lg["players"]]
    assert held_order == calculated and body["holes"] == calculator["holes"]
    league.play(2)

    # Season 3: p00 returns after sitting season 2 out.
    body = league.season(3, players(["p00", *second[:10]]))
    moved = {m["player"]: m["movement"] for m in body["movements"]}
    assert moved["p00"] == "returning"
    league.play(3)

    lifetime = league.read("/lifetime")
    assert [w["season"] for w in lifetime["season_winners"]] == [1, 2, 3]
    ranked = lifetime["standings"]
    d1 = [line for line in ranked if any(d["division"] == 1 for d in line["by_division"])]
    assert ranked[: len(d1)] == d1  # a point in Division 1 outranks any number below
    org = league.read()
    assert [s["status"] for s in org["seasons"]] == ["closed"] * 3 and org["current_season"] == 3


def test_reports_by_players_and_corrections_by_the_organiser(client):
    league = League(client)
    league.season(1, players([f"p{i}" for i in range(7)]))
    game = league.read("/seasons/1/leagues/1-A")["games"][0]
    seats = game["seats"]
    outsider = next(p for p in league.tokens if p not in seats)
    results = league.results(seats)
    revision = league.read()["revision"]
    # A player who is not in the game: 403; results for the wrong players: 422 by field.
    refused = assert_problem(league.report(1, "1-A", 1, results, league.tokens[outsider]), 403)
    assert refused["detail"].startswith("this reporting token may not report this game: ")
    wrong = [dict(results[0], player=outsider), *results[1:]]
    assert_problem(
        league.report(1, "1-A", 1, wrong, league.tokens[seats[0]]), 422, "/results/0/player"
    )
    assert_problem(
        league.report(1, "1-A", 1, results[:3], league.tokens[seats[0]]), 422, "/results"
    )
    assert_problem(league.report(1, "1-A", 1, results, "not-a-token"), 403)
    assert_problem(league.report(1, "1-A", 99, results, league.tokens[seats[0]]), 404)
    assert league.read()["revision"] == revision  # nothing written
    # The winner reports; the same report again is fine; a different one is a 409.
    assert league.report(1, "1-A", 1, results, league.tokens[seats[0]]).status_code == 200
    assert league.report(1, "1-A", 1, results, league.tokens[seats[1]]).status_code == 200
    swapped = [dict(r, score=r["score"] + 1) for r in results]
    assert_problem(league.report(1, "1-A", 1, swapped, league.tokens[seats[1]]), 409)
    # The organiser corrects; the history keeps both, with who acted.
    assert_problem(league.report(1, "1-A", 1, swapped, league.token), 409)  # not said
    assert league.report(1, "1-A", 1, swapped, league.token, correcting=True).status_code == 200
    shown = league.read("/seasons/1/leagues/1-A")["games"][0]
    assert shown["results"] == [dict(r, dropped_out=False) for r in swapped]
    assert shown["reported_by"] == "director"
    actions = league.read("/history")["actions"]
    assert [(a["kind"], a["actor"]) for a in actions[-2:]] == [
        ("game_reported", seats[0]),
        ("game_corrected", "director"),
    ]
    assert actions[-1]["data"]["was"] == results
    formed = next(a for a in actions if a["kind"] == "season_formed")
    assert "reporters" not in formed["data"]  # token hashes stay out of the history
    export = league.client.get(f"{league.base}/export").get_data(as_text=True)
    assert all(token not in export for token in league.tokens.values())
    # A player cannot undo; the organiser can.
    assert_problem(
        league.client.post(f"{league.base}/undo", headers=auth(league.tokens[seats[0]])), 403
    )
    latest = league.read("/history")["actions"][-1]["seq"]
    assert league.organiser("post", f"/undo?entry={latest}").status_code == 200
    undone = league.read("/seasons/1/leagues/1-A")["games"][0]["results"]
    assert undone == [dict(r, dropped_out=False) for r in results]


def test_a_report_whose_positions_contradict_the_scores_is_refused(client):
    league = League(client)
    league.season(1, players([f"p{i}" for i in range(7)]))
    seats = league.read("/seasons/1/leagues/1-A")["games"][0]["seats"]
    token = league.tokens[seats[1]]
    revision = league.read()["revision"]
    # Positions typed in seat order while seat 2 scored most: seat 1 would win.
    seat_order = [
        {"player": p, "score": s, "position": i + 1}
        for i, (p, s) in enumerate(zip(seats, (80, 120, 90, 40), strict=True))
    ]
    problem = assert_problem(
        league.report(1, "1-A", 1, seat_order, token), 422, "/results/1/position"
    )
    assert problem["rule"] == "positions-follow-scores"
    assert f"seat 2 ({seats[1]}) scored 120 and is placed 2nd" in problem["detail"]
    assert f"not above seat 1 ({seats[0]})" in problem["detail"]
    # The pointer is into the body as sent, the seats named as seated.
    backwards = list(reversed(seat_order))
    assert_problem(league.report(1, "1-A", 1, backwards, token), 422, "/results/2/position")
    # A leaver placed above a finisher: the pointer is into this body too.
    left = [dict(seat_order[0], dropped_out=True), *seat_order[1:]]
    assert_problem(league.report(1, "1-A", 1, left, token), 422, "/results/0/position")
    assert league.read()["revision"] == revision  # nothing written
    # Equal scores share a position, or a tie-break splits them; both are taken.
    tied = [dict(r, score=s) for r, s in zip(seat_order, (90, 120, 90, 40), strict=True)]
    for correction, positions in enumerate(((2, 1, 2, 4), (3, 1, 2, 4))):
        results = [dict(r, position=p) for r, p in zip(tied, positions, strict=True)]
        answer = league.report(1, "1-A", 1, results, league.token, correcting=bool(correction))
        assert answer.status_code == 200, answer.get_json()
    table = league.read("/seasons/1/leagues/1-A")["standings"]
    assert table[0]["player"] == seats[1] and table[0]["league_points"] == 10


def test_bad_season_actions_are_refused_and_write_nothing(client):
    league = League(client)
    other = League(client, code="TM")
    assert_problem(league.organiser("post", "/seasons/1/form"), 404)
    assert league.organiser("post", "/seasons").status_code == 201
    assert_problem(league.organiser("post", "/seasons"), 409)  # season 1 is not closed
    signups = players([f"p{i}" for i in range(8)])
    assert_problem(
        league.organiser("post", "/seasons/1/signups", {"players": [*signups, signups[0]]}),
        422,
        "/players/8/id",
    )
    assert_problem(league.organiser("post", "/seasons/1/form"), 409)  # nobody signed up
    league.organiser("post", "/seasons/1/signups", {"players": signups})
    assert_problem(
        league.organiser("post", "/seasons/1/signups", {"players": signups[:1]}),
        422,
        "/players/0/id",
    )
    foreign = client.post(
        f"{league.base}/seasons/1/form", headers=auth(other.token)
    )  # another organisation's token
    assert_problem(foreign, 403)
    revision = league.read()["revision"]
    assert league.organiser("post", "/seasons/1/form").status_code == 200
    assert_problem(league.organiser("post", "/seasons/1/form"), 409)  # formed twice
    late = league.organiser("post", "/seasons/1/signups", {"players": players(["late"])})
    assert_problem(late, 409)
    assert_problem(league.organiser("post", "/seasons/1/close"), 409)  # games unreported
    assert league.read()["revision"] == revision + 1
    assert_problem(
        league.organiser("post", "/seasons/1/signups", {"players": [{"id": "x", "email": "nope"}]}),
        422,
        "/players/0/email",
    )
    assert_problem(client.post(BASE, json={"code": "agr"}), 422, "/code")


def test_letters_say_each_players_games_and_how_to_report(client):
    league = League(client)
    league.season(1, players([f"p{i}" for i in range(8)]))
    letters = league.read("/seasons/1/letters")["letters"]
    assert len(letters) == 8
    mine = next(entry["text"] for entry in letters if entry["player"] == "p3")
    games = [g for g in league.read("/seasons/1/leagues/1-A")["games"] if "p3" in g["seats"]]
    assert mine.startswith("Dear P3,")
    for game in games:
        assert f"{game['name']}  seat {game['seats'].index('p3') + 1}" in mine
    assert "<your reporting token>" in mine and league.tokens["p3"] not in mine
    text = client.get(f"{league.base}/seasons/1/letters", headers={"Accept": "text/plain"})
    assert text.mimetype == "text/plain" and text.get_data(as_text=True).count("Dear ") == 8


def not_mailed(formed: dict) -> list[tuple[str, str]]:
    """Who the formation did not mail, and why."""
    return [(entry["player"], entry["reason"]) for entry in formed["letters_not_sent"]]


def test_without_a_mail_server_every_player_is_listed_as_not_mailed(client):
    people = [
        *players(["p0"]),
        *players(["p1"], email="p1@club.example"),
        *players(["p2", "p3"]),
    ]
    body = League(client).season(1, people)
    assert body["letters_sent"] == 0
    assert not_mailed(body) == [
        ("p0", "no_address"),
        ("p1", "smtp_not_configured"),
        ("p2", "no_address"),
        ("p3", "no_address"),
    ]
    assert "SMTP_URL" in body["letters_not_sent"][1]["detail"]


def test_a_returner_who_signs_up_without_a_name_is_greeted_by_it(client):
    league = League(client)
    league.season(1, [{"id": f"p{i}", "name": f"Player {i}"} for i in range(7)])
    league.play(1)
    league.season(2, [{"id": f"p{i}"} for i in range(7)])  # names not given again
    letters = {
        entry["player"]: entry["text"] for entry in league.read("/seasons/2/letters")["letters"]
    }
    assert letters["p3"].startswith("Dear Player 3,")
    assert "Player 4 (p4)" in letters["p3"]


@pytest.fixture()
def smtp_server():
    """A local SMTP server that keeps what it receives (never a real one)."""
    with local_smtp() as server:
        yield server


def test_letters_are_sent_by_smtp_when_configured(tmp_path, smtp_server):
    from pairing_service import create_app

    url, received = smtp_server
    app = create_app(
        {"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/m.sqlite3", "SMTP_URL": url}
    )
    league = League(app.test_client())
    people = players([f"p{i}" for i in range(7)], email=None)
    for person in people[:5]:
        person["email"] = f"{person['id']}@club.example"
    people[0]["name"] = "Sven Berg"
    people[4]["email"] = "refused@club.example"
    body = league.season(1, people)
    assert body["letters_sent"] == 4
    # Everyone not mailed, in sign-up order, and why.
    assert not_mailed(body) == [
        ("p4", "refused"),
        ("p5", "no_address"),
        ("p6", "no_address"),
    ]
    assert "550" in body["letters_not_sent"][0]["detail"]
    assert sorted(m["To"] for m in received) == sorted(
        f"{p['name']} <{p['email']}>" for p in people[:4]
    )
    to_p2 = next(m for m in received if m["To"] == "P2 <p2@club.example>")
    text = to_p2.get_payload()
    assert "AGR Meeple League, season 1" in to_p2["Subject"]
    assert to_p2["From"] == "AGR Meeple League <pairing-advisor@localhost>"
    # Date and Message-ID, as RFC 5322 asks: a date of now, an id for each letter.
    sent_at = parsedate_to_datetime(to_p2["Date"])
    assert abs((datetime.now(UTC) - sent_at).total_seconds()) < 600
    ids = [m["Message-ID"] for m in received]
    assert all(re.fullmatch(r"<[^<>@\s]+@localhost>", i) for i in ids) and len(set(ids)) == 4
    to_sven = next(m for m in received if "<p0@club.example>" in m["To"])
    assert to_sven["To"] == "Sven Berg <p0@club.example>"
    assert to_sven.get_payload().startswith("Dear Sven Berg,")
    assert league.tokens["p2"] in text and "AGR S1 L1-A G" in text
    # The token in the letter reports p2's games.
    game = next(g for g in league.read("/seasons/1/leagues/1-A")["games"] if "p2" in g["seats"])
    answer = league.report(
        1, "1-A", game["game"], league.results(game["seats"]), league.tokens["p2"]
    )
    assert answer.status_code == 200
    app.extensions["pairing_store"].engine.dispose()


def test_an_unreachable_smtp_server_does_not_undo_the_formation(tmp_path):
    from pairing_service import create_app
    from tests.support.servers import free_port

    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": f"sqlite:///{tmp_path}/m.sqlite3",
            "SMTP_URL": f"smtp://127.0.0.1:{free_port()}",
        }
    )
    league = League(app.test_client())
    body = league.season(1, players([f"p{i}" for i in range(4)], email="a@b.example"))
    assert body["letters_sent"] == 0
    assert not_mailed(body) == [(f"p{i}", "unreachable") for i in range(4)]
    assert body["status"] == "running"
    app.extensions["pairing_store"].engine.dispose()
