"""Puffing Billy scoring: one board, or a whole event's standings and final."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from ...engine.puffing_billy import Board, standings
from ...engine.puffing_billy import score_board as score
from ..common import loaded_rules
from ..metrics import engine_timed
from ..parsing import StrictBlueprint
from .requests import EventRequest
from .schemas import BoardIn, BoardOut, EventIn, EventOut
from .views import ScoredBoard, ScoredEvent

blp = StrictBlueprint(
    "puffing_billy",
    __name__,
    url_prefix="/v1/puffing-billy",
    description="Puffing Billy scoring for train-game tournaments.",
)


@blp.route("/board")
class BoardScore(MethodView):
    @blp.arguments(BoardIn)
    @blp.response(200, BoardOut)
    @engine_timed("puffing_billy")
    def post(self, body: Board) -> Any:
        """Score one board: placement, bonus and total for every listed player."""
        scored = score(body.entries, loaded_rules().puffing_billy, body.stage)
        return ScoredBoard(scored, body.stage)


@blp.route("/event")
class EventStandings(MethodView):
    @blp.arguments(EventIn)
    @blp.response(200, EventOut)
    @engine_timed("puffing_billy")
    def post(self, body: EventRequest) -> Any:
        """An event: PB scores summed over the preliminary boards, standings, who
        qualifies for the final, and the final's standings and champion(s)."""
        boards = body.boards
        result = standings(
            boards, loaded_rules().puffing_billy, body.finalists, body.counted, body.finals
        )
        scored = zip(boards, result.boards, strict=True)
        return ScoredEvent(result, [ScoredBoard.of(board, players) for board, players in scored])
