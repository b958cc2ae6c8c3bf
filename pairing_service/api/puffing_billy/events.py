"""Held Puffing Billy events: create, enter boards, close the preliminaries and the final;
and the day of the event: late entrants, preliminary boards corrected during the final,
the boards as CSV or printable text.

Reads are public; every write needs the event's director token (``director_token.py``).
Scores are exact decimals from the score sheet to the standings: the log keeps them as
text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask.views import MethodView

from ...engine.puffing_billy.ledger import BoardEvent, BoardLedger, EventSettings
from ...engine.puffing_billy.scoring import Method
from ...store import Held
from ..common import as_read_by
from ..held.blueprint import (
    TOURNAMENT,
    HeldBlueprint,
    HeldResource,
    changes_of,
    created_answer,
    entered_answer,
    held_store,
    ledger,
    result_write,
)
from ..held.director_token import director_token
from ..held.entry_warnings import created_warnings, entered_warnings
from ..held.printables import Table, TableFormatIn, table_format, tabular, tabular_doc
from ..held.requests import Entered, sent_or
from ..held.schemas import LateEntrantIn
from .requests import BoardSettingsChange, Cut, NewBoardEvent, Sheet
from .schemas import (
    MAX_EVENT_PLAYERS,
    BoardEnteredOut,
    BoardPlayersIn,
    FinalistsIn,
    HeldBoardOut,
    HeldBoardsOut,
    PBEventCreatedOut,
    PBEventIn,
    PBEventOut,
    SettingsIn,
)
from .views import EventBoard, EventBoards, RankedEvent

blp = HeldBlueprint(
    "puffing_billy_events",
    __name__,
    url_prefix="/v1/puffing-billy/events",
    description="Held Puffing Billy events: preliminary boards, then the final(s).",
)

BOARD = TOURNAMENT + "/boards/<int(min=1, max=100000):board>"


def boards() -> BoardLedger:
    return ledger(BoardLedger)


def event_read(held: Held[BoardEvent]) -> dict[str, Any]:
    """The event as its own page reads it, for the answers built on ``HeldResource.shape``."""
    return as_read_by(PBEventOut(), RankedEvent.of(held))


def changed_settings(now: EventSettings, body: BoardSettingsChange) -> EventSettings:
    """The settings after a settings write: those it names changed, the rest as they are."""
    return EventSettings(sent_or(body.counted, now.counted), sent_or(body.finals, now.finals))


@blp.route("")
class Events(MethodView):
    @blp.arguments(PBEventIn)
    @blp.response(201, PBEventCreatedOut)
    def post(self, body: NewBoardEvent) -> Any:
        """Register an event's players; the answer carries the director token, once."""
        created = boards().created(body.players, body.settings)
        held, token = held_store().create(boards(), body.name, created)
        warned = created_warnings(created)
        return created_answer(held, token, event_read, "puffing_billy_events.Event", warned)


@blp.route(TOURNAMENT)
class Event(MethodView):
    @blp.response(200, PBEventOut)
    @blp.documents(404)
    def get(self, tournament_id: str) -> Any:
        """Standings, qualifiers, the final's standings, the champion(s) once the final is
        closed, and the full ranking."""
        return RankedEvent.of(held_store().read(boards(), tournament_id))


@blp.route(TOURNAMENT + "/players")
class Players(MethodView):
    @blp.arguments(LateEntrantIn)
    @blp.response(201, PBEventOut)
    @blp.writes()
    def post(self, body: Entered, tournament_id: str) -> Any:
        """A late entrant, while the preliminaries are open (409 after the cut): they start
        with no board, like anyone who has not played yet."""
        held, _ = held_store().write(
            boards(),
            tournament_id,
            director_token(),
            lambda event: boards().enter_late(event, body.id, body.name, MAX_EVENT_PLAYERS),
        )
        warned = entered_warnings(held.state, [body.id])
        return entered_answer(held, event_read, "puffing_billy_events.Event", warned)


@blp.route(TOURNAMENT + "/settings")
class Settings(MethodView):
    @blp.arguments(SettingsIn)
    @blp.response(200, PBEventOut)
    @blp.writes()
    def put(self, body: BoardSettingsChange, tournament_id: str) -> Any:
        """The director's settings, changeable until the first board (then 409: undo the
        boards to change them); the same settings again change nothing."""
        held, _ = held_store().write(
            boards(),
            tournament_id,
            director_token(),
            lambda event: boards().change_settings(event, changed_settings(event.chosen, body)),
        )
        return RankedEvent.of(held)


@blp.route(TOURNAMENT + "/boards")
class Boards(MethodView):
    @blp.arguments(TableFormatIn, location="query")
    @blp.response(200, HeldBoardsOut)
    @blp.doc(**tabular_doc("Every board entered", HeldBoardsOut))
    @blp.documents(404)
    def get(self, query: dict[str, Any], tournament_id: str) -> Any:
        """Every board entered, scored, by number; as CSV (`?format=csv` or `Accept:
        text/csv`) or printable (`?format=text` or `Accept: text/plain`), a line a seat."""
        held = held_store().read(boards(), tournament_id)
        wanted = table_format(query)
        if wanted != "json":
            return tabular(boards_table(held), wanted, f"puffing_billy-{held.id}-boards")
        return EventBoards.of(held)


@blp.route(BOARD)
class Board(MethodView):
    @blp.response(200, HeldBoardOut)
    @blp.documents(404)
    def get(self, tournament_id: str, board: int) -> Any:
        """One board, scored."""
        held = held_store().read(boards(), tournament_id)
        return EventBoard(held.id, held.state.board(board))

    @blp.arguments(BoardPlayersIn)
    @blp.response(200, BoardEnteredOut)
    @blp.writes(results=True)
    def put(self, body: Sheet, tournament_id: str, board: int) -> Any:
        """Enter or correct the score sheet numbered ``board`` (idempotent). Before the
        preliminaries close it is a preliminary board; after, a board of the final, with
        qualifiers only, or players marked as alternates. A different sheet where one
        stands is a correction only with `If-Match` (else 409, saying what stands); a
        correction keeps the sheet it replaces in the history.

        A preliminary board may be corrected during the final when that changes nobody's
        place in the cut (else 409: undo back to the close); the cut stands, and `changes`
        (and the history) say what changed. That correction is the director's: a
        scorekeeper's token enters and corrects boards of the stage in play (403 else)."""
        held, entry = result_write(
            boards(),
            tournament_id,
            None,
            lambda event: boards().enter_board(event, board, body.entries, body.name),
            late=lambda event: preliminaries_closed(event, board),
        )
        return EventBoard(held.id, held.state.board(board), tuple(changes_of(entry)))


def preliminaries_closed(event: BoardEvent, number: int) -> str | None:
    """Why board ``number`` is no longer a scorekeeper's to correct (a preliminary board
    once the preliminaries are closed: the cut was made on it), or None."""
    existing = event.boards.get(number)
    if existing is None or existing.stage is not Method.PRELIMINARY:
        return None
    if event.stage == "preliminary":
        return None
    return f"board {number} is a preliminary board and the preliminaries are closed"


@blp.route(TOURNAMENT + "/preliminaries/close")
class ClosePreliminaries(MethodView):
    @blp.arguments(FinalistsIn)
    @blp.response(200, PBEventOut)
    @blp.writes()
    def post(self, body: Cut, tournament_id: str) -> Any:
        """Close the preliminaries: the first ``finalists`` ranks qualify (all of those
        level at the cut); boards entered from now on are boards of the final."""
        held, _ = held_store().write(
            boards(),
            tournament_id,
            director_token(),
            lambda event: boards().close_preliminaries(event, body.finalists),
        )
        return RankedEvent.of(held)


@blp.route(TOURNAMENT + "/final/close")
class CloseFinal(MethodView):
    @blp.response(200, PBEventOut)
    @blp.writes()
    def post(self, tournament_id: str) -> Any:
        """Close the final: the champion(s) and the full ranking are decided."""
        held, _ = held_store().write(
            boards(), tournament_id, director_token(), boards().close_final
        )
        return RankedEvent.of(held)


def standings_table(held: Held[BoardEvent]) -> tuple[list[str], list[Sequence[Any]]]:
    """The full ranking with each player's preliminary and final figures (exact)."""
    event = held.state
    result = event.result()
    prelim = {s.id: s for s in result.preliminary}
    final = {s.id: s for s in result.final}
    header = [
        "rank",
        "player",
        "name",
        "basis",
        "preliminary_total",
        "boards",
        "wins",
        "final_total",
        "qualified",
    ]
    rows: list[Sequence[Any]] = []
    for p in event.ranking(result):
        pre, fin = prelim.get(p.id), final.get(p.id)
        rows.append(
            [
                p.rank,
                p.id,
                event.players[p.id],
                p.basis,
                str(pre.total) if pre else None,
                pre.boards if pre else 0,
                pre.wins if pre else 0,
                str(fin.total) if fin else None,
                p.id in result.qualifiers,
            ]
        )
    # Registered players with no board yet are listed too (unplaced), so the page shows
    # who is entered from the start.
    rows += [
        [None, p, event.players[p], "no board yet", None, 0, 0, None, False]
        for p in event.without_boards()
    ]
    return header, rows


def boards_table(held: Held[BoardEvent]) -> Table:
    """Every board entered, a line a seat: who sat at which board, and what they scored."""
    event = held.state
    header = ["board", "stage", "sheet", "place", "player", "name", "score", "pb_score"]
    rows: list[Sequence[Any]] = [
        [
            number,
            board.stage.value,
            board.name,
            entry.place,
            entry.id,
            event.players[entry.id],
            entry.score,
            entry.total,
        ]
        for number, board in sorted(event.boards.items())
        for entry in board.entries
    ]
    return Table(f"{held.name or 'Puffing Billy'}: boards ({event.stage})", header, rows)


# What the log routes and the director's list use (the registry, ../formats.py, names it).
HELD = HeldResource(
    blp,
    PBEventOut,
    event_read,
    standings_table,
    read_endpoint="puffing_billy_events.Event",
    status=lambda held: held.state.stage,
)
