"""Meeple League: league tables, schedules, league formation, lifetime standings."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from ...engine.league import (
    SeasonLeague,
    check_schedule,
    form_leagues,
    league_table,
    lifetime,
    meeting_bound,
    schedule,
)
from ...engine.league.table import positions_the_scores_allow
from ..common import loaded_rules
from ..costly import planner
from ..metrics import engine_timed
from ..parsing import StrictBlueprint
from .tool_schemas import (
    FormationIn,
    FormationOut,
    FormationRequest,
    LeagueTableOut,
    LifetimeIn,
    LifetimeOut,
    PositionsIn,
    PositionsOut,
    PositionsRequest,
    ScheduleIn,
    ScheduleOut,
    ScheduleRequest,
    TableIn,
    TableRequest,
)
from .views import FormationByDivision, LeagueTable, NamedSchedule

blp = StrictBlueprint(
    "league",
    __name__,
    url_prefix="/v1/league",
    description="Meeple League: points, tiebreakers, formation, schedules, lifetime standings.",
)


@blp.route("/table")
class Table(MethodView):
    @blp.arguments(TableIn)
    @blp.response(200, LeagueTableOut)
    @engine_timed("league")
    def post(self, body: TableRequest) -> Any:
        """A league's table: points, then the seed's full tiebreaker chain, with the values."""
        scale = loaded_rules().league.league_points
        if body.points is not None:
            scale = {len(body.points): body.points}
        return LeagueTable(league_table(body.games, scale, body.previous_ranking))


@blp.route("/schedule")
class ScheduleResource(MethodView):
    @blp.arguments(ScheduleIn)
    @blp.response(200, ScheduleOut)
    @engine_timed("league")
    @planner
    def post(self, body: ScheduleRequest) -> Any:
        """A league's games: each player in four, meetings as even as possible, each player
        with each starting seat once (the seed's grid for seven players)."""
        players = body.players
        plan = schedule(players, loaded_rules().league.seven_player_grid, body.seed)
        check_schedule(plan, players)
        low, high, high_pairs = meeting_bound(len(players))
        pairs = len(players) * (len(players) - 1) // 2
        optimal = (
            f"every pair meets {low} times"
            if low == high
            else f"{high_pairs} pairs meet {high} times and {pairs - high_pairs} meet {low}: "
            "the most even split of the games' meetings"
        )
        prefix = f"{body.game} S{body.season} L{body.league}"
        return NamedSchedule(plan, prefix, optimal)


@blp.route("/formation")
class FormationResource(MethodView):
    @blp.arguments(FormationIn)
    @blp.response(200, FormationOut)
    @engine_timed("league")
    def post(self, body: FormationRequest) -> Any:
        """Next season's divisions and leagues (the seed's Steps 1-7), and who moved."""
        rules = loaded_rules().league
        formation = form_leagues(
            body.signups,
            body.last_season,
            body.returning,
            body.new_players,
            league_size=rules.league_size,
            relegated=rules.relegated,
        )
        return FormationByDivision(formation)


@blp.route("/positions")
class PositionsResource(MethodView):
    @blp.arguments(PositionsIn)
    @blp.response(200, PositionsOut)
    @engine_timed("league")
    def post(self, body: PositionsRequest) -> Any:
        """The positions a game's scores give each player, as a report form offers them
        (positions follow the scores: docs/league.md): the position, and every position
        a tie allows. A player who left comes after those who finished."""
        allowed = positions_the_scores_allow(body.scores, body.dropped_out)
        return {"positions": [{"position": a[0], "allowed": a} for a in allowed]}


@blp.route("/lifetime")
class LifetimeResource(MethodView):
    @blp.arguments(LifetimeIn)
    @blp.response(200, LifetimeOut)
    @engine_timed("league")
    def post(self, leagues: tuple[SeasonLeague, ...]) -> Any:
        """Lifetime standings by division (a higher division's point first) and the season
        winners."""
        return lifetime(leagues)
