"""Field definitions shared by every format's schemas, and the constraints on whole objects
that the OpenAPI document states and the load checks alike (:class:`Requires`)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from copy import deepcopy
from dataclasses import dataclass
from typing import Any, ClassVar

import fastjsonschema
from apispec import BasePlugin
from flask import current_app, request
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from ..rules import Rules

ID_LENGTH = 64
NAME_LENGTH = 100
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def has_control(value: str) -> bool:
    return _CONTROL.search(value) is not None


class Printable(validate.Validator):
    """Ids and names are echoed in answers and text tables: no control characters. The
    ``regex`` puts the same rule in the OpenAPI document (apispec writes it as ``pattern``);
    the check itself is the search for a control character."""

    regex = re.compile(r"^[^\x00-\x1f\x7f]*$")
    error = "control characters are not allowed"

    def __call__(self, value: str) -> str:
        if has_control(value):
            raise ValidationError(self.error)
        return value


printable = Printable()


class MultipleOf(validate.Validator):
    """A number that is a whole multiple of ``step``: ``multipleOf`` in the document."""

    def __init__(self, step: float, error: str | None = None) -> None:
        self.step = step
        self.message = error or f"must be a multiple of {step}"
        self.openapi = {"multipleOf": step}

    def __call__(self, value: float) -> float:
        if not (value / self.step).is_integer():
            raise ValidationError(self.message)
        return value


class UniqueItems(validate.Validator):
    """A list without repeats (ids): ``uniqueItems`` in the document. The error points at
    the first repeat."""

    def __init__(self) -> None:
        self.openapi = {"uniqueItems": True}

    def __call__(self, value: list[Any]) -> list[Any]:
        seen: set[Any] = set()
        for index, item in enumerate(value):
            if item in seen:
                raise ValidationError({index: [f"{item!r} is listed twice"]})
            seen.add(item)
        return value


unique_items = UniqueItems()


def validator_properties(_: Any, field: fields.Field, **__: Any) -> dict[str, Any]:  # type: ignore[type-arg]
    """apispec attribute function: what this module's validators state (``openapi``)."""
    properties: dict[str, Any] = {}
    for validator in field.validators:
        properties.update(getattr(validator, "openapi", {}))
    return properties


class StrictBoolean(fields.Boolean):
    """JSON true or false only (marshmallow also takes 1, 0, "yes", "on" by default)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class StrictFloat(fields.Float):
    """A JSON number only (marshmallow also takes numeric strings such as "1.5")."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)


class IdList(fields.List):  # type: ignore[type-arg]
    """A list of player ids (null items where the inner field allows them), checked in
    one pass. The inner field documents the items (OpenAPI) and states their rules; this
    applies exactly those rules without a marshmallow call per item, which matters for the
    thousands of previous opponents of a large field."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> list[Any]:
        if not isinstance(value, list):
            raise self.make_error("invalid")
        errors: dict[int, list[str]] = {}
        for index, item in enumerate(value):
            if item is None:
                if not self.inner.allow_none:
                    errors[index] = ["Field may not be null."]
            elif not isinstance(item, str):
                errors[index] = ["Not a valid string."]
            elif not 1 <= len(item) <= ID_LENGTH:
                errors[index] = [f"Length must be between 1 and {ID_LENGTH}."]
            elif has_control(item):
                errors[index] = ["control characters are not allowed"]
        if errors:
            raise ValidationError(errors)
        return list(value)


def player_id(**metadata: Any) -> fields.String:
    """A required player id: 1-64 printable characters."""
    return fields.String(
        required=True,
        validate=[validate.Length(1, ID_LENGTH), printable],
        metadata={"description": f"Player id, 1-{ID_LENGTH} printable characters.", **metadata},
    )


# --- constraints on a whole object, stated once for the document and the check ----------------


Check = Callable[[Any], bool]  # whether a JSON value meets a schema (compile_schema)


@dataclass(frozen=True)
class Requires:
    """A constraint on a whole object that JSON Schema can state but a field cannot: an
    alternative between fields, a field that needs another, "all or none" over a list.
    ``schema`` is that constraint as an OpenAPI 3.0 schema; :class:`RequiresPlugin` writes it
    into the document (one ``allOf`` entry of the object's schema) and :class:`Contract`
    checks the request's JSON against the very same schema, answering ``message`` at
    ``field`` (a slash path into the object, "" for the object itself), or where ``locate``
    finds the entry at fault in the JSON. ``plain``: the same constraint written in Python,
    where the compiled schema would be slow (it then checks instead of the schema, and the
    test that reads JSON Schema as JSON Schema does holds the two equal)."""

    schema: Mapping[str, Any]
    field: str
    message: str
    locate: Callable[[Any], str | None] | None = None
    plain: Check | None = dataclasses.field(default=None, repr=False, compare=False)
    check: Check = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        compiled = compile_schema(self.schema)  # built once, and only of keywords it reads
        object.__setattr__(self, "check", self.plain or compiled)

    def messages(self, original: Any) -> dict[str | int, Any]:
        """marshmallow's error messages for ``original``: the message at its path."""
        path = (self.locate(original) if self.locate else None) or self.field
        keys = [int(p) if p.isdigit() else p for p in (path.split("/") if path else ["_schema"])]
        messages: dict[str | int, Any] = {keys[-1]: [self.message]}
        for key in reversed(keys[:-1]):
            messages = {key: messages}
        return messages


def for_every(items: str, schema: Mapping[str, Any]) -> dict[str, Any]:
    """Every item of the list ``items`` is valid against ``schema``."""
    return {"properties": {items: {"items": dict(schema)}}}


def all_or_none(
    items: str,
    key: str,
    message: str,
    given: Mapping[str, Any] | None = None,
    *,
    at_item: bool = True,
) -> Requires:
    """``key`` given (valid against ``given``) for every item of the list ``items``, or for
    none; the error points at the first item without it (``at_item``), or at the list.

    Without ``given``, the check is :func:`_every_or_none`: the compiled schema's ``not``
    would fail, by an exception, for every item without ``key`` (every player of a field
    without ranks)."""
    present = given or {"required": [key]}
    has_it = compile_schema(present) if given else _has_key(key)

    def first_without(original: Any) -> str | None:
        listed = original.get(items) if isinstance(original, dict) else None
        for index, item in enumerate(listed if isinstance(listed, list) else []):
            if not has_it(item):
                return f"{items}/{index}/{key}"
        return None

    schema = {"anyOf": [for_every(items, present), for_every(items, {"not": present})]}
    plain = None if given else _every_or_none(items, has_it)
    return Requires(schema, items, message, first_without if at_item else None, plain)


def _has_key(key: str) -> Check:
    """Valid against ``{"required": [key]}``: an object with ``key``, or not an object."""
    return lambda item: not isinstance(item, dict) or key in item


def _every_or_none(items: str, has_it: Check) -> Check:
    """The schema ``all_or_none`` states, in Python: unless ``items`` is a list (in an
    object), nothing to check; else every item valid against ``has_it``'s schema or none."""

    def check(original: Any) -> bool:
        listed = original.get(items) if isinstance(original, dict) else None
        if not isinstance(listed, list | tuple):  # fastjsonschema's arrays
            return True
        given = [has_it(item) for item in listed]
        return all(given) or not any(given)

    return check


def one_of_fields(*names: str) -> dict[str, Any]:
    """Exactly one of ``names`` given."""
    return {"oneOf": [{"required": [name]} for name in names]}


def needs(name: str, other: str, *, when_true: bool = False) -> dict[str, Any]:
    """``name`` given (``when_true``: given as true) only together with ``other``."""
    given = is_true(name) if when_true else {"required": [name]}
    return {"anyOf": [{"required": [other]}, {"not": given}]}


def is_true(name: str) -> dict[str, Any]:
    """The boolean ``name`` is given, and true."""
    return {"required": [name], "properties": {name: {"enum": [True]}}}


class Contract(Schema):
    """A schema with constraints on the whole object (``requires``), checked on load."""

    requires: ClassVar[tuple[Requires, ...]] = ()

    @validates_schema(pass_original=True)
    def _requires(self, _: Any, original: Any, **__: Any) -> None:
        for constraint in self.requires:
            if not constraint.check(original):
                raise ValidationError(constraint.messages(original))


class RequiresPlugin(BasePlugin):
    """Writes each :class:`Contract`'s ``requires`` into its schema in the document."""

    def schema_helper(
        self, name: str, definition: dict[str, Any], **kwargs: Any
    ) -> dict[str, Any] | None:
        schema = kwargs.get("schema")
        requires = getattr(schema, "requires", ())
        if not requires:
            return None
        return {"allOf": [deepcopy(dict(constraint.schema)) for constraint in requires]}


# Keywords that mean the same in OpenAPI 3.0 and JSON Schema draft 7, so that the check reads
# a constraint exactly as the document states it (``nullable``, ``exclusiveMinimum`` and
# ``type`` do not); a subschema sits under "not", in "properties", "items" and the lists.
_SUBSCHEMA = frozenset({"not", "items"})
_SUBSCHEMA_MAPS = frozenset({"properties"})
_SUBSCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf"})
_VALUES = frozenset({"required", "enum", "minimum", "maximum", "minItems", "maxItems"})


def _only_shared_keywords(schema: Mapping[str, Any]) -> None:
    for keyword, argument in schema.items():
        if keyword in _SUBSCHEMA:
            _only_shared_keywords(argument)
        elif keyword in _SUBSCHEMA_MAPS:
            for each in argument.values():
                _only_shared_keywords(each)
        elif keyword in _SUBSCHEMA_LISTS:
            for each in argument:
                _only_shared_keywords(each)
        elif keyword not in _VALUES:
            raise ValueError(f"a Requires schema cannot use {keyword!r}")


def compile_schema(schema: Mapping[str, Any]) -> Check:
    """Whether a JSON value is valid against ``schema``, as a function built once by
    fastjsonschema (draft 7). A constraint uses only the keywords above: an unknown one is
    an error, never read differently from the document."""
    _only_shared_keywords(schema)
    return json_check(deepcopy(dict(schema)))


def json_check(schema: dict[str, Any]) -> Check:
    """Whether a JSON value is valid against ``schema`` (JSON Schema, draft 7 unless its
    ``$schema`` says another), compiled once by fastjsonschema."""
    # detailed_exceptions=False: a failed branch of anyOf/not is an exception, and the
    # message it would format is never read; use_default=False: the value is not changed.
    validate = fastjsonschema.compile(schema, use_default=False, detailed_exceptions=False)

    def check(value: Any) -> bool:
        try:
            validate(value)
        except fastjsonschema.JsonSchemaValueException:
            return False
        return True

    return check


def loaded_rules() -> Rules:
    """The rule data loaded at start-up (``create_app``)."""
    rules: Rules = current_app.extensions["pairing_rules"]
    return rules


def prefers(mimetype: str) -> bool:
    """The client asks for ``mimetype`` over JSON outright ("*/*" means JSON)."""
    accepted = request.accept_mimetypes
    return accepted[mimetype] > accepted["application/json"]


def as_read_by(schema: Schema, source: object) -> dict[str, Any]:
    """What ``schema`` reads of ``source``, not yet dumped: each field's attribute (the
    first name of a dotted path), by name. ``schema`` dumps this dict exactly as it dumps
    ``source``; a held format's ``HeldResource.shape`` gives it, as the log routes dump
    the shape through the read schema (an answer dumped already would not dump to itself:
    its times are text by then). A field its source lacks is left to its ``dump_default``."""
    names = dict.fromkeys(
        (f.attribute or name).split(".")[0] for name, f in schema.dump_fields.items()
    )
    return {name: getattr(source, name) for name in names if hasattr(source, name)}
