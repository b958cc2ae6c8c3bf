"""Request body parsing: strict JSON, and CSV standings for curl users.

Strict JSON: no NaN/Infinity, no duplicate keys, bounded nesting, integers within the
digit limit; anything else is a 400 malformed request. ``text/csv`` bodies hold one player
per line, ``id,wins,spread[,name]`` (a first line starting with ``id`` is a header, skipped,
unless its wins are a number: a player called "id"); the other request fields then come from
the query string.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Mapping
from typing import Any

import flask
from flask_smorest import Blueprint
from webargs import core
from webargs.flaskparser import FlaskParser, abort

MAX_NESTING = 32


class MalformedJSON(ValueError):
    """A body that cannot be read as JSON (or CSV): a 400."""


def _reject_constant(name: str) -> Any:
    raise MalformedJSON(f"{name} is not valid JSON")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise MalformedJSON(f"duplicate key {key!r}")
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
    too_deep = MalformedJSON(f"JSON nested deeper than {MAX_NESTING} levels")
    try:
        value = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_no_duplicates)
    except MalformedJSON:
        raise
    except RecursionError as exc:  # nested past Python's own limit, far past ours
        raise too_deep from exc
    except json.JSONDecodeError as exc:
        raise MalformedJSON(
            f"invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from exc
    except ValueError as exc:  # e.g. integers beyond the digit limit
        raise MalformedJSON(f"invalid JSON: {exc}") from exc
    if _deeper_than(value, MAX_NESTING):
        raise too_deep
    return value


def _number_or_text(text: str) -> Any:
    text = text.strip()
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            continue
    return text


def csv_standings(text: str, query: Mapping[str, str]) -> dict[str, Any]:
    try:
        rows = list(csv.reader(io.StringIO(text)))
    except csv.Error as exc:  # NUL bytes, fields over the csv module's size limit
        raise MalformedJSON(f"invalid CSV: {exc}") from exc
    players: list[dict[str, Any]] = []
    first = True
    for row in rows:
        if not row or not "".join(row).strip():
            continue
        if first and _is_header(row):
            first = False
            continue
        first = False
        player: dict[str, Any] = {"id": row[0].strip()}
        if len(row) > 1:
            player["wins"] = _number_or_text(row[1])
        if len(row) > 2:
            player["spread"] = _number_or_text(row[2])
        if len(row) > 3 and row[3].strip():
            player["name"] = row[3].strip()
        if len(row) > 4:
            raise MalformedJSON(f"CSV line {len(players) + 1} has more than 4 columns")
        players.append(player)
    return {"players": players, **query_fields(query)}


def _is_header(row: list[str]) -> bool:
    """``id,wins,...``: a first cell "id" and wins that are not a number."""
    if row[0].strip().lower() != "id":
        return False
    return len(row) < 2 or isinstance(_number_or_text(row[1]), str | bool)


def query_fields(query: Mapping[str, str]) -> dict[str, Any]:
    """The other request fields of a CSV or text body, from the query string."""
    return {
        key: None if value in ("", "null") else _number_or_text(value)
        for key, value in query.items()
    }


def tsh_division(text: str, query: Mapping[str, str]) -> dict[str, Any]:
    """A text/plain body is a tsh division file; ``after`` in the query is ``tsh_round``."""
    fields = query_fields(query)
    if "after" in fields:
        fields["tsh_round"] = fields.pop("after")
    if "complete_rounds_only" in fields:
        fields["tsh_complete_rounds_only"] = fields.pop("complete_rounds_only")
    return {"tsh": text, **fields}


Reader = Callable[[str, Mapping[str, str]], dict[str, Any]]


class StrictParser(FlaskParser):
    """Strict JSON; other text types through ``readers`` (mimetype -> reader)."""

    def __init__(self, readers: Mapping[str, Reader] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.readers = dict(readers or {})

    def _raw_load_json(self, req: flask.Request) -> Any:
        raw = req.get_data(cache=True)
        if not raw.strip():
            abort(400, messages={"json": ["the request body is empty"]})
        mimetype = req.mimetype or ""
        try:
            text = raw.decode("utf-8")
            if mimetype in self.readers:
                return self.readers[mimetype](text, req.args)
            if not (mimetype == "application/json" or mimetype.endswith("+json")):
                accepted = " or ".join(["application/json", *self.readers])
                abort(415, message=f"send {accepted}, not {mimetype or 'no content type'}")
            return strict_json_loads(text)
        except UnicodeDecodeError:
            abort(400, messages={"json": ["the request body is not UTF-8"]})
        except MalformedJSON as exc:
            abort(400, messages={"json": [str(exc)]})
        return core.missing  # pragma: no cover - abort raised


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
    """Strict JSON, CSV standings (``id,wins,spread[,name]``) or a tsh division file."""

    ARGUMENTS_PARSER = StrictParser(readers={"text/csv": csv_standings, "text/plain": tsh_division})
