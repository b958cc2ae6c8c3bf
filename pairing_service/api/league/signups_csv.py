"""A season's sign-ups as a CSV file (``POST …/seasons/{n}/signups/import``).

A header line names the columns (``id`` required; ``name``, ``email``, ``laurels``; any
order and case); then a player a line, in sign-up order. Spreadsheets' habits are
accepted: a UTF-8 byte-order mark, ``;`` or a tab as the separator, blank lines (the
file's decoding, separator, rows and header faults are read by ``api/csv_upload.py``, as
CSV standings are). An empty cell is a cell not given, so a returner's record (name,
address) carries over. Every line is checked as a JSON sign-up is (``SignUpIn``), and an
id listed twice is named at its second line; every error names its line in the file and
its column (``/lines/<n>/<column>``), every fault of the file is listed (up to 20: the
header's, and each line's), and any error refuses the whole file.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from flask import Request, Response
from marshmallow import ValidationError

from ...engine.errors import FieldError
from ...engine.league.season import SignUp
from ..csv_upload import (
    BodyEncoding,
    csv_file_text,
    csv_rows,
    header_faults,
    is_blank,
    separator_of,
)
from ..errors import flatten, pointer, problem
from .schemas import MAX_SIGNUPS, SignUpIn

COLUMNS = ("id", "name", "email", "laurels")
MAX_ERRORS = 20
ROW = SignUpIn()


class CsvRefused(Exception):
    """A CSV file refused: its problem answer (the route answers it)."""

    def __init__(
        self, status: int, detail: str, errors: list[dict[str, str]] | None = None
    ) -> None:
        super().__init__(detail)
        self.status, self.detail, self.errors = status, detail, errors

    def answer(self) -> Response:
        return problem(self.status, self.detail, errors=self.errors)


def _refuse(errors: list[dict[str, str]]) -> CsvRefused:
    shown = "; ".join(f"{e['pointer']}: {e['detail']}" for e in errors[:5])
    return CsvRefused(422, f"nothing was signed up: {shown}", errors)


@dataclass(frozen=True)
class SignUpRows:
    """The file's sign-ups, each with its line (1 is the header), checked; and what
    decoding the file had to guess, for the answer's warnings."""

    rows: list[tuple[int, SignUp]]
    notes: tuple[str, ...]


def signup_rows(request: Request) -> SignUpRows:
    """Each sign-up of the file with its line number (1 is the header), checked."""
    if request.mimetype != "text/csv":
        raise CsvRefused(415, f"send text/csv, not {request.mimetype or 'no content type'}")
    try:
        decoded = csv_file_text(
            request.get_data(cache=True), request.mimetype_params.get("charset")
        )
    except BodyEncoding as exc:
        raise CsvRefused(400, str(exc)) from None
    lines = decoded.text.splitlines()
    if not lines or not lines[0].strip():
        raise _refuse([{"pointer": "/lines/1", "detail": "line 1 must name the columns"}])
    try:  # read whole (at most the body limit) so that every cell is read here
        read = list(csv_rows(decoded.text, separator_of(lines[0], header=True)))
    except csv.Error as exc:  # NUL bytes, a cell over the csv module's size limit
        detail = f"the file cannot be read as CSV: {exc}"
        raise _refuse([{"pointer": "/lines", "detail": detail}]) from None
    rows = iter(read)
    header = header_faults(next(rows)[1], COLUMNS, ("id",))
    errors = _header_errors(header.names, header.repeated)
    if "id" not in header.names:
        raise _refuse(errors)  # no line can be read without its id
    signed = _read_signups(rows, header.names, errors)
    if errors:
        raise _refuse(errors)
    if not signed:
        raise _refuse([{"pointer": "/lines", "detail": "the file signs nobody up"}])
    if len(signed) > MAX_SIGNUPS:
        detail = f"at most {MAX_SIGNUPS} sign-ups in one file, not {len(signed)}"
        raise _refuse([{"pointer": "/lines", "detail": detail}])
    return SignUpRows(signed, decoded.notes)


def _read_signups(
    rows: Iterator[tuple[int, list[str]]],
    header: Sequence[str],
    errors: list[dict[str, str]],
) -> list[tuple[int, SignUp]]:
    """The sign-ups of the lines after the header, each checked as a JSON sign-up; each
    fault added to ``errors`` (reading stops at MAX_ERRORS)."""
    signed: list[tuple[int, SignUp]] = []
    first_line: dict[str, int] = {}  # each id's first line
    for line, cells in rows:
        if is_blank(cells):
            continue
        if len(cells) > len(header):
            detail = f"line {line} has {len(cells)} cells, the header {len(header)}"
            errors.append({"pointer": pointer("lines", line), "detail": detail})
            continue
        given = {
            c: cell.strip()
            for i, (c, cell) in enumerate(zip(header, cells, strict=False))
            if cell.strip() and c in COLUMNS and c not in header[:i]  # a fault of line 1
        }
        player = given.get("id")
        if player is not None and player in first_line:
            detail = f"line {line}, id: {player!r} is listed twice (line {first_line[player]})"
            errors.append({"pointer": pointer("lines", line, "id"), "detail": detail})
        elif player is not None:
            first_line[player] = line
        try:
            signed.append((line, ROW.load(_typed(given))))
        except ValidationError as invalid:
            errors += _cell_errors(line, invalid)
        if len(errors) >= MAX_ERRORS:
            break
    return signed


def _cell_errors(line: int, invalid: ValidationError) -> list[dict[str, str]]:
    """A line's refusal by the sign-up's schema, each error at its line and column."""
    errors = []
    for error in flatten(invalid.messages):
        column = error["pointer"].strip("/") or "id"
        errors.append(
            {
                "pointer": pointer("lines", line, column),
                "detail": f"line {line}, {column}: {error['detail']}",
            }
        )
    return errors


def _header_errors(header: Sequence[str], repeated: Sequence[str]) -> list[dict[str, str]]:
    """Every fault of line 1 (no id column, a column not read, one named twice), in one
    error: the columns a file may name, and all that is wrong with these."""
    wrong = [c for c in header if c not in COLUMNS]
    said = (["no id column"] if "id" not in header else []) + [
        *(f"unknown column {c!r}" for c in wrong),
        *(f"column {c!r} twice" for c in repeated),
    ]
    if not said:
        return []
    detail = f"line 1 names the columns ({', '.join(COLUMNS)}; id required): {'; '.join(said)}"
    return [{"pointer": "/lines/1", "detail": detail}]


def _typed(given: dict[str, str]) -> dict[str, Any]:
    """Cells as the JSON sign-up types them: laurels a number (when it reads as one)."""
    if "laurels" in given:
        try:
            return {**given, "laurels": float(given["laurels"])}
        except ValueError:
            pass  # the schema says it is not a number
    return given


def at_line(refused: FieldError, lines: Sequence[int]) -> CsvRefused:
    """The engine's refusal of a sign-up (``players/<i>/id``: listed twice, signed up
    already) at its line in the file."""
    at = refused.at
    if len(at) >= 2 and at[0] == "players" and isinstance(at[1], int) and at[1] < len(lines):
        line = lines[at[1]]
        column = str(at[2]) if len(at) > 2 else "id"
        detail = f"line {line}, {column}: {refused.message}"
        return _refuse([{"pointer": pointer("lines", line, column), "detail": detail}])
    return _refuse([{"pointer": pointer(*at), "detail": refused.message}])
