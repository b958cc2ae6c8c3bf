"""List fields that skip marshmallow's per-item work where it would only copy or only
check: the answers' lists of hundreds of pairings, and the requests' lists of players.

:class:`FastList` is a ``fields.List`` (so apispec documents it exactly as one, from its
inner field). On dump it first tries a plan compiled once from the inner field: for a
String, Integer or Boolean item, the value itself when its type is exactly the one
marshmallow would give back unchanged (str, int, bool; None stays None); for a Nested
schema of such fields (nested again as deep as needed), a dict made key by key the way
``Schema.dump`` makes it (from a dict's keys, or a dataclass's attributes). Anything else
(another type, a missing key, a schema with hooks or options the plan does not follow)
makes the whole list go through marshmallow, as a ``fields.List`` would, so the answer is
the same either way.

:class:`CheckedList` is a ``fields.List`` of Nested objects whose load first checks the
whole list with fastjsonschema against the schema the OpenAPI document states for its
objects (:func:`load_plan`); a list that fails goes through marshmallow for its errors.
Both use marshmallow's public API only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import is_dataclass
from functools import partial
from itertools import chain
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import RAISE, Schema, fields, missing, validate

from .common import json_check, validator_properties

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

_BY_ATTRIBUTE: dict[type, bool] = {}


def _read_by_attribute(kind: type) -> bool:
    """A dataclass that marshmallow reads by attribute (it has no ``__getitem__``)."""
    found = _BY_ATTRIBUTE.get(kind)
    if found is None:
        found = _BY_ATTRIBUTE[kind] = is_dataclass(kind) and not hasattr(kind, "__getitem__")
    return found


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


def _plain(kind: type[Schema]) -> bool:
    """A schema class that neither processes (no hook of any kind) nor overrides how it
    dumps, loads or reads an attribute: its fields say everything it does."""
    overridden = (kind.dump, kind.load, kind.get_attribute) != (
        Schema.dump,
        Schema.load,
        Schema.get_attribute,
    )
    return not overridden and not any(kind.resolve_hooks().values())


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
    if not _plain(kind):
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
        if type(value) is dict:
            read = value.get
        elif _read_by_attribute(type(value)):
            read = partial(getattr, value)  # marshmallow reads such an object's attributes
        else:
            return SKIP
        out: dict[str, Any] = {}
        for source, key, how in steps:
            dumped = read(source, SKIP)
            if dumped is SKIP:  # marshmallow would look for an attribute, or answer none
                return SKIP
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

    # The plan and the inner field it was made for: binding the list to a schema copies
    # its inner field, and a plan is only good for the field it read.
    _dump_plan: tuple[fields.Field, Plan | None] | None = None  # type: ignore[type-arg]

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> list[Any] | None:
        if self._dump_plan is None or self._dump_plan[0] is not self.inner:
            self._dump_plan = (self.inner, _list_plan(self.inner, frozenset()))
        plan = self._dump_plan[1]
        if plan is not None:
            dumped = plan(value)
            if dumped is not SKIP:
                result: list[Any] | None = dumped
                return result
        return super()._serialize(value, attr, obj, **kwargs)


# --- loading: objects the document accepts, checked by the document's own schema --------------

# Field classes whose load gives back the JSON value the document accepts (a list as a copy);
# a Float gives float(value) (StrictFloat, a subclass, only narrows what it takes).
_AS_IS = (fields.String, fields.Integer, fields.Boolean, fields.List)
# Validators apispec writes into the document: a field with another one checks more.
_DOCUMENTED = (validate.Length, validate.Range, validate.OneOf)
_NOT_JSON_SCHEMA = frozenset({"nullable", "description", "example", "default"})
_DRAFT_4 = "http://json-schema.org/draft-04/schema#"


def _documented(field: fields.Field) -> bool:  # type: ignore[type-arg]
    validators_documented = all(
        isinstance(v, _DOCUMENTED) or hasattr(v, "regex") or hasattr(v, "openapi")
        for v in field.validators
    )
    if isinstance(field, fields.List):
        inner = field.inner
        return validators_documented and isinstance(inner, _AS_IS) and _documented(inner)
    return validators_documented and isinstance(field, (*_AS_IS, fields.Float))


def _draft_4(openapi: Any) -> Any:
    """An OpenAPI 3.0 schema in JSON Schema draft 4, the draft it extends (the same boolean
    ``exclusiveMinimum``; an integer is an int, as a strict Integer takes): ``nullable``
    becomes a type list, and words for readers go."""
    if isinstance(openapi, list):
        return [_draft_4(each) for each in openapi]
    if not isinstance(openapi, dict):
        return openapi
    schema = {key: _draft_4(value) for key, value in openapi.items() if key not in _NOT_JSON_SCHEMA}
    if openapi.get("nullable"):
        schema["type"] = [schema["type"], "null"]
        if "enum" in schema:
            schema["enum"] = [*schema["enum"], None]
    return schema


def documented_schema(schema: Schema) -> dict[str, Any]:
    """``schema`` as the OpenAPI document states it (apispec, with the service's own
    validators' ``openapi`` properties), in JSON Schema draft 4 (:func:`_draft_4`)."""
    plugin = MarshmallowPlugin()
    APISpec("schemas", "1", "3.0.3", plugins=[plugin])
    converter = plugin.converter
    assert converter is not None  # made by the APISpec above
    converter.add_attribute_function(validator_properties)  # type: ignore[no-untyped-call]
    openapi = converter.schema2jsonschema(schema)  # type: ignore[no-untyped-call]
    converted: dict[str, Any] = _draft_4(openapi)
    return converted


Loader = Callable[[list[Any]], list[Any] | None]  # None: marshmallow loads the list


_OBJECT_KEYWORDS = frozenset({"type", "properties", "required", "additionalProperties"})


# JSON values that Python compares equal only within their own type, but for numbers:
# 1 == 1.0 == True, which one check cannot stand for.
_JSON_SCALARS = frozenset({str, type(None), bool, int, float})
_NUMBERS = frozenset({bool, int, float})
_TEXT = frozenset({str, type(None)})


def _distinct(values: list[Any]) -> list[Any]:
    """The values once each, or all of them when two could be equal but not alike (numbers
    of two types) or when one cannot be hashed (a list or an object)."""
    try:
        once = set(values)
    except TypeError:
        return values
    if set(map(type, once)) <= _TEXT:  # no number was there to be taken for another
        return list(once)
    types = set(map(type, values))
    if not types <= _JSON_SCALARS or len(types & _NUMBERS) > 1:
        return values
    return list(once)


def load_plan(schema: Schema) -> Loader | None:
    """``schema.load`` of every object of a list at once, when the document accepts each
    of them; None when the schema does more than the document says (a hook, another field
    or validator), so that marshmallow always loads its lists.

    fastjsonschema checks the very schema the document states, in parts: an object schema
    of properties alone (no keyword relates one property to another) accepts an object when
    its keys fit (required, no others) and each property's value is valid, so each value
    is checked once however many objects give it, and so is each item of a list property
    (the same ids fill every opponent list; a field has a few win totals)."""
    loading = schema.load_fields
    if not _plain(type(schema)) or schema.unknown != RAISE or schema.many:
        return None
    if not all(
        _documented(f) and f.data_key is None and f.attribute is None for f in loading.values()
    ):
        return None
    document = documented_schema(schema)
    if not document.keys() <= _OBJECT_KEYWORDS:
        return None
    properties: dict[str, dict[str, Any]] = document["properties"]
    item_schemas = {name: prop.pop("items") for name, prop in properties.items() if "items" in prop}

    def every(items: dict[str, Any]) -> Callable[[Any], bool]:
        return json_check({"$schema": _DRAFT_4, "type": "array", "items": items})

    keys_fit = every({**document, "properties": {key: {} for key in properties}})
    values_valid = {name: every(prop) for name, prop in properties.items()}
    items_valid = {name: every(items) for name, items in item_schemas.items()}
    defaults = {
        name: f.load_default for name, f in loading.items() if f.load_default is not missing
    }
    floats = [name for name, f in loading.items() if isinstance(f, fields.Float)]
    lists = list(item_schemas)

    def valid(objects: list[Any]) -> bool:
        if any(type(each) is not dict for each in objects):  # marshmallow names the culprit
            return False
        shapes = {tuple(each) for each in objects}  # the keys, in the few orders given
        if not keys_fit([dict.fromkeys(keys) for keys in shapes]):
            return False
        for name, valid_values in values_valid.items():
            if not valid_values(_distinct([each[name] for each in objects if name in each])):
                return False
        for name in lists:  # every value of these is a list by now
            items = list(chain.from_iterable(each.get(name, ()) for each in objects))
            if not items_valid[name](_distinct(items)):
                return False
        return True

    def load(objects: list[Any]) -> list[Any] | None:
        if not valid(objects):
            return None
        loaded: list[Any] = []
        for each in objects:
            out = defaults | each
            for name in floats:
                if name in out:
                    out[name] = float(out[name])
            for name in lists:
                if name in out:
                    out[name] = list(out[name])
            loaded.append(out)
        return loaded

    return load


class CheckedList(fields.List):  # type: ignore[type-arg]
    """A list of Nested objects, documented and loaded as the List; a list whose every
    object the document accepts is loaded at once (:func:`load_plan`), anything else goes
    through marshmallow, object by object, for its errors. For 2,000 players this is the
    difference between a quarter of a second and a few milliseconds."""

    _load_plan: tuple[fields.Field, Loader | None] | None = None  # type: ignore[type-arg]

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> list[Any]:
        if self._load_plan is None or self._load_plan[0] is not self.inner:
            inner = self.inner
            plan = load_plan(inner.schema) if isinstance(inner, fields.Nested) else None
            self._load_plan = (inner, plan)
        plan = self._load_plan[1]
        if plan is not None and isinstance(value, list):
            loaded = plan(value)
            if loaded is not None:
                return loaded
        result: list[Any] = super()._deserialize(value, attr, data, **kwargs)
        return result
