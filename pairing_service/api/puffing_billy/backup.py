"""How an import decides a Puffing Billy event's log again (:func:`replayer`), and the
request that would have made each entry (:func:`request_of`): the format's part of the
backup and import routes (``api/held/backup.py``)."""

from __future__ import annotations

from typing import Any

from ...engine.event_codec import LogEvent
from ...engine.event_log import Action, Ledger
from ...engine.puffing_billy.ledger import BoardEvent, BoardLedger, EventSettings
from ...engine.puffing_billy.log_events import (
    BOARD_CORRECTED,
    BOARD_ENTERED,
    BoardEntered,
    FinalClosed,
    PreliminariesClosed,
    SettingsChanged,
)
from ...engine.puffing_billy.log_events import Created as BoardsCreated
from ...engine.puffing_billy.log_events import PlayerEntered as BoardPlayerEntered
from ...engine.puffing_billy.scoring import BoardEntry
from ...store.backup import Replayer
from ..held.backup import FormatBackup, Request, named, named_in, unsupported
from ..held.schemas import LateEntrantIn
from .schemas import MAX_EVENT_PLAYERS, BoardPlayersIn, FinalistsIn, PBEventIn, SettingsIn


def replayer(ledger: Ledger[Any]) -> Replayer:
    assert isinstance(ledger, BoardLedger)

    def decide(state: BoardEvent | None, event: LogEvent, _: str) -> Action | None:
        match event:
            case BoardsCreated(settings=settings, players=players):
                chosen = EventSettings.read(settings)
                return ledger.created([(p.id, p.name) for p in players], chosen)
        assert state is not None
        match event:
            case SettingsChanged(settings=settings):
                return ledger.change_settings(state, EventSettings.read(settings))
            case BoardEntered(board=number, name=name, players=scored, alternates=alternates):
                entries = [BoardEntry(s.id, s.score, s.place, s.id in alternates) for s in scored]
                return ledger.enter_board(state, number, entries, name)
            case BoardPlayerEntered(player=player, name=name):
                return ledger.enter_late(state, player, name, MAX_EVENT_PLAYERS)
            case PreliminariesClosed(finalists=finalists):
                return ledger.close_preliminaries(state, finalists)
            case FinalClosed():
                return ledger.close_final(state)
        return unsupported(event)

    return Replayer(decide, by_scorekeepers=frozenset({BOARD_ENTERED, BOARD_CORRECTED}))


def _billy_settings(logged: dict[str, Any]) -> dict[str, Any]:
    """A Puffing Billy event's settings as its create or settings request sends them."""
    chosen = EventSettings.read(logged)
    return {
        "preliminary_boards_counted": chosen.counted,
        "finals_scoring": chosen.finals.value,
    }


def request_of(event: LogEvent, name: str | None) -> Request | None:
    match event:
        case BoardsCreated(settings=settings, players=players):
            body = {
                **named_in(name),
                "players": [named(p.id, p.name) for p in players],
                **_billy_settings(settings),
            }
            return PBEventIn, body
        case SettingsChanged(settings=settings):
            return SettingsIn, _billy_settings(settings)
        case BoardEntered(name=board, players=scored, alternates=alternates):
            sheet = [
                {"id": s.id, "score": s.score, "place": s.place}
                | ({"alternate": True} if s.id in alternates else {})
                for s in scored
            ]
            return BoardPlayersIn, {"players": sheet, **named_in(board)}
        case BoardPlayerEntered(player=player, name=entrant):
            return LateEntrantIn, named(player, entrant)
        case PreliminariesClosed(finalists=finalists):
            return FinalistsIn, {"finalists": finalists}
    return None


BACKUP = FormatBackup(replayer, request_of)
