"""Empty query values refused as the OpenAPI document says: ``?max_spread_per_game=`` is
not an integer, nor null (null is written ``null``, or the parameter left out).

The standings routes read their query string themselves (``parsing.query_fields``, where
an empty value had been taken as null) and document it by hand (``query_parameters``);
the other routes' query strings are marshmallow schemas, which refuse an empty number
or boolean already. This check reads each operation's hand-written query parameters from
its view's documentation, the same that goes into ``/openapi.json``, and answers a 422
naming the parameter before the view reads anything, for every value the parameter's
schema cannot hold when empty: a number, an integer, a boolean, an array's empty item,
and a string whose ``enum``, ``minLength`` or ``pattern`` leaves out the empty string.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from flask import Flask, Response, request

from .errors import field_problem
from .held.conditions import HEADERS

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
            return None  # an empty list: parsing's own query-fields rule names it
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
