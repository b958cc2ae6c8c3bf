"""Typed events of a held tournament's log, and their JSON: written once, here.

Each kind of action a log records is a frozen dataclass (a :class:`LogEvent`) named by
the kind it is logged as. The log stores its fields as a JSON object, keys in field order,
converted by their type hints: ``Fraction`` and ``Decimal`` as text (exact numbers never
pass through a float), enums as their values, tuples as lists, nested dataclasses as
objects; anything else is stored as it is. A field made with :func:`omitted_when` is left
out while it holds that value (``changes`` of a correction of the latest round, an empty
list of alternates), as the log always wrote it.

Old entries are read through upcasters: one function per change of an event's stored
shape, each bringing an entry written before that change up to the shape after it. An
entry's version is its ``version`` key, 1 when it has none (every entry written so far:
version 1 is stored without it, as it always was). A change that only added a key kept
version 1, so its upcaster fills the key where it is missing; a later change of meaning
bumps the class's ``version``, which is then stored, and upcasts from the version before.

Why not a library (cattrs, pydantic, msgspec)? The stored shapes are fixed by the logs
already written, key order and omitted keys included, and every conversion here is one
line; a plan compiled once per class keeps a fold as fast as reading the dicts by hand.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from typing import Any, ClassVar, TypeVar, Union, get_args, get_origin, get_type_hints

JSON = Any  # JSON values only: dict, list, str, int, float, bool, None
Upcaster = Callable[[dict[str, JSON]], dict[str, JSON]]
Convert = Callable[[Any], Any]

_OMITTED_WHEN = "omitted_when"
_MISSING = object()


def omitted_when(value: Any) -> Any:
    """A field that the log leaves out while it holds ``value`` (also its default)."""
    return dataclasses.field(default=value, metadata={_OMITTED_WHEN: value})


@dataclass(frozen=True)
class LogEvent:
    """One kind of action of a held tournament's log (subclasses are frozen dataclasses)."""

    logged_as: ClassVar[str]  # the log's ``kind`` column
    version: ClassVar[int] = 1
    # (the version an entry has before the change, the function that upcasts it), oldest
    # change first; each runs on every entry of that version or older.
    upcasters: ClassVar[tuple[tuple[int, Upcaster], ...]] = ()


E = TypeVar("E", bound=LogEvent)


@dataclass(frozen=True)
class _Field:
    name: str
    to_json: Convert | None  # None: stored as it is
    from_json: Convert | None
    omitted_when: Any


class _Plan:
    """How one dataclass goes to and from JSON, worked out once from its type hints."""

    def __init__(self, cls: type[Any]) -> None:
        hints = get_type_hints(cls)
        self.cls = cls
        self.fields = tuple(
            _Field(f.name, *_converters(hints[f.name]), f.metadata.get(_OMITTED_WHEN, _MISSING))
            for f in dataclasses.fields(cls)
        )

    def to_json(self, value: Any) -> dict[str, JSON]:
        data: dict[str, JSON] = {}
        for f in self.fields:
            item = getattr(value, f.name)
            if f.omitted_when is not _MISSING and item == f.omitted_when:
                continue
            data[f.name] = item if f.to_json is None else f.to_json(item)
        return data

    def from_json(self, data: Mapping[str, JSON]) -> Any:
        values = {}
        for f in self.fields:
            if f.name in data:
                item = data[f.name]
                values[f.name] = item if f.from_json is None else f.from_json(item)
            elif f.omitted_when is _MISSING:
                raise ValueError(f"{self.cls.__name__} data has no {f.name!r}: {dict(data)}")
        return self.cls(**values)


_plans: dict[type[Any], _Plan] = {}


def _plan(cls: type[Any]) -> _Plan:
    plan = _plans.get(cls)
    if plan is None:
        plan = _plans[cls] = _Plan(cls)
    return plan


def _converters(hint: Any) -> tuple[Convert | None, Convert | None]:
    """(to JSON, from JSON) for a value of type ``hint``; None where it is stored as is."""
    origin = get_origin(hint)
    if hint is Fraction or hint is Decimal:
        return str, hint
    if isinstance(hint, type) and issubclass(hint, Enum):
        return (lambda member: member.value), hint
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        plan = _plan(hint)
        return plan.to_json, plan.from_json
    if origin is tuple:
        return _tuple_converters(hint)
    if origin is Union or origin is types.UnionType:
        return _optional_converters(hint)
    if origin is dict:
        return dict, dict
    return None, None  # str, int, float, bool, Literal, Any: JSON already


def _tuple_converters(hint: Any) -> tuple[Convert | None, Convert | None]:
    """A tuple as a list: ``tuple[X, ...]``, or a fixed tuple of items stored as they are."""
    args = get_args(hint)
    items = [_converters(arg) for arg in args if arg is not Ellipsis]
    if all(to is None and back is None for to, back in items):
        return list, tuple
    if len(args) != 2 or args[1] is not Ellipsis:
        raise TypeError(f"no JSON for {hint}: a fixed tuple of converted items")
    to, back = items[0]
    return (
        lambda values: [v if to is None else to(v) for v in values],
        lambda values: tuple(v if back is None else back(v) for v in values),
    )


def _optional_converters(hint: Any) -> tuple[Convert | None, Convert | None]:
    """``X | None``: None stored as null, anything else as an X."""
    present = [arg for arg in get_args(hint) if arg is not type(None)]
    if len(present) != 1:
        raise TypeError(f"no JSON for {hint}: one type or None only")
    to, back = _converters(present[0])
    return (
        None if to is None else lambda v: None if v is None else to(v),
        None if back is None else lambda v: None if v is None else back(v),
    )


def to_json(event: LogEvent) -> dict[str, JSON]:
    """The event's data as the log stores it."""
    data = _plan(type(event)).to_json(event)
    if event.version > 1:
        data["version"] = event.version
    return data


class EventCodec:
    """The events of one format's log, read back from what the log stores."""

    def __init__(self, what: str, *events: type[LogEvent]) -> None:
        self.what = what  # "a strikes log": for the error on a kind it does not know
        self.events = {event.logged_as: event for event in events}
        for event in events:
            _plan(event)  # a type without a JSON form fails at import, not on a read

    def decode(self, kind: str, data: Mapping[str, JSON]) -> LogEvent:
        """The typed event of a stored entry, old shapes upcast to the current one."""
        event = self.events.get(kind)
        if event is None:
            raise ValueError(f"{self.what} has no action {kind!r}")
        return decode_as(event, data)


def decode_as(event: type[E], data: Mapping[str, JSON]) -> E:
    """``data`` as an ``event``, old shapes upcast to the current one."""
    stored = data.get("version", 1)
    current: Mapping[str, JSON] = data
    for before, upcast in event.upcasters:
        if stored <= before:
            current = upcast(dict(current))
    decoded: E = _plan(event).from_json(current)
    return decoded
