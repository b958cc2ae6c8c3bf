"""Any table a held format prints (a round's seating, its standings) as CSV or plain text,
chosen by ``?format=`` or the ``Accept`` header: :func:`tabular`."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from flask import Response
from marshmallow import Schema, fields, validate

from ..common import prefers

TABLE_FORMATS = ("json", "csv", "text")


class TableFormatIn(Schema):
    format = fields.String(
        validate=validate.OneOf(TABLE_FORMATS),
        metadata={
            "description": "json (default), csv, or text (printable); without it, "
            "`Accept: text/csv` or `Accept: text/plain` choose."
        },
    )


def tabular_doc(what: str, schema: type[Schema]) -> dict[str, Any]:
    """The OpenAPI of a read that answers ``schema`` as JSON, and also CSV and plain text."""
    return {
        "responses": {
            "200": {
                "description": f"{what} (JSON), or as CSV or printable plain text.",
                "content": {
                    "application/json": {"schema": schema},
                    "text/csv": {"schema": {"type": "string"}},
                    "text/plain": {"schema": {"type": "string"}},
                },
            }
        }
    }


def table_format(query: dict[str, Any]) -> str:
    """json, csv or text: ``?format=`` first, then what the Accept header prefers."""
    if "format" in query:
        wanted: str = query["format"]
        return wanted
    if prefers("text/csv"):
        return "csv"
    return "text" if prefers("text/plain") else "json"


@dataclass(frozen=True)
class Table:
    """A table to print: a title (plain text only), a header and rows."""

    title: str
    header: list[str]
    rows: list[Sequence[Any]]


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _numeric(value: Any) -> bool:
    return isinstance(value, int | float | Decimal | Fraction) and not isinstance(value, bool)


def text_table(table: Table) -> str:
    """The table as a director prints it: a title, then aligned columns (numbers to the
    right), one line a row."""
    cells = [[_cell(v) for v in row] for row in [table.header, *table.rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(table.header))]
    right = [
        bool(table.rows) and all(_numeric(row[i]) or row[i] is None for row in table.rows)
        for i in range(len(table.header))
    ]

    def line(row: list[str]) -> str:
        padded = (
            value.rjust(width) if flush else value.ljust(width)
            for value, width, flush in zip(row, widths, right, strict=True)
        )
        return "  ".join(padded).rstrip()

    rule = "  ".join("-" * width for width in widths)
    body = [line(row) for row in cells[1:]] or ["(none)"]
    return "\n".join([table.title, "", line(cells[0]), rule, *body]) + "\n"


def tabular(table: Table, wanted: str, filename: str) -> Response:
    """The table as CSV (a download named ``filename``.csv) or as printable text."""
    if wanted == "csv":
        return Response(
            standings_csv(table.header, table.rows),
            mimetype="text/csv",
            headers={"Content-Disposition": f'attachment; filename="{filename}.csv"'},
        )
    return Response(text_table(table), mimetype="text/plain")


# A cell a spreadsheet would run as a formula: a name like "=HYPERLINK(...)" is written
# with a leading apostrophe, which spreadsheets show as text (OWASP's advice for CSV).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def standings_csv(header: list[str], rows: Sequence[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([csv_cell(value) for value in row] for row in rows)
    return out.getvalue()
