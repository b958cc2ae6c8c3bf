"""Standings as directors' files arrive: CSV by header name, from spreadsheets (byte-order
mark, ``;`` or tab separators), and tsh files saved as Latin-1 by older editors."""

from __future__ import annotations

import pytest

from tests.support import DATA, assert_problem

URL = "/v1/scrabble/final-round"
PLAYERS = [("A", 8, 412, "Ann"), ("B", 8, 120, "Bob"), ("C", 7, 300, "Cat"), ("D", 7, -40, "Dan")]


def _post_csv(client, text: str):
    return client.post(URL, data=text.encode("utf-8"), content_type="text/csv")


def _by_position(separator: str = ",") -> str:
    lines = [separator.join(str(v) for v in row) for row in PLAYERS]
    return "\n".join(lines) + "\n"


def _pairs(answer) -> list[list[str]]:
    return [g["players"] for g in answer["pairings"]]


def test_a_header_is_read_by_its_names_in_any_order(client):
    # id,spread,wins,name: read by position this gave Bob 120 wins.
    text = "id,spread,wins,name\n" + "".join(f"{i},{s},{w},{n}\n" for i, w, s, n in PLAYERS)
    by_name = _post_csv(client, text)
    assert by_name.status_code == 200
    expected = _post_csv(client, _by_position()).get_json()
    assert _pairs(by_name.get_json()) == _pairs(expected)
    assert by_name.get_json()["pairings"][0]["names"] == expected["pairings"][0]["names"]


@pytest.mark.parametrize("separator", [";", "\t"])
def test_spreadsheet_separators_and_a_byte_order_mark_are_accepted(client, separator):
    expected = _post_csv(client, _by_position()).get_json()
    header = separator.join(["ID", "Wins", "Spread", "Name"])
    answer = _post_csv(client, "\ufeff" + header + "\n" + _by_position(separator))
    assert answer.status_code == 200
    assert _pairs(answer.get_json()) == _pairs(expected)


def test_a_player_called_id_is_not_a_header(client):
    answer = _post_csv(client, "id,8,100\n" + _by_position())
    assert answer.status_code == 200
    assert "id" in {p for g in answer.get_json()["pairings"] for p in g["players"]}


HEADER_RULE = (
    "CSV line 1 holds no number, so it is a header naming the columns: id, wins, spread and "
    "name, in any order (id, wins and spread required): "
)
NO_ID = (
    "no id column (each player's own id, unique in the file: A, B, … or their tsh numbers; "
    "a column of names may be headed id)"
)


def test_an_unknown_header_column_is_named(client):
    answer = _post_csv(client, "id,wins,spread,club\nA,8,412,X\nB,7,0,Y\n")
    assert assert_problem(answer, 400)["detail"] == HEADER_RULE + (
        "unknown column 'club' (remove it: the service reads no other column)"
    )


@pytest.mark.parametrize(
    ("header", "faults"),
    [
        ("Name,Wins,Spread", NO_ID),
        (
            "Player,W,Spread",
            f"{NO_ID}; no wins column; unknown columns 'Player', 'W' (remove them: the "
            "service reads no other column)",
        ),
        (
            "Rank,Name,Wins,Losses,Spread",
            f"{NO_ID}; unknown columns 'Rank', 'Losses' (remove them: the service reads no "
            "other column)",
        ),
        (
            "Rank,Name,Wins,Spread",
            f"{NO_ID}; unknown column 'Rank' (remove it: the service reads no other column)",
        ),
        ("id,wins,spread,Wins", "column 'wins' twice"),
    ],
)
def test_a_header_is_held_to_the_columns_and_every_fault_named(client, header, faults):
    # A spreadsheet's own header: never read as a player, nor by position.
    lines = "".join(f"{i + 1},{n},{w},{s}\n" for i, (_, w, s, n) in enumerate(PLAYERS))
    answer = _post_csv(client, f"{header}\n{lines}")
    assert assert_problem(answer, 400)["detail"] == HEADER_RULE + faults


def test_a_csv_error_names_the_line_of_the_file(client):
    answer = _post_csv(client, "id,wins,spread,name\n\nA,8,412,Ann\nB,7,0,Bob,extra\n")
    assert assert_problem(answer, 400)["detail"] == (
        "CSV line 4 has more cells than the 4 columns id, wins, spread, name: remove the "
        "extra cells, or quote a cell that holds a comma (a header line names the columns read)"
    )


def test_every_line_with_too_many_cells_is_named(client):
    answer = _post_csv(client, "A;8;412;Ann;x\nB;8;120;Bob\nC;7;300;Cat;y;z\nD;7;-40\n")
    assert assert_problem(answer, 400)["detail"] == (
        "CSV lines 1 and 3 have more cells than the 4 columns id, wins, spread, name: remove "
        "the extra cells, or quote a cell that holds a semicolon (a header line names the "
        "columns read)"
    )


def test_a_decimal_comma_is_answered_with_the_number_to_write(client):
    text = "id;wins;spread\nA;7,5;412\nB;8;1,200\nC;7;300\nD;6,5;-40\n"
    problem = assert_problem(_post_csv(client, text), 422, "/players/0/wins")
    assert problem["errors"] == [
        {
            "pointer": "/players/0/wins",
            "detail": "Not a valid number: '7,5' has a decimal comma; write 7.5",
            "line": 2,
        },
        {
            "pointer": "/players/1/spread",
            "detail": "Not a valid integer: write 1200 (no thousands separator)",
            "line": 3,
        },
        {
            "pointer": "/players/3/wins",
            "detail": "Not a valid number: '6,5' has a decimal comma; write 6.5",
            "line": 5,
        },
    ]


def test_csv_sent_as_text_plain_is_told_to_send_text_csv(client):
    answer = client.post(URL, data=_by_position(), content_type="text/plain")
    problem = assert_problem(answer, 422, "/tsh")
    assert problem["errors"][0]["detail"] == (
        "line 1: expected 'name rating opponents ; scores'; it reads as CSV standings (id, "
        "wins, spread): send them with Content-Type: text/csv, not as a tsh file"
    )
    # A tsh file at fault that is not CSV gets no such hint.
    tsh = client.post(URL, data="no scores here\n", content_type="text/plain")
    assert "text/csv" not in assert_problem(tsh, 422, "/tsh")["detail"]


LATIN1 = "id,wins,spread,name\nA,8,412,Zoë\nB,8,120,Bob\nC,7,300,Cat\nD,7,-40,Dan\n"


def test_a_body_not_in_utf8_says_how_to_save_or_declare_it(client):
    # A CSV file is read as Excel saves one (below); JSON must be UTF-8.
    latin1 = '{"players": [{"id": "Zoë"}]}'.encode("latin-1")
    answer = client.post(URL, data=latin1, content_type="application/json")
    assert assert_problem(answer, 400)["detail"] == (
        "the body is not UTF-8: byte 0xEB on line 1 (an accented letter saved as Latin-1 or "
        "Windows-1252?): JSON is UTF-8: send the body encoded as UTF-8"
    )
    for utf16 in (LATIN1.encode("utf-16"), LATIN1.encode("utf-16-le")):  # with its mark, without
        answer = client.post(URL, data=utf16, content_type="text/csv")
        assert assert_problem(answer, 400)["detail"] == (
            'the body is UTF-16 (a spreadsheet\'s "Unicode text"), not UTF-8: save the file '
            'as UTF-8 (a spreadsheet\'s "CSV UTF-8"), or declare its encoding: '
            "Content-Type: text/csv; charset=utf-16"
        )
    as_json = client.post(
        URL, data='{"players": []}'.encode("utf-16"), content_type="application/json"
    )
    assert assert_problem(as_json, 400)["detail"] == (
        'the body is UTF-16 (a spreadsheet\'s "Unicode text"), not UTF-8: JSON is UTF-8: '
        "send the body encoded as UTF-8"
    )


def test_a_declared_charset_is_read(client):
    for charset, data in (
        ("windows-1252", LATIN1.encode("cp1252")),
        ("utf-16", LATIN1.encode("utf-16")),
    ):
        answer = client.post(URL, data=data, content_type=f"text/csv; charset={charset}")
        assert answer.status_code == 200, answer.get_json()
        assert "Zoë" in {n for g in answer.get_json()["pairings"] for n in g["names"]}
    unknown = client.post(URL, data=b"A,8,1\nB,7,0\n", content_type="text/csv; charset=klingon")
    assert assert_problem(unknown, 400)["detail"] == (
        "charset=klingon is not an encoding the service knows: declare utf-8, utf-16 or "
        "windows-1252, or leave the charset out for UTF-8"
    )
    odd = b"A,8,1\nB,7,0\nC"  # an odd number of bytes is no UTF-16
    wrong = client.post(URL, data=odd, content_type="text/csv; charset=utf-16")
    assert assert_problem(wrong, 400)["detail"] == (
        "the body is not utf-16, as its Content-Type says (byte 12): save the file as UTF-8 "
        '(a spreadsheet\'s "CSV UTF-8")'
    )


def test_a_latin1_tsh_file_is_read_and_the_answer_says_so(client):
    text = (DATA / "division_a.t").read_text(encoding="utf-8")
    assert "Nguyen, Linh" in text
    renamed = text.replace("Nguyen, Linh", "Müller, Linh", 1)
    latin1 = client.post(URL, data=renamed.encode("latin-1"), content_type="text/plain")
    assert latin1.status_code == 200
    answer = latin1.get_json()
    assert any("Latin-1" in w for w in answer["warnings"])
    names = {n for g in answer["pairings"] for n in g["names"] if n}
    assert "Linh Müller" in names
    utf8 = client.post(URL, data=renamed.encode("utf-8"), content_type="text/plain").get_json()
    assert not any("Latin-1" in w for w in utf8["warnings"])


def test_an_id_holding_a_comma_in_a_semicolon_file(client):
    answer = _post_csv(client, "Smith, J;8;100\nJones, K;7;50\nLee, M;7;0\nPark, N;6;0\n")
    assert answer.status_code == 200
    players = {p for g in answer.get_json()["pairings"] for p in g["players"]}
    assert players == {"Smith, J", "Jones, K", "Lee, M", "Park, N"}


def test_the_documented_pattern_admits_the_spreadsheet_forms(client):
    import re

    from pairing_service.api.scrabble.tool_schemas import CSV_PATTERN

    for text in ("ID;Wins;Spread\nA;8;1\nB;7;0\n", "\ufeffid\twins\tspread\nA\t8\t1\nB\t7\t0\n"):
        assert re.search(CSV_PATTERN, text)
        assert _post_csv(client, text).status_code == 200
    assert not re.search(CSV_PATTERN, "A;8,1\nB;7;0\n")


def test_tsh_commands_carry_the_division(client):
    text = (DATA / "division_a.t").read_text(encoding="utf-8")
    answer = client.post(
        URL + "?tsh_commands=true&division=B", data=text, content_type="text/plain"
    ).get_json()
    assert answer["tsh_commands"] and all(c.endswith(" 8 B") for c in answer["tsh_commands"])
    bad = client.post(URL + "?division=B%20C", data=text, content_type="text/plain")
    assert_problem(bad, 422)


def test_the_board_list_keeps_long_names_apart(client):
    long_names = [
        ("A", 8, 412, "Robin Pollock Daniel Smithson"),
        ("B", 8, 120, "Bob"),
        ("C", 7, 300, "Catherine Wellington-Baxter"),
        ("D", 7, -40, "Dan"),
    ]
    text = "".join(f"{i},{w},{s},{n}\n" for i, w, s, n in long_names)
    board_list = client.post(
        URL, data=text, content_type="text/csv", headers={"Accept": "text/plain"}
    ).get_data(as_text=True)
    first_board = next(line for line in board_list.splitlines() if line.startswith("1 "))
    assert "Smithson (A)  " in first_board or "Wellington-Baxter (C)  " in first_board


def test_a_complete_tie_is_flagged(client):
    text = "A,8,100\nB,8,100\nC,7,0\nD,6,0\n"
    answer = _post_csv(client, text).get_json()
    assert any(
        w.startswith("complete tie on wins and spread: #1 A, #2 B") for w in answer["warnings"]
    )


def test_a_header_without_name_still_takes_names(client):
    # The pattern admits `id,wins,spread` over lines that give names too.
    answer = _post_csv(client, "Id;wInS;SPRead\nA;8;412;Ann\nB;8;120\nC;7;300;Cat\nD;7;-40\n")
    assert answer.status_code == 200
    names = {n for g in answer.get_json()["pairings"] for n in g["names"]}
    assert {"Ann", "Cat"} <= names


def test_an_excel_csv_is_read_as_windows_1252_and_says_so(client):
    body = "id,wins,spread,name\nA,8,412,José\nB,8,120,Zoé\nC,7,300,Cat\nD,7,-40,Dan\n"
    guessed = client.post(
        "/v1/scrabble/final-round",
        data=body.encode("windows-1252"),
        headers={"Content-Type": "text/csv"},
    )
    assert guessed.status_code == 200, guessed.get_json()
    answer = guessed.get_json()
    assert any("read as Windows-1252" in warning for warning in answer["warnings"])
    assert {p["names"][0] for p in answer["pairings"]} >= {"José"}
    declared = client.post(
        "/v1/scrabble/final-round",
        data=body.encode("windows-1252"),
        headers={"Content-Type": "text/csv; charset=windows-1252"},
    )
    assert not any("Windows-1252" in warning for warning in declared.get_json()["warnings"])
