"""How an import decides a strikes tournament's log again (:func:`replayer`), and the
request that would have made each entry (:func:`request_of`): the format's part of the
backup and import routes (``api/held/backup.py``)."""

from __future__ import annotations

from typing import Any

from ...engine.event_codec import LogEvent
from ...engine.event_log import Action, Ledger
from ...engine.strikes.ledger import HeldEvent, StrikesLedger
from ...engine.strikes.log_events import Created as StrikesCreated
from ...engine.strikes.log_events import PlayerEntered as StrikesEntered
from ...engine.strikes.log_events import ResultEntered as TableEntered
from ...engine.strikes.log_events import RoundStarted as StrikesRoundStarted
from ...engine.strikes.log_events import SettingsChanged as StrikesSettingsChanged
from ...engine.strikes.records import Entrant
from ...engine.strikes.scoring import Finish
from ...store.backup import Replayer
from ..held.backup import (
    ROUND_RESULTS,
    FormatBackup,
    Request,
    named,
    named_in,
    round_replay,
    round_request,
)
from ..held.schemas import LateEntrantIn
from .schemas import TournamentIn, TournamentSettingsIn
from .tool_schemas import MAX_FIELD, MAX_PLAN_SEATS, TableResultIn


def replayer(ledger: Ledger[Any]) -> Replayer:
    assert isinstance(ledger, StrikesLedger)

    def decide(state: HeldEvent | None, event: LogEvent, _: str) -> Action | None:
        match event:
            case StrikesCreated(settings=settings, players=players):
                return ledger.created(settings, [Entrant(p.id, p.name) for p in players])
        assert state is not None
        match event:
            case StrikesRoundStarted():
                return ledger.start_round(state)
            case TableEntered(round=number, table=table, results=rows):  # or corrected
                finishes = [
                    Finish(r.player, r.score)
                    if r.score is not None
                    else Finish(r.player, None, r.place)
                    for r in rows
                ]
                return ledger.enter_result(state, number, table, finishes)
            case StrikesEntered(player=player, name=name):
                most = min(MAX_FIELD, MAX_PLAN_SEATS // state.settings.plans)
                return ledger.enter_late(state, player, name, most)
        return round_replay(ledger, state, event)

    return Replayer(decide, by_scorekeepers=ROUND_RESULTS)


def request_of(event: LogEvent, name: str | None) -> Request | None:
    match event:
        case StrikesCreated(settings=settings, players=players):
            body = {
                **named_in(name),
                "players": [named(p.id, p.name) for p in players],
                "threshold": settings.threshold,
                "game": settings.game,
                "two_player_games": settings.two_player_games,
                "strategy": settings.strategy,
                "plans": settings.plans,
                "seed": settings.seed,
                "late_entry_strikes": settings.late_entry,
            }
            return TournamentIn, body
        case StrikesSettingsChanged(settings=settings):
            body = {"threshold": settings.threshold, "late_entry_strikes": settings.late_entry}
            return TournamentSettingsIn, body
        case TableEntered(results=rows):
            results = [
                {"player": r.player, "score": r.score}
                if r.score is not None
                else {"player": r.player, "place": r.place}
                for r in rows
            ]
            return TableResultIn, {"results": results}
        case StrikesEntered(player=player, name=entrant):
            return LateEntrantIn, named(player, entrant)
    return round_request(event)


BACKUP = FormatBackup(replayer, request_of)
