"""Meeple League: league tables, schedules, league formation, lifetime standings."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from flask.views import MethodView

from ...engine.league import (
    TIEBREAKERS,
    Finish,
    Game,
    Lifetime,
    Line,
    Movement,
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
from ..metrics import engine_timed
from ..parsing import StrictBlueprint
from .schemas import (
    FormationIn,
    FormationOut,
    LeagueTableOut,
    LifetimeIn,
    LifetimeOut,
    ScheduleIn,
    ScheduleOut,
    TableIn,
)

blp = StrictBlueprint(
    "league",
    __name__,
    url_prefix="/v1/league",
    description="Meeple League: points, tiebreakers, formation, schedules, lifetime standings.",
)


def exact(value: float) -> Fraction:
    return Fraction(str(value))


def shape_lines(lines: Sequence[Line]) -> list[dict[str, Any]]:
    """A league table's lines with every tiebreaker's value."""
    return [
        {
            "player": line.player,
            "rank": line.rank,
            "league_points": float(line.league_points),
            "league_points_exact": str(line.league_points),
            "games": line.games,
            "dropped_out": line.dropouts,
            "decided_by": line.decided_by,
            "values": dict(
                line.values,
                winner_share=round(float(line.winner_share), 6),
                previous_rank=None if line.previous_rank is None else line.previous_rank + 1,
            ),
        }
        for line in lines
    ]


def shape_movements(movements: Sequence[Movement]) -> list[dict[str, Any]]:
    return [
        {
            "player": m.player,
            "league": m.league,
            "division": m.division,
            "previous_division": m.previous_division,
            "movement": m.kind,
        }
        for m in movements
    ]


def shape_lifetime(result: Lifetime) -> dict[str, Any]:
    return {
        "standings": [
            {
                "rank": line.rank,
                "player": line.player,
                "seasons": line.seasons,
                "by_division": [
                    {"division": d, "league_points": float(p)}
                    for d, p in sorted(line.by_division.items())
                ],
            }
            for line in result.standings
        ],
        "season_winners": [
            {"season": season, "player": player} for season, player in result.season_winners
        ],
    }


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
        lines = league_table(games, scale, body["previous_ranking"])
        return {"standings": shape_lines(lines), "tiebreakers": list(TIEBREAKERS)}


@blp.route("/schedule")
class ScheduleResource(MethodView):
    @blp.arguments(ScheduleIn)
    @blp.response(200, ScheduleOut)
    @engine_timed("league")
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
        return {
            "games": [
                {"name": f"{prefix} G{i}", "seats": list(game)}
                for i, game in enumerate(plan.games, start=1)
            ],
            "meetings": [
                {"players": sorted(pair), "games": count}
                for pair, count in sorted(plan.meetings.items(), key=lambda i: sorted(i[0]))
            ],
            "optimal": optimal,
        }


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
        divisions: dict[int, list[dict[str, Any]]] = {}
        for league in formation.leagues:
            divisions.setdefault(league.division, []).append(
                {"league": league.name, "players": list(league.players)}
            )
        return {
            "divisions": [
                {"division": d, "leagues": leagues} for d, leagues in sorted(divisions.items())
            ],
            "order": list(formation.order),
            "movements": shape_movements(formation.movements),
            "holes": list(formation.holes),
        }


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
        return shape_lifetime(lifetime(leagues))
