"""Puffing Billy scoring: one board, or a whole event's standings and final."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from ...engine.puffing_billy import Board, BoardEntry, Method, ScoredEntry, standings
from ...engine.puffing_billy import score_board as score
from ...engine.puffing_billy.event import Standing
from ..common import loaded_rules
from ..metrics import engine_timed
from ..parsing import StrictBlueprint
from .schemas import BoardIn, BoardOut, EventIn, EventOut

blp = StrictBlueprint(
    "puffing_billy",
    __name__,
    url_prefix="/v1/puffing-billy",
    description="Puffing Billy scoring for train-game tournaments.",
)

TIEBREAKS = (
    "Preliminaries: total PB score, then boards won, then best single board, then total "
    "bonus; still level, the rank is shared. Final: total, then the winner's margin bonus, "
    "then preliminary rank."
)


def entries_of(players: list[dict[str, Any]]) -> tuple[BoardEntry, ...]:
    return tuple(
        BoardEntry(p["id"], p["score"], p.get("place"), p.get("alternate", False)) for p in players
    )


def shape_scored(scored: list[ScoredEntry]) -> list[dict[str, Any]]:
    return [
        {
            "id": e.id,
            "place": e.place,
            "score": e.score,
            "placement": e.placement,
            "bonus": e.bonus,
            "total": e.total,
            "total_exact": str(e.total),
        }
        for e in scored
    ]


def shape_standing(s: Standing) -> dict[str, Any]:
    return {
        "rank": s.rank,
        "id": s.id,
        "total": s.total,
        "total_exact": str(s.total),
        "boards": s.boards,
        "wins": s.wins,
        "best_board": s.best_board,
        "bonus": s.bonus,
        "qualified": s.qualified,
    }


@blp.route("/board")
class BoardScore(MethodView):
    @blp.arguments(BoardIn)
    @blp.response(200, BoardOut)
    @engine_timed("puffing_billy")
    def post(self, body: dict[str, Any]) -> Any:
        """Score one board: placement, bonus and total for every listed player."""
        method = Method(body["method"])
        scored = score(entries_of(body["players"]), loaded_rules().puffing_billy, method)
        return {"players": shape_scored(scored), "method": method.value}


@blp.route("/event")
class EventStandings(MethodView):
    @blp.arguments(EventIn)
    @blp.response(200, EventOut)
    @engine_timed("puffing_billy")
    def post(self, body: dict[str, Any]) -> Any:
        """An event: PB scores summed over the preliminary boards, standings, who
        qualifies for the final, and the final's standings and champion(s)."""
        boards = [
            Board(entries_of(b["players"]), Method(b["method"]), b.get("name"))
            for b in body["boards"]
        ]
        result = standings(boards, loaded_rules().puffing_billy, body["finalists"])
        return {
            "standings": [shape_standing(s) for s in result.preliminary],
            "qualifiers": result.qualifiers,
            "tied_at_cut": result.tied_at_cut,
            "final_standings": [shape_standing(s) for s in result.final],
            "champions": result.champions,
            "boards": [
                {
                    "players": shape_scored(scored),
                    "method": board.stage.value,
                    "alternates": [e.id for e in board.entries if e.alternate],
                }
                for board, scored in zip(boards, result.boards, strict=True)
            ],
            "tiebreaks": TIEBREAKS,
        }
