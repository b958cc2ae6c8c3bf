"""Fields for the Scrabble judge's property tests: random small rounds (``rounds``), a
judge of one, and the benchmark's simulated events as the API reads them."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from bench.scrabble_fields import simulated_field
from pairing_service.api.scrabble.final_round import standings_of
from pairing_service.api.scrabble.schemas import FinalRoundIn
from pairing_service.engine.scrabble import Player, Standings
from pairing_service.engine.scrabble.contention import contention
from pairing_service.engine.scrabble.judge.comparison import Judge

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def rounds(draw: st.DrawFn) -> tuple[Any, ...]:
    """A field of 3-9 players (some not relevant), a pairing, victors, cap, rounds left."""
    size = draw(st.integers(3, 9))
    rows = draw(
        st.lists(st.tuples(st.integers(14, 20), st.integers(-30, 30)), min_size=size, max_size=size)
    )
    standings = Standings.from_players(
        [Player(f"p{i}", hw, spread) for i, (hw, spread) in enumerate(rows)]
    )
    ids = list(standings.ids)
    relevant = [p for p in ids if draw(st.booleans()) or p == ids[0]]
    order = draw(st.permutations(ids))
    bye = order.pop() if len(order) % 2 else None
    pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    victors = draw(st.integers(1, 3))
    cap = draw(st.sampled_from([2, 5, 40, None]))
    rounds_left = draw(st.sampled_from([1, 1, 2]))
    return standings, relevant, pairs, bye, victors, cap, rounds_left


def judge_of(case: tuple[Any, ...]) -> tuple[Judge, list[tuple[str, str]]]:
    """A judge of a ``rounds()`` case's field (its bye kept when it can be a victor) and the
    case's pairing without the bye's game."""
    standings, _, pairs, bye, victors, cap, rounds_left = case
    in_contention = contention(standings, victors, cap)
    bye = bye if bye in in_contention.relevant else None
    judge = Judge(standings, in_contention, bye, victors, cap, rounds_left)
    return judge, [(a, b) for a, b in pairs if bye not in (a, b)]


def simulated(size: int, seed: int) -> Standings:
    """The benchmark's simulated Swiss event, as the API reads it."""
    return standings_of(FinalRoundIn().load(simulated_field(size, seed))).standings
