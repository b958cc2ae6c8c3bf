"""The one-pass loading of large player lists gives exactly marshmallow's answers."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from pairing_service.api.fast_fields import load_plan
from pairing_service.api.scrabble.tool_schemas import FinalRoundIn, PlayerIn

_LOAD_PLAYERS = load_plan(PlayerIn())


def fast_player(item):
    """One player through the one-pass load of a player list (None: marshmallow loads it)."""
    loaded = _LOAD_PLAYERS([item])
    return None if loaded is None else loaded[0]


ids = st.one_of(
    st.text(min_size=0, max_size=70),
    st.sampled_from(["A", "B", "a\x00", "x" * 64, "x" * 65, ""]),
    st.integers(),
    st.none(),
)
numbers = st.one_of(
    st.integers(min_value=-(10**7), max_value=10**7),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-2000, max_value=2000),
    st.sampled_from([0, 0.5, 7.5, 1000, 1000.5, 10**400, True, False]),
    st.text(max_size=3),
    st.none(),
)
player = st.dictionaries(
    st.sampled_from(
        ["id", "name", "wins", "spread", "rank", "opponents", "withdrawn", "off_spread", "extra"]
    ),
    st.one_of(ids, numbers, st.lists(st.one_of(ids, st.none()), max_size=4), st.booleans()),
    max_size=8,
)


def marshmallow(item):
    try:
        return PlayerIn().load(item)
    except ValidationError:
        return None
    except (OverflowError, TypeError):  # marshmallow itself chokes: not a valid player
        return None


@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(player)
def test_a_player_loads_the_same_either_way(item):
    fast = fast_player(item)
    if fast is not None:  # whatever the fast path accepts, marshmallow accepts identically
        assert marshmallow(item) == fast


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.fixed_dictionaries(
        {
            "id": st.text(alphabet="abcdefgh", min_size=1, max_size=5),
            "wins": st.integers(0, 40).map(lambda h: h / 2),
            "spread": st.integers(-5000, 5000),
        },
        optional={
            "name": st.one_of(st.none(), st.text(alphabet="Ann Bob", max_size=10)),
            "rank": st.integers(1, 50),
            "opponents": st.lists(st.one_of(st.none(), st.sampled_from(["a", "b"])), max_size=6),
            "withdrawn": st.booleans(),
        },
    )
)
def test_usual_players_take_the_fast_path_and_match(item):
    assert fast_player(item) == PlayerIn().load(item)


def test_a_list_with_one_bad_player_gets_marshmallows_error_by_field():
    good = {"id": "A", "wins": 1, "spread": 0}
    bad = {"id": "B", "wins": 1.25, "spread": 0}
    try:
        FinalRoundIn().load({"players": [good, bad]})
    except ValidationError as error:
        assert error.messages == {"players": {1: {"wins": ["wins must be a multiple of 0.5"]}}}
    else:
        raise AssertionError("a quarter win was accepted")
    loaded = FinalRoundIn().load({"players": [good, good | {"id": "B", "opponents": ["A"]}]})
    assert loaded.players is not None
    assert loaded.players[1] == {
        "id": "B",
        "wins": 1.0,
        "spread": 0,
        "withdrawn": False,
        "opponents": ["A"],
    }
