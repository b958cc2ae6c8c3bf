"""Backup and restore of one held tournament: its whole log as a JSON document, and a new
tournament made from such a document, on this instance or another (``docs/events.md``,
"Backup and restore").

A backup holds what the store holds of a tournament, less its tokens: the format, name,
creation time and revision, and every log entry (seq, kind, data, actor, time) exactly as
stored, secrets included (a league's reporting-token hashes, players' e-mail addresses),
so that the copy is the tournament, not a summary of it. Only the director reads it.

A restore checks the document entry by entry before it writes anything (its dates within
the event's life, from its creation to now, in :func:`read_backup`; then :func:`replay`):
each entry is decoded by the format's ledger, and each action is decided again by the
format's rules on the state the entries before it give (a :class:`Replayer` per format,
``api/<format>/backup.py``); the action decided must be the one the entry records. Undos
are checked the same way (``event_log.undo``). The first entry the rules refuse fails the
whole restore, naming it (``/log/<index>``); nothing is written. The copy is then written
in one transaction, under a new id, with a new director token (answered once), its
entries' seq, times and actors as they were, and the revision the backup names.

The write is the store's own create, with a whole log (:meth:`HeldStore.create_with_log`),
so that the copy is stored exactly as a tournament made through the API is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from ..engine.errors import Conflict, FieldError, Location, NotFound, NotPermitted, Rule
from ..engine.event_codec import JSON, LogEvent, to_json
from ..engine.event_log import (
    CREATED,
    DIRECTOR,
    STORE_KINDS,
    UNDONE,
    Action,
    Entry,
    Ledger,
    ScorekeeperAdded,
    ScorekeeperRevoked,
    read_action,
    scorekeeper_actor,
    undo,
)
from .held import Held
from .tokens import now
from .tournament_store import HeldStore

S = TypeVar("S")

BACKUP_FORMAT = "pairing-advisor-backup"  # the document's ``format``
BACKUP_VERSION = 1  # bumped when the document's shape changes; older ones stay readable
# The life of a backed-up event: created no earlier than this service could have made it,
# its entries from its creation to now, give or take the skew between two instances'
# clocks (a backup from one restored at once on another).
EARLIEST_EVENT = datetime(2020, 1, 1, tzinfo=UTC)
CLOCK_SKEW = timedelta(minutes=5)

# What a format's rules may raise, or its fold when an entry does not fit the state: an
# entry refused (anything else is a bug of ours, answered as a 500).
REFUSALS = (
    Conflict,
    NotFound,
    NotPermitted,
    FieldError,
    ValueError,
    KeyError,
    IndexError,
    TypeError,
    AttributeError,
    ArithmeticError,
)


class BackupRefused(FieldError):
    """A backup that cannot be restored: ``at`` is where in the document (a 422 naming
    the rule ``backup-replays``)."""

    def __init__(self, at: Location, message: str) -> None:
        super().__init__(at, message, rule=Rule.BACKUP_REPLAYS)


@dataclass(frozen=True)
class Replayer:
    """How a format's rules decide again the action a log entry records: ``decide`` is
    given the state before the entry, its typed event and who acted, and answers the
    action the rules decide from the inputs the event records (or raise the engine's
    refusal). ``by_others``: the kinds someone other than the director may log (a
    league's player reports a game); ``by_scorekeepers``: the kinds a scorekeeper the log
    names as issued, and not yet revoked, may log (results)."""

    decide: Callable[[Any, LogEvent, str], Action | None]
    by_others: frozenset[str] = frozenset()
    by_scorekeepers: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Backup:
    """A backup document, read (its shape already checked by the API's schema)."""

    format: str  # the tournament's: strikes, diagonal, ...
    name: str | None
    created_at: datetime
    revision: int
    log: tuple[Entry, ...]


def backup_document(held: Held[Any]) -> dict[str, Any]:
    """The backup of a tournament: everything its log and row hold, but no token (times
    as UTC datetimes: the API's schema writes them as ISO 8601)."""
    return {
        "format": BACKUP_FORMAT,
        "version": BACKUP_VERSION,
        "tournament": {
            "format": held.format,
            "name": held.name,
            "created_at": held.created_at.astimezone(UTC),
            "revision": held.revision,
        },
        "log": [
            {
                "seq": entry.seq,
                "kind": entry.kind,
                "data": dict(entry.data),
                "actor": entry.actor,
                "at": entry.at.astimezone(UTC),
            }
            for entry in held.log
        ],
    }


def read_backup(ledger: Ledger[Any], document: Mapping[str, Any]) -> Backup:
    """The document as a :class:`Backup`, each entry decoded by ``ledger`` (its kinds and
    their data); BackupRefused naming the first thing wrong."""
    if document["version"] != BACKUP_VERSION:
        raise BackupRefused(
            ("version",), f"backup version {document['version']} is not one this service reads"
        )
    tournament = document["tournament"]
    if tournament["format"] != ledger.format:
        raise BackupRefused(
            ("tournament", "format"),
            f"a backup of a {tournament['format']} tournament, restored as {ledger.format}: "
            "send it to that format's import",
        )
    entries = []
    for index, item in enumerate(document["log"]):
        if item["seq"] != index + 1:
            raise BackupRefused(
                ("log", index, "seq"), f"entry {index + 1} of the log has seq {item['seq']}"
            )
        try:
            action = read_action(ledger, item["kind"], item["data"])
            written = to_json(ledger._event(action))
        except REFUSALS as error:
            known = item["kind"] in ledger.events.events
            at: Location = ("log", index, "data" if known else "kind")
            raise BackupRefused(at, f"entry {index + 1}: {error}") from None
        unknown = _unknown_key(item["data"], {**written, "version": None})
        if unknown is not None:
            raise BackupRefused(
                ("log", index, "data", *unknown),
                f"entry {index + 1} ({item['kind']}) records nothing under this key",
            )
        entries.append(Entry(item["seq"], action, _utc(item["at"]), item["actor"]))
    _within_the_events_life(_utc(tournament["created_at"]), entries)
    if tournament["revision"] < len(entries):
        raise BackupRefused(
            ("tournament", "revision"),
            f"revision {tournament['revision']} is before the log's last entry ({len(entries)})",
        )
    return Backup(
        ledger.format,
        tournament["name"],
        _utc(tournament["created_at"]),
        tournament["revision"],
        tuple(entries),
    )


def _within_the_events_life(created_at: datetime, entries: Sequence[Entry]) -> None:
    """BackupRefused unless the event was created between ``EARLIEST_EVENT`` and now and
    every entry is dated from its creation to now (``CLOCK_SKEW`` allowed after now): a
    history dated in 1970 or 2100 is not one this service wrote."""
    latest = now() + CLOCK_SKEW
    if not EARLIEST_EVENT <= created_at <= latest:
        raise BackupRefused(
            ("tournament", "created_at"),
            f"the event is dated {created_at.isoformat()}: not between "
            f"{EARLIEST_EVENT.date().isoformat()} and now",
        )
    for index, entry in enumerate(entries):
        if entry.at < created_at:
            raise BackupRefused(
                ("log", index, "at"),
                f"entry {entry.seq} is dated {entry.at.isoformat()}, before the event was "
                f"created ({created_at.isoformat()})",
            )
        if entry.at > latest:
            raise BackupRefused(
                ("log", index, "at"),
                f"entry {entry.seq} is dated {entry.at.isoformat()}, in the future",
            )


def _unknown_key(stored: JSON, written: JSON, path: Location = ()) -> Location | None:
    """Where ``stored`` (an entry's data) has a key that its event, read and written again
    (``written``), does not: the codec reads the keys it knows and passes over others, so
    a key it would pass over is refused rather than copied into the new log unread. (An
    older shape has fewer keys, never more: its upcasters add them.)"""
    if isinstance(stored, dict) and isinstance(written, dict):
        for key, value in stored.items():
            if key not in written:
                return (*path, key)
            found = _unknown_key(value, written[key], (*path, key))
            if found is not None:
                return found
    elif isinstance(stored, list) and isinstance(written, list) and len(stored) == len(written):
        for index, (item, again) in enumerate(zip(stored, written, strict=True)):
            found = _unknown_key(item, again, (*path, index))
            if found is not None:
                return found
    return None


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def replay(ledger: Ledger[S], log: Sequence[Entry], replayer: Replayer) -> S:
    """The state the log folds into, after checking that the format's rules decide every
    one of its actions as it records them, each on the state the entries before it give;
    BackupRefused at the first that they do not (``/log/<index>``)."""
    if not log or log[0].kind != CREATED:
        raise BackupRefused(("log",), "a log begins with its creation")
    state: S | None = None
    scorekeepers: dict[str, bool] = {}  # the actor each issued scorekeeper is -> still on
    for index, entry in enumerate(log):
        at: Location = ("log", index)
        by_scorekeeper = scorekeepers.get(entry.actor) and entry.kind in replayer.by_scorekeepers
        if entry.actor != DIRECTOR and entry.kind not in replayer.by_others and not by_scorekeeper:
            raise BackupRefused(
                (*at, "actor"), f"entry {entry.seq} ({entry.kind}) is the director's to take"
            )
        _follow_scorekeepers(scorekeepers, ledger._event(entry.action), at)
        try:
            expected = _decided(ledger, state, log[:index], entry, replayer)
            if expected is None:
                raise Conflict("it changes nothing where it stands")
            stored = to_json(ledger._event(entry.action))
            if expected.kind != entry.kind or dict(expected.data) != stored:
                raise Conflict(f"the rules decide {_differs(expected, entry.kind, stored)}")
            if entry.kind == UNDONE:
                state = ledger.fold(log[: index + 1])
            elif state is None:
                state = ledger.start(entry)
            elif entry.kind not in STORE_KINDS:
                ledger.apply(state, entry)
        except BackupRefused:
            raise
        except REFUSALS as error:
            raise BackupRefused(
                at, f"entry {entry.seq} ({entry.kind}) is refused by the rules: {error}"
            ) from None
    assert state is not None
    return state


def _follow_scorekeepers(scorekeepers: dict[str, bool], event: LogEvent, at: Location) -> None:
    """Scorekeepers are issued 1, 2, 3, ... and revoked once each (BackupRefused else)."""
    match event:
        case ScorekeeperAdded(number=number):
            if number != len(scorekeepers) + 1:
                raise BackupRefused((*at, "data", "number"), f"scorekeeper {number} is out of turn")
            scorekeepers[scorekeeper_actor(number)] = True
        case ScorekeeperRevoked(number=number):
            if not scorekeepers.get(scorekeeper_actor(number)):
                raise BackupRefused(
                    (*at, "data", "number"), f"scorekeeper {number} is not issued, or revoked"
                )
            scorekeepers[scorekeeper_actor(number)] = False


def _decided(
    ledger: Ledger[S], state: S | None, before: Sequence[Entry], entry: Entry, replayer: Replayer
) -> Action | None:
    """The action the rules decide where ``entry`` stands, from what it records."""
    if entry.kind == UNDONE:
        return undo(before, int(entry.data["entry"]))
    if entry.kind in STORE_KINDS:
        return entry.action  # the store's: a token replaced, a scorekeeper (checked above)
    if (entry.kind == CREATED) != (state is None):
        raise Conflict("a log has one creation, its first entry")
    return replayer.decide(state, ledger._event(entry.action), entry.actor)


def _differs(expected: Action, kind: str, stored: Mapping[str, JSON]) -> str:
    if expected.kind != kind:
        return f"{expected.kind!r} here, not {kind!r}"
    keys = [k for k in {**expected.data, **stored} if expected.data.get(k) != stored.get(k)]
    key = keys[0]
    return f"{key} = {expected.data.get(key)!r} here, not {stored.get(key)!r}"


def restore(store: HeldStore, ledger: Ledger[S], backup: Backup, state: S) -> tuple[Held[S], str]:
    """Write the backup's tournament under a new id, with a new director token (answered
    once, only its hash kept), in one transaction; ``state``: what its log folds into
    (:func:`replay`). With an Idempotency-Key, as :meth:`HeldStore.create`: a retry of
    the same request answers the tournament it made, and the same token."""
    return store.create_with_log(
        ledger, backup.name, backup.created_at, backup.revision, backup.log, state
    )
