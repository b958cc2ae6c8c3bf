"""Every CSV upload is read by one decoder: UTF-8, the charset declared (Excel's
Windows-1252 under any of its names), or, undeclared and not UTF-8, Windows-1252 with a
warning to check accented names."""

from __future__ import annotations

import pytest

from pairing_service.api.csv_upload import csv_file_text

# José and Zoë as Excel's "CSV" on a Western European machine writes them, with its
# typographic quotes (0x93, 0x94) and a euro sign (0x80): bytes UTF-8 never has alone.
EXCEL = b"id,name,note\njose,Jos\xe9,\x93late\x94\nzoe,Zo\xeb,\x80 5\n"
TEXT = "id,name,note\njose,José,“late”\nzoe,Zoë,€ 5\n"


@pytest.mark.parametrize("charset", ["windows-1252", "cp1252", "WINDOWS-1252", '"cp1252"'])
def test_a_declared_windows_1252_csv_is_read_without_a_warning(charset: str) -> None:
    decoded = csv_file_text(EXCEL, charset)
    assert decoded.text == TEXT
    assert decoded.notes == ()


@pytest.mark.parametrize("charset", ["latin-1", "iso-8859-1", "latin1"])
def test_a_declared_latin_1_csv_is_read(charset: str) -> None:
    assert csv_file_text("id,name\njose,José\n".encode("latin-1"), charset).text == (
        "id,name\njose,José\n"
    )


def test_an_undeclared_csv_that_is_not_utf8_is_read_as_windows_1252_and_says_so() -> None:
    decoded = csv_file_text(EXCEL, None)
    assert decoded.text == TEXT
    (note,) = decoded.notes
    assert "read as Windows-1252" in note and "check accented names" in note
    decoded = csv_file_text("id,name\njose,José\n".encode(), None)
    assert decoded.text == "id,name\njose,José\n"
    assert decoded.notes == ()  # UTF-8: nothing guessed
