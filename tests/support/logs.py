"""Logs for the ledgers' tests, built from actions without Flask or a database."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from pairing_service.engine.event_log import Action, Entry, Ledger

AT = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)


def stored(action: Action) -> Action:
    """The action as the store reads it back: its JSON only, no typed event at hand."""
    return Action(action.kind, json.loads(json.dumps(action.data)))


def logged(actions: Iterable[Action], actor: str = "director") -> list[Entry]:
    """The actions as a log: numbered from 1, each read back from its JSON."""
    return [Entry(seq, stored(a), AT, actor) for seq, a in enumerate(actions, start=1)]


def act(ledger: Ledger[Any], log: list[Entry], action: Action | None) -> Any:
    """Append ``action`` (just decided, typed) to ``log``; the state folded from the log."""
    assert action is not None
    log.append(Entry(len(log) + 1, action, AT))
    return ledger.fold(log)
