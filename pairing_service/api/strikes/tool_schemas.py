"""Request and response schemas of the strikes tournaments (bounds stated here); what the
request schemas load is ``requests.py``."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from marshmallow import Schema, fields, post_load, validate, validates_schema

from ...engine.errors import FieldError, Rule
from ...engine.strikes import GAME_KINDS, STRATEGIES, Contestant, Finish, RoundType
from ..common import (
    ID_LENGTH,
    Contract,
    Requires,
    StrictBoolean,
    StrictFloat,
    for_every,
    is_true,
    one_of_fields,
    player_id,
)
from ..fields import ExactText
from .requests import PlanRequest, SeatingRequest, TableResult, TablesRequest

MAX_FIELD = 1000  # players in one seating or tournament
MAX_HISTORY_TABLES = 20_000
MAX_SCORE = 10**9
MAX_STRIKES = 10**6
MAX_PLANS = 1000
# Seeds stay within JavaScript's safe integers (Number.MAX_SAFE_INTEGER), so a browser or a
# widget reads back exactly the seed it was given. Events created before this bound (seeds
# drawn below 2**63) keep their seeds.
MAX_SEED = 2**53 - 1
MAX_THRESHOLD = 10_000
# A planner request's time is 25-30 us per game a simulated player plays; a player plays
# about threshold / 12 + 1 games (an average finish costs 12 strikes at every table size),
# so its work is players x events x (threshold + 12). The bound admits exactly the largest
# study docs/strikes.md reports: 500 events of 100 players at 47 strikes, 5-7 s of CPU.
MAX_PLANNER_WORK = 500 * 100 * (47 + 12)
MAX_PLAN_SEATS = 60_000  # plans x players: random plans drawn for one seating


def check_plan_work(data: dict[str, Any], players: int) -> None:
    """Random plans cost time in proportion to plans x players: bound the product."""
    if data.get("plans", 0) * players > MAX_PLAN_SEATS:
        raise FieldError(
            ("plans",),
            f"plans x players may be at most {MAX_PLAN_SEATS} "
            f"(at most {MAX_PLAN_SEATS // max(players, 1)} plans for {players} players)",
            rule=Rule.WORK_BOUND,
        )


def seats_two(players: Mapping[str, Any]) -> Requires:
    """Two players make a table only in a game that allows 2-player games (plans.py)."""
    return Requires(
        {"anyOf": [{"properties": {"players": dict(players)}}, is_true("two_player_games")]},
        "players",
        "2 players can only play when 2-player games are allowed",
    )


ROUND_TYPES = ("random", "split")


class StrikesNumber(fields.Number):  # type: ignore[type-arg]
    """An exact strikes value: an integer where it is whole, else the nearest float.

    ``strikes_exact`` fields carry the exact fraction as text ("35/2").
    """

    num_type = float

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:
        if value is None:
            return None
        exact = Fraction(value)
        return exact.numerator if exact.denominator == 1 else float(exact)


def game_field() -> fields.String:
    return fields.String(
        load_default="5-4-3",
        validate=validate.OneOf(GAME_KINDS),
        metadata={"description": "5-4-3: 5-, 4- and 3-player tables; 4-3: 4 and 3 only."},
    )


def two_player_field() -> fields.Boolean:
    return StrictBoolean(
        load_default=False,
        metadata={"description": "The game plays well with 2 (5 left in a 4-3 game: 3 + 2)."},
    )


def round_type_field(**kwargs: Any) -> fields.String:
    return fields.String(
        validate=validate.OneOf(ROUND_TYPES),
        metadata={"description": "random, or split by strikes (G1 the fewest strikes)."},
        **kwargs,
    )


class ResultIn(Contract):
    requires = (Requires(one_of_fields("score", "place"), "", "give either a score or a place"),)

    player = player_id(example="A")
    score = fields.Integer(
        strict=True,
        validate=validate.Range(-MAX_SCORE, MAX_SCORE),
        metadata={"description": "Game score; highest wins. Give a score or a place."},
    )
    place = fields.Integer(
        strict=True,
        validate=validate.Range(1, 5),
        metadata={"description": "Finishing place; equal places tie (1, 2, 2, 4 or 1, 2, 2, 3)."},
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> Finish:
        return Finish(data["player"], data.get("score"), data.get("place"))


class TableResultIn(Contract):
    requires = (
        Requires(
            {
                "anyOf": [
                    for_every("results", {"required": ["score"]}),
                    for_every("results", {"required": ["place"]}),
                ]
            },
            "results",
            "give scores for every player or places for every player",
        ),
    )

    results = fields.List(
        fields.Nested(ResultIn),
        required=True,
        validate=validate.Length(2, 5),
        metadata={"description": "Every player at the table, 2-5."},
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> TableResult:
        return TableResult(tuple(data["results"]))


class StrikesOut(Schema):
    """Reads the engine's :class:`Scored`."""

    player = fields.String(required=True)
    place = fields.Integer(required=True)
    strikes = StrikesNumber(required=True)
    strikes_exact = ExactText(of="strikes", required=True, metadata={"example": "12"})
    score = fields.Integer(allow_none=True)


class ScoreOut(Schema):
    strikes = fields.List(fields.Nested(StrikesOut), required=True)


class TablesIn(Contract):
    requires = (seats_two({"minimum": 3}),)

    players = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(2, MAX_FIELD),
        metadata={"example": 26, "description": "2 only when 2-player games are allowed."},
    )
    round_type = round_type_field(load_default="random")
    game = game_field()
    two_player_games = two_player_field()

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> TablesRequest:
        return TablesRequest(
            data["players"], RoundType(data["round_type"]), data["game"], data["two_player_games"]
        )


class TablesOut(Schema):
    groups = fields.List(
        fields.List(fields.Integer()),
        required=True,
        metadata={"description": "Table sizes per group (G1 first), largest first."},
    )
    byes = fields.Integer(required=True)
    source = fields.String(
        required=True,
        validate=validate.OneOf(["seed", "rule"]),
        metadata={"description": "seed: the seed's table (6-50 players); rule: docs/strikes.md."},
    )


class ContestantIn(Schema):
    id = player_id(example="A")
    strikes = StrictFloat(
        load_default=0,
        validate=validate.Range(0, MAX_STRIKES),
        metadata={"description": "Strikes so far.", "example": 12},
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> Contestant:
        return Contestant(data["id"], Fraction(str(data["strikes"])))  # exactly as written


class SeatingIn(Contract):
    requires = (seats_two({"minItems": 3}),)

    players = fields.List(
        fields.Nested(ContestantIn),
        required=True,
        validate=validate.Length(2, MAX_FIELD),
        metadata={
            "description": f"Players still in, 2-{MAX_FIELD} (2 only when 2-player games are "
            "allowed); ids unique."
        },
    )
    history = fields.List(
        fields.List(
            fields.String(validate=validate.Length(1, ID_LENGTH)), validate=validate.Length(2, 5)
        ),
        load_default=list,
        validate=validate.Length(max=MAX_HISTORY_TABLES),
        metadata={"description": "Every earlier table: the ids of the players who met there."},
    )
    round_type = round_type_field(load_default="random")
    game = game_field()
    two_player_games = two_player_field()
    strategy = fields.String(
        load_default="optimize",
        validate=validate.OneOf(STRATEGIES),
        metadata={
            "description": "best_of_random: the seed's method; optimize: improves on it, "
            "never worse."
        },
    )
    plans = fields.Integer(
        strict=True,
        load_default=30,
        validate=validate.Range(1, MAX_PLANS),
        metadata={"description": "Random plans to draw (the seed's 30)."},
    )
    seed = fields.Integer(
        strict=True,
        load_default=0,
        validate=validate.Range(0, MAX_SEED),
        metadata={"description": "The same seed and inputs give the same seating."},
    )

    @validates_schema
    def _bounded(self, data: dict[str, Any], **_: Any) -> None:
        check_plan_work(data, len(data.get("players", [])))

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> SeatingRequest:
        return SeatingRequest(
            tuple(data["players"]),
            data["history"],
            RoundType(data["round_type"]),
            data["game"],
            data["two_player_games"],
            data["strategy"],
            data["plans"],
            data["seed"],
        )


class SeatedTableOut(Schema):
    table = fields.Integer(required=True)
    group = fields.Integer(required=True)
    players = fields.List(fields.String(), required=True)
    detrimental_points = fields.Integer(required=True)


class SeatingOut(Schema):
    tables = fields.List(fields.Nested(SeatedTableOut), required=True)
    byes = fields.List(fields.String(), required=True)
    detrimental_points = fields.Integer(required=True)
    repeat_pairs = fields.Integer(
        required=True, metadata={"description": "Pairs seated together who met before."}
    )
    strategy = fields.String(required=True)
    random_plans_points = fields.Integer(
        required=True, metadata={"description": "Points of the best random plan."}
    )
    round_type = fields.String(required=True)


class PlanIn(Schema):
    players = fields.Integer(required=True, strict=True, validate=validate.Range(3, 500))
    game = game_field()
    threshold = fields.Integer(
        strict=True, load_default=35, validate=validate.Range(1, MAX_THRESHOLD)
    )
    two_player_games = two_player_field()
    events = fields.Integer(
        strict=True,
        load_default=100,
        validate=validate.Range(1, 2000),
        metadata={
            "description": f"players x events x (threshold + 12) at most {MAX_PLANNER_WORK:,}"
        },
    )
    seed = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, MAX_SEED))

    @validates_schema
    def _bounded(self, data: dict[str, Any], **_: Any) -> None:
        players, threshold = data.get("players", 0), data.get("threshold", 0)
        per_event = players * (threshold + 12)  # 12 x the games an event's players play
        if data.get("events", 0) * per_event > MAX_PLANNER_WORK:
            most = MAX_PLANNER_WORK // per_event
            raise FieldError(
                ("events",),
                f"players x events x (threshold + 12) may be at most {MAX_PLANNER_WORK:,} "
                f"(500 events of 100 players at 47 strikes): at most {most} events for "
                f"{players} players at {threshold} strikes",
                rule=Rule.WORK_BOUND,
            )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> PlanRequest:
        return PlanRequest(
            data["players"],
            data["game"],
            data["threshold"],
            data["two_player_games"],
            data["events"],
            data["seed"],
        )


class CountOut(Schema):
    value = fields.Integer(required=True)
    count = fields.Integer(required=True)


class PlanOut(Schema):
    events = fields.Integer(required=True)
    mean_rounds = StrictFloat(required=True)
    rounds_p10 = fields.Integer(required=True)
    rounds_p50 = fields.Integer(required=True)
    rounds_p90 = fields.Integer(required=True)
    rounds = fields.List(
        fields.Nested(CountOut), required=True, metadata={"description": "rounds -> events"}
    )
    mean_games_per_player = StrictFloat(required=True)
    games_per_player = fields.List(
        fields.Nested(CountOut), required=True, metadata={"description": "games -> players"}
    )
    winner_games = fields.List(fields.Nested(CountOut), required=True)
    shared_wins = fields.Integer(
        required=True, metadata={"description": "Events ending with dual or co-winners."}
    )
