"""Counts in answers take their noun in the right number."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pairing_service.engine.wording import counted


@pytest.mark.parametrize(
    ("count", "noun", "words"),
    [
        (1, "game", "1 game"),
        (2, "game", "2 games"),
        (0, "game", "0 games"),
        (1, "victor", "1 victor"),
        (3, "victor", "3 victors"),
        (1, "loss", "1 loss"),
        (2, "loss", "2 losses"),
        (2, "rematch", "2 rematches"),
        (Fraction(3, 2), "strike", "3/2 strikes"),
    ],
)
def test_a_count_takes_its_noun_in_the_right_number(count, noun, words):
    assert counted(count, noun) == words
