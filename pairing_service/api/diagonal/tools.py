"""Diagonal Race: the next round's opponents, results and the winner, and the simulator."""

from __future__ import annotations

from collections import Counter
from typing import Any

from flask.views import MethodView

from ...engine.diagonal import check_history, plan_round, simulate, tally
from ..costly import costly, planner
from ..metrics import engine_timed
from ..parsing import StrictBlueprint
from .requests import ResultsRequest, RoundRequest, SimulationRequest
from .schemas import (
    DiagonalRoundOut,
    ResultsIn,
    ResultsOut,
    RoundIn,
    SimulateIn,
    SimulateOut,
)

blp = StrictBlueprint(
    "diagonal",
    __name__,
    url_prefix="/v1/diagonal",
    description="Diagonal Race tournaments for race games (several opponents per round).",
)


@blp.route("/round")
class Round(MethodView):
    @blp.arguments(RoundIn)
    @blp.response(200, DiagonalRoundOut)
    @engine_timed("diagonal")
    @planner
    def post(self, body: RoundRequest) -> Any:
        """The next round: players with two or more losses are out; the rest meet
        opponents by rating in the diagonal pattern, avoiding rematches where possible.
        The history (losses, met) must be one that played rounds could produce."""
        entrants = body.players
        check_history(entrants, body.round)
        plan = plan_round(entrants, body.opponents)
        met = {e.id: Counter(e.met) for e in entrants}
        notes = []
        if body.round is None and not any(e.met for e in entrants):
            notes.append(
                "no player lists an earlier opponent: paired as the first round (give round "
                "and each player's losses and met for a later one)"
            )
        if plan.rematches:
            notes.append(
                f"no pairing without rematches exists; {plan.rematches} rematch"
                f"{'es' if plan.rematches > 1 else ''} (the fewest possible)"
            )
        if len(plan.players) <= 1:
            notes.append("one player or none left: no games")
        return {
            "games": [
                {"players": [a, b], "rematch": bool(met[a][b] or met[b][a])} for a, b in plan.games
            ],
            "eliminated": list(plan.eliminated),
            "dropped": list(plan.dropped),
            "opponents": plan.opponents,
            "step": plan.step,
            "rematches": plan.rematches,
            "order": list(plan.players),
            "notes": notes,
        }


@blp.route("/results")
class Results(MethodView):
    @blp.arguments(ResultsIn)
    @blp.response(200, ResultsOut)
    @engine_timed("diagonal")
    def post(self, body: ResultsRequest) -> Any:
        """Losses accumulated over the rounds, eliminations, and the winner (or playoff)."""
        state = tally(body.players, body.rounds)
        return {
            "players": [
                {
                    "id": rec.id,
                    "wins": rec.wins,
                    "losses": rec.losses,
                    "games": rec.games,
                    "pieces_left": rec.pieces,
                    "eliminated_after_round": rec.eliminated_after_round,
                }
                for rec in state.records.values()
            ],
            "survivors": state.survivors,
            "eliminated_last_round": state.eliminated_last_round,
            "finished": state.finished,
            "winners": state.winners,
            "playoff": state.playoff,
            "reason": state.reason,
        }


@blp.route("/simulate")
class Simulate(MethodView):
    @blp.arguments(SimulateIn)
    @blp.response(200, SimulateOut)
    @engine_timed("diagonal")
    @costly
    def post(self, body: SimulationRequest) -> Any:
        """Simulate whole events: rounds played, games per player, chances to win."""
        players = body.players
        report = simulate(
            [(p.id, p.rating) for p in players],
            luck=body.luck,
            events=body.events,
            seed=body.seed,
        )
        return {
            "events": report.events,
            "mean_rounds": round(report.mean_rounds, 3),
            "rounds": [{"value": v, "count": report.rounds[v]} for v in sorted(report.rounds)],
            "players": [
                {
                    "id": p.id,
                    "rating": p.rating,
                    "win_chance": round(report.win_chance[p.id], 4),
                    "mean_games": round(report.mean_games[p.id], 3),
                }
                for p in players
            ],
            "playoffs": report.playoffs,
        }
