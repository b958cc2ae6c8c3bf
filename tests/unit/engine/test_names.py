"""Names folded for matching, and namesakes found at entry."""

from __future__ import annotations

from pairing_service.engine.names import called, folded, labels, namesake_warnings, namesakes


def test_a_folded_name_matches_without_accents_case_or_extra_spaces() -> None:
    assert folded("José") == folded("jose") == "jose"
    assert folded("  Zoé   LEE ") == "zoe lee"
    assert folded("Ann") != folded("Anna")


def test_namesakes_are_players_entered_under_one_name() -> None:
    players = [("ann", "Ann"), ("bob", "Bob"), ("ann2", "ann"), ("zoe", "Zoé"), ("zoe2", "Zoe")]
    assert namesakes(players) == [("Ann", ("ann", "ann2")), ("Zoé", ("zoe", "zoe2"))]
    assert namesakes([("p1", None), ("p2", None)]) == []  # known by their ids


def test_only_the_names_a_new_player_shares_are_warned_of() -> None:
    players = [("ann", "Ann"), ("ann2", "Ann"), ("bob", "Bob"), ("bob2", "Bob")]
    (warning,) = namesake_warnings(players, new=["bob2"])
    assert warning.startswith("2 players are entered as 'Bob' (bob, bob2)")
    assert len(namesake_warnings(players)) == 2


def test_the_history_labels_players_by_name_namesakes_and_numbers_with_their_id() -> None:
    told = labels({"p16": "Ann Lee", "b1": "Bo", "b2": "bo", "p3": None, "6": "Linh"})
    assert told == {
        "p16": "Ann Lee",
        "b1": "Bo (b1)",
        "b2": "bo (b2)",
        "p3": "p3",  # no name: the id the organiser entered
        "6": "Linh (6)",  # a tsh player number, as tsh prints it
    }
    assert called(told, ["p16", "p3", "x9"]) == "Ann Lee, p3, x9"
