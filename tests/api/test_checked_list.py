"""A list of players loaded at once (CheckedList) gives marshmallow's own answers, also
when the values it checks once each repeat across players as equal values of other types."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from pairing_service.api.fast_fields import load_plan
from pairing_service.api.scrabble.tool_schemas import PlayerIn

LOAD_PLAYERS = load_plan(PlayerIn())
# Values equal across types (1 == 1.0 == True), and ids shared by several players.
values = st.sampled_from([0, 1, 1.0, 0.0, True, False, 2, 2.5, -1, "A", "B", "", None, 1001])
player = st.dictionaries(
    st.sampled_from(["id", "name", "wins", "spread", "rank", "opponents", "withdrawn"]),
    st.one_of(values, st.lists(values, max_size=3)),
    max_size=7,
).map(lambda item: {"id": "A", "wins": 1, "spread": 0} | item)


def marshmallow(players):
    try:
        return PlayerIn(many=True).load(players)
    except (ValidationError, OverflowError, TypeError):
        return None


@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(player, min_size=1, max_size=4))
def test_a_list_loads_the_same_at_once(players):
    loaded = LOAD_PLAYERS(players)
    if loaded is not None:  # whatever the one pass accepts, marshmallow accepts identically
        assert loaded == marshmallow(players)


def test_an_equal_value_of_another_type_is_checked_on_its_own():
    valid = {"id": "A", "wins": 1, "spread": 0, "rank": 1, "opponents": ["B"]}
    assert LOAD_PLAYERS([valid]) is not None
    for odd in ({"rank": 1.0}, {"rank": True}, {"spread": False}, {"wins": True}):
        assert LOAD_PLAYERS([valid, valid | {"id": "B"} | odd]) is None, odd


def test_a_list_that_is_not_all_objects_goes_to_marshmallow():
    assert LOAD_PLAYERS([{"id": "A", "wins": 1, "spread": 0}, ["id", "wins", "spread"]]) is None
