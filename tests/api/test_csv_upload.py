"""The one reader of uploaded CSV files: separators, rows with their lines, header faults."""

from __future__ import annotations

from pairing_service.api.csv_upload import (
    FileBody,
    FileRead,
    csv_rows,
    file_read,
    header_faults,
    is_blank,
    separator_of,
)


def test_a_header_line_takes_a_comma_before_another_separator() -> None:
    assert separator_of("id;name;email,x", header=True) == ","
    assert separator_of("id;name", header=True) == ";"
    assert separator_of("id\tname", header=True) == "\t"


def test_a_player_line_takes_the_separator_that_makes_its_numbers() -> None:
    assert separator_of("Smith, J;8;1") == ";"
    assert separator_of("id;name;email,x") == ";"  # a header: the most columns
    assert separator_of("A,8,120") == ","


def test_rows_keep_the_line_they_end_on_blank_ones_too() -> None:
    rows = list(csv_rows('id,name\n\n"a","two\nlines"\nb,\n', ","))
    assert rows == [(1, ["id", "name"]), (2, []), (4, ["a", "two\nlines"]), (5, ["b", ""])]
    assert [is_blank(cells) for _, cells in rows] == [False, True, False, False]


def test_header_faults_name_every_fault_once() -> None:
    found = header_faults(["ID", " Wins ", "Rank", "wins", "rank"], ("id", "wins"), ("id", "x"))
    assert found.names == ("id", "wins", "rank", "wins", "rank")
    assert found.missing == ("x",)
    assert found.unknown == (2, 4)
    assert found.repeated == ("rank", "wins")


def test_what_a_file_body_found_travels_with_it() -> None:
    read = FileRead((2, 3), {"/players/0/wins": "write 7.5"}, ("a note",))
    body = FileBody({"players": []}, read)
    assert body == {"players": []} and file_read(body) is read
    assert file_read({"players": []}) == FileRead()
