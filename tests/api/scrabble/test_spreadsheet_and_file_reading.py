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


def test_an_unknown_header_column_is_named(client):
    answer = _post_csv(client, "id,wins,spread,club\nA,8,412,X\nB,7,0,Y\n")
    assert_problem(answer, 400)
    assert "'club'" in str(answer.get_json())


def test_a_csv_error_names_the_line_of_the_file(client):
    answer = _post_csv(client, "id,wins,spread,name\n\nA,8,412,Ann\nB,7,0,Bob,extra\n")
    assert_problem(answer, 400)
    assert "CSV line 4 " in str(answer.get_json())


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

    from pairing_service.api.scrabble.schemas import CSV_PATTERN

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
