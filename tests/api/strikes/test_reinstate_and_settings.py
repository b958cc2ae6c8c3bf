"""Strikes: a dropped player (or a no-show) reinstated between rounds, caught up to what a
late entrant would start with; and the settings the seed leaves to the director changed
until the first result. Every refusal writes nothing; both are undone like any action."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.api.strikes.test_day_of_event import by_order, strikes_round
from tests.support import assert_problem, auth
from tests.support.held_events import kinds, refused, strikes_event, undo_latest

RANKING = [f"P{i}" for i in range(10)]


def standing(client, base: str, player: str) -> dict:
    return next(s for s in client.get(base).get_json()["standings"] if s["player"] == player)


def active_strikes(client, base: str) -> list[Fraction]:
    rows = client.get(base).get_json()["standings"]
    return [Fraction(s["strikes_exact"]) for s in rows if s["status"] == "active"]


def seated(rnd: dict) -> list[str]:
    return [p for t in rnd["tables"] for p in t["players"]] + rnd["byes"]


def no_show_in_round_one(client, base: str, token: str) -> tuple[str, dict]:
    """Round 1 started, its first seat re-seated as a no-show, played and closed."""
    first = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    no_show = first["tables"][0]["players"][0]
    again = client.post(
        f"{base}/rounds/1/reseat", json={"no_shows": [no_show]}, headers=auth(token)
    )
    assert again.status_code == 200
    rnd = again.get_json()
    for table in rnd["tables"]:
        url = f"{base}/rounds/1/tables/{table['table']}"
        answer = client.put(url, json=by_order(table["players"], RANKING), headers=auth(token))
        assert answer.status_code == 200
    assert client.post(f"{base}/rounds/1/close", headers=auth(token)).status_code == 200
    return no_show, rnd


def test_a_no_show_who_comes_for_round_two_is_reinstated_and_seated(client):
    base, token = strikes_event(client, players=10)
    no_show, _ = no_show_in_round_one(client, base, token)
    # Entering them again as a late entrant is not the way: they are in the tournament.
    again = client.post(f"{base}/players", json={"id": no_show}, headers=auth(token))
    assert "already" in refused(client, base, again, 422, "/id")["detail"]
    most = max(active_strikes(client, base))
    assert most > 0
    back = client.post(f"{base}/players/{no_show}/reinstate", headers=auth(token))
    assert back.status_code == 200, back.get_data(as_text=True)
    row = next(s for s in back.get_json()["standings"] if s["player"] == no_show)
    assert row["status"] == "active" and row["dropped_before_round"] is None
    assert Fraction(row["strikes_exact"]) == most and row["games"] == 0
    entry = client.get(f"{base}/history").get_json()["actions"][-1]
    assert entry["kind"] == "player_reinstated"
    assert entry["data"] == {"player": no_show, "before_round": 2, "strikes": str(most)}
    assert entry["summary"] == (
        f"{no_show} reinstated before round 2, {most} strikes added to catch up"
    )
    rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    assert no_show in seated(rnd) and len(seated(rnd)) == 10
    # The public page still renders, the player among those still in.
    page = client.get(f"/events/strikes/{base.rsplit('/', 1)[1]}")
    assert page.status_code == 200 and no_show in page.get_data(as_text=True)


def reinstated(client, base: str, token: str, who: int, rule: str) -> tuple[Fraction, ...]:
    """Round 1 played; the ``who``-th of the first table (0: its winner, -1: its last)
    drops and is reinstated. (What they had, what a late entrant would start with then,
    what they have now, the strikes the log says were added.)"""
    rnd = strikes_round(client, base, token, RANKING)
    leaver = sorted(rnd["tables"][0]["players"], key=RANKING.index)[who]
    had = Fraction(standing(client, base, leaver)["strikes_exact"])
    assert client.post(f"{base}/players/{leaver}/drop", headers=auth(token)).status_code == 200
    others = active_strikes(client, base)
    late = {
        "most": max(others),
        "mean": sum(others, Fraction(0)) / len(others),
        "fewest": min(others),
    }[rule]
    back = client.post(f"{base}/players/{leaver}/reinstate", headers=auth(token))
    assert back.status_code == 200, back.get_data(as_text=True)
    now = Fraction(standing(client, base, leaver)["strikes_exact"])
    entry = client.get(f"{base}/history").get_json()["actions"][-1]
    assert entry["kind"] == "player_reinstated"
    return had, late, now, Fraction(entry["data"]["strikes"])


@pytest.mark.parametrize("rule", ["most", "mean", "fewest"])
def test_a_reinstated_table_winner_starts_as_a_late_entrant_would(client, rule):
    """The round's winner (0 strikes) drops and comes back: they get what a late entrant
    gets under the event's setting (the most, the mean or the fewest of those still in),
    not their 0: leaving never pays."""
    base, token = strikes_event(client, players=10, threshold=47, late_entry_strikes=rule)
    had, late, now, added = reinstated(client, base, token, 0, rule)
    assert had == 0 and now == late and added == late
    assert (late > 0) is (rule != "fewest")


@pytest.mark.parametrize("rule", ["most", "mean", "fewest"])
def test_a_reinstated_player_with_more_strikes_keeps_them(client, rule):
    """The last at a table drops and comes back: they had the most strikes, so they keep
    them (nothing added) whatever the setting."""
    base, token = strikes_event(client, players=10, threshold=47, late_entry_strikes=rule)
    had, late, now, added = reinstated(client, base, token, -1, rule)
    assert had >= late and now == had and added == 0
    summary = client.get(f"{base}/history").get_json()["actions"][-1]["summary"]
    assert summary.endswith("with their own strikes (no fewer than a late entrant's)")


def test_reinstatement_refusals_write_nothing(client):
    base, token = strikes_event(client, players=10, threshold=23)
    url = f"{base}/players/P1/reinstate"
    assert_problem(client.post(url), 401)
    refused(client, base, client.post(url, headers=auth("not-the-token")), 403)
    refused(client, base, client.post(f"{base}/players/P99/reinstate", headers=auth(token)), 404)
    in_play = refused(client, base, client.post(url, headers=auth(token)), 409)
    assert "has not dropped" in in_play["detail"]
    client.post(f"{base}/players/P1/drop", headers=auth(token))
    client.post(f"{base}/rounds", headers=auth(token))
    during = refused(client, base, client.post(url, headers=auth(token)), 409)
    assert "round 1 has started" in during["detail"]
    undo_latest(client, base, token)  # the round's start
    strikes_round(client, base, token, RANKING)
    out = [
        s["player"] for s in client.get(base).get_json()["standings"] if s["eliminated_after_round"]
    ]
    assert out  # 24 strikes at 23
    eliminated = client.post(f"{base}/players/{out[0]}/reinstate", headers=auth(token))
    body = refused(client, base, eliminated, 409)
    assert "was eliminated after round 1" in body["detail"]
    assert "not reinstated" in body["detail"]


def test_no_reinstatement_once_the_event_is_over(client):
    base, token = strikes_event(client, players=3)
    client.post(f"{base}/players/P0/drop", headers=auth(token))  # two left, no 2-player games
    assert client.get(base).get_json()["status"] == "finished"
    over = client.post(f"{base}/players/P0/reinstate", headers=auth(token))
    assert "the event is over" in refused(client, base, over, 409)["detail"]


def test_a_reinstatement_is_undone(client):
    base, token = strikes_event(client, players=10)
    no_show, _ = no_show_in_round_one(client, base, token)
    before = standing(client, base, no_show)
    client.post(f"{base}/players/{no_show}/reinstate", headers=auth(token))
    assert standing(client, base, no_show)["status"] == "active"
    undone = undo_latest(client, base, token).get_json()
    assert undone["undone"]["kind"] == "player_reinstated"
    assert standing(client, base, no_show) == before  # dropped, with the strikes they had
    rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    assert no_show not in seated(rnd)


def test_a_reinstated_players_strikes_fold_from_the_log_exactly(client):
    """Dropped and reinstated twice: the second catch-up adds to the first, and a
    fresh read (the log folded again) says the same as the write's answer."""
    base, token = strikes_event(client, players=10, threshold=47)
    rnd = strikes_round(client, base, token, RANKING)
    winner = sorted(rnd["tables"][0]["players"], key=RANKING.index)[0]
    client.post(f"{base}/players/{winner}/drop", headers=auth(token))
    client.post(f"{base}/players/{winner}/reinstate", headers=auth(token))
    strikes_round(client, base, token, RANKING)
    client.post(f"{base}/players/{winner}/drop", headers=auth(token))
    answer = client.post(f"{base}/players/{winner}/reinstate", headers=auth(token)).get_json()
    written = next(s for s in answer["standings"] if s["player"] == winner)
    added = [
        Fraction(a["data"]["strikes"])
        for a in client.get(f"{base}/history").get_json()["actions"]
        if a["kind"] == "player_reinstated"
    ]
    assert len(added) == 2
    assert Fraction(written["strikes_exact"]) == max(active_strikes(client, base))
    assert standing(client, base, winner) == written


# --- settings -------------------------------------------------------------------------------


def test_settings_change_before_the_first_result_and_show_on_the_read_and_page(client):
    base, token = strikes_event(client)
    body = {"threshold": 23, "late_entry_strikes": "mean"}
    changed = client.put(f"{base}/settings", json=body, headers=auth(token))
    assert changed.status_code == 200, changed.get_data(as_text=True)
    read = client.get(base).get_json()
    assert (read["threshold"], read["late_entry_strikes"]) == (23, "mean")
    entry = client.get(f"{base}/history").get_json()["actions"][-1]
    assert entry["kind"] == "settings_changed"
    assert entry["data"]["settings"]["threshold"] == 23
    assert entry["data"]["settings"]["late_entry"] == "mean"
    assert entry["data"]["settings"]["seed"] == 1  # whole: what it did not change too
    assert "eliminated at 23 strikes" in entry["summary"]
    page = client.get(f"/events/strikes/{base.rsplit('/', 1)[1]}").get_data(as_text=True)
    assert "A player is eliminated at 23 strikes." in page
    assert "A late entrant starts with the mean strikes of the players still in." in page
    # Only what the body names changes; the same again writes nothing.
    client.put(f"{base}/settings", json={"late_entry_strikes": "fewest"}, headers=auth(token))
    assert client.get(base).get_json()["threshold"] == 23
    entries = len(kinds(client, base))
    same = client.put(f"{base}/settings", json={"threshold": 23}, headers=auth(token))
    assert same.status_code == 200 and len(kinds(client, base)) == entries
    # The new threshold decides who is out: 24 strikes at 23.
    strikes_round(client, base, token, RANKING[:9])
    rows = client.get(base).get_json()["standings"]
    assert {s["status"] for s in rows if s["strikes"] >= 23} == {"eliminated"}
    assert any(s["strikes"] == 24 for s in rows)


def test_settings_are_refused_once_a_result_is_entered(client):
    base, token = strikes_event(client)
    rnd = client.post(f"{base}/rounds", headers=auth(token)).get_json()
    # Seated but not played: still allowed (the threshold is read when a round closes).
    ok = client.put(f"{base}/settings", json={"threshold": 47}, headers=auth(token))
    assert ok.status_code == 200
    table = rnd["tables"][-1]
    url = f"{base}/rounds/1/tables/{table['table']}"
    client.put(url, json=by_order(table["players"], RANKING), headers=auth(token))
    late = client.put(f"{base}/settings", json={"threshold": 23}, headers=auth(token))
    detail = refused(client, base, late, 409)["detail"]
    assert f"round 1, table {table['table']} has one" in detail


def test_a_bad_setting_is_a_422_naming_it(client):
    base, token = strikes_event(client)
    for body, pointer in (
        ({"late_entry_strikes": "median"}, "/late_entry_strikes"),
        ({"threshold": 0}, "/threshold"),
        ({"threshold": "23"}, "/threshold"),
        ({"seed": 4}, "/seed"),
    ):
        refused(
            client,
            base,
            client.put(f"{base}/settings", json=body, headers=auth(token)),
            422,
            pointer,
        )
    assert_problem(client.put(f"{base}/settings", json={"threshold": 23}), 401)


def test_settings_put_back_to_the_defaults_give_todays_answers(client):
    """An event whose settings went to mean and back to the defaults seats, scores and
    admits a late entrant exactly as one never changed; the log keeps the default out,
    as a creation does."""
    plain, plain_token = strikes_event(client, players=10)
    changed, token = strikes_event(client, players=10)
    client.put(f"{changed}/settings", json={"late_entry_strikes": "mean"}, headers=auth(token))
    back = client.put(
        f"{changed}/settings",
        json={"late_entry_strikes": "most", "threshold": 35},
        headers=auth(token),
    )
    assert back.get_json()["late_entry_strikes"] == "most"
    entry = client.get(f"{changed}/history").get_json()["actions"][-1]
    assert "late_entry" not in entry["data"]["settings"]
    rounds = [
        strikes_round(client, base, t, RANKING)
        for base, t in ((plain, plain_token), (changed, token))
    ]
    assert rounds[0]["tables"] == rounds[1]["tables"]
    for base, t in ((plain, plain_token), (changed, token)):
        client.post(f"{base}/players", json={"id": "L1"}, headers=auth(t))
    assert standing(client, plain, "L1") == standing(client, changed, "L1")
    assert client.get(plain).get_json()["standings"] == client.get(changed).get_json()["standings"]


def test_a_settings_change_is_undone(client):
    base, token = strikes_event(client)
    client.put(f"{base}/settings", json={"threshold": 23}, headers=auth(token))
    undone = undo_latest(client, base, token).get_json()
    assert undone["undone"]["kind"] == "settings_changed"
    assert client.get(base).get_json()["threshold"] == 35
