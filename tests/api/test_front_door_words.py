"""The front door's words: the five formats it serves, and no promise that every answer
is JSON (tables also come as CSV and text, events as pages)."""

from __future__ import annotations


def test_the_front_door_names_the_five_formats_and_what_answers_are(client):
    text = " ".join(client.get("/").get_data(as_text=True).split())
    assert (
        "in five formats: Scrabble (the final round's advice, and whole events held round by "
        "round), strikes elimination for 3–5 player board games, Diagonal Race, Puffing Billy, "
        "and the Meeple League." in text
    )
    assert "Every answer is JSON" not in text
    assert "answers JSON (standings and tables also as CSV or printable text)" in text
