"""Every uploaded file's reading: its encoding, its separator, its header and its lines.

Two uploads are CSV files: Scrabble standings (``text/csv`` on the Scrabble tools, read
here by ``csv_standings``) and a league season's sign-ups (``league/signups_csv.py``);
a tsh division file (``text/plain``) is decoded here too.

Decoding (``decode_body``): a file is read in the charset its Content-Type declares;
undeclared, it is UTF-8, and a body that is not says how to save it or which charset to
declare, except that a CSV file is then read as Windows-1252 (Excel's "CSV") and a tsh
file as Latin-1 (older editors), each with a note for the answer (``FileRead.notes``).
Spreadsheets' habits are accepted: a UTF-8 byte-order mark, and ``;`` or a tab as the
separator (``separator_of``); blank lines are skipped, and every row keeps the file line
it ends on (``csv_rows``), for the errors to name. A header's faults (a required column
missing, a column not read, one named twice) are found by ``header_faults``; each upload
words them for its own columns.

Nothing read here is kept anywhere but in what is returned: a file body is a
``FileBody``, the fields read with a ``FileRead`` beside them (each player's file line,
hints for cells a spreadsheet wrote its own way, the decoding's notes), which the code
that answers a problem or adds warnings takes as arguments.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


class UnreadableBody(ValueError):
    """A body that cannot be read as JSON or CSV: a 400."""


class BodyEncoding(ValueError):
    """A body that is not in the encoding it must be (or says it is): a 400 saying how to
    save or declare it."""


def number_or_text(text: str) -> Any:
    """A cell or query value as written: a boolean, an integer, a number, else text."""
    text = text.strip()
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            continue
    return text


# What reading a file found beside its fields.


@dataclass(frozen=True)
class FileRead:
    """Beside a file body's fields: the file line each player is on (the pointer counts
    players from 0, the file its lines from 1), how to write cells a spreadsheet wrote its
    own way (a decimal comma), by JSON Pointer, and what decoding the file had to guess."""

    lines: Sequence[int] = ()
    hints: Mapping[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()


class FileBody(dict[str, Any]):
    """A request body read from a file (CSV standings, a tsh file): its fields, and what
    reading it found (``file``), for the problem answers and the warnings."""

    def __init__(self, fields: Mapping[str, Any], file: FileRead) -> None:
        super().__init__(fields)
        self.file = file


def file_read(body: object) -> FileRead:
    """What reading the body's file found (a ``FileBody``'s, or a typed request's loaded
    from one, which keeps it as ``file``); nothing for a JSON body."""
    read = getattr(body, "file", None)
    return read if isinstance(read, FileRead) else FileRead()


# Decoding.

LATIN1_NOTE = "the tsh file is not UTF-8: it was read as Latin-1 (check accented names)"
WINDOWS_1252_NOTE = (
    "the CSV file is not UTF-8: it was read as Windows-1252, as Excel saves a CSV "
    '(check accented names; save it as "CSV UTF-8" or declare charset=windows-1252 to '
    "say so)"
)


@dataclass(frozen=True)
class Decoded:
    """A body's text, and what its decoding had to guess (for the answer's warnings)."""

    text: str
    notes: tuple[str, ...] = ()


def decode_body(raw: bytes, mimetype: str, charset: str | None, files: Collection[str]) -> Decoded:
    """The body as text: in the charset its Content-Type declares (a CSV or tsh file), else
    UTF-8, or for a tsh file (text/plain) Latin-1 when it is not UTF-8, noted; BodyEncoding
    saying how to send it otherwise. ``files``: the media types read as files (a CSV, a tsh
    file), which may declare a charset."""
    declared = (charset or "").strip().strip('"').lower()
    if declared and mimetype in files:
        try:
            return Decoded(raw.decode(declared))
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
            return Decoded(raw.decode("latin-1"), (LATIN1_NOTE,))
        if mimetype == "text/csv" and mimetype in files:
            # Excel's "CSV" is the machine's code page, Windows-1252 in Western Europe and
            # the Americas: read it so, and say so. Its five unused bytes read as Latin-1.
            encoding = "windows-1252" if _is_windows_1252(raw) else "latin-1"
            return Decoded(raw.decode(encoding), (WINDOWS_1252_NOTE,))
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
    return Decoded(text)


def csv_file_text(raw: bytes, charset: str | None) -> Decoded:
    """A CSV file's text (league sign-ups), its byte-order mark left out: UTF-8, or the
    charset declared; BodyEncoding saying how to save or declare it."""
    decoded = decode_body(raw, "text/csv", charset, ("text/csv",))
    return Decoded(without_mark(decoded.text), decoded.notes)


def without_mark(text: str) -> str:
    """The text without the byte-order mark Excel writes at the start of a UTF-8 CSV."""
    return text.removeprefix("\ufeff")


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


# Rows, separators and headers.

SEPARATORS = (",", ";", "\t")
SEPARATOR_NAMES = {",": "comma", ";": "semicolon", "\t": "tab"}


def separator_of(first_line: str, *, header: bool = False) -> str:
    """The separator of a file whose first line is ``first_line``. A line that is always a
    header (sign-ups): a comma if it holds one, else ``;`` or a tab if it holds one.
    Otherwise (standings, whose first line may be a player): the separator that makes the
    most numbers of the line (a player's wins and spread; an id may hold another
    separator: "Smith, J;8;1"), then the most columns (a header). "," on a tie."""
    if header:
        if "," not in first_line:
            for other in SEPARATORS[1:]:
                if other in first_line:
                    return other
        return ","

    def numbers(separator: str) -> int:
        cells = first_line.split(separator)
        return sum(isinstance(number_or_text(cell), int | float) for cell in cells)

    return max(SEPARATORS, key=lambda sep: (numbers(sep), first_line.count(sep)))


def first_filled_line(text: str) -> str:
    """The file's first line holding anything but spaces ("" when none does)."""
    return next((line for line in text.splitlines() if line.strip()), "")


def csv_rows(text: str, separator: str) -> Iterator[tuple[int, list[str]]]:
    """Each row of the file, blank ones too, with the file line it ends on (a quoted cell
    may span lines). Read as it is iterated; csv.Error for a cell the csv module cannot
    read (over its size limit)."""
    reader = csv.reader(io.StringIO(text), delimiter=separator)
    for cells in reader:
        yield reader.line_num, cells


def is_blank(cells: Sequence[str]) -> bool:
    """A row holding nothing but spaces (a blank line, or only separators)."""
    return not any(cell.strip() for cell in cells)


@dataclass(frozen=True)
class HeaderFaults:
    """What is wrong with a header line: the columns required and not named, the
    positions of cells naming no column read, and the names given more than once."""

    names: tuple[str, ...]  # each cell as read: stripped and folded
    missing: tuple[str, ...]
    unknown: tuple[int, ...]
    repeated: tuple[str, ...]


def header_faults(
    cells: Sequence[str],
    columns: Collection[str],
    required: Sequence[str],
    fold: Callable[[str], str] = str.casefold,
) -> HeaderFaults:
    """The faults of a header naming ``cells`` when a file's ``columns`` may be named, in
    any order and case (``fold``), and ``required`` must be."""
    names = tuple(fold(cell.strip()) for cell in cells)
    return HeaderFaults(
        names,
        tuple(column for column in required if column not in names),
        tuple(i for i, name in enumerate(names) if name not in columns),
        tuple(sorted({name for i, name in enumerate(names) if name in names[:i]})),
    )


# CSV standings (the Scrabble tools): an optional header, then one player a line.

CSV_COLUMNS = ("id", "wins", "spread", "name")
CSV_REQUIRED = ("id", "wins", "spread")
CSV_NUMBERS = ("wins", "spread")
CSV_HEADER_RULE = (
    "CSV line 1 holds no number, so it is a header naming the columns: id, wins, spread "
    "and name, in any order (id, wins and spread required)"
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
    """The players of a CSV body; UnreadableBody naming every line at fault. A first line
    holding no number is a header: it names the columns (``id``, ``wins``, ``spread``,
    ``name``, any order and case; the first three required), and a header naming another
    column, none of the three or one twice is refused naming every fault and the columns
    taken (``Rank,Name,Wins,Spread`` is never read by position). Without a header the
    columns are ``id,wins,spread[,name]`` in that order (so a player called "id" with a
    number of wins is a player). A decimal comma (``7,5``) is not guessed at, but its
    error says to write ``7.5`` (the hints)."""
    text = without_mark(text)
    separator = separator_of(first_filled_line(text))
    try:
        rows = [(line, row) for line, row in csv_rows(text, separator) if not is_blank(row)]
    except csv.Error as exc:  # NUL bytes, fields over the csv module's size limit
        raise UnreadableBody(f"invalid CSV: {exc}") from exc
    columns: tuple[str, ...] = CSV_COLUMNS
    if rows and _is_header(rows[0][1]):
        columns = _header_columns(rows.pop(0)[1])
    too_long = [line for line, row in rows if len(row) > len(columns)]
    if too_long:
        raise UnreadableBody(_too_many_cells(too_long, columns, separator))
    players: list[dict[str, Any]] = []
    hints: dict[str, str] = {}
    for index, (_, row) in enumerate(rows):
        player: dict[str, Any] = {}
        for column, cell in zip(columns, row, strict=False):
            if column in ("id", "name"):
                if column == "id" or cell.strip():
                    player[column] = cell.strip()
                continue
            player[column] = number_or_text(cell)
            hint = _number_hint(column, cell.strip())
            if hint:
                hints[f"/players/{index}/{column}"] = hint
        players.append(player)
    return CsvStandings(players, [line for line, _ in rows], hints)


def csv_standings(text: str) -> FileBody:
    """A text/csv body's standings, with each player's file line and the hints for the
    problem answers."""
    read = read_csv_standings(text)
    return FileBody({"players": read.players}, FileRead(read.lines, read.hints))


def _too_many_cells(lines: Sequence[int], columns: Sequence[str], separator: str) -> str:
    named = ", ".join(columns)
    shown = [str(line) for line in lines[:10]] + (["…"] if len(lines) > 10 else [])
    where = (
        f"CSV line {lines[0]} has"
        if len(lines) == 1
        else f"CSV lines {', '.join(shown[:-1])} and {shown[-1]} have"
    )
    return (
        f"{where} more cells than the {len(columns)} columns {named}: remove the extra "
        f"cells, or quote a cell that holds a {SEPARATOR_NAMES[separator]} (a header line "
        "names the columns read)"
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
    except UnreadableBody:
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


def _is_header(row: list[str]) -> bool:
    """A first line holding no number: a player's line has their wins and spread
    (``id,8,120`` is a player called "id"; ``Name,Wins,Spread`` a header)."""
    return not any(isinstance(number_or_text(cell), int | float) for cell in row)


def _header_columns(row: list[str]) -> tuple[str, ...]:
    """The columns a header names; UnreadableBody naming every fault of it: a required
    column missing, a column the service does not read, one named twice."""
    found = header_faults(row, CSV_COLUMNS, CSV_REQUIRED, fold=str.lower)
    faults = [f"no {column} column{_MISSING[column]}" for column in found.missing]
    unknown = [row[i].strip() for i in found.unknown]
    if unknown:
        listed = ", ".join(repr(name) for name in unknown)
        faults.append(
            f"unknown column{'s' if len(unknown) > 1 else ''} {listed} (remove "
            f"{'them' if len(unknown) > 1 else 'it'}: the service reads no other column)"
        )
    faults += [f"column {name!r} twice" for name in found.repeated if name in CSV_COLUMNS]
    if faults:
        raise UnreadableBody(f"{CSV_HEADER_RULE}: {'; '.join(faults)}")
    # A name column the header leaves out follows the others (``id,wins,spread`` over lines
    # that also give a name, as before headers were read by name).
    names = found.names
    return (*names, *(column for column in CSV_COLUMNS if column not in names))


_MISSING = {
    "id": " (each player's own id, unique in the file: A, B, … or their tsh numbers; a "
    "column of names may be headed id)",
    "wins": "",
    "spread": "",
}
