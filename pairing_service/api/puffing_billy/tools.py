"""Puffing Billy scoring: one board, or a whole event's standings and final."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from ...engine.puffing_billy import Board, BoardEntry, FinalsScoring, Method, standings
from ...engine.puffing_billy import score_board as score
from ..common import loaded_rules
from ..metrics import engine_timed
from ..parsing import StrictBlueprint
from .schemas import BoardIn, BoardOut, EventIn, EventOut
from .views import ScoredBoard, ScoredEvent

blp = StrictBlueprint(
    "puffing_billy",
    __name__,
    url_prefix="/v1/puffing-billy",
    description="Puffing Billy scoring for train-game tournaments.",
)


def entries_of(players: list[dict[str, Any]]) -> tuple[BoardEntry, ...]:
    return tuple(
        BoardEntry(p["id"], p["score"], p.get("place"), p.get("alternate", False)) for p in players
    )


@blp.route("/board")
class BoardScore(MethodView):
    @blp.arguments(BoardIn)
    @blp.response(200, BoardOut)
    @engine_timed("puffing_billy")
    def post(self, body: dict[str, Any]) -> Any:
        """Score one board: placement, bonus and total for every listed player."""
        method = Method(body["method"])
        scored = score(entries_of(body["players"]), loaded_rules().puffing_billy, method)
        return ScoredBoard(scored, method)


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
        result = standings(
            boards,
            loaded_rules().puffing_billy,
            body["finalists"],
            body["preliminary_boards_counted"],
            FinalsScoring(body["finals_scoring"]),
        )
        scored = zip(boards, result.boards, strict=True)
        return ScoredEvent(result, [ScoredBoard.of(board, players) for board, players in scored])
