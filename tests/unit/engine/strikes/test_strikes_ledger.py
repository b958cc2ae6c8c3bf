"""A strikes tournament's ledger folded from lists of typed events: no Flask, no database."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from pairing_service.engine.errors import Conflict
from pairing_service.engine.event_log import Action, Entry, ListedPlayer, undo
from pairing_service.engine.round_ledger import PlayerDropped, RoundClosed
from pairing_service.engine.strikes import Finish
from pairing_service.engine.strikes.ledger import StrikesLedger
from pairing_service.engine.strikes.log_events import (
    STRIKES_EVENTS,
    Created,
    PlayerEntered,
    PlayerReinstated,
    PlayerResult,
    ResultCorrected,
    ResultEntered,
    RoundStarted,
    SettingsChanged,
)
from pairing_service.engine.strikes.records import Entrant, Seat, Settings
from tests.support.logs import AT, act, logged, stored

SETTINGS = Settings("5-4-3", 35, False, "optimize", 30, 5)
PLAYERS = tuple(ListedPlayer(f"P{i}", None) for i in range(8))
SEATS = tuple(Seat(f"P{i}", 1 + i // 4, 1) for i in range(8))


@pytest.fixture()
def ledger(rules):
    return StrikesLedger(rules.strikes)


def table_result(number: int, table: int, *strikes: int) -> ResultEntered:
    players = [s.player for s in SEATS if s.table == table]
    rows = tuple(
        PlayerResult(p, place, None, Fraction(k))
        for place, (p, k) in enumerate(zip(players, strikes, strict=True), start=1)
    )
    return ResultEntered(number, table, rows)


def round_one() -> list[Action]:
    return [
        Action.of(Created(SETTINGS, PLAYERS)),
        Action.of(RoundStarted(1, "random", 0, SEATS)),
        Action.of(table_result(1, 1, 0, 5, 10, 15)),
        Action.of(table_result(1, 2, 0, 5, 10, 15)),
    ]


def test_a_round_folds_from_its_events(ledger):
    event = ledger.fold(logged([*round_one(), Action.of(RoundClosed(1))]))
    assert event.round(1).closed
    assert event.round(1).tables() == {1: ["P0", "P1", "P2", "P3"], 2: ["P4", "P5", "P6", "P7"]}
    assert event.strikes()["P3"] == 15
    assert event.strikes()["P4"] == 0


def test_the_events_are_stored_as_the_log_always_held_them():
    assert Action.of(table_result(1, 1, 0, 5, 10, 15)).data == {
        "round": 1,
        "table": 1,
        "results": [
            {"player": "P0", "place": 1, "score": None, "strikes": "0"},
            {"player": "P1", "place": 2, "score": None, "strikes": "5"},
            {"player": "P2", "place": 3, "score": None, "strikes": "10"},
            {"player": "P3", "place": 4, "score": None, "strikes": "15"},
        ],
    }
    entered = Action.of(PlayerEntered("Q", None, 2, Fraction(7, 2)))
    assert entered.data == {"player": "Q", "name": None, "before_round": 2, "strikes": "7/2"}
    assert Action.of(RoundStarted(1, "random", 3, SEATS[:1])).data == {
        "round": 1,
        "kind": "random",
        "detrimental_points": 3,
        "seats": [{"player": "P0", "table": 1, "group": 1}],
    }


def test_every_event_reads_back_as_it_was_written(ledger):
    actions = [*round_one(), Action.of(RoundClosed(1)), Action.of(PlayerDropped("P0", 2))]
    for action in actions:
        assert STRIKES_EVENTS.decode(action.kind, stored(action).data) == action.event


def test_decisions_fold_to_the_state_they_were_decided_on(ledger):
    log = logged([ledger.created(SETTINGS, [Entrant(f"P{i}") for i in range(8)])])
    event = act(ledger, log, ledger.start_round(ledger.fold(log)))
    for table, players in event.round(1).tables().items():
        finishes = [Finish(p, score=10 * i) for i, p in enumerate(players)]
        event = act(ledger, log, ledger.enter_result(event, 1, table, finishes))
    event = act(ledger, log, ledger.close_round(event, 1))
    again = ledger.fold(logged(entry.action for entry in log))  # as read from the store
    assert again.strikes() == event.strikes()
    assert [r.number for r in again.rounds] == [1]
    assert ledger.close_round(again, 1) is None  # closing twice appends nothing


def test_undo_takes_the_latest_action_back(ledger):
    log = logged(round_one())
    log.append(Entry(5, undo(log), AT))
    event = ledger.fold(log)
    assert sorted(event.round(1).results) == [1]
    assert ledger.summary(log[-1].action) == "Undid action 4 (result_entered)"


def test_a_correction_replaces_the_result_and_keeps_what_it_replaced(ledger):
    event = ledger.fold(logged(round_one()))
    players = event.round(1).tables()[1]
    finishes = [Finish(p, score=10 * i) for i, p in enumerate(players)]
    corrected = ledger.enter_result(event, 1, 1, finishes)
    assert corrected is not None
    assert isinstance(corrected.event, ResultCorrected)
    assert "changes" not in corrected.data  # the latest round: nothing else changed
    assert [r.strikes for r in corrected.event.was] == [0, 5, 10, 15]
    after = ledger.fold(logged([*round_one(), corrected]))
    assert after.strikes()["P3"] == 0  # the highest score wins now
    assert ledger.describe(corrected).startswith("Round 1, table 1 corrected: P3 1 (0)")


def test_a_creation_whose_players_have_no_names_is_upcast():
    old = {"settings": Action.of(Created(SETTINGS, PLAYERS)).data["settings"]}
    created = STRIKES_EVENTS.decode("created", {**old, "players": [{"id": "P0"}]})
    assert created == Created(SETTINGS, (ListedPlayer("P0", None),))


def test_a_kind_the_format_does_not_have_is_refused():
    with pytest.raises(ValueError, match="a strikes log has no action 'board_entered'"):
        STRIKES_EVENTS.decode("board_entered", {})


def test_a_reinstatement_and_a_settings_change_fold_exactly_and_read_back(ledger):
    """P0 won its table (0 strikes), drops and comes back: it is given the most strikes of
    those still in (15), logged as added, and the fold replays exactly that."""
    mean = replace(SETTINGS, threshold=23, late_entry="mean")
    dropped = [*round_one(), Action.of(RoundClosed(1)), Action.of(PlayerDropped("P0", 2))]
    decided = ledger.reinstate(ledger.fold(logged(dropped)), "P0")
    assert decided.event == PlayerReinstated("P0", 2, Fraction(15))
    assert decided.data == {"player": "P0", "before_round": 2, "strikes": "15"}
    changed = Action.of(SettingsChanged(mean))
    for action in (decided, changed):
        assert STRIKES_EVENTS.decode(action.kind, stored(action).data) == action.event
    log = logged([*dropped, decided])
    event = ledger.fold(log)
    assert event.entrants["P0"].dropped_before_round is None
    assert event.strikes()["P0"] == 15 and "P0" in event.active()
    assert (
        ledger.describe(log[-1].action)
        == "P0 reinstated before round 2, 15 strikes added to catch up"
    )
    # Dropped again and back: nothing more to add (15 is the most still in).
    again = ledger.reinstate(
        ledger.fold(logged([*dropped, decided, Action.of(PlayerDropped("P0", 2))])), "P0"
    )
    assert again.event == PlayerReinstated("P0", 2, Fraction(0))
    # Undo: dropped, with the strikes of their results only.
    log.append(Entry(len(log) + 1, undo(log), AT))
    undone = ledger.fold(log)
    assert undone.entrants["P0"].dropped_before_round == 2 and undone.strikes()["P0"] == 0
    # A settings change: refused once a result is entered, folded before one.
    with pytest.raises(Conflict, match="round 1, table 1 has one"):
        ledger.change_settings(ledger.fold(logged(round_one())), mean)
    before = ledger.fold(logged(round_one()[:2]))
    assert ledger.change_settings(before, SETTINGS) is None
    assert ledger.fold(logged([*round_one()[:2], changed])).settings == mean
