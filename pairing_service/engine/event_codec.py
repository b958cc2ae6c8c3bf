"""Typed events of a held tournament's log, and their JSON: written once, here.

Each kind of action a log records is a frozen dataclass (a :class:`LogEvent`) named by
the kind it is logged as. The log stores its fields as a JSON object, keys in field order,
converted by their type hints: ``Fraction`` and ``Decimal`` as text (exact numbers never
pass through a float), a :data:`NumberDecimal` as a JSON number (an amount the log has
always stored as one: :func:`decimal_to_number`), enums as their values, tuples as
lists, nested dataclasses as objects; anything else is stored as it is. A field made
with :func:`omitted_when` is left out while it holds that value (``changes`` of a
correction of the latest round, an empty list of alternates), as the log always wrote it.

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
from functools import partial
from typing import (
    Annotated,
    Any,
    ClassVar,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

JSON = Any  # JSON values only: dict, list, str, int, float, bool, None
Upcaster = Callable[[dict[str, JSON]], dict[str, JSON]]
Convert = Callable[[Any], Any]

_OMITTED_WHEN = "omitted_when"


class _StoredAsNumber:
    """Marks a ``Decimal`` the log stores as a JSON number (:data:`NumberDecimal`)."""


_AS_NUMBER = _StoredAsNumber()
# A Decimal that logs written before it was one store as a JSON number (a float, or an
# integer): it stays one, so that those logs fold and new entries are stored alike.
NumberDecimal = Annotated[Decimal, _AS_NUMBER]


def decimal_to_number(value: Decimal) -> int | float:
    """The JSON number that reads back as ``value`` (:func:`number_to_decimal`): an
    integer for a Decimal read from one ("500"), else the float whose shortest digits are
    the Decimal's ("500.0", "12.5"), which is the float it was read from."""
    if value.as_tuple().exponent == 0:
        return int(value)
    return float(value)


def number_to_decimal(value: int | float) -> Decimal:
    """A stored number as the Decimal of its digits: 0.1 is Decimal("0.1"), not the
    float's binary value."""
    return Decimal(str(value))


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


class _Plan:
    """How one dataclass goes to and from JSON, worked out once from its type hints.

    Both directions are compiled into a function of their own (as ``dataclasses`` writes
    ``__init__``): a fold reads every entry of a log, and a loop over the fields with a
    test per field cost a 400-board event twice the time of reading its dicts by hand.
    """

    def __init__(self, cls: type[Any]) -> None:
        hints = get_type_hints(cls, include_extras=True)
        names: dict[str, Any] = {"cls": cls, "MissingKey": KeyError}
        encode = ["def to_json(value):", "    data = {}"]
        arguments = []  # of the constructor's call, each read from ``data``
        for index, f in enumerate(dataclasses.fields(cls)):
            to, back = _converters(hints[f.name])
            names[f"to_{index}"], names[f"back_{index}"] = to, back
            item = f"value.{f.name}" if to is None else f"to_{index}(value.{f.name})"
            read = f"data[{f.name!r}]" if back is None else f"back_{index}(data[{f.name!r}])"
            if _OMITTED_WHEN in f.metadata:
                names[f"omitted_{index}"] = f.metadata[_OMITTED_WHEN]
                encode.append(f"    if value.{f.name} != omitted_{index}:")
                encode.append(f"        data[{f.name!r}] = {item}")
                arguments.append(f"**({{{f.name!r}: {read}}} if {f.name!r} in data else {{}})")
            else:
                encode.append(f"    data[{f.name!r}] = {item}")
                # Positional where it can be: a fold makes thousands of these calls.
                arguments.append(f"{f.name}={read}" if f.kw_only else read)
        encode.append("    return data")
        decode = [
            "def from_json(data):",
            "    try:",
            f"        return cls({', '.join(arguments)})",
            "    except MissingKey as missing:",
            f"        raise ValueError(f'{cls.__name__} data has no {{missing}}: {{data}}')"
            " from None",
        ]
        exec("\n".join(encode) + "\n\n" + "\n".join(decode), names)
        self.to_json: Callable[[Any], dict[str, JSON]] = names["to_json"]
        self.from_json: Callable[[Mapping[str, JSON]], Any] = names["from_json"]


_plans: dict[type[Any], _Plan] = {}


def _plan(cls: type[Any]) -> _Plan:
    plan = _plans.get(cls)
    if plan is None:
        plan = _plans[cls] = _Plan(cls)
    return plan


def _converters(hint: Any) -> tuple[Convert | None, Convert | None]:
    """(to JSON, from JSON) for a value of type ``hint``; None where it is stored as is."""
    origin = get_origin(hint)
    if origin is Annotated:
        if hint == NumberDecimal:
            return decimal_to_number, number_to_decimal
        return _converters(get_args(hint)[0])
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
        list if to is None else lambda values: list(map(to, values)),
        tuple if back is None else lambda values: tuple(map(back, values)),
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
        # Each kind's reader, worked out now: a type without a JSON form fails at import,
        # and a fold calls the compiled reader straight away where nothing is upcast.
        self._readers: dict[str, Callable[[Mapping[str, JSON]], LogEvent]] = {
            event.logged_as: partial(decode_as, event)
            if event.upcasters
            else _plan(event).from_json
            for event in events
        }

    def decode(self, kind: str, data: Mapping[str, JSON]) -> LogEvent:
        """The typed event of a stored entry, old shapes upcast to the current one."""
        read = self._readers.get(kind)
        if read is None:
            raise ValueError(f"{self.what} has no action {kind!r}")
        return read(data)


def decode_as(event: type[E], data: Mapping[str, JSON]) -> E:
    """``data`` as an ``event``, old shapes upcast to the current one."""
    if event.upcasters:
        stored = data.get("version", 1)
        for before, upcast in event.upcasters:
            if stored <= before:
                data = upcast(dict(data))
    decoded: E = _plan(event).from_json(data)
    return decoded
