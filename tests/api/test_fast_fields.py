"""FastList dumps exactly what fields.List dumps (it only skips work that copies)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema, fields, post_dump

from pairing_service.api.fast_fields import FastList
from pairing_service.api.scrabble.answer_schemas import FinalRoundOut


class Item(Schema):
    name = fields.String()
    count = fields.Integer()
    flag = fields.Boolean(data_key="on")


class Hooked(Item):
    @post_dump
    def mark(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return {**data, "hooked": True}


def _pair(inner: Any) -> tuple[Schema, Schema]:
    fast = Schema.from_dict({"values": FastList(inner)})()
    plain = Schema.from_dict({"values": fields.List(inner)})()
    return fast, plain


scalars = st.one_of(
    st.none(), st.text(max_size=5), st.integers(-5, 5), st.booleans(), st.floats(-2, 2)
)
items = st.one_of(
    scalars,
    st.fixed_dictionaries(
        {"name": st.one_of(st.text(max_size=3), st.integers(0, 3))},
        optional={"count": st.one_of(st.integers(0, 9), st.text(max_size=2)), "flag": scalars},
    ),
)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(st.none(), st.lists(items, max_size=6), st.tuples(items, items)),
    st.sampled_from(["string", "integer", "boolean", "nested", "hooked"]),
)
def test_fast_list_dumps_as_list(values, kind):
    inner = {
        "string": fields.String(allow_none=True),
        "integer": fields.Integer(allow_none=True),
        "boolean": fields.Boolean(allow_none=True),
        "nested": fields.Nested(Item, allow_none=True),
        "hooked": fields.Nested(Hooked, allow_none=True),
    }[kind]
    fast, plain = _pair(inner)
    try:
        expected: Any = plain.dump({"values": values})
    except Exception as error:  # marshmallow refuses it: so must the fast list
        try:
            fast.dump({"values": values})
        except Exception as fast_error:
            assert type(fast_error) is type(error)
            return
        raise AssertionError(f"fast list dumped what List refuses: {values!r}") from error
    assert fast.dump({"values": values}) == expected


def test_the_answer_schema_uses_fast_lists_for_its_pairings():
    pairings = FinalRoundOut().fields["pairings"]
    assert isinstance(pairings, FastList)


def test_a_list_of_plain_items_takes_the_plan():
    fast, _ = _pair(fields.Nested(Item))
    assert fast.dump({"values": [{"name": "a", "count": 1, "flag": True}]}) == {
        "values": [{"name": "a", "count": 1, "on": True}]
    }
    assert callable(fast.fields["values"]._dump_plan[1])  # planned, not left to marshmallow


def test_a_list_of_dataclasses_takes_the_plan_and_dumps_as_list():
    @dataclass(frozen=True, slots=True)
    class Counted:
        name: str
        count: int | str
        flag: bool

    fast, plain = _pair(fields.Nested(Item))
    values = [Counted("a", 1, True), Counted("b", 2, False)]
    assert fast.dump({"values": values}) == plain.dump({"values": values})
    assert fast.dump({"values": values})["values"][0] == {"name": "a", "count": 1, "on": True}
    assert callable(fast.fields["values"]._dump_plan[1])
    odd = [Counted("a", "1", True)]  # a type the plan leaves to marshmallow
    assert fast.dump({"values": odd}) == plain.dump({"values": odd})


def test_answers_are_encoded_as_flask_would(app):
    # orjson for the answer; Flask's own encoder for what orjson would write otherwise.
    import datetime
    import json

    from flask.json.provider import DefaultJSONProvider

    flask_json = DefaultJSONProvider(app)
    flask_json.sort_keys = False  # as the app has always answered: the schemas' order
    compact = {"separators": (",", ":")}
    answer = {"b": [1, 2.5, None, True], "a": {"name": "Zoë", "ranks": (3, 4)}}
    assert json.loads(app.json.dumps(answer, **compact)) == answer | {
        "a": {"name": "Zoë", "ranks": [3, 4]}
    }
    assert list(json.loads(app.json.dumps(answer, **compact))) == ["b", "a"]  # order kept
    for odd in ({"when": datetime.datetime(2026, 11, 23, 12, 0)}, {1: "x"}, {"big": 2**70}):
        assert app.json.dumps(odd, **compact) == flask_json.dumps(odd, **compact)
    assert app.json.dumps(answer, indent=2) == flask_json.dumps(answer, indent=2)
