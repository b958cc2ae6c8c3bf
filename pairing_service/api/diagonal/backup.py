"""How an import decides a Diagonal Race event's log again (:func:`replayer`), and the
request that would have made each entry (:func:`request_of`): the format's part of the
backup and import routes (``api/held/backup.py``)."""

from __future__ import annotations

from typing import Any

from ...engine.diagonal.ledger import RaceLedger
from ...engine.diagonal.log_events import Created as RaceCreated
from ...engine.diagonal.log_events import PlayerEntered as RacerEntered
from ...engine.diagonal.log_events import Racer
from ...engine.diagonal.log_events import ResultEntered as GameEntered
from ...engine.diagonal.log_events import RoundStarted as RaceRoundStarted
from ...engine.diagonal.log_events import SettingsChanged as RaceSettingsChanged
from ...engine.diagonal.race_event import RaceEvent
from ...engine.event_codec import LogEvent
from ...engine.event_log import Action, Ledger
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
from .schemas import MAX_FIELD as MAX_RACERS
from .schemas import RaceEventIn, RaceResultIn, RacerIn, RaceSettingsIn


def replayer(ledger: Ledger[Any]) -> Replayer:
    assert isinstance(ledger, RaceLedger)

    def decide(state: RaceEvent | None, event: LogEvent, _: str) -> Action | None:
        match event:
            case RaceCreated(settings=settings, players=players):
                return ledger.created(settings, players)
        assert state is not None
        match event:
            case RaceRoundStarted():
                return ledger.start_round(state)
            case GameEntered(round=number, game=game, winner=winner, pieces_left=left):
                return ledger.enter_result(state, number, game, winner, left)
            case RacerEntered(player=player, name=name, rating=rating):
                return ledger.enter_late(state, Racer(player, name, rating), MAX_RACERS)
        return round_replay(ledger, state, event)

    return Replayer(decide, by_scorekeepers=ROUND_RESULTS)


def request_of(event: LogEvent, name: str | None) -> Request | None:
    match event:
        case RaceCreated(settings=settings, players=players):
            racers = [
                {**named(p.id, p.name), **({} if p.rating is None else {"rating": p.rating})}
                for p in players
            ]
            body = {
                **named_in(name),
                "players": racers,
                "first_round_opponents": settings.first_round_opponents,
                "opponents": settings.opponents,
                "late_entry_losses": settings.late_entry,
            }
            return RaceEventIn, body
        case RaceSettingsChanged(settings=settings):
            return RaceSettingsIn, {"late_entry_losses": settings.late_entry}
        case GameEntered(winner=winner, pieces_left=left):
            return RaceResultIn, {"winner": winner, "pieces_left": left}
        case RacerEntered(player=player, name=entrant, rating=rating):
            rated = {} if rating is None else {"rating": rating}
            return RacerIn, {**named(player, entrant), **rated}
    return round_request(event)


BACKUP = FormatBackup(replayer, request_of)
