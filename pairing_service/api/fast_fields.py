"""A list field whose dump skips marshmallow's per-item work when that work would only
copy the items: the answers' lists of hundreds of pairings, each with lists of ids.

:class:`FastList` is a ``fields.List`` (so apispec documents it exactly as one, from its
inner field). On dump it first tries a plan compiled once from the inner field: for a
String, Integer or Boolean item, the value itself when its type is exactly the one
marshmallow would give back unchanged (str, int, bool; None stays None); for a Nested
schema of such fields (nested again as deep as needed), a dict made key by key the way
``Schema.dump`` makes it. Anything else (another type, a missing key, a schema with hooks
or options the plan does not follow) makes the whole list go through marshmallow, as a
``fields.List`` would, so the answer is the same either way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import Schema, fields, missing
from marshmallow.decorators import POST_DUMP, PRE_DUMP

_NONE = type(None)


class _Skip:
    """The plan does not apply to this value: marshmallow dumps it."""


SKIP = _Skip()

Plan = Callable[[Any], Any]  # a value as marshmallow dumps it, or SKIP

# Field classes whose dump returns a value of these exact types unchanged (and None as None).
_SCALARS: dict[type, frozenset[type]] = {
    fields.String: frozenset({str, _NONE}),
    fields.Integer: frozenset({int, _NONE}),
    fields.Boolean: frozenset({bool, _NONE}),
}
_SEQUENCES = (list, tuple)


def _scalar_types(field: fields.Field) -> frozenset[type] | None:  # type: ignore[type-arg]
    types = _SCALARS.get(type(field))
    if types is None or (isinstance(field, fields.Integer) and field.as_string):
        return None
    return types


def _list_plan(inner: fields.Field, within: frozenset[type]) -> Plan | None:  # type: ignore[type-arg]
    """``List._serialize`` with ``inner`` items, if the plan covers it."""
    types = _scalar_types(inner)
    if types is not None:

        def plain_list(value: Any) -> Any:
            if value is None:
                return None
            if type(value) not in _SEQUENCES or not types.issuperset(map(type, value)):
                return SKIP
            return list(value)

        return plain_list
    item = _nested_plan(inner, within)
    if item is None:
        return None

    def nested_list(value: Any) -> Any:
        if value is None:
            return None
        if type(value) not in _SEQUENCES:
            return SKIP
        dumped = [item(each) for each in value]
        return SKIP if SKIP in dumped else dumped

    return nested_list


def _nested_plan(field: fields.Field, within: frozenset[type]) -> Plan | None:  # type: ignore[type-arg]
    """``Nested._serialize`` of one object (None stays None), if the plan covers it.
    ``within``: the schemas being planned around it (a schema nested in itself is left to
    marshmallow)."""
    if type(field) is not fields.Nested or field.many:
        return None
    schema = field.schema
    kind = type(schema)
    if kind in within or schema.many or schema.dict_class is not dict:
        return None
    if schema._hooks[PRE_DUMP] or schema._hooks[POST_DUMP]:
        return None
    if (kind.dump, kind._serialize, kind.get_attribute) != (
        Schema.dump,
        Schema._serialize,
        Schema.get_attribute,
    ):
        return None
    within |= {kind}
    # (source key, answer key, exact types of a value answered as is | how to dump it)
    steps: list[tuple[str, str, frozenset[type] | Plan]] = []
    for name, each in schema.dump_fields.items():
        source = name if each.attribute is None else each.attribute
        if "." in source or each.dump_default is not missing:
            return None
        how: frozenset[type] | Plan | None = _scalar_types(each)
        if how is None:
            if type(each) in (fields.List, FastList):
                how = _list_plan(each.inner, within)  # type: ignore[attr-defined]
            else:
                how = _nested_plan(each, within)
            if how is None:
                return None
        steps.append((source, name if each.data_key is None else each.data_key, how))

    def dump(value: Any) -> Any:
        if value is None:
            return None
        if type(value) is not dict:
            return SKIP
        out: dict[str, Any] = {}
        for source, key, how in steps:
            if source not in value:  # marshmallow would look for an attribute
                return SKIP
            dumped = value[source]
            if isinstance(how, frozenset):
                if type(dumped) not in how:
                    return SKIP
            else:
                dumped = how(dumped)
                if dumped is SKIP:
                    return SKIP
            out[key] = dumped
        return out

    return dump


class FastList(fields.List):  # type: ignore[type-arg]
    """``fields.List`` with the dump planned above; documented and loaded as the List."""

    _plan: Plan | _Skip | None = SKIP  # SKIP: not planned yet

    def _bind_to_schema(self, field_name: str, parent: Any) -> None:
        super()._bind_to_schema(field_name, parent)
        self._plan = SKIP  # binding copies the inner field: plan again

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> list[Any] | None:
        plan = self._plan
        if isinstance(plan, _Skip):
            plan = self._plan = _list_plan(self.inner, frozenset())
        if plan is not None:
            dumped = plan(value)
            if dumped is not SKIP:
                result: list[Any] | None = dumped
                return result
        return super()._serialize(value, attr, obj, **kwargs)
