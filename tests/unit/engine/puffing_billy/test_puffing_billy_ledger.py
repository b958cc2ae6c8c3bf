"""A Puffing Billy event's ledger folded from lists of typed events: no Flask, no database."""

from __future__ import annotations

from decimal import Decimal

import pytest

from pairing_service.engine.event_log import Action, Entry, ListedPlayer, undo
from pairing_service.engine.puffing_billy.ledger import BoardEvent, BoardLedger, HeldBoard
from pairing_service.engine.puffing_billy.log_events import (
    PUFFING_BILLY_EVENTS,
    BoardCorrected,
    BoardEntered,
    Created,
    FinalClosed,
    PlayerEntered,
    PreliminariesClosed,
)
from pairing_service.engine.puffing_billy.scoring import BoardEntry, Method, ScoredEntry
from tests.support.logs import AT, act, logged, stored

PLAYERS = [(f"p{i}", None) for i in range(6)]
ROW = ScoredEntry("p0", 1, 40, Decimal("2.5"), Decimal("0.125"))


@pytest.fixture()
def ledger(rules):
    return BoardLedger(rules.puffing_billy)


def sheet(*ids: str) -> list[BoardEntry]:
    return [BoardEntry(p, 50 - 10 * i) for i, p in enumerate(ids)]


def test_boards_fold_from_their_events(ledger):
    event = ledger.fold(
        logged(
            [
                Action.of(Created({}, tuple(ListedPlayer(p, n) for p, n in PLAYERS))),
                Action.of(BoardEntered(1, Method.PRELIMINARY, "Table A", (ROW,))),
                Action.of(PlayerEntered("late", "Late")),
                Action.of(PreliminariesClosed(1, ("p0",), ())),
            ]
        )
    )
    assert event.board(1).entries == (ROW,)
    assert event.board(1).alternates == ()
    assert event.players["late"] == "Late"
    assert (event.stage, event.finalists) == ("final", 1)


def test_the_events_are_stored_as_the_log_always_held_them():
    entered = Action.of(BoardEntered(1, Method.PRELIMINARY, None, (ROW,)))
    row = {"id": "p0", "place": 1, "score": 40, "placement": "2.5", "bonus": "0.125"}
    assert entered.data == {"board": 1, "stage": "preliminary", "name": None, "players": [row]}
    corrected = BoardCorrected(2, Method.FINAL, None, (ROW,), ("p0",), was=(ROW,))
    assert list(Action.of(corrected).data) == [
        "board",
        "stage",
        "name",
        "players",
        "alternates",
        "was",
    ]
    assert Action.of(FinalClosed(("p0",))).data == {"champions": ["p0"]}


def test_every_event_reads_back_as_it_was_written():
    actions = [
        Action.of(Created({}, (ListedPlayer("p0", "Ann"),))),
        Action.of(BoardEntered(1, Method.FINAL, "F", (ROW,), ("p0",))),
        Action.of(BoardCorrected(1, Method.FINAL, "F", (ROW,), was=(ROW,), changes=("x",))),
        Action.of(PreliminariesClosed(4, ("a", "b"), ("c",))),
        Action.of(FinalClosed(("a",))),
    ]
    for action in actions:
        assert PUFFING_BILLY_EVENTS.decode(action.kind, stored(action).data) == action.event


def test_decisions_fold_to_the_state_they_were_decided_on(ledger):
    log = logged([ledger.created(PLAYERS)])
    event = act(ledger, log, ledger.enter_board(ledger.fold(log), 1, sheet("p0", "p1", "p2")))
    event = act(ledger, log, ledger.enter_board(event, 2, sheet("p3", "p4", "p5")))
    assert ledger.enter_board(event, 2, sheet("p3", "p4", "p5")) is None  # again: nothing
    event = act(ledger, log, ledger.close_preliminaries(event, 2))
    again = ledger.fold(logged(entry.action for entry in log))  # as read from the store
    assert again.result() == event.result()
    assert again.stage == "final"


def test_undo_and_correction(ledger):
    log = logged([ledger.created(PLAYERS)])
    event = act(ledger, log, ledger.enter_board(ledger.fold(log), 1, sheet("p0", "p1", "p2")))
    corrected = ledger.enter_board(event, 1, sheet("p2", "p1", "p0"))
    assert corrected is not None and isinstance(corrected.event, BoardCorrected)
    assert corrected.event.was == event.board(1).entries
    assert "changes" not in corrected.data  # the preliminaries are still open
    event = act(ledger, log, corrected)
    assert event.board(1).entries[0].id == "p2"
    log.append(Entry(len(log) + 1, undo(log), AT))
    assert ledger.fold(log).board(1).entries[0].id == "p0"
    assert ledger.describe(stored(corrected)).startswith("Board 1 (preliminary) corrected: p2 ")


def test_a_board_from_before_alternates_existed_reads_with_none():
    data = {"board": 3, "stage": "final", "name": None, "players": [], "was": []}
    assert PUFFING_BILLY_EVENTS.decode("board_corrected", data).alternates == ()


def test_a_creation_whose_players_have_no_names_is_upcast():
    created = PUFFING_BILLY_EVENTS.decode("created", {"settings": {}, "players": [{"id": "a"}]})
    assert created == Created({}, (ListedPlayer("a", None),))


PRELIMINARY_ORDER = [
    *(f"q{i}" for i in range(1, 8)),
    *("Hana", "Ada", "Dee", "Kai", "Bea", "Guy", "Ben", "Cy"),
]


def _event_with_an_alternate(ties: dict[str, str] | None = None) -> BoardEvent:
    """Fifteen players ranked in PRELIMINARY_ORDER, a cut of 8; Hana (8th) cannot play
    and Guy (13th) takes her seat at the final as an alternate. ``ties``: a player who
    scores what another does in the preliminaries."""
    ties = ties or {}

    def points(player: str) -> Decimal:
        return Decimal(100 - PRELIMINARY_ORDER.index(ties.get(player, player)))

    event = BoardEvent({player: player for player in PRELIMINARY_ORDER})
    preliminaries = tuple(
        ScoredEntry(player, 2, 0, points(player), Decimal(0)) for player in PRELIMINARY_ORDER
    )
    event.boards[1] = HeldBoard(1, Method.PRELIMINARY, None, preliminaries)
    event.stage, event.finalists = "final", 8
    finalists = [*(f"q{i}" for i in range(1, 8)), "Guy"]
    final = tuple(
        ScoredEntry(player, place, 0, Decimal(10 - place), Decimal(0))
        for place, player in enumerate(finalists, start=1)
    )
    event.boards[2] = HeldBoard(2, Method.FINAL, None, final, alternates=("Guy",))
    return event


def test_the_ranking_after_an_alternate_played_runs_on_without_a_gap() -> None:
    ranking = _event_with_an_alternate().ranking()
    assert [(p.rank, p.id) for p in ranking[8:]] == [
        (9, "Hana"),
        (10, "Ada"),
        (11, "Dee"),
        (12, "Kai"),
        (13, "Bea"),
        (14, "Ben"),
        (15, "Cy"),
    ]
    assert [p.rank for p in ranking[:8]] == list(range(1, 9))
    assert ranking[7].id == "Guy"  # the alternate is placed by the final
    assert ranking[8].basis == "qualified, no final board"


def test_players_level_in_the_preliminaries_share_their_place_below_the_final() -> None:
    ranking = _event_with_an_alternate(ties={"Kai": "Dee"}).ranking()
    assert [(p.rank, p.id) for p in ranking[9:13]] == [
        (10, "Ada"),
        (11, "Dee"),
        (11, "Kai"),
        (13, "Bea"),
    ]
