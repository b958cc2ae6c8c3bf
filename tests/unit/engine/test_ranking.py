"""Places shared by every format: competition ranking and places in words."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pairing_service.engine.ranking import competition_places, decimal_text, ordinal


@pytest.mark.parametrize(
    ("number", "words"),
    [
        (1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (10, "10th"), (11, "11th"),
        (12, "12th"), (13, "13th"), (20, "20th"), (21, "21st"), (22, "22nd"), (23, "23rd"),
        (101, "101st"), (111, "111th"), (112, "112th"), (113, "113th"), (121, "121st"),
    ],
)  # fmt: skip
def test_ordinal_says_each_place_as_it_is_written(number, words):
    assert ordinal(number) == words


def test_equal_values_share_the_better_place():
    assert competition_places([30, 20, 20, 10], higher_is_better=True) == [1, 2, 2, 4]


@pytest.mark.parametrize(
    ("value", "places", "text"),
    [
        (Fraction(61, 2), 2, "30.5"),
        (Fraction(89, 2), 2, "44.5"),
        (Fraction(19, 3), 2, "6.33"),
        (Fraction(20, 3), 2, "6.67"),
        (Fraction(10), 2, "10"),
        (Fraction(200), 2, "200"),
        (Fraction(0), 2, "0"),
        (Fraction(-7, 2), 2, "-3.5"),
        (Fraction(4, 5), 4, "0.8"),
        (Fraction(2, 3), 4, "0.6667"),
    ],
)
def test_decimal_text_reads_as_people_write_numbers(value, places, text):
    assert decimal_text(value, places) == text
