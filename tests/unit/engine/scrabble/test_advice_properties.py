"""Any valid standings get a complete pairing: every player exactly once, one bye when odd."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing_service.engine.scrabble import Player, Standings, advise
from tests.support import assert_complete

records = st.lists(st.tuples(st.integers(0, 24), st.integers(-3000, 3000)), min_size=1, max_size=40)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=records,
    victors=st.integers(1, 8),
    cap=st.one_of(st.none(), st.integers(1, 600)),
    history=st.randoms(use_true_random=False),
)
def test_any_standings_get_a_complete_pairing(rules, rows, victors, cap, history):
    n = len(rows)
    players = [
        Player(
            id=f"p{i}",
            half_wins=hw,
            spread=spread,
            opponents=tuple(
                f"p{history.randrange(n)}" if history.random() < 0.9 else None
                for _ in range(history.randrange(4))
            ),
        )
        for i, (hw, spread) in enumerate(rows)
    ]
    players = [
        Player(p.id, p.half_wins, p.spread, opponents=tuple(o for o in p.opponents if o != p.id))
        for p in players
    ]
    standings = Standings.from_players(players)
    advice = advise(standings, rules.scrabble, victors=victors, max_spread_per_game=cap)
    assert_complete(standings, advice)
    assert {v.id for v in advice.principles} == {"GP1", "GP2", "GP3", "GP4"}
    assert advice.rule.source in {"table", "fallback"}
