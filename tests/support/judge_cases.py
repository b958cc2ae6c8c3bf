"""Fields for the Scrabble judge's property tests: random small rounds (``rounds``), a
judge of one, and the benchmark's simulated events as the API reads them."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from bench.scrabble_fields import simulated_field
from pairing_service.api.scrabble.tool_schemas import FinalRoundIn
from pairing_service.api.scrabble.tools import standings_of
from pairing_service.engine.scrabble import Player, Standings
from pairing_service.engine.scrabble.judge.comparison import Judge
from pairing_service.engine.scrabble.withdrawals import field_of

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


SITTING_OUT_SPREADS = (-50, -3, 0, 3, 50)  # the spread a round scores a player sitting out


@st.composite
def rounds(draw: st.DrawFn) -> tuple[Any, ...]:
    """A field of 3-9 players (some not relevant), up to two of them sitting out with a
    known result (player -> the spread each round left scores), a pairing of the others,
    victors, cap, rounds left."""
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
    resting = draw(st.integers(0, min(2, size - 2)))
    sitting_out = {p: draw(st.sampled_from(SITTING_OUT_SPREADS)) for p in order[:resting]}
    order = order[resting:]
    bye = order.pop() if len(order) % 2 else None
    pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    victors = draw(st.integers(1, 3))
    cap = draw(st.sampled_from([2, 5, 40, None]))
    rounds_left = draw(st.sampled_from([1, 1, 2]))
    return standings, relevant, pairs, bye, victors, cap, rounds_left, sitting_out


def judge_of(case: tuple[Any, ...]) -> tuple[Judge, list[tuple[str, str]]]:
    """A judge of a ``rounds()`` case's field as the advice takes it (``field_of``: those
    sitting out certain of a place taken out, the others judged at their record; the bye
    kept when it can be a victor) and the case's pairing without the bye's game."""
    standings, _, pairs, bye, victors, cap, rounds_left, sitting_out = case
    field = field_of(standings, victors, cap, rounds_left, frozenset(sitting_out), sitting_out)
    bye = bye if bye in field.contention.relevant else None
    judge = Judge(standings, field.contention, bye, field.victors, cap, rounds_left)
    return judge, [(a, b) for a, b in pairs if bye not in (a, b)]


def simulated(size: int, seed: int) -> Standings:
    """The benchmark's simulated Swiss event, as the API reads it."""
    return standings_of(FinalRoundIn().load(simulated_field(size, seed))).standings
