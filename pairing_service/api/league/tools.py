"""Meeple League: league tables, schedules, league formation, lifetime standings."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from flask.views import MethodView

from ...engine.league import (
    Finish,
    Game,
    NewPlayer,
    Result,
    SeasonLeague,
    check_schedule,
    form_leagues,
    league_table,
    lifetime,
    meeting_bound,
    schedule,
)
from ..common import loaded_rules
from ..costly import planner
from ..metrics import engine_timed
from ..parsing import StrictBlueprint
from .tool_schemas import (
    FormationIn,
    FormationOut,
    LeagueTableOut,
    LifetimeIn,
    LifetimeOut,
    ScheduleIn,
    ScheduleOut,
    TableIn,
)
from .views import FormationByDivision, LeagueTable, NamedSchedule

blp = StrictBlueprint(
    "league",
    __name__,
    url_prefix="/v1/league",
    description="Meeple League: points, tiebreakers, formation, schedules, lifetime standings.",
)


def exact(value: float) -> Fraction:
    return Fraction(str(value))


def results_of(rows: list[dict[str, Any]]) -> tuple[Result, ...]:
    return tuple(Result(r["player"], r["score"], r["position"], r["dropped_out"]) for r in rows)


@blp.route("/table")
class Table(MethodView):
    @blp.arguments(TableIn)
    @blp.response(200, LeagueTableOut)
    @engine_timed("league")
    def post(self, body: dict[str, Any]) -> Any:
        """A league's table: points, then the seed's full tiebreaker chain, with the values."""
        scale = loaded_rules().league.league_points
        if "points" in body:
            scale = {len(body["points"]): tuple(exact(p) for p in body["points"])}
        games = [Game(g["name"], results_of(g["results"])) for g in body["games"]]
        return LeagueTable(league_table(games, scale, body["previous_ranking"]))


@blp.route("/schedule")
class ScheduleResource(MethodView):
    @blp.arguments(ScheduleIn)
    @blp.response(200, ScheduleOut)
    @engine_timed("league")
    @planner
    def post(self, body: dict[str, Any]) -> Any:
        """A league's games: each player in four, meetings as even as possible, each player
        with each starting seat once (the seed's grid for seven players)."""
        players = body["players"]
        plan = schedule(players, loaded_rules().league.seven_player_grid, body["seed"])
        check_schedule(plan, players)
        low, high, high_pairs = meeting_bound(len(players))
        pairs = len(players) * (len(players) - 1) // 2
        optimal = (
            f"every pair meets {low} times"
            if low == high
            else f"{high_pairs} pairs meet {high} times and {pairs - high_pairs} meet {low}: "
            "the most even split of the games' meetings"
        )
        prefix = f"{body['game']} S{body['season']} L{body['league']}"
        return NamedSchedule(plan, prefix, optimal)


def finishes(rows: list[dict[str, Any]]) -> list[Finish]:
    return [
        Finish(
            r["player"],
            int(r["league"].split("-", 1)[0]),
            r["league"],
            r["place"],
            exact(r["league_points"]),
            r["wins"],
            r.get("league_size"),
            r["seconds"],
            r["thirds"],
            exact(r["winner_share"]),
            r["margin"],
            r["total_score"],
            r["previous_rank"],
        )
        for r in rows
    ]


@blp.route("/formation")
class FormationResource(MethodView):
    @blp.arguments(FormationIn)
    @blp.response(200, FormationOut)
    @engine_timed("league")
    def post(self, body: dict[str, Any]) -> Any:
        """Next season's divisions and leagues (the seed's Steps 1-7), and who moved."""
        rules = loaded_rules().league
        formation = form_leagues(
            body["signups"],
            finishes(body["last_season"]),
            finishes(body["returning"]),
            [NewPlayer(p["player"], exact(p["laurels"])) for p in body["new_players"]],
            league_size=rules.league_size,
            relegated=rules.relegated,
        )
        return FormationByDivision(formation)


@blp.route("/lifetime")
class LifetimeResource(MethodView):
    @blp.arguments(LifetimeIn)
    @blp.response(200, LifetimeOut)
    @engine_timed("league")
    def post(self, body: dict[str, Any]) -> Any:
        """Lifetime standings by division (a higher division's point first) and the season
        winners."""
        leagues = [
            SeasonLeague(
                lg["season"],
                lg["league"],
                tuple((s["player"], exact(s["league_points"])) for s in lg["standings"]),
            )
            for lg in body["leagues"]
        ]
        return lifetime(leagues)
