"""The held events' codec: stored shapes, omitted fields, versions and upcasters."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

import pytest

from pairing_service.engine.event_codec import (
    JSON,
    EventCodec,
    LogEvent,
    NumberDecimal,
    decimal_to_number,
    decode_as,
    number_to_decimal,
    omitted_when,
    to_json,
)
from pairing_service.engine.event_log import Action, TokenReplaced, Undone, format_events


@dataclass(frozen=True)
class Score:
    player: str
    points: Fraction
    bonus: Decimal | None


def points_were_whole(data: dict[str, JSON]) -> dict[str, JSON]:
    """Version 1 kept whole points as numbers; version 2 keeps them as text."""
    return {**data, "scores": [{**s, "points": str(s["points"])} for s in data["scores"]]}


def scores_had_no_bonus(data: dict[str, JSON]) -> dict[str, JSON]:
    return {**data, "scores": [{"bonus": None, **s} for s in data["scores"]]}


@dataclass(frozen=True)
class Scored(LogEvent):
    logged_as = "scored"
    version = 2
    upcasters = ((1, scores_had_no_bonus), (1, points_were_whole))
    round: int
    scores: tuple[Score, ...]
    pairs: tuple[tuple[str, str], ...] = omitted_when(())


def test_fields_are_stored_in_order_exact_numbers_as_text_and_the_version_when_past_1():
    event = Scored(2, (Score("a", Fraction(7, 2), Decimal("2.50")),))
    assert to_json(event) == {
        "round": 2,
        "scores": [{"player": "a", "points": "7/2", "bonus": "2.50"}],
        "version": 2,
    }
    assert list(to_json(event)) == ["round", "scores", "version"]
    assert decode_as(Scored, to_json(event)) == event


def test_a_field_is_left_out_while_it_holds_its_omitted_value():
    assert "pairs" not in to_json(Scored(1, ()))
    paired = Scored(1, (), (("a", "b"),))
    assert to_json(paired)["pairs"] == [["a", "b"]]
    assert decode_as(Scored, to_json(paired)) == paired


def test_an_entry_without_a_version_is_version_1_and_every_upcaster_runs_on_it():
    old = {"round": 1, "scores": [{"player": "a", "points": 3}]}
    assert decode_as(Scored, old) == Scored(1, (Score("a", Fraction(3), None),))


def test_an_upcaster_does_not_run_on_entries_written_after_its_change():
    current = {"round": 1, "scores": [{"player": "a", "points": "1/2", "bonus": None}]}
    assert decode_as(Scored, {**current, "version": 2}).scores[0].points == Fraction(1, 2)


def test_a_codec_knows_its_formats_kinds_and_the_stores():
    codec = format_events("a test log", Scored)
    assert codec.decode("undone", {"entry": 4, "kind": "scored"}) == Undone(4, "scored")
    assert codec.decode("token_replaced", {}) == TokenReplaced()
    assert Action.of(TokenReplaced()) == Action("token_replaced", {})
    with pytest.raises(ValueError, match="a test log has no action 'other'"):
        codec.decode("other", {})


def test_a_type_without_a_json_form_fails_when_the_codec_is_made():
    @dataclass(frozen=True)
    class Odd(LogEvent):
        logged_as = "odd"
        both: int | str

    with pytest.raises(TypeError, match="one type or None only"):
        EventCodec("a test log", Odd)


@dataclass(frozen=True)
class Paid(LogEvent):
    logged_as = "paid"
    amounts: tuple[NumberDecimal | None, ...] | None


def test_a_number_decimal_is_stored_as_the_json_number_it_was_read_from():
    # Logs written when amounts were floats (or integers) fold to exact Decimals, and a
    # Decimal read from a stored number is stored as that same number again.
    stored = {"amounts": [500.0, 12.5, 0.1, 300, None]}
    paid = decode_as(Paid, stored)
    assert paid.amounts == (Decimal("500.0"), Decimal("12.5"), Decimal("0.1"), 300, None)
    assert paid.amounts[2] == Decimal("0.1")  # the digits, not the float's binary value
    again = to_json(paid)
    assert again == stored
    assert [type(a) for a in again["amounts"]] == [float, float, float, int, type(None)]
    assert decode_as(Paid, {"amounts": None}) == Paid(None)


def test_a_number_decimal_round_trips_every_float_it_is_read_from():
    for number in (0.1 + 0.2, 33.33, 1e9, 1e-05, 123456.789, 0.0):
        assert decimal_to_number(number_to_decimal(number)) == number
        assert type(decimal_to_number(number_to_decimal(number))) is float
    assert decimal_to_number(number_to_decimal(7)) == 7
