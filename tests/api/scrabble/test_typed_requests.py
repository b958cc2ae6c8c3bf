"""The held Scrabble request schemas load typed requests (their ``post_load``): the engine's
own types where it has them, and a settings write's partial body keeps a field it leaves
out apart from a null it sends."""

from __future__ import annotations

from decimal import Decimal

from flask.testing import FlaskClient

from pairing_service.api.held.requests import UNSENT
from pairing_service.api.scrabble.requests import (
    GameEntered,
    NewScrabbleEvent,
    RoundStart,
    ScrabbleSettingsChange,
    TshImport,
)
from pairing_service.api.scrabble.schemas import (
    ScrabbleEntrantIn,
    ScrabbleEventIn,
    ScrabbleResultIn,
    ScrabbleSettingsIn,
    StartRoundIn,
)
from pairing_service.api.scrabble.tsh_interchange import TshImportIn
from pairing_service.engine.scrabble.held.log_events import Entrant, EventSettings, RepeatsFor
from tests.support import auth

BASE = "/v1/scrabble/events"
PLAYERS = [{"id": "a", "name": "Ann", "rating": 1800}, {"id": "b", "rating": 1700}]


def test_a_create_loads_the_engines_settings_and_entrants() -> None:
    made = ScrabbleEventIn().load(
        {
            "name": "Club open",
            "players": PLAYERS,
            "rounds": 7,
            "prizes": [100, 50.5],
            "repeats_by_round": [{"first": 1, "last": 3, "repeats_allowed": 0}],
        }
    )
    assert made == NewScrabbleEvent(
        "Club open",
        (Entrant("a", "Ann", 1800), Entrant("b", None, 1700)),
        EventSettings(
            7,
            prizes=(Decimal(100), Decimal("50.5")),
            repeats_by_round=(RepeatsFor(1, 3, 0),),
        ),
    )
    assert ScrabbleEventIn().load({"players": PLAYERS, "rounds": 3}).name is None


def test_round_starts_results_and_late_entrants_load_typed() -> None:
    assert StartRoundIn().load({}) == RoundStart()
    assert StartRoundIn().load({"method": "koth", "seed": 4}) == RoundStart("koth", None, 4)
    played = ScrabbleResultIn().load({"scores": [412, 388], "penalties": [0, 10]})
    assert played == GameEntered((412, 388), None, None, (0, 10))
    forfeit = ScrabbleResultIn().load({"forfeit": "a", "spread": 75})
    assert forfeit == GameEntered(None, "a", 75, None)
    assert ScrabbleEntrantIn().load({"id": "c", "rating": 1500}) == Entrant("c", None, 1500)


def test_a_settings_field_left_out_is_unsent_and_a_null_is_sent() -> None:
    assert ScrabbleSettingsIn().load({}) == ScrabbleSettingsChange()
    capped = ScrabbleSettingsIn().load({"spread_cap": None})
    assert capped == ScrabbleSettingsChange(spread_cap=None)
    assert ScrabbleSettingsIn().load({"seed": 9}).spread_cap is UNSENT
    now = EventSettings(5, spread_cap=300, prizes=(Decimal(10),))
    assert ScrabbleSettingsChange().applied(now) == now
    assert capped.applied(now) == EventSettings(5, prizes=(Decimal(10),))
    # victors named without prizes: equal places from now on
    assert ScrabbleSettingsChange(victors=3).applied(now) == EventSettings(5, 300, victors=3)


def test_an_import_loads_its_settings_with_the_rounds_the_file_leaves() -> None:
    loaded = TshImportIn().load({"tsh": "Able, Ann 1800 ;\n", "spread_cap": 300})
    assert isinstance(loaded, TshImport) and loaded.rounds is None
    assert loaded.settings(played=2) == EventSettings(3, 300)
    planned = TshImportIn().load({"tsh": "x", "rounds": 6, "prizes": [5]})
    assert planned.settings(played=2) == EventSettings(6, prizes=(Decimal(5),))


def test_a_scrabble_settings_write_keeps_what_it_leaves_out(client: FlaskClient) -> None:
    players = [{"id": f"p{i}", "rating": 1500 + i} for i in range(6)]
    body = {"players": players, "rounds": 5, "spread_cap": 300, "prizes": [100, 50]}
    made = client.post(BASE, json=body).get_json()
    url, token = f"{BASE}/{made['id']}", made["token"]
    shown = ("rounds", "spread_cap", "bye_spread", "seed", "victors", "prizes")

    def written(change: dict[str, object]) -> dict[str, object]:
        answer = client.put(f"{url}/settings", json=change, headers=auth(token))
        assert answer.status_code == 200, answer.get_json()
        read = client.get(url).get_json()
        return {k: read[k] for k in shown}

    kept = written({"seed": 7})
    assert kept == {
        "rounds": 5,
        "spread_cap": 300,
        "bye_spread": 50,
        "seed": 7,
        "victors": 2,
        "prizes": [100, 50],
    }
    assert written({}) == kept
    uncapped = written({"spread_cap": None})  # sent: uncapped; the prizes stay
    assert uncapped == {**kept, "spread_cap": None}
    equal = written({"victors": 3})  # the places as victors: the prizes go
    assert equal == {**uncapped, "victors": 3, "prizes": None}
