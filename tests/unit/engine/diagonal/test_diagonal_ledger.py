"""A Diagonal Race event's ledger folded from lists of typed events: no Flask, no database."""

from __future__ import annotations

import pytest

from pairing_service.engine.diagonal import log_events as events
from pairing_service.engine.diagonal.ledger import RaceLedger
from pairing_service.engine.event_log import Action, Entry, undo
from pairing_service.engine.round_ledger import PlayerDropped, RoundClosed
from tests.support.logs import AT, act, logged, stored

RACERS = tuple(events.Racer(f"R{i}", None, 1600.0 - 10 * i) for i in range(8))
GAMES = (("R0", "R1"), ("R2", "R3"), ("R4", "R5"), ("R6", "R7"))


def round_one() -> list[Action]:
    return [
        Action.of(events.Created(events.RaceSettings(), RACERS)),
        Action.of(events.RoundStarted(1, False, GAMES, 2, 1, 0)),
        *(Action.of(events.ResultEntered(1, g, a, 3)) for g, (a, _) in enumerate(GAMES, start=1)),
    ]


def test_a_round_folds_from_its_events():
    race = RaceLedger().fold(logged([*round_one(), Action.of(RoundClosed(1))]))
    assert race.round(1).closed
    assert race.round(1).games == list(GAMES)
    rows = {s.player: (s.wins, s.losses, s.pieces_left) for s in race.standings()}
    assert rows["R0"] == (1, 0, 3)
    assert rows["R1"] == (0, 1, 0)


def test_the_events_are_stored_as_the_log_always_held_them():
    assert Action.of(events.RoundStarted(1, False, GAMES[:1], 2, None, 0)).data == {
        "round": 1,
        "playoff": False,
        "games": [["R0", "R1"]],
        "opponents": 2,
        "step": None,
        "rematches": 0,
    }
    corrected = events.ResultCorrected(1, 2, "R3", 4, events.Outcome("R2", 3), ("a line",))
    assert Action.of(corrected).data == {
        "round": 1,
        "game": 2,
        "winner": "R3",
        "pieces_left": 4,
        "was": {"winner": "R2", "pieces_left": 3},
        "changes": ["a line"],
    }
    assert (
        "changes"
        not in Action.of(events.ResultCorrected(1, 2, "R3", 4, events.Outcome("R2", 3))).data
    )


def test_every_event_reads_back_as_it_was_written():
    actions = [
        *round_one(),
        Action.of(RoundClosed(1)),
        Action.of(PlayerDropped("R7", 2)),
        Action.of(events.PlayerEntered("R8", "Late", 1500.0, 2, 1)),
        Action.of(events.RoundReseated(2, ("R0",), GAMES[1:], 2, 1, 0, GAMES)),
    ]
    for action in actions:
        assert events.DIAGONAL_EVENTS.decode(action.kind, stored(action).data) == action.event


def test_decisions_fold_to_the_state_they_were_decided_on():
    ledger = RaceLedger()
    log = logged([ledger.created(events.RaceSettings(), list(RACERS))])
    race = act(ledger, log, ledger.start_round(ledger.fold(log)))
    for number, (a, _) in enumerate(race.round(1).games, start=1):
        race = act(ledger, log, ledger.enter_result(race, 1, number, a, 2))
    assert ledger.enter_result(race, 1, 1, race.round(1).games[0][0], 2) is None  # again
    race = act(ledger, log, ledger.close_round(race, 1))
    again = ledger.fold(logged(entry.action for entry in log))  # as read from the store
    assert again.standings() == race.standings()


def test_undo_takes_the_latest_action_back():
    ledger = RaceLedger()
    log = logged(round_one())
    log.append(Entry(len(log) + 1, undo(log), AT))
    assert sorted(ledger.fold(log).round(1).results) == [1, 2, 3]


def test_a_correction_of_an_earlier_round_says_what_it_changed():
    ledger = RaceLedger()
    log = logged([*round_one(), Action.of(RoundClosed(1))])
    race = act(ledger, log, ledger.start_round(ledger.fold(log)))
    corrected = ledger.enter_result(race, 1, 1, "R0", 9)
    assert corrected is not None and isinstance(corrected.event, events.ResultCorrected)
    assert corrected.event.was == events.Outcome("R0", 3)
    kept = "round 2 was paired before this correction and is kept as it was"
    assert corrected.event.changes[-1] == kept
    summary = ledger.describe(stored(corrected))
    assert summary.startswith("Round 1, game 1 corrected: R0 won, 9 pieces left (was R0 won, 3")
    after = ledger.fold(logged([*(entry.action for entry in log), corrected]))
    assert after.round(1).results[1].pieces_left == 9


def test_a_creation_without_names_or_ratings_is_upcast():
    old = {"settings": {"first_round_opponents": 4, "opponents": 2}, "players": [{"id": "a"}]}
    created = events.DIAGONAL_EVENTS.decode("created", old)
    assert created == events.Created(events.RaceSettings(4, 2), (events.Racer("a", None, None),))


def test_an_entry_missing_a_field_is_refused_by_name():
    with pytest.raises(ValueError, match="RoundClosed data has no 'round'"):
        events.DIAGONAL_EVENTS.decode("round_closed", {})


def test_a_reinstatement_and_a_settings_change_fold_exactly_and_read_back():
    """R1 lost game 1, drops and comes back under the default (the most losses of those
    still in: 1, as it has), R0 won and comes back with one loss added; the fold replays
    the losses logged, and undo drops R0 again with none."""
    ledger = RaceLedger()
    fewest = events.RaceSettings(late_entry="fewest")
    actions = [
        *round_one(),
        Action.of(RoundClosed(1)),
        Action.of(PlayerDropped("R0", 2)),
        Action.of(events.PlayerReinstated("R0", 2, 1)),
        Action.of(events.SettingsChanged(fewest)),
    ]
    for action in actions[-2:]:
        assert events.DIAGONAL_EVENTS.decode(action.kind, stored(action).data) == action.event
    assert actions[-2].data == {"player": "R0", "before_round": 2, "losses": 1}
    log = logged(actions)
    race = ledger.fold(log)
    row = next(s for s in race.standings() if s.player == "R0")
    assert (row.status, row.losses, row.wins) == ("active", 1, 1)
    assert race.settings == fewest
    history = [ledger.describe(entry.action) for entry in log]
    assert history[-2] == "R0 reinstated before round 2, 1 loss(es) added to catch up"
    assert history[-1] == (
        "Settings changed: a late entrant starts with the fewest losses of the players still in"
    )
    # What the ledger decides is what was logged: R0 had 0 losses, the most still in is 1.
    dropped = ledger.fold(logged(actions[:-2]))
    assert ledger.reinstate(dropped, "R0").event == actions[-2].event
    log.append(Entry(len(log) + 1, undo(log), AT))
    log.append(Entry(len(log) + 1, undo(log), AT))
    back = ledger.fold(log)
    assert back.settings == events.RaceSettings()
    assert next(s for s in back.standings() if s.player == "R0").status == "dropped"
