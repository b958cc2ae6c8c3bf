"""How an import decides a held Scrabble event's log again (:func:`replayer`), and the
request that would have made each entry (:func:`request_of`): the format's part of the
backup and import routes (``api/held/backup.py``)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from ...engine.event_codec import LogEvent
from ...engine.event_log import Action, Ledger
from ...engine.scrabble.held.event import ScrabbleEvent
from ...engine.scrabble.held.ledger import ScrabbleLedger
from ...engine.scrabble.held.log_events import Created as ScrabbleCreated
from ...engine.scrabble.held.log_events import Entrant as ScrabbleEntrant
from ...engine.scrabble.held.log_events import PlayerEntered as ScrabbleEntered
from ...engine.scrabble.held.log_events import ResultEntered as ScrabbleResult
from ...engine.scrabble.held.log_events import RoundImported as ScrabbleImported
from ...engine.scrabble.held.log_events import RoundPaired as ScrabblePaired
from ...engine.scrabble.held.log_events import SettingsChanged as ScrabbleSettingsChanged
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
from .schemas import (
    ScrabbleEntrantIn,
    ScrabbleEventIn,
    ScrabbleResultIn,
    ScrabbleSettingsIn,
)


def replayer(ledger: Ledger[Any]) -> Replayer:
    assert isinstance(ledger, ScrabbleLedger)

    def decide(state: ScrabbleEvent | None, event: LogEvent, _: str) -> Action | None:
        match event:
            case ScrabbleCreated(settings=settings, players=players):
                return ledger.created(settings, players)
        assert state is not None
        match event:
            case ScrabblePaired(method=method, repeats_allowed=allowance, seed=seed):
                return ledger.start_round(state, method, allowance, seed)
            case ScrabbleResult(round=number, game=game, scores=scores, forfeit=forfeit):
                spread = None if forfeit is None else event.spread
                penalties = None if forfeit is not None else event.penalties
                return ledger.enter_result(state, number, game, scores, forfeit, spread, penalties)
            case ScrabbleEntered(player=player, name=name, rating=rating):
                return ledger.enter_late(state, ScrabbleEntrant(player, name, rating))
            case ScrabbleImported(round=number, games=games, sat_out=sat_out):
                return ledger.import_round(state, number, games, sat_out)
        return round_replay(ledger, state, event)

    return Replayer(decide, by_scorekeepers=ROUND_RESULTS)


def _scrabble_settings(settings: Any) -> dict[str, Any]:
    """A Scrabble event's settings as its create or settings request sends them: the
    places as ``prizes`` when it has them, else as ``victors`` (a request gives one)."""
    sent = asdict(settings)
    if not sent["repeats_by_round"]:
        del sent["repeats_by_round"]
    if sent["prizes"] is None:
        del sent["prizes"]
    else:
        sent["prizes"] = list(sent["prizes"])
        del sent["victors"]
    return sent


def request_of(event: LogEvent, name: str | None) -> Request | None:
    match event:
        case ScrabbleCreated(settings=settings, players=players):
            body = {
                **named_in(name),
                "players": [{**named(p.id, p.name), "rating": p.rating} for p in players],
                **_scrabble_settings(settings),
            }
            return ScrabbleEventIn, body
        case ScrabbleSettingsChanged(settings=settings):
            return ScrabbleSettingsIn, _scrabble_settings(settings)
        case ScrabbleEntered(player=player, name=entrant, rating=rating):
            return ScrabbleEntrantIn, {**named(player, entrant), "rating": rating}
        case ScrabbleResult(scores=None, forfeit=forfeit, spread=spread):  # or corrected
            return ScrabbleResultIn, {"forfeit": forfeit, "spread": spread}
        case ScrabbleResult(scores=(a, b), penalties=penalties):
            taken = {"penalties": list(penalties)} if any(penalties) else {}
            return ScrabbleResultIn, {"scores": [a, b], **taken}
    return round_request(event)


BACKUP = FormatBackup(replayer, request_of)
