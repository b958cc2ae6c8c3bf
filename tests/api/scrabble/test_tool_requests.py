"""The Scrabble tools' requests as their schemas load them: what was left out stays told
apart from what was given, and an uploaded file's reading is kept."""

from __future__ import annotations

from decimal import Decimal

from pairing_service.api.csv_upload import FileBody, FileRead
from pairing_service.api.scrabble.tool_requests import (
    DEFAULT_VICTORS,
    AuditRequest,
    FinalRoundRequest,
    ProposedGame,
    TshFile,
)
from pairing_service.api.scrabble.tool_schemas import AuditIn, FinalRoundIn
from pairing_service.api.scrabble.tools import standings_of
from pairing_service.engine.scrabble import PrizePlaces

PLAYERS = [
    {"id": "A", "wins": 3, "spread": 100},
    {"id": "B", "wins": 2, "spread": 50, "withdrawn": True, "off_spread": -50},
    {"id": "C", "wins": 1, "spread": -150, "name": None},
]


def test_a_final_round_left_to_its_defaults():
    request = FinalRoundIn().load({"players": PLAYERS})
    assert type(request) is FinalRoundRequest
    assert request.tsh is None and request.round is None and request.division is None
    assert not request.tsh_commands and not request.list_outcomes
    assert request.file == FileRead()
    options = request.options
    assert options.victors is None and options.prizes is None and not options.places_given
    assert options.places == DEFAULT_VICTORS and options.prize_places is None
    assert options.max_spread_per_game is None and options.rounds_left == 1
    assert options.prefer == "table" and options.repeats_allowed == 2
    assert request.players is not None
    assert [p["id"] for p in request.players] == ["A", "B", "C"]
    assert "off_spread" not in request.players[0] and request.players[1]["off_spread"] == -50


def test_places_given_as_victors_or_as_prizes():
    victors = FinalRoundIn().load({"players": PLAYERS, "victors": 1}).options
    assert victors.places == 1 and victors.places_given and victors.prize_places is None
    prizes = FinalRoundIn().load({"players": PLAYERS, "prizes": [100, 0.1, None]}).options
    assert prizes.victors is None and prizes.places == 3 and prizes.places_given
    assert prizes.prizes == (Decimal("100"), Decimal("0.1"), None)
    assert prizes.prize_places == PrizePlaces((Decimal("100"), Decimal("0.1"), None))


def test_the_options_and_asked_parts_as_given():
    request = FinalRoundIn().load(
        {
            "players": PLAYERS,
            "round": 7,
            "division": "B",
            "tsh_commands": True,
            "list_outcomes": True,
            "max_spread_per_game": 250,
            "rounds_left": 2,
            "prefer": "principles",
            "repeats_allowed": 0,
        }
    )
    assert (request.round, request.division) == (7, "B")
    assert request.tsh_commands and request.list_outcomes
    options = request.options
    assert (options.max_spread_per_game, options.rounds_left) == (250, 2)
    assert (options.prefer, options.repeats_allowed) == ("principles", 0)


def test_a_tsh_file_and_how_to_read_it():
    text = "Able, Ann 1800 2 ; 420\nBaker, Bob 1750 1 ; 380\n"
    plain = FinalRoundIn().load({"tsh": text})
    assert plain.players is None and plain.tsh == TshFile(text, None, False, None)
    read = FinalRoundIn().load(
        {"tsh": text, "tsh_round": 1, "tsh_complete_rounds_only": True, "spread_cap": 250}
    )
    assert read.tsh == TshFile(text, 1, True, 250)


def test_an_uploaded_file_keeps_its_lines_and_notes():
    file = FileRead(lines=(2, 3, 4), notes=("read as Windows-1252",))
    request = FinalRoundIn().load(FileBody({"players": PLAYERS}, file))
    assert request.file is file
    assert standings_of(request).notes == ("read as Windows-1252",)


def test_an_audit_takes_the_proposed_games():
    request = AuditIn().load(
        {
            "players": PLAYERS,
            "pairings": [
                {"players": ["A", "C"], "bye": False, "reason": "pasted back"},
                {"players": ["B"], "spread": -50},
                {"players": ["C"]},
            ],
        }
    )
    assert type(request) is AuditRequest
    assert request.pairings == (
        ProposedGame(("A", "C"), None),
        ProposedGame(("B",), -50),
        ProposedGame(("C",), None),
    )
    assert request.options.places == DEFAULT_VICTORS
