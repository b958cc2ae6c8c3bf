"""The league's request bodies load as typed values the engine takes; a partial update
keeps a field not sent apart from one sent as null."""

from __future__ import annotations

from fractions import Fraction

from pairing_service.api.held.requests import UNSENT
from pairing_service.api.league.schemas import (
    NewOrganisation,
    OrganisationIn,
    PlayerEdit,
    PlayerEditIn,
    SignUpsIn,
)
from pairing_service.api.league.tool_schemas import TableIn, TableRequest
from pairing_service.engine.league.log_events import DEFAULT_SHORT_GAMES, ShortGames
from pairing_service.engine.league.season import SignUp
from pairing_service.engine.league.table import Game, Result


def test_a_player_edit_keeps_what_is_not_sent_and_clears_what_is_null() -> None:
    assert PlayerEditIn().load({}) == PlayerEdit(UNSENT, UNSENT)
    assert PlayerEditIn().load({"name": None}) == PlayerEdit(None, UNSENT)
    edit = PlayerEditIn().load({"email": "ann@club.example"})
    assert edit.applied("Ann", "old@club.example") == ("Ann", "ann@club.example")
    assert PlayerEditIn().load({"name": None}).applied("Ann", "a@b.example") == (
        None,
        "a@b.example",
    )
    assert PlayerEditIn().load({"name": ""}).applied("Ann", None) == (None, None)


def test_an_organisation_loads_its_short_games_as_the_engine_states_them() -> None:
    assert OrganisationIn().load({"code": "AGR"}) == NewOrganisation("AGR", None, None)
    dropped = OrganisationIn().load({"code": "AGR", "short_games": {"mode": "dropped_out"}})
    assert dropped.short_games == DEFAULT_SHORT_GAMES
    three = OrganisationIn().load(
        {
            "code": "AGR",
            "name": "Club",
            "short_games": {"mode": "three_player", "points": [9, 5.5, 2]},
        }
    )
    assert three == NewOrganisation(
        "AGR", "Club", ShortGames("three_player", (Fraction(9), Fraction(11, 2), Fraction(2)))
    )


def test_sign_ups_and_a_table_load_as_the_engine_s_values() -> None:
    assert SignUpsIn().load({"players": [{"id": "ann", "laurels": 0.1}, {"id": "bob"}]}) == (
        SignUp("ann", None, Fraction(1, 10), None),
        SignUp("bob", None, Fraction(0), None),
    )
    results = [
        {"player": "A", "score": 50, "position": 1},
        {"player": "B", "score": 40, "position": 2, "dropped_out": False},
    ]
    assert TableIn().load({"games": [{"results": results}]}) == TableRequest(
        (Game("", (Result("A", 50, 1), Result("B", 40, 2))),), (), None
    )
