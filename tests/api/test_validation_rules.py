"""The OpenAPI document is the contract (docs/validation.md).

Every named rule (a constraint JSON Schema cannot state) is listed alike in the registry,
the engine's ``Rule`` and the docs, and each is shown by a request that breaks it: a 422
naming the rule, with its pointer. The constraints the document does state on whole objects
(``Requires``) are in the document, checked by the same schema on load, and refused without
a rule; the checker reads JSON Schema as JSON Schema does.
"""

from __future__ import annotations

import re

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing_service import create_app
from pairing_service.api.common import Contract, all_or_none, compile_schema
from pairing_service.api.named_rules import NAMED_RULES
from pairing_service.api.scrabble.tool_schemas import CSV_PATTERN
from pairing_service.engine.errors import Rule
from tests.support import ROOT, assert_problem

DOCS = ROOT / "docs" / "validation.md"


def _players(*rows, **extra):
    return [dict({"id": pid, "wins": wins, "spread": 0}, **extra) for pid, wins in rows]


FOUR = _players(("A", 3), ("B", 2), ("C", 1), ("D", 0))
BOARD = [{"id": "A", "score": 10}, {"id": "B", "score": 5}]
THREE_PLAYERS = [
    {"results": [{"player": p, "score": 10 - i, "position": i + 1} for i, p in enumerate("ABC")]}
]

# (rule, method, path, body or (content type, text), pointer): one request breaking each rule.
BREAKING = [
    (
        "unique-ids",
        "post",
        "/v1/strikes/score",
        {"results": [{"player": "A", "score": 3}, {"player": "A", "score": 2}]},
        "/results/1/player",
    ),
    (
        "unique-ids",
        "post",
        "/v1/scrabble/final-round",
        {"players": _players(("A", 1), ("A", 0))},
        "/players/1/id",
    ),
    (
        "unique-ids",
        "post",
        "/v1/strikes/tournaments",
        {"players": [{"id": "ann"}, {"id": "bob"}, {"id": "ann"}]},
        "/players/2/id",
    ),
    (
        "known-player",
        "post",
        "/v1/diagonal/results",
        {"players": ["A", "B"], "rounds": [{"games": [{"players": ["A", "C"], "winner": "A"}]}]},
        "/rounds/0/games/0/players/1",
    ),
    (
        "known-player",
        "post",
        "/v1/scrabble/final-round",
        {"players": [{"id": "A", "wins": 1, "spread": 0, "opponents": ["Z"]}]},
        "/players/0/opponents/0",
    ),
    (
        "consistent-history",
        "post",
        "/v1/diagonal/round",
        {"players": [{"id": "A", "met": ["B"], "losses": 1}, {"id": "B"}]},
        "/players/0/met/0",
    ),
    (
        "consistent-history",
        "post",
        "/v1/diagonal/results",
        {"players": ["A", "B"], "rounds": [{"games": [{"players": ["A", "B"], "winner": "C"}]}]},
        "/rounds/0/games/0/winner",
    ),
    (
        "ranks-follow-wins",
        "post",
        "/v1/scrabble/final-round",
        {
            "players": [
                {"id": "A", "wins": 3, "spread": 0, "rank": 2},
                {"id": "B", "wins": 1, "spread": 0, "rank": 1},
            ]
        },
        "/players/0/rank",
    ),
    (
        "places-are-a-ranking",
        "post",
        "/v1/strikes/score",
        {"results": [{"player": "A", "place": 1}, {"player": "B", "place": 3}]},
        "/results",
    ),
    (
        "places-are-a-ranking",
        "post",
        "/v1/puffing-billy/board",
        {"players": [{"id": "A", "score": 5, "place": 2}, {"id": "B", "score": 9, "place": 1}]},
        "/players",
    ),
    (
        "positions-follow-scores",
        "post",
        "/v1/league/table",
        {
            "games": [
                {
                    "results": [
                        {"player": p, "score": s, "position": i + 1}
                        for i, (p, s) in enumerate(zip("ABCD", (80, 120, 90, 40), strict=True))
                    ]
                }
            ]
        },
        "/games/0/results/1/position",
    ),
    (
        "tsh-file",
        "post",
        "/v1/scrabble/final-round",
        ("text/plain", "no scores here"),
        "/tsh",
    ),
    (
        "tsh-file",
        "post",
        "/v1/scrabble/audit",
        {"tsh": "Able, Ann 1800 2 ; 400\n", "pairings": [{"players": ["1"]}]},
        "/tsh",
    ),
    ("work-bound", "post", "/v1/strikes/plan", {"players": 500, "events": 2000}, "/events"),
    (
        "work-bound",
        "post",
        "/v1/diagonal/simulate",
        {"players": [{"id": f"P{i}", "rating": 1500} for i in range(64)], "events": 2000},
        "/events",
    ),
    (
        "work-bound",
        "post",
        "/v1/strikes/seating",
        {"players": [{"id": f"P{i}"} for i in range(100)], "plans": 1000},
        "/plans",
    ),
    (
        "withdrawn-contender",
        "post",
        "/v1/scrabble/final-round",
        {
            "players": [
                *_players(("B", 8), ("C", 7), ("D", 7)),
                {"id": "A", "wins": 8, "spread": 50, "withdrawn": True},
            ]
        },
        "/players/3/withdrawn",
    ),
    (
        "pairing-covers-field",
        "post",
        "/v1/scrabble/audit",
        {"players": FOUR, "pairings": [{"players": ["A", "B"]}]},
        "/pairings",
    ),
    (
        "final-seats",
        "post",
        "/v1/puffing-billy/event",
        {
            "boards": [
                {"players": [{"id": "A", "score": 10}, {"id": "B", "score": 5}]},
                {"players": [{"id": "C", "score": 10}, {"id": "D", "score": 1}]},
                {"players": [{"id": "A", "score": 10}, {"id": "D", "score": 5}], "stage": "final"},
            ],
            "finalists": 2,
        },
        "/boards/2/players/1/id",
    ),
    ("game-size", "post", "/v1/league/table", {"games": THREE_PLAYERS}, "/games/0/results"),
    (
        "points-fall",
        "post",
        "/v1/league/table",
        {"games": THREE_PLAYERS, "points": [1, 2, 3]},
        "/points",
    ),
    (
        "points-fall",
        "post",
        "/v1/league/organisations",
        {"code": "AGR", "short_games": {"mode": "three_player", "points": [3, 6, 10]}},
        "/short_games/points",
    ),
    (
        "query-fields",
        "post",
        "/v1/scrabble/final-round?victors=1",
        {
            "players": [{"id": "A", "wins": 1, "spread": 5}, {"id": "B", "wins": 0, "spread": -5}],
            "victors": 1,
        },
        "/victors",
    ),
    (
        "victors-or-prizes",
        "post",
        "/v1/scrabble/final-round?victors=2",
        {
            "players": [{"id": "A", "wins": 1, "spread": 5}, {"id": "B", "wins": 0, "spread": -5}],
            "prizes": [100, 50],
        },
        "/prizes",
    ),
    (
        "round-ranges",
        "post",
        "/v1/scrabble/events",
        {
            "players": [{"id": "A", "rating": 1500}, {"id": "B", "rating": 1400}],
            "rounds": 7,
            "repeats_by_round": [{"first": 5, "last": 3, "repeats_allowed": 1}],
        },
        "/repeats_by_round/0/last",
    ),
    (
        "formation-records",
        "post",
        "/v1/league/formation",
        {"signups": ["A", "B", "C", "D"]},
        "/signups",
    ),
    (
        "backup-replays",
        "post",
        "/v1/strikes/tournaments/import",
        {
            "format": "pairing-advisor-backup",
            "version": 1,
            "tournament": {
                "format": "strikes",
                "name": None,
                "created_at": "2026-01-01T00:00:00+00:00",
                "revision": 1,
            },
            "log": [
                {
                    "seq": 1,
                    "kind": "round_closed",
                    "data": {"round": 1},
                    "actor": "director",
                    "at": "2026-01-01T00:00:00+00:00",
                }
            ],
        },
        "/log",
    ),
]


@pytest.mark.parametrize(
    ("rule", "method", "path", "body", "pointer"),
    BREAKING,
    ids=[f"{rule} {path}" for rule, _, path, _, _ in BREAKING],
)
def test_breaking_a_named_rule_is_a_422_that_names_it(client, rule, method, path, body, pointer):
    if isinstance(body, tuple):
        content_type, text = body
        response = getattr(client, method)(path, data=text, content_type=content_type)
    else:
        response = getattr(client, method)(path, json=body)
    problem = assert_problem(response, 422, pointer)
    assert problem["rule"] == rule


def test_every_named_rule_is_shown_by_a_request():
    assert {rule for rule, *_ in BREAKING} == set(NAMED_RULES)


def test_the_registry_names_exactly_the_engines_rules():
    assert set(NAMED_RULES) == {rule.value for rule in Rule}
    assert all(NAMED_RULES[rule.value].rule is rule for rule in Rule)


def test_the_docs_list_exactly_the_registry():
    listed = re.findall(r"^### `([a-z-]+)`$", DOCS.read_text(encoding="utf-8"), re.MULTILINE)
    assert sorted(listed) == sorted(NAMED_RULES)
    assert len(listed) == len(set(listed))


@pytest.fixture(scope="module")
def document():
    app = create_app({"TESTING": True, "DATABASE_URL": "sqlite://", "DATABASE_MIGRATE": False})
    return app.test_client().get("/openapi.json").get_json()


def test_the_registry_names_documented_operations_and_the_problem_lists_the_rules(document):
    operations = {
        f"{method.upper()} {path}" for path, item in document["paths"].items() for method in item
    }
    for named in NAMED_RULES.values():
        assert set(named.operations) <= operations, named.rule
        assert named.checks
    problem = document["components"]["schemas"]["Problem"]["properties"]["rule"]
    assert sorted(problem["enum"]) == sorted(NAMED_RULES)


def test_a_problem_without_a_named_rule_has_no_rule(client):
    problem = assert_problem(client.post("/v1/strikes/plan", json={"players": 2}), 422)
    assert "rule" not in problem


# --- constraints the document states on whole objects -------------------------------------


def _contracts() -> list[type[Contract]]:
    found: list[type[Contract]] = []
    pending = list(Contract.__subclasses__())
    while pending:
        schema = pending.pop()
        found.append(schema)
        pending.extend(schema.__subclasses__())
    return [schema for schema in found if schema.requires]


def test_every_whole_object_constraint_is_in_the_document(document):
    schemas = document["components"]["schemas"]
    contracts = _contracts()
    assert len(contracts) >= 10
    for schema in contracts:
        name = schema.__name__.removesuffix("Schema")
        assert name in schemas, name
        assert schemas[name]["allOf"] == [dict(c.schema) for c in schema.requires], name


# (path, body, pointer): requests the document refuses by a whole-object constraint.
REFUSED_BY_THE_DOCUMENT = [
    ("/v1/scrabble/final-round", {"players": FOUR, "tsh": "x"}, "/players"),
    ("/v1/scrabble/final-round", {"victors": 2}, "/players"),
    ("/v1/scrabble/final-round", {"players": FOUR, "tsh_round": 0}, "/tsh_round"),
    (
        "/v1/scrabble/final-round",
        {"players": FOUR, "tsh_complete_rounds_only": True},
        "/tsh_complete_rounds_only",
    ),
    (
        "/v1/scrabble/final-round",
        {"players": [dict(FOUR[0], rank=1), *FOUR[1:]]},
        "/players/1/rank",
    ),
    (
        "/v1/strikes/score",
        {"results": [{"player": "A"}, {"player": "B", "score": 1}]},
        "/results/0",
    ),
    (
        "/v1/strikes/score",
        {"results": [{"player": "A", "score": 2}, {"player": "B", "place": 1}]},
        "/results",
    ),
    ("/v1/strikes/tables", {"players": 2}, "/players"),
    ("/v1/strikes/seating", {"players": [{"id": "A"}, {"id": "B"}]}, "/players"),
    ("/v1/puffing-billy/board", {"players": [dict(BOARD[0], place=1), BOARD[1]]}, "/players"),
    (
        "/v1/puffing-billy/event",
        {"boards": [{"players": [dict(BOARD[0], alternate=True), BOARD[1]]}]},
        "/boards/0/players",
    ),
    ("/v1/puffing-billy/event", {"boards": [{"players": BOARD, "stage": "final"}]}, "/finalists"),
    (
        "/v1/diagonal/events",
        {"players": [{"id": "A", "rating": 1500}, {"id": "B", "rating": None}]},
        "/players/1/rating",
    ),
    (
        "/v1/league/table",
        {
            "games": [
                {
                    "results": [
                        {"player": p, "score": 1, "position": i + 1, "dropped_out": True}
                        for i, p in enumerate("ABCD")
                    ]
                }
            ]
        },
        "/games/0/results",
    ),
]


@pytest.mark.parametrize(("path", "body", "pointer"), REFUSED_BY_THE_DOCUMENT)
def test_what_the_document_refuses_is_refused_without_a_rule(client, path, body, pointer):
    problem = assert_problem(client.post(path, json=body), 422, pointer)
    assert "rule" not in problem


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/scrabble/final-round", {"players": FOUR, "tsh_complete_rounds_only": False}),
        (
            "/v1/scrabble/final-round",
            {"players": [dict(p, rank=i + 1) for i, p in enumerate(FOUR)]},
        ),
        ("/v1/strikes/tables", {"players": 2, "two_player_games": True}),
        ("/v1/diagonal/events", {"players": [{"id": "A", "rating": None}, {"id": "B"}]}),
        (
            "/v1/puffing-billy/event",
            {"boards": [{"players": [dict(BOARD[0], alternate=False), BOARD[1]]}]},
        ),
    ],
)
def test_what_the_document_allows_is_accepted(client, path, body):
    assert client.post(path, json=body).status_code in (200, 201)


def test_documented_multiples_and_unique_lists_are_checked(client, document):
    schemas = document["components"]["schemas"]
    assert schemas["PlayerIn"]["properties"]["wins"]["multipleOf"] == 0.5
    assert schemas["RoundIn"]["properties"]["opponents"]["multipleOf"] == 2
    assert schemas["ScheduleIn"]["properties"]["players"]["uniqueItems"] is True
    odd = client.post("/v1/diagonal/round", json={"players": [{"id": "A"}], "opponents": 3})
    assert "rule" not in assert_problem(odd, 422, "/opponents")
    twice = client.post(
        "/v1/league/formation", json={"signups": ["A", "B", "A", "C"], "new_players": []}
    )
    assert "rule" not in assert_problem(twice, 422, "/signups/2")


# --- the checker reads JSON Schema as JSON Schema does -------------------------------------

KEYS = sorted(
    {
        key
        for schema in _contracts()
        for constraint in schema.requires
        for key in re.findall(r"'([a-z_]+)'", repr(constraint.schema))
    }
    - {"required", "properties", "items", "enum", "not", "anyOf", "oneOf", "minimum", "minItems"}
)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 4) | st.sampled_from(["final", "preliminary", "x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner),
    max_leaves=12,
)
CONSTRAINTS = [c for schema in _contracts() for c in schema.requires]


@settings(max_examples=300, deadline=None)
@given(value=st.dictionaries(st.sampled_from(KEYS), JSON, max_size=5))
def test_the_checker_agrees_with_json_schema(value):
    for constraint in CONSTRAINTS:
        expected = jsonschema.Draft7Validator(dict(constraint.schema)).is_valid(value)
        assert constraint.check(value) == expected, (constraint.schema, value)


ITEMS = st.none() | st.integers(0, 2) | st.dictionaries(st.sampled_from(["rank", "id"]), st.none())


@settings(max_examples=300, deadline=None)
@given(
    value=st.one_of(
        st.dictionaries(st.sampled_from(["players", "tsh"]), st.lists(ITEMS, max_size=5)),
        st.dictionaries(st.sampled_from(["players"]), st.none() | st.integers()),
        ITEMS,
    )
)
def test_all_or_none_in_python_agrees_with_its_schema(value):
    constraint = all_or_none("players", "rank", "give a rank for every player or for none")
    assert constraint.plain is not None
    assert constraint.check(value) == compile_schema(constraint.schema)(value), value
    expected = jsonschema.Draft7Validator(dict(constraint.schema)).is_valid(value)
    assert constraint.check(value) == expected, value


def test_the_checker_refuses_a_keyword_it_does_not_read():
    with pytest.raises(ValueError, match="pattern"):
        compile_schema({"pattern": "x"})


# --- the text bodies -------------------------------------------------------------------------


def test_a_csv_body_the_pattern_allows_is_accepted_even_with_a_player_called_id(client):
    for text in ("id,5,10\nB,4,0\n", "id,wins,spread\nid,5,10\nB,4,0", "A,8,1\r\nB,7.5,-3,Bea\r\n"):
        assert re.search(CSV_PATTERN, text), text
        response = client.post("/v1/scrabble/final-round", data=text, content_type="text/csv")
        assert response.status_code == 200, response.get_data(as_text=True)
    answer = client.post(
        "/v1/scrabble/final-round", data="id,5,10\nB,4,0\n", content_type="text/csv"
    )
    assert sorted(answer.get_json()["pairings"][0]["players"]) == ["B", "id"]


def test_the_text_bodies_are_described(document):
    content = document["paths"]["/v1/scrabble/final-round"]["post"]["requestBody"]["content"]
    assert content["text/csv"]["schema"]["pattern"] == CSV_PATTERN
    blank = re.compile(content["text/plain"]["schema"]["pattern"])
    assert not blank.search(" \t\r\n") and blank.search(" x ")
