"""Stateless strikes endpoints: score a table, table plans, seating, and the planner."""

from __future__ import annotations

from collections import Counter
from typing import Any

from flask.views import MethodView

from ...engine.strikes import (
    meetings,
    repeat_meetings,
    score_table,
    seat,
    simulate,
    table_plan,
)
from ...engine.strikes.plans import SEED_RANGE
from ..common import loaded_rules
from ..costly import costly, planner
from ..metrics import engine_timed
from ..parsing import StrictBlueprint
from .requests import PlanRequest, SeatingRequest, TableResult, TablesRequest
from .tool_schemas import (
    PlanIn,
    PlanOut,
    ScoreOut,
    SeatingIn,
    SeatingOut,
    TableResultIn,
    TablesIn,
    TablesOut,
)

blp = StrictBlueprint(
    "strikes",
    __name__,
    url_prefix="/v1/strikes",
    description="Accumulated-strikes elimination tournaments for 3-5 player games.",
)


@blp.route("/score")
class Score(MethodView):
    @blp.arguments(TableResultIn)
    @blp.response(200, ScoreOut)
    @engine_timed("strikes")
    def post(self, body: TableResult) -> Any:
        """Strikes for one table's result.

        Places come from scores (highest wins) or are given. Tied players share the strikes
        of the places they occupy, exactly.
        """
        scored = score_table(body.finishes, loaded_rules().strikes.strikes_by_place)
        return {"strikes": scored}


@blp.route("/tables")
class Tables(MethodView):
    @blp.arguments(TablesIn)
    @blp.response(200, TablesOut)
    @engine_timed("strikes")
    def post(self, body: TablesRequest) -> Any:
        """How many tables of each size, per group, for this many players."""
        plan = table_plan(
            body.players,
            body.round_type,
            body.game,
            loaded_rules().strikes,
            two_player_games=body.two_player_games,
        )
        return {
            "groups": [list(group) for group in plan.groups],
            "byes": plan.byes,
            "source": "seed" if body.players in SEED_RANGE else "rule",
        }


@blp.route("/seating")
class SeatingResource(MethodView):
    @blp.arguments(SeatingIn)
    @blp.response(200, SeatingOut)
    @engine_timed("strikes")
    @planner
    def post(self, body: SeatingRequest) -> Any:
        """Seat a round by least-times-met.

        `history` lists every earlier table. `optimize` (the default) starts from the best of
        `plans` random plans and improves it; `best_of_random` is the seed's method.
        """
        rules = loaded_rules().strikes
        players, kind = body.players, body.round_type
        plan = table_plan(
            len(players), kind, body.game, rules, two_player_games=body.two_player_games
        )
        seating = seat(
            players,
            body.history,
            plan,
            rules.detrimental_points,
            strategy=body.strategy,
            plans=body.plans,
            seed=body.seed,
        )
        return {
            "tables": [
                {
                    "table": number,
                    "group": table.group,
                    "players": list(table.players),
                    "detrimental_points": table.detrimental_points,
                }
                for number, table in enumerate(seating.tables, start=1)
            ],
            "byes": list(seating.byes),
            "detrimental_points": seating.detrimental_points,
            "repeat_pairs": repeat_meetings(seating, meetings(body.history)),
            "strategy": seating.strategy,
            "random_plans_points": seating.random_plans_points,
            "round_type": kind.value,
        }


def counts(counter: Counter[int]) -> list[dict[str, int]]:
    return [{"value": value, "count": counter[value]} for value in sorted(counter)]


@blp.route("/plan")
class Planner(MethodView):
    @blp.arguments(PlanIn)
    @blp.response(200, PlanOut)
    @engine_timed("strikes")
    @costly
    def post(self, body: PlanRequest) -> Any:
        """Simulate whole events: how many rounds, and games per player, to expect."""
        report = simulate(
            body.players,
            body.game,
            body.threshold,
            loaded_rules().strikes,
            two_player_games=body.two_player_games,
            events=body.events,
            seed=body.seed,
        )
        return {
            "events": report.events,
            "mean_rounds": round(report.mean_rounds, 3),
            "rounds_p10": report.rounds_percentile(0.1),
            "rounds_p50": report.rounds_percentile(0.5),
            "rounds_p90": report.rounds_percentile(0.9),
            "rounds": counts(report.rounds),
            "mean_games_per_player": round(report.mean_games_per_player, 3),
            "games_per_player": counts(report.games_per_player),
            "winner_games": counts(report.winner_games),
            "shared_wins": report.shared_wins,
        }
