"""Request body parsing: strict JSON, and CSV standings for curl users.

Strict JSON: no NaN/Infinity, no duplicate keys, bounded nesting, integers within the
digit limit; anything else is a 400 malformed request. ``text/csv`` bodies hold one player
per line. A first line holding no number is a header: it names the columns (``id``,
``wins``, ``spread``, ``name``, any order and case; the first three required), and a
header naming another column, none of the three or one twice is a 400 naming every fault
and the columns taken (``Rank,Name,Wins,Spread`` is never read by position). Without a
header the columns are ``id,wins,spread[,name]`` in that order (so a player called "id"
with a number of wins is a player). Spreadsheets' habits are accepted: a UTF-8
byte-order mark, and ``;`` or a tab as the separator (``_separator``); a decimal comma
(``7,5``) is not guessed at, but its error says to write ``7.5`` (``csv_hints``). The
other request fields come from the query string. A CSV or tsh file is read in the charset
its Content-Type declares; undeclared, it is UTF-8, and a body that is not says how to
save it or which charset to declare; a ``text/plain`` tsh file that is not UTF-8 is read
as Latin-1 (older editors), and the answer says so.
"""

from __future__ import annotations

import codecs
import csv
import functools
import io
import json
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import flask
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask_smorest import Blueprint
from marshmallow import Schema
from marshmallow.fields import List, Number, String
from webargs import core
from webargs.flaskparser import FlaskParser, abort

from ..engine.errors import FieldError, Rule

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


CSV_COLUMNS = ("id", "wins", "spread", "name")
CSV_REQUIRED = ("id", "wins", "spread")
CSV_NUMBERS = ("wins", "spread")
CSV_SEPARATORS = (",", ";", "\t")
CSV_HEADER_RULE = (
    "CSV line 1 holds no number, so it is a header naming the columns: id, wins, spread "
    "and name, in any order (id, wins and spread required)"
)
LATIN1_NOTE = "the tsh file is not UTF-8: it was read as Latin-1 (check accented names)"
WINDOWS_1252_NOTE = (
    "the CSV file is not UTF-8: it was read as Windows-1252, as Excel saves a CSV "
    '(check accented names; save it as "CSV UTF-8" or declare charset=windows-1252 to '
    "say so)"
)
_DECIMAL_COMMA = re.compile(r"[+-]?[0-9]+,[0-9]+")
_THOUSANDS = re.compile(r"[+-]?[0-9]{1,3}(?:,[0-9]{3})+")


@dataclass(frozen=True)
class CsvStandings:
    """A CSV body read: each player's fields, the file line each is on, and hints for
    cells that cannot be read as they are (a decimal comma), by JSON Pointer."""

    players: list[dict[str, Any]]
    lines: list[int]
    hints: dict[str, str]


def read_csv_standings(text: str) -> CsvStandings:
    """The players of a CSV body; MalformedJSON naming every line at fault."""
    text = text.removeprefix("\ufeff")  # Excel's byte-order mark
    separator = _separator(next((line for line in text.splitlines() if line.strip()), ""))
    try:
        reader = csv.reader(io.StringIO(text), delimiter=separator)
        rows = [(reader.line_num, row) for row in reader]
    except csv.Error as exc:  # NUL bytes, fields over the csv module's size limit
        raise MalformedJSON(f"invalid CSV: {exc}") from exc
    rows = [(line, row) for line, row in rows if row and "".join(row).strip()]
    columns: tuple[str, ...] = CSV_COLUMNS
    if rows and _is_header(rows[0][1]):
        columns = _header_columns(rows.pop(0)[1])
    too_long = [line for line, row in rows if len(row) > len(columns)]
    if too_long:
        raise MalformedJSON(_too_many_cells(too_long, columns, separator))
    players: list[dict[str, Any]] = []
    hints: dict[str, str] = {}
    for index, (_, row) in enumerate(rows):
        player: dict[str, Any] = {}
        for column, cell in zip(columns, row, strict=False):
            if column in ("id", "name"):
                if column == "id" or cell.strip():
                    player[column] = cell.strip()
                continue
            player[column] = _number_or_text(cell)
            hint = _number_hint(column, cell.strip())
            if hint:
                hints[f"/players/{index}/{column}"] = hint
        players.append(player)
    return CsvStandings(players, [line for line, _ in rows], hints)


def csv_standings(text: str) -> dict[str, Any]:
    """A text/csv body's standings; the file lines and hints kept for the problem
    answers (``csv_lines``, ``csv_hints``)."""
    read = read_csv_standings(text)
    flask.g.csv_lines = read.lines  # problems name the player's file line
    flask.g.csv_hints = read.hints
    return {"players": read.players}


def _too_many_cells(lines: Sequence[int], columns: Sequence[str], separator: str) -> str:
    named = ", ".join(columns)
    shown = [str(line) for line in lines[:10]] + (["…"] if len(lines) > 10 else [])
    where = (
        f"CSV line {lines[0]} has"
        if len(lines) == 1
        else f"CSV lines {', '.join(shown[:-1])} and {shown[-1]} have"
    )
    mark = {",": "comma", ";": "semicolon", "\t": "tab"}[separator]
    return (
        f"{where} more cells than the {len(columns)} columns {named}: remove the extra "
        f"cells, or quote a cell that holds a {mark} (a header line names the columns read)"
    )


def _number_hint(column: str, cell: str) -> str | None:
    """How to write a number a spreadsheet wrote its own way (``7,5``; ``1,200``)."""
    if column == "wins" and _DECIMAL_COMMA.fullmatch(cell):
        return f"{cell!r} has a decimal comma; write {cell.replace(',', '.')}"
    if column == "spread" and _THOUSANDS.fullmatch(cell):
        return f"write {cell.replace(',', '')} (no thousands separator)"
    if column == "spread" and _DECIMAL_COMMA.fullmatch(cell):
        return f"{cell!r} has a decimal comma; a spread is a whole number of points"
    return None


def csv_hint(text: str) -> str | None:
    """What to say when a tsh file (text/plain) could not be read but reads as CSV
    standings: a player a line with wins and spread as numbers."""
    try:
        read = read_csv_standings(text)
    except MalformedJSON:
        return None
    numbers = all(
        isinstance(player.get(column), int | float) and not isinstance(player[column], bool)
        for player in read.players
        for column in CSV_NUMBERS
    )
    if not read.players or not numbers:
        return None
    return (
        "it reads as CSV standings (id, wins, spread): send them with Content-Type: "
        "text/csv, not as a tsh file"
    )


def _separator(first_line: str) -> str:
    """The separator that makes the most numbers of the first line (a player's wins and
    spread; an id may hold another separator: "Smith, J;8;1"), then the most columns
    (a header); "," on a tie."""

    def numbers(separator: str) -> int:
        cells = first_line.split(separator)
        return sum(isinstance(_number_or_text(cell), int | float) for cell in cells)

    return max(CSV_SEPARATORS, key=lambda sep: (numbers(sep), first_line.count(sep)))


def _is_header(row: list[str]) -> bool:
    """A first line holding no number: a player's line has their wins and spread
    (``id,8,120`` is a player called "id"; ``Name,Wins,Spread`` a header)."""
    return not any(isinstance(_number_or_text(cell), int | float) for cell in row)


def _header_columns(row: list[str]) -> tuple[str, ...]:
    """The columns a header names; MalformedJSON naming every fault of it: a required
    column missing, a column the service does not read, one named twice."""
    names = [cell.strip().lower() for cell in row]
    faults = [
        f"no {column} column{_MISSING[column]}" for column in CSV_REQUIRED if column not in names
    ]
    unknown = [
        cell.strip() for cell, name in zip(row, names, strict=True) if name not in CSV_COLUMNS
    ]
    if unknown:
        listed = ", ".join(repr(name) for name in unknown)
        faults.append(
            f"unknown column{'s' if len(unknown) > 1 else ''} {listed} (remove "
            f"{'them' if len(unknown) > 1 else 'it'}: the service reads no other column)"
        )
    repeated = sorted({name for name in names if names.count(name) > 1 and name in CSV_COLUMNS})
    faults += [f"column {name!r} twice" for name in repeated]
    if faults:
        raise MalformedJSON(f"{CSV_HEADER_RULE}: {'; '.join(faults)}")
    # A name column the header leaves out follows the others (``id,wins,spread`` over lines
    # that also give a name, as before headers were read by name).
    return (*names, *(column for column in CSV_COLUMNS if column not in names))


_MISSING = {
    "id": " (each player's own id, unique in the file: A, B, … or their tsh numbers; a "
    "column of names may be headed id)",
    "wins": "",
    "spread": "",
}


def query_fields(
    query: Mapping[str, str], text_fields: Collection[str] = (), list_fields: Collection[str] = ()
) -> dict[str, Any]:
    """The request's other fields, from the query string: a field of ``text_fields`` as
    it is written, one of ``list_fields`` a comma-separated list (OpenAPI's form style,
    not exploded: ``prizes=300,200,null``), any other a number, a boolean, null ("" or
    "null") or text."""

    def value_of(text: str) -> Any:
        return None if text in ("", "null") else _number_or_text(text)

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


def tsh_division(text: str) -> dict[str, Any]:
    """A text/plain body is a tsh division file."""
    return {"tsh": text}


Reader = Callable[[str], dict[str, Any]]


class BodyEncoding(ValueError):
    """A body that is not in the encoding it must be (or says it is): a 400 saying how to
    save or declare it."""


def _decoded(raw: bytes, mimetype: str, charset: str | None, files: Collection[str]) -> str:
    """The body as text: in the charset its Content-Type declares (a CSV or tsh file), else
    UTF-8, or for a tsh file (text/plain) Latin-1 when it is not UTF-8, noted for the
    answer (``decoding_notes``); BodyEncoding saying how to send it otherwise. ``files``:
    the media types read as files (a CSV, a tsh file), which may declare a charset."""
    declared = (charset or "").strip().strip('"').lower()
    if declared and mimetype in files:
        try:
            return raw.decode(declared)
        except LookupError:
            raise BodyEncoding(
                f"charset={declared} is not an encoding the service knows: declare utf-8, "
                "utf-16 or windows-1252, or leave the charset out for UTF-8"
            ) from None
        except ValueError as exc:  # UnicodeDecodeError; UnicodeError of some codecs
            at = getattr(exc, "start", None)
            raise BodyEncoding(
                f"the body is not {declared}, as its Content-Type says"
                f"{'' if at is None else f' (byte {at})'}: "
                f"{_save_as_utf8(mimetype)}"
            ) from None
    utf16 = BodyEncoding(
        'the body is UTF-16 (a spreadsheet\'s "Unicode text"), not UTF-8: '
        + _save_as_utf8(mimetype, "utf-16")
    )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        if _utf16(raw):
            raise utf16 from None
        if mimetype == "text/plain" and mimetype in files:
            flask.g.decoding_notes = (LATIN1_NOTE,)
            return raw.decode("latin-1")
        if mimetype == "text/csv" and mimetype in files:
            # Excel's "CSV" is the machine's code page, Windows-1252 in Western Europe and
            # the Americas: read it so, and say so. Its five unused bytes read as Latin-1.
            flask.g.decoding_notes = (WINDOWS_1252_NOTE,)
            return raw.decode("windows-1252" if _is_windows_1252(raw) else "latin-1")
        line = raw[: exc.start].count(b"\n") + 1
        byte = raw[exc.start]
        raise BodyEncoding(
            f"the body is not UTF-8: byte 0x{byte:02X} on line {line} (an accented letter "
            f"saved as Latin-1 or Windows-1252?): {_save_as_utf8(mimetype, 'windows-1252')}"
        ) from None
    # UTF-16 without its mark is valid UTF-8, with NULs: no CSV or JSON holds one (a tsh
    # file that does is the tsh-file rule's to refuse).
    if mimetype != "text/plain" and "\x00" in text and _utf16(raw):
        raise utf16
    return text


def csv_file_text(raw: bytes, charset: str | None) -> str:
    """A CSV file's text (league sign-ups): UTF-8, or the charset declared; BodyEncoding
    saying how to save or declare it."""
    return _decoded(raw, "text/csv", charset, ("text/csv",)).removeprefix("\ufeff")


def _is_windows_1252(raw: bytes) -> bool:
    try:
        raw.decode("windows-1252")
    except UnicodeDecodeError:
        return False
    return True


def _utf16(raw: bytes) -> bool:
    """A UTF-16 body: its byte-order mark, or a NUL byte beside most ASCII characters."""
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return True
    head = raw[:512]
    return len(head) >= 4 and head.count(0) * 3 >= len(head)


def _save_as_utf8(mimetype: str, charset: str | None = None) -> str:
    """How to send a body that is not UTF-8: saved as UTF-8, or (a CSV or tsh file) with
    its charset declared."""
    if mimetype == "text/csv":
        saved = 'save the file as UTF-8 (a spreadsheet\'s "CSV UTF-8")'
    elif mimetype == "text/plain":
        saved = "save the file as UTF-8"
    else:
        return "JSON is UTF-8: send the body encoded as UTF-8"
    if charset is None:
        return saved
    return f"{saved}, or declare its encoding: Content-Type: {mimetype}; charset={charset}"


def csv_lines() -> list[int]:
    """The file line of each player of the request's CSV body (none for other bodies)."""
    if not flask.has_request_context():
        return []
    lines: list[int] = flask.g.get("csv_lines", [])
    return lines


def csv_hints() -> dict[str, str]:
    """How to write each cell of the request's CSV body that a spreadsheet wrote its own
    way (a decimal comma), by the JSON Pointer of its field."""
    if not flask.has_request_context():
        return {}
    hints: dict[str, str] = flask.g.get("csv_hints", {})
    return hints


def decoding_notes() -> tuple[str, ...]:
    """What reading the request's body had to guess (its encoding), for the answer (none
    outside a request: the engine's callers read standings without one)."""
    if not flask.has_request_context():
        return ()
    notes: tuple[str, ...] = flask.g.get("decoding_notes", ())
    return notes


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
            text = _decoded(raw, mimetype, charset, self.readers)
            if mimetype in self.readers:
                loaded = self.readers[mimetype](text)
            elif mimetype == "application/json" or mimetype.endswith("+json"):
                loaded = strict_json_loads(text)
            else:
                accepted = " or ".join(["application/json", *self.readers])
                abort(415, message=f"send {accepted}, not {mimetype or 'no content type'}")
            if self.readers and req.args and isinstance(loaded, dict):
                query = query_beside(loaded, req.args, self.text_fields, self.list_fields)
                return {**loaded, **query}
            return loaded
        except BodyEncoding as exc:
            abort(400, messages={"json": [str(exc)]})
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
        readers = {"text/csv": csv_standings, "text/plain": tsh_division}
        self.ARGUMENTS_PARSER = StrictParser(
            readers=readers, text_fields=text_fields, list_fields=list_fields
        )


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
