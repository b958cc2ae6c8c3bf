"""The rules every format played round by round shares (``engine/round_ledger.py``), on a
Diagonal Race folded from typed events: no Flask, no database."""

from __future__ import annotations

import pytest

from pairing_service.engine.diagonal import log_events as events
from pairing_service.engine.diagonal.ledger import RaceLedger
from pairing_service.engine.diagonal.race_event import RaceEvent
from pairing_service.engine.errors import NotFound
from pairing_service.engine.event_log import Action
from pairing_service.engine.round_ledger import RoundClosed, late_for_scorekeepers
from tests.support.logs import logged

RACERS = tuple(events.Racer(f"R{i}", None, 1600.0 - 10 * i) for i in range(8))
FIRST = (("R0", "R1"), ("R2", "R3"), ("R4", "R5"), ("R6", "R7"))
SECOND = (("R0", "R2"), ("R1", "R3"), ("R4", "R6"), ("R5", "R7"))


def _round(number: int, games: tuple[tuple[str, str], ...], results: int) -> list[Action]:
    """Round ``number`` started, with its first ``results`` games' winners entered."""
    return [
        Action.of(events.RoundStarted(number, False, games, 2, 1, 0)),
        *(
            Action.of(events.ResultEntered(number, g, a, 3))
            for g, (a, _) in enumerate(games[:results], start=1)
        ),
    ]


def _race(*actions: Action) -> RaceEvent:
    created = Action.of(events.Created(events.RaceSettings(), RACERS))
    return RaceLedger().fold(logged([created, *actions]))


def test_an_open_round_is_a_scorekeepers_to_enter_and_correct() -> None:
    race = _race(*_round(1, FIRST, results=2))
    assert late_for_scorekeepers(race, 1) is None


def test_a_closed_round_is_refused_saying_it_is_closed() -> None:
    race = _race(*_round(1, FIRST, results=4), Action.of(RoundClosed(1)))
    assert late_for_scorekeepers(race, 1) == "round 1 is closed"


def test_a_round_is_refused_once_a_later_one_has_started() -> None:
    race = _race(*_round(1, FIRST, results=4), Action.of(RoundClosed(1)), *_round(2, SECOND, 0))
    # Closed before the next one started: that it is closed is what is said.
    assert late_for_scorekeepers(race, 1) == "round 1 is closed"
    assert late_for_scorekeepers(race, 2) is None


class _Round:
    def __init__(self, number: int, closed: bool) -> None:
        self.number, self.closed = number, closed
        self.results: dict[int, object] = {}


class _Rounds:
    """Rounds as a format may hold them: a round left open behind a later one (a format
    whose rounds need not close in turn, or a log from before they had to)."""

    def __init__(self, *rounds: _Round) -> None:
        self.rounds = list(rounds)

    @property
    def latest(self) -> _Round | None:
        return self.rounds[-1] if self.rounds else None

    def round(self, number: int) -> _Round:
        if not 1 <= number <= len(self.rounds):
            raise NotFound(f"there is no round {number}")
        return self.rounds[number - 1]


def test_an_open_round_behind_a_later_one_is_refused_naming_the_later_round() -> None:
    state = _Rounds(_Round(1, closed=False), _Round(2, closed=False), _Round(3, closed=False))
    assert late_for_scorekeepers(state, 1) == "round 3 has started"
    assert late_for_scorekeepers(state, 2) == "round 3 has started"
    assert late_for_scorekeepers(state, 3) is None


def test_a_closed_round_says_so_before_naming_a_later_round() -> None:
    state = _Rounds(_Round(1, closed=True), _Round(2, closed=False))
    assert late_for_scorekeepers(state, 1) == "round 1 is closed"


def test_a_round_that_does_not_exist_is_not_found() -> None:
    with pytest.raises(NotFound, match="there is no round 2"):
        late_for_scorekeepers(_race(*_round(1, FIRST, results=0)), 2)
