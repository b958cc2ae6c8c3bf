"""Request body parsing: strict JSON, and files (CSV standings, tsh files) for curl users.

Strict JSON: no NaN/Infinity, no duplicate keys, bounded nesting, integers within the
digit limit; anything else is a 400 malformed request. A ``text/csv`` body holds one player
a line, a ``text/plain`` one a tsh division file: both are decoded and read by
``csv_upload.py``, whose ``FileBody`` carries what reading them found (each player's file
line, hints for cells a spreadsheet wrote its own way, the decoding's notes) to the code
that answers problems (``StrictParser.handle_error``; ``file_lines_named`` on a view) and
adds warnings. The other request fields come from the query string (``query_beside``).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any, NoReturn

import flask
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Flask, Response, request
from flask_smorest import Blueprint
from marshmallow import Schema, ValidationError
from marshmallow.fields import List, Number, String
from webargs import core
from webargs.flaskparser import FlaskParser, abort

from ..engine.errors import FieldError, Rule
from .csv_upload import (
    BodyEncoding,
    FileBody,
    FileRead,
    UnreadableBody,
    csv_standings,
    decode_body,
    file_read,
    number_or_text,
)
from .errors import field_problem
from .held.conditions import HEADERS

MAX_NESTING = 32


def _reject_constant(name: str) -> Any:
    raise UnreadableBody(f"{name} is not valid JSON")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise UnreadableBody(f"duplicate key {key!r}")
        result[key] = value
    return result


_CONTAINERS = (dict, list)


def _deeper_than(value: Any, limit: int) -> bool:
    """True when the parsed containers nest deeper than ``limit`` (the top one is 1):
    level by level, each container once (checking the text before parsing cost 3 ms on
    a 400-player body, mostly stripping its strings)."""
    level = [value] if type(value) in _CONTAINERS else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        nested: list[Any] = []
        for container in level:
            items = container.values() if type(container) is dict else container
            nested += [item for item in items if type(item) in _CONTAINERS]
        level = nested
    return False


def strict_json_loads(text: str) -> Any:
    too_deep = UnreadableBody(f"JSON nested deeper than {MAX_NESTING} levels")
    try:
        value = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_no_duplicates)
    except UnreadableBody:
        raise
    except RecursionError as exc:  # nested past Python's own limit, far past ours
        raise too_deep from exc
    except json.JSONDecodeError as exc:
        raise UnreadableBody(
            f"invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from exc
    except ValueError as exc:  # e.g. integers beyond the digit limit
        raise UnreadableBody(f"invalid JSON: {exc}") from exc
    if _deeper_than(value, MAX_NESTING):
        raise too_deep
    return value


def value_of(text: str) -> Any:
    """A query value of a standings route: null ("" or "null"), else a number, a boolean or
    text. An empty value reaches here only where the route's document allows it: the empty
    values it refuses are refused before the view (``refuse_empty_query_values``)."""
    return None if text in ("", "null") else number_or_text(text)


def query_fields(
    query: Mapping[str, str], text_fields: Collection[str] = (), list_fields: Collection[str] = ()
) -> dict[str, Any]:
    """The request's other fields, from the query string: a field of ``text_fields`` as
    it is written, one of ``list_fields`` a comma-separated list (OpenAPI's form style,
    not exploded: ``prizes=300,200,null``), any other a number, a boolean, null ("" or
    "null") or text (``value_of``)."""
    for key in set(list_fields) & set(query):
        if not query[key].strip():
            raise FieldError(
                (key,), "an empty list: give its values comma-separated", rule=Rule.QUERY_FIELDS
            )

    return {
        key: value
        if key in text_fields
        else [value_of(item) for item in value.split(",")]
        if key in list_fields
        else value_of(value)
        for key, value in query.items()
    }


# What a tsh file's query string calls two of the request's fields (``tsh_division``).
TSH_QUERY_NAMES = {"tsh_round": "after", "tsh_complete_rounds_only": "complete_rounds_only"}
BODY_FIELDS = ("players", "tsh")  # what a CSV or tsh body holds: never in the query
_SCALARS = ("boolean", "integer", "number", "string")


@functools.cache
def _field_schemas() -> MarshmallowPlugin:
    """apispec's converter of a marshmallow field to its OpenAPI schema, as the document's."""
    plugin = MarshmallowPlugin()
    APISpec("query parameters", "1", "3.0.3", plugins=[plugin])
    return plugin


def query_parameters(schema: type[Schema]) -> list[dict[str, Any]]:
    """The OpenAPI query parameters of a standings route: every scalar field of its JSON
    body but the standings, which a CSV or tsh body takes from the query string
    (``query_fields``) and a JSON body may, under the names the query gives them, each
    with the body field's own schema (type, bounds, pattern, choices)."""
    converter = _field_schemas().converter
    assert converter is not None
    parameters = []
    for name, field in schema().fields.items():
        described = dict(converter.field2property(field))
        listed = described.get("type") == "array" and name in list_fields(schema)
        if name in BODY_FIELDS or (described.get("type") not in _SCALARS and not listed):
            continue
        note = str(described.pop("description", "")).strip()
        described.pop("example", None)
        # The body's default stands when the query leaves a field out; stated here, Swagger
        # UI's "Try it out" would send every default beside a JSON body (a query-fields 422).
        described.pop("default", None)
        parameters.append(
            {
                "in": "query",
                "name": TSH_QUERY_NAMES.get(name, name),
                "required": False,
                **({"style": "form", "explode": False} if listed else {}),
                "schema": described,
                "description": f"The body's `{name}`, given in the query string: how a "
                f"text/csv or text/plain body gives it (with a JSON body, either place, not "
                f"both). {note}".strip(),
            }
        )
    return parameters


def query_beside(
    body: Mapping[str, Any],
    query: Mapping[str, str],
    text_fields: Collection[str] = (),
    list_fields: Collection[str] = (),
) -> dict[str, Any]:
    """The fields of a standings request given in the query string, under the body's names
    (``after`` is ``tsh_round``, ...): all of them for a CSV or tsh body, any of them for a
    JSON one. One given in both places is refused, and a tsh file's round without a tsh
    file (the ``query-fields`` rule)."""
    for name in list_fields:
        if len(getattr(query, "getlist", lambda _: ())(name)) > 1:
            raise FieldError(
                (name,),
                f"given more than once: give the list once, comma-separated ({name}=300,200)",
                rule=Rule.QUERY_FIELDS,
            )
    body_name = {in_query: name for name, in_query in TSH_QUERY_NAMES.items()}
    renamed = {body_name.get(k, k): v for k, v in query.items()}
    fields = query_fields(renamed, text_fields, list_fields)
    for name, in_query in (*TSH_QUERY_NAMES.items(), ("spread_cap", "spread_cap")):
        if name in fields and "tsh" not in body:
            what = "spread cap" if name == "spread_cap" else "round"
            raise FieldError(
                (in_query,),
                f"a tsh file's {what}: send the file (text/plain, or `tsh` in the body)",
                rule=Rule.QUERY_FIELDS,
            )
    twice = sorted(set(fields) & set(body))
    if twice:
        raise FieldError(
            (twice[0],),
            "given both in the query string and in the body: give it once",
            rule=Rule.QUERY_FIELDS,
        )
    return fields


def tsh_division(text: str) -> FileBody:
    """A text/plain body is a tsh division file."""
    return FileBody({"tsh": text}, FileRead())


Reader = Callable[[str], FileBody]


class StrictParser(FlaskParser):
    """Strict JSON; other text types through ``readers`` (mimetype -> reader)."""

    def __init__(
        self,
        readers: Mapping[str, Reader] | None = None,
        text_fields: Collection[str] = (),
        list_fields: Collection[str] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.readers = dict(readers or {})
        self.text_fields = frozenset(text_fields)  # query values kept as written
        self.list_fields = frozenset(list_fields)  # query values split on commas

    def _raw_load_json(self, req: flask.Request) -> Any:
        raw = req.get_data(cache=True)
        if not raw.strip():
            abort(400, messages={"json": ["the request body is empty"]})
        mimetype = req.mimetype or ""
        try:
            charset = req.mimetype_params.get("charset")
            decoded = decode_body(raw, mimetype, charset, self.readers)
            if mimetype in self.readers:
                body = self.readers[mimetype](decoded.text)
                read = FileRead(body.file.lines, body.file.hints, decoded.notes)
                fields = self._query_fields(body, req)
                return FileBody({**body, **fields}, read)
            if mimetype == "application/json" or mimetype.endswith("+json"):
                loaded = strict_json_loads(decoded.text)
            else:
                accepted = " or ".join(["application/json", *self.readers])
                abort(415, message=f"send {accepted}, not {mimetype or 'no content type'}")
            if isinstance(loaded, dict):
                return {**loaded, **self._query_fields(loaded, req)}
            return loaded
        except BodyEncoding as exc:
            abort(400, messages={"json": [str(exc)]})
        except UnreadableBody as exc:
            abort(400, messages={"json": [str(exc)]})
        return core.missing  # pragma: no cover - abort raised

    def _query_fields(self, body: Mapping[str, Any], req: flask.Request) -> dict[str, Any]:
        """The request's fields given in the query string (a route reading files only)."""
        if not (self.readers and req.args):
            return {}
        return query_beside(body, req.args, self.text_fields, self.list_fields)

    def _process_location_data(
        self,
        location_data: Any,
        schema: Schema,
        req: flask.Request,
        location: str,
        unknown: str | None,
        validators: Any,
    ) -> Any:
        """webargs' loading of the body by its schema; a file's body stays one, for the
        view to name its lines and add its notes (``file_read``)."""
        loaded = super()._process_location_data(
            location_data, schema, req, location, unknown, validators
        )
        if isinstance(location_data, FileBody) and isinstance(loaded, dict):
            return FileBody(loaded, location_data.file)
        return loaded

    def handle_error(
        self,
        error: ValidationError,
        req: flask.Request,
        schema: Schema,
        *,
        error_status_code: int | None,
        error_headers: Mapping[str, str] | None,
    ) -> NoReturn:
        """webargs' 422, with what reading the body's file found (``file``): the errors
        name each player's file line and say how to write a spreadsheet's number."""
        abort(
            error_status_code or self.DEFAULT_VALIDATION_STATUS,
            exc=error,
            messages=error.messages,
            schema=schema,
            headers=error_headers,
            file=file_read(error.data),
        )


class StrictBlueprint(Blueprint):  # type: ignore[misc]
    """A blueprint whose request bodies are strict JSON."""

    ARGUMENTS_PARSER = StrictParser()

    def arguments(self, schema: Any, *args: Any, **kwargs: Any) -> Any:
        """flask-smorest's ``arguments``, with one instance of a schema class per view:
        given the class, webargs would build a schema (copying all its fields) on every
        request; a marshmallow 4 schema keeps no state from one load to the next."""
        if isinstance(schema, type):
            schema = schema()
        return super().arguments(schema, *args, **kwargs)


class StandingsBlueprint(StrictBlueprint):
    """Strict JSON, CSV standings (``id,wins,spread[,name]``) or a tsh division file; the
    request's other fields in the body (JSON) or the query string (``query_beside``), where
    ``text_fields`` are read as written (a division named 0 stays text)."""

    def __init__(
        self,
        *args: Any,
        text_fields: Collection[str] = (),
        list_fields: Collection[str] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        readers: dict[str, Reader] = {"text/csv": csv_standings, "text/plain": tsh_division}
        self.ARGUMENTS_PARSER = StrictParser(
            readers=readers, text_fields=text_fields, list_fields=list_fields
        )


View = Callable[..., Any]


def file_lines_named(view: View) -> View:
    """A view whose body may be a file (CSV standings): the engine's refusal of a field
    (``players/3/wins``) is answered naming the player's line in the file."""

    @functools.wraps(view)
    def named(self: Any, body: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return view(self, body, *args, **kwargs)
        except FieldError as error:
            lines = file_read(body).lines
            if not lines:
                raise
            return field_problem(error.at, error.message, rule=error.rule, file_lines=lines)

    return named


def list_fields(schema: type[Schema]) -> frozenset[str]:
    """The fields of ``schema`` that hold a list of numbers (``query_fields``)."""
    return frozenset(
        name
        for name, field in schema().fields.items()
        if isinstance(field, List) and isinstance(field.inner, Number)
    )


def text_fields(schema: type[Schema]) -> frozenset[str]:
    """The fields of ``schema`` that hold text (a query string's value is kept as written)."""
    return frozenset(name for name, field in schema().fields.items() if isinstance(field, String))


# Empty query values, refused as the OpenAPI document says for every route: ``?max_spread_
# per_game=`` is not an integer, nor null (null is written ``null``, or the parameter left
# out). The standings routes read their query string themselves (``query_fields``, where
# an empty value had been taken as null) and document it by hand (``query_parameters``);
# the other routes' query strings are marshmallow schemas, which refuse an empty number or
# boolean already. This check reads each operation's hand-written query parameters from its
# view's documentation, the same that goes into ``/openapi.json``, and answers a 422 naming
# the parameter before the view reads anything, for every value the parameter's schema
# cannot hold when empty: a number, an integer, a boolean, an array's empty item, and a
# string whose ``enum``, ``minLength`` or ``pattern`` leaves out the empty string.

# Documented query parameters by (endpoint, method): name -> its schema.
Documented = dict[tuple[str, str], dict[str, Mapping[str, Any]]]
_TABLE = "pairing_query_parameters"
_ARTICLE = {"integer": "an integer", "number": "a number", "boolean": "a boolean"}


def _view_methods(app: Flask) -> Iterable[tuple[str, str, Any]]:
    """(endpoint, method, the function that serves it) for every route."""
    for rule in app.url_map.iter_rules():
        view = app.view_functions.get(rule.endpoint)
        view_class = getattr(view, "view_class", None)
        for method in sorted(rule.methods or ()):
            served = getattr(view_class, method.lower(), None) if view_class else view
            if served is not None:
                yield rule.endpoint, method, served


def documented_query_parameters(app: Flask) -> Documented:
    """Every hand-documented query parameter of the app's operations."""
    table: Documented = {}
    for endpoint, method, served in _view_methods(app):
        manual = (getattr(served, "_apidoc", None) or {}).get("manual_doc") or {}
        listed = [*manual.get(HEADERS, ()), *manual.get("parameters", ())]
        parameters = {
            str(p["name"]): p["schema"]
            for p in listed
            if isinstance(p, Mapping)
            and p.get("in") == "query"
            and isinstance(p.get("schema"), Mapping)
        }
        if parameters:
            table[(endpoint, method)] = parameters
    return table


def empty_refusal(schema: Mapping[str, Any], value: str) -> str | None:
    """What is wrong with ``value`` (empty, or with an empty item) for ``schema``; None
    when the schema holds it."""
    kind = schema.get("type")
    if kind == "array":
        items = schema.get("items")
        if value == "" or not isinstance(items, Mapping):
            return None  # an empty list: the query-fields rule names it (query_fields)
        kind = items.get("type")
        null = " or null" if items.get("nullable") else ""
        for position, item in enumerate(value.split(",")):
            if item == "" and kind in _ARTICLE:
                return f"item {position + 1} is empty: give {_ARTICLE[kind]}{null}"
        return None
    if value != "":
        return None
    null = ", null" if schema.get("nullable") else ""
    if kind in _ARTICLE:
        return f"an empty value is not {_ARTICLE[kind]}: give one{null}, or leave the parameter out"
    if kind == "string" and not _holds_empty_string(schema):
        return f"an empty value is not one this parameter takes: give one{null}, or leave it out"
    return None


def _holds_empty_string(schema: Mapping[str, Any]) -> bool:
    if "enum" in schema and "" not in schema["enum"]:
        return False
    if int(schema.get("minLength") or 0) > 0:
        return False
    pattern = schema.get("pattern")
    return not (isinstance(pattern, str) and re.search(pattern, "") is None)


def init_query_values(app: Flask) -> None:
    @app.before_request
    def refuse_empty_query_values() -> Response | None:
        if not request.args or request.url_rule is None:
            return None
        table: Documented | None = app.extensions.get(_TABLE)
        if table is None:  # every route is registered by the first request
            table = app.extensions[_TABLE] = documented_query_parameters(app)
        method = "GET" if request.method == "HEAD" else request.method
        parameters = table.get((request.url_rule.endpoint or "", method))
        if not parameters:
            return None
        for name, value in request.args.items(multi=True):
            schema = parameters.get(name)
            wrong = empty_refusal(schema, value) if schema is not None else None
            if wrong is not None:
                return field_problem((name,), wrong)
        return None
