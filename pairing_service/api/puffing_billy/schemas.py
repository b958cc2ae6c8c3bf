"""Schemas of Puffing Billy scoring (bounds stated here). The request schemas load the
typed requests of ``requests.py``; the answer schemas read the engine's objects, or the
views of ``views.py`` where an answer joins more than one."""

from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import Schema, fields, post_load, validate

from ...engine.puffing_billy import Board, BoardEntry, FinalsScoring, Method
from ...engine.puffing_billy.ledger import EventSettings
from ..common import (
    Contract,
    Requires,
    StrictBoolean,
    all_or_none,
    for_every,
    player_id,
    printable,
)
from ..fields import Count, ExactNumber, ExactText
from ..held.entry_warnings import EntryWarnings
from ..held.requests import UNSENT, sent
from ..held.schemas import EntrantIn, HeldOut, TokenOut, changes_field, event_name
from .requests import BoardSettingsChange, Cut, EventRequest, NewBoardEvent, Sheet

MAX_SCORE = 10**12
MAX_BOARDS = 2000
METHODS = ("preliminary", "final")
TIEBREAKS = (
    "Preliminaries: total PB score, then boards won, then best single board, then total "
    "bonus; still level, the rank is shared. Final: total, then the winner's margin bonus, "
    "then preliminary rank."
)


class BoardPlayerIn(Schema):
    id = player_id(example="Jenny")
    score = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(0, MAX_SCORE),
        metadata={"description": "Game score (money), 0 or more.", "example": 252000},
    )
    place = fields.Integer(
        strict=True,
        validate=validate.Range(1, 6),
        metadata={
            "description": "Optional, to mark ties: equal places share (1, 2, 2, 4). "
            "Without places, the listing order is the finishing order."
        },
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> BoardEntry:
        # FinalPlayerIn's too: only a board of an event seats an alternate
        alternate = data.get("alternate", False)
        return BoardEntry(data["id"], data["score"], data.get("place"), alternate)


class FinalPlayerIn(BoardPlayerIn):
    """A player at a board of an event, where a final board may seat an alternate."""

    alternate = StrictBoolean(
        load_default=False,
        metadata={
            "description": "At a board of the final only: the director seats this player, "
            "who did not qualify, in place of a qualifier. Without it a player who did not "
            "qualify is refused (422 naming the player); a qualifier is never an alternate."
        },
    )


def event_players_field() -> fields.List[dict[str, Any]]:
    return fields.List(
        fields.Nested(FinalPlayerIn),
        required=True,
        validate=validate.Length(1, 6),
        metadata={"description": "1-6 players in finishing order, as on the score sheet."},
    )


def method_field() -> fields.String:
    return fields.String(
        load_default="preliminary",
        validate=validate.OneOf(METHODS),
        metadata={
            "description": "preliminary: the seed's close-play bonus; final: this service's "
            "bonus for the winner's margin over the runner-up (docs/puffing-billy.md)."
        },
    )


PLACES_FOR_ALL_OR_NONE = all_or_none(
    "players", "place", "give a place for every player or for none", at_item=False
)


class BoardIn(Contract):
    requires: ClassVar[tuple[Requires, ...]] = (PLACES_FOR_ALL_OR_NONE,)

    players = fields.List(
        fields.Nested(BoardPlayerIn),
        required=True,
        validate=validate.Length(1, 6),
        metadata={"description": "1-6 players in finishing order, as on the score sheet."},
    )
    method = method_field()

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> Board:
        # EventBoardIn's too: only a board of an event has a name
        return Board(tuple(data["players"]), Method(data["method"]), data.get("name"))


class ScoredOut(Schema):
    """Reads a :class:`ScoredEntry`."""

    id = fields.String(required=True)
    place = fields.Integer(required=True)
    score = fields.Integer(required=True)
    placement = ExactNumber(required=True)
    bonus = ExactNumber(required=True)
    total = ExactNumber(required=True)
    total_exact = ExactText("total", required=True, metadata={"example": "3.028"})


class BoardOut(Schema):
    """Reads a :class:`ScoredBoard`."""

    players = fields.List(fields.Nested(ScoredOut), required=True)
    method = fields.String(required=True)


class EventBoardOut(BoardOut):
    alternates = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Players of a final board seated as alternates."},
    )


class EventBoardIn(BoardIn):
    requires = (
        PLACES_FOR_ALL_OR_NONE,
        Requires(
            {
                "anyOf": [
                    {"required": ["stage"], "properties": {"stage": {"enum": ["final"]}}},
                    for_every("players", {"properties": {"alternate": {"enum": [False]}}}),
                ]
            },
            "players",
            "only a board of the final seats an alternate",
        ),
    )

    players = event_players_field()
    name = fields.String(validate=[validate.Length(max=100), printable])
    method = fields.String(
        data_key="stage",
        load_default="preliminary",
        validate=validate.OneOf(METHODS),
        metadata={"description": "preliminary board, or a board of the final."},
    )


def boards_counted_field(**extra: Any) -> fields.Integer:
    """The preliminaries count each player's best N boards (null: every board)."""
    return fields.Integer(
        strict=True,
        allow_none=True,
        validate=validate.Range(1, MAX_BOARDS),
        metadata={
            "description": "How many of each player's preliminary boards count: their best "
            "N by PB score (then bonus, then the order entered), as TGA events often count "
            "a player's best boards; null (the default) counts every board, which rewards "
            "playing more boards. The seed says neither (docs/puffing-billy.md)."
        },
        **extra,
    )


def finals_scoring_field(**extra: Any) -> fields.String:
    """How boards of the final are scored (the seed's finals method is cut off)."""
    return fields.String(
        validate=validate.OneOf([f.value for f in FinalsScoring]),
        metadata={
            "description": "How a board of the final is scored; the seed's text of its finals "
            "method is cut off, so the director chooses. winner_margin (the default): "
            "placement, and the winner's margin over the runner-up as a share of the winning "
            "score (x 0.5); close_play: the preliminaries' method; placement_only: 3, 2, 1, "
            "0, ties broken by the preliminary rank (docs/puffing-billy.md, Finals)."
        },
        **extra,
    )


class EventIn(Contract):
    requires = (
        Requires(
            {
                "anyOf": [
                    {"required": ["finalists"], "properties": {"finalists": {"minimum": 1}}},
                    for_every("boards", {"properties": {"stage": {"enum": ["preliminary"]}}}),
                ]
            },
            "finalists",
            "boards of the final need the cut: say how many qualified",
        ),
    )

    boards = fields.List(
        fields.Nested(EventBoardIn),
        required=True,
        validate=validate.Length(1, MAX_BOARDS),
    )
    finalists = fields.Integer(
        strict=True,
        load_default=0,
        validate=validate.Range(0, 1000),
        metadata={
            "description": "How many qualify for the final from the preliminaries (all "
            "level at the cut do); needed when any board is a board of the final."
        },
    )
    preliminary_boards_counted = boards_counted_field(load_default=None)
    finals_scoring = finals_scoring_field(load_default=FinalsScoring.WINNER_MARGIN.value)

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> EventRequest:
        return EventRequest(
            tuple(data["boards"]),
            data["finalists"],
            data["preliminary_boards_counted"],
            FinalsScoring(data["finals_scoring"]),
        )


class PBStandingOut(Schema):
    """Reads a :class:`~pairing_service.engine.puffing_billy.Standing`."""

    rank = fields.Integer(required=True)
    id = fields.String(required=True)
    total = ExactNumber(required=True)
    total_exact = ExactText("total", required=True)
    boards = fields.Integer(
        required=True, metadata={"description": "Boards counted (all played, by default)."}
    )
    boards_played = fields.Integer(required=True, attribute="played")
    wins = fields.Integer(required=True)
    best_board = ExactNumber(required=True)
    bonus = ExactNumber(required=True)
    qualified = fields.Boolean(required=True)


def tiebreaks_field() -> fields.String:
    # The same words in every answer: no object carries them, the schema does.
    return fields.String(required=True, dump_default=TIEBREAKS)


class EventOut(Schema):
    """Reads a :class:`ScoredEvent`."""

    standings = fields.List(
        fields.Nested(PBStandingOut), required=True, attribute="result.preliminary"
    )
    qualifiers = fields.List(fields.String(), required=True, attribute="result.qualifiers")
    tied_at_cut = fields.List(
        fields.String(),
        required=True,
        attribute="result.tied_at_cut",
        metadata={"description": "Players level at the last qualifying place: all qualify."},
    )
    final_standings = fields.List(
        fields.Nested(PBStandingOut), required=True, attribute="result.final"
    )
    champions = fields.List(fields.String(), required=True, attribute="result.champions")
    boards = fields.List(fields.Nested(EventBoardOut), required=True)
    tiebreaks = tiebreaks_field()


# --- held events ------------------------------------------------------------------------------

MAX_EVENT_PLAYERS = 1000


class BoardPlayersIn(Contract):
    requires = (PLACES_FOR_ALL_OR_NONE,)

    players = event_players_field()
    name = fields.String(
        allow_none=True,
        validate=[validate.Length(max=100), printable],
        metadata={"description": "The sheet's label, e.g. 'Table 3, round 2'."},
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> Sheet:
        return Sheet(tuple(data["players"]), data.get("name"))


class PBEventIn(Schema):
    name = event_name()
    players = fields.List(
        fields.Nested(EntrantIn),
        required=True,
        validate=validate.Length(1, MAX_EVENT_PLAYERS),
        metadata={"description": f"Every entrant, 1-{MAX_EVENT_PLAYERS}; ids unique."},
    )
    preliminary_boards_counted = boards_counted_field(load_default=None)
    finals_scoring = finals_scoring_field(load_default=FinalsScoring.WINNER_MARGIN.value)

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> NewBoardEvent:
        players = tuple((p["id"], p.get("name")) for p in data["players"])
        settings = EventSettings(
            data["preliminary_boards_counted"], FinalsScoring(data["finals_scoring"])
        )
        return NewBoardEvent(data.get("name"), players, settings)


class SettingsIn(Schema):
    """The settings a director changes; those left out stay (as in every format)."""

    preliminary_boards_counted = boards_counted_field()
    finals_scoring = finals_scoring_field()

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> BoardSettingsChange:
        finals = sent(data, "finals_scoring")
        return BoardSettingsChange(
            sent(data, "preliminary_boards_counted"),
            finals if finals is UNSENT else FinalsScoring(finals),
        )


class FinalistsIn(Schema):
    finalists = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(1, MAX_EVENT_PLAYERS),
        metadata={"description": "How many qualify for the final(s); level at the cut, all do."},
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> Cut:
        return Cut(data["finalists"])


class PlacingOut(Schema):
    """Reads a :class:`NamedPlacing`."""

    rank = fields.Integer(required=True)
    id = fields.String(required=True)
    name = fields.String(allow_none=True, required=True)
    basis = fields.String(
        required=True,
        metadata={"description": "final, qualified (no final board) or preliminaries"},
    )


class PBEventOut(HeldOut):
    """Reads a :class:`RankedEvent`."""

    stage = fields.String(
        required=True,
        attribute="state.stage",
        validate=validate.OneOf(["preliminary", "final", "finished"]),
    )
    finalists = fields.Integer(
        required=True,
        attribute="state.finalists",
        metadata={"description": "Chosen when the preliminaries closed; 0 before."},
    )
    boards_entered = Count(required=True, attribute="state.boards")
    preliminary_boards_counted = fields.Integer(
        allow_none=True,
        required=True,
        attribute="state.counted",
        metadata={"description": "The setting: each player's best N boards count; null: all."},
    )
    finals_scoring = fields.String(
        required=True,
        attribute="state.chosen.finals.value",
        metadata={"description": "The setting: how boards of the final are scored."},
    )
    standings = fields.List(
        fields.Nested(PBStandingOut), required=True, attribute="result.preliminary"
    )
    qualifiers = fields.List(fields.String(), required=True, attribute="result.qualifiers")
    tied_at_cut = fields.List(fields.String(), required=True, attribute="result.tied_at_cut")
    final_standings = fields.List(
        fields.Nested(PBStandingOut), required=True, attribute="result.final"
    )
    champions = fields.List(fields.String(), required=True)
    ranking = fields.List(
        fields.Nested(PlacingOut),
        required=True,
        metadata={"description": "Everyone: the final first, then by the preliminaries."},
    )
    without_boards = fields.List(
        fields.String(), required=True, metadata={"description": "Registered, no board yet."}
    )
    tiebreaks = tiebreaks_field()
    warnings = EntryWarnings(required=True)


class PBEventCreatedOut(PBEventOut, TokenOut):
    warnings = EntryWarnings(required=True)


class HeldBoardOut(Schema):
    """Reads an :class:`EventBoard`."""

    event = fields.String(required=True)
    board = fields.Integer(required=True, attribute="sheet.number")
    stage = fields.String(required=True, attribute="sheet.stage", validate=validate.OneOf(METHODS))
    name = fields.String(allow_none=True, required=True, attribute="sheet.name")
    players = fields.List(fields.Nested(ScoredOut), required=True, attribute="sheet.entries")
    alternates = fields.List(
        fields.String(),
        required=True,
        attribute="sheet.alternates",
        metadata={"description": "Players of a final board seated as alternates."},
    )


class BoardEnteredOut(HeldBoardOut):
    changes = changes_field()


class HeldBoardsOut(Schema):
    """Reads :class:`EventBoards`."""

    event = fields.String(required=True)
    boards = fields.List(fields.Nested(HeldBoardOut), required=True)
