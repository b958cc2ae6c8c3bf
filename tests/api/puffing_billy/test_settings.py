"""The director's settings of a Puffing Billy event: how many preliminary boards count.
The default (every board) gives today's answers; best N ranks a late entrant who won his
only board above players who only lost more; the setting changes until the first board."""

from __future__ import annotations

from pairing_service.engine.puffing_billy.event import counted_boards
from pairing_service.engine.puffing_billy.scoring import ScoredEntry
from tests.support import assert_problem, auth
from tests.support.held_events import undo_latest

from .test_events import BASE, put_board, read

TOOL = "/v1/puffing-billy/event"
# Five regulars play three boards each; Fay enters late and wins her only board.
REGULARS = ["Ada", "Bo", "Cy", "Di", "Ed"]
BOARDS = [
    [("Ada", 200), ("Bo", 190), ("Cy", 150), ("Di", 100)],
    [("Bo", 210), ("Ed", 200), ("Ada", 120), ("Cy", 90)],
    [("Cy", 220), ("Di", 200), ("Ed", 180), ("Ada", 100)],
    [("Fay", 240), ("Di", 100), ("Bo", 90), ("Ed", 80)],
]


def create(client, counted=None) -> tuple[str, str]:
    players = [{"id": p} for p in [*REGULARS, "Fay"]]
    body = {"players": players}
    if counted is not None:
        body["preliminary_boards_counted"] = counted
    answer = client.post(BASE, json=body)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["id"], answer.get_json()["token"]


def played(client, counted=None) -> dict:
    tid, token = create(client, counted)
    for number, rows in enumerate(BOARDS, 1):
        assert put_board(client, tid, token, number, rows).status_code == 200
    return read(client, tid)


def rank_of(standings, player) -> int:
    return next(s["rank"] for s in standings if s["id"] == player)


def test_every_board_counts_by_default_as_before(client):
    event = played(client)
    assert event["preliminary_boards_counted"] is None
    assert all(s["boards"] == s["boards_played"] for s in event["standings"])
    # The calculator, given the same boards without the setting, answers the same.
    boards = [{"players": [{"id": p, "score": s} for p, s in rows]} for rows in BOARDS]
    tool = client.post(TOOL, json={"boards": boards}).get_json()["standings"]
    assert [(s["id"], s["total_exact"], s["rank"]) for s in tool] == [
        (s["id"], s["total_exact"], s["rank"]) for s in event["standings"]
    ]
    assert rank_of(event["standings"], "Fay") == 6  # one board against three


def test_the_best_board_counting_ranks_the_late_winner_by_her_board(client):
    event = played(client, counted=1)
    assert event["preliminary_boards_counted"] == 1
    fay = next(s for s in event["standings"] if s["id"] == "Fay")
    ada = next(s for s in event["standings"] if s["id"] == "Ada")
    assert (fay["boards"], fay["boards_played"]) == (1, 1)
    assert (ada["boards"], ada["boards_played"]) == (1, 3)
    assert ada["total_exact"] == "3.033"  # her win on board 1, not the two losses
    # Every player's best board: the four winners first (Fay's win the narrowest bonus),
    # then Ed and Di, who won none; counting every board put Fay below all of them.
    assert [s["id"] for s in event["standings"]][3:] == ["Fay", "Ed", "Di"]
    assert rank_of(played(client)["standings"], "Fay") == 6
    boards = [{"players": [{"id": p, "score": s} for p, s in rows]} for rows in BOARDS]
    tool = client.post(TOOL, json={"boards": boards, "preliminary_boards_counted": 1})
    assert [s["id"] for s in tool.get_json()["standings"]] == [s["id"] for s in event["standings"]]


def test_the_setting_changes_until_the_first_board_and_is_undone_like_any_action(client):
    tid, token = create(client)
    url = f"{BASE}/{tid}/settings"
    changed = client.put(url, json={"preliminary_boards_counted": 2}, headers=auth(token))
    assert changed.status_code == 200 and changed.get_json()["preliminary_boards_counted"] == 2
    history = client.get(f"{BASE}/{tid}/history").get_json()["actions"]
    assert history[-1]["kind"] == "settings_changed"
    again = client.put(url, json={"preliminary_boards_counted": 2}, headers=auth(token))
    assert again.status_code == 200
    assert len(client.get(f"{BASE}/{tid}/history").get_json()["actions"]) == len(history)
    assert client.put(url, json={"preliminary_boards_counted": 2}).status_code == 401
    put_board(client, tid, token, 1, BOARDS[0])
    refused = client.put(url, json={"preliminary_boards_counted": None}, headers=auth(token))
    assert_problem(refused, 409)
    assert read(client, tid)["preliminary_boards_counted"] == 2
    assert_problem(
        client.put(url, json={"preliminary_boards_counted": 0}, headers=auth(token)),
        422,
        "/preliminary_boards_counted",
    )
    undo_latest(client, f"{BASE}/{tid}", token)  # the board
    undo_latest(client, f"{BASE}/{tid}", token)  # the setting
    assert read(client, tid)["preliminary_boards_counted"] is None


def test_the_public_page_says_which_boards_count(client):
    tid, _ = create(client, counted=3)
    page = client.get(f"/events/puffing-billy/{tid}").get_data(as_text=True)
    assert "The preliminaries count each player&#39;s best 3 boards." in page


def test_the_best_boards_are_chosen_by_score_then_bonus_then_order():
    def entry(total: str, bonus: str) -> ScoredEntry:
        from decimal import Decimal

        return ScoredEntry("P", 1, 100, Decimal(total) - Decimal(bonus), Decimal(bonus))

    boards = [entry("2.4", "0.4"), entry("3.02", "0.02"), entry("2.4", "0.45"), entry("1", "0")]
    assert counted_boards(boards, None) == boards
    assert counted_boards(boards, 2) == [boards[1], boards[2]]  # kept in the order entered
    assert counted_boards(boards, 3) == boards[:3]
    assert counted_boards(boards, 9) == boards


def test_the_finals_scoring_is_the_directors_until_the_first_board(client):
    """Set at creation or before the first board; the final's boards are scored by it (the
    default, winner_margin, as before); shown on the read and the public page."""
    players = [{"id": p} for p in ["Ada", "Bo", "Cy", "Di"]]
    default = client.post(BASE, json={"players": players}).get_json()
    assert read(client, default["id"])["finals_scoring"] == "winner_margin"
    made = client.post(BASE, json={"players": players, "finals_scoring": "placement_only"})
    tid, token = made.get_json()["id"], made.get_json()["token"]
    assert read(client, tid)["finals_scoring"] == "placement_only"
    url = f"{BASE}/{tid}/settings"
    body = {"preliminary_boards_counted": None, "finals_scoring": "close_play"}
    changed = client.put(url, json=body, headers=auth(token)).get_json()
    assert changed["finals_scoring"] == "close_play"
    summary = client.get(f"{BASE}/{tid}/history").get_json()["actions"][-1]["summary"]
    assert (
        summary
        == "Settings changed: the preliminaries count every board; finals are scored close_play"
    )
    bad = {"preliminary_boards_counted": None, "finals_scoring": "speed_round"}
    assert_problem(client.put(url, json=bad, headers=auth(token)), 422, "/finals_scoring")
    put_board(client, tid, token, 1, [("Ada", 200), ("Bo", 100)])
    put_board(client, tid, token, 2, [("Cy", 200), ("Di", 100)])
    client.post(f"{BASE}/{tid}/preliminaries/close", json={"finalists": 4}, headers=auth(token))
    final = put_board(client, tid, token, 3, [("Ada", 252), ("Bo", 248), ("Cy", 123), ("Di", 98)])
    totals = [p["total_exact"] for p in final.get_json()["players"]]
    assert totals == ["3.028", "2.492", "1.244", "0.194"]  # scored close_play
    later = {"preliminary_boards_counted": None, "finals_scoring": "winner_margin"}
    assert_problem(client.put(url, json=later, headers=auth(token)), 409)
    page = client.get(f"/events/puffing-billy/{tid}").get_data(as_text=True)
    assert "Boards of the final score the preliminaries&#39; method" in page
