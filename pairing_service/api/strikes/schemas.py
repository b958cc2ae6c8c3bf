"""Schemas of the persistent strikes tournaments, and the views their answers read where a
value needs more than one of the engine's objects (what the request schemas load is
``requests.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from marshmallow import Schema, fields, post_load, validate, validates_schema

from ...engine.errors import FieldError, refuse_repeats
from ...engine.strikes import GAME_KINDS, STRATEGIES, Ending, Scored
from ...engine.strikes.event import Event
from ...engine.strikes.ledger import HeldEvent
from ...engine.strikes.records import LATE_STARTS, Entrant, Round, Seat
from ..fields import ExactText
from ..held.entry_warnings import EntryWarnings
from ..held.requests import sent
from ..held.round_clock import clock_field
from ..held.schemas import EntrantIn, TokenOut, changes_field, entrants, event_name
from ..held.views import HeldResult, HeldRound, HeldView, ReadOut, open_or_closed, round_status
from .requests import NewTournament, SettingsChange
from .tool_schemas import (
    MAX_FIELD,
    MAX_PLANS,
    MAX_SEED,
    MAX_THRESHOLD,
    StrikesNumber,
    StrikesOut,
    check_plan_work,
    two_player_field,
)


class TournamentIn(Schema):
    name = event_name()
    players = entrants(EntrantIn, 3, MAX_FIELD)
    threshold = fields.Integer(
        strict=True,
        load_default=35,
        validate=validate.Range(1, MAX_THRESHOLD),
        metadata={"description": "Eliminated at this many strikes (seed: 23, 35 or 47)."},
    )
    game = fields.String(load_default="5-4-3", validate=validate.OneOf(GAME_KINDS))
    two_player_games = two_player_field()
    strategy = fields.String(load_default="optimize", validate=validate.OneOf(STRATEGIES))
    plans = fields.Integer(strict=True, load_default=30, validate=validate.Range(1, MAX_PLANS))
    seed = fields.Integer(
        strict=True,
        validate=validate.Range(0, MAX_SEED),
        metadata={"description": "Seating seed; drawn at random when not given."},
    )
    late_entry_strikes = fields.String(
        load_default="most",
        validate=validate.OneOf(LATE_STARTS),
        metadata={
            "description": "The strikes a late entrant (or a reinstated player) starts with, "
            "of the players still in: the most (the default: joining late never puts anyone "
            "behind a player who played the rounds missed), their mean, or the fewest. The "
            "seed has no rule (docs/strikes.md)."
        },
    )

    @validates_schema
    def _unique_ids(self, data: dict[str, Any], **_: Any) -> None:
        refuse_repeats(
            [entrant["id"] for entrant in data["players"]], ("players",), FieldError, ("id",)
        )
        check_plan_work(data, len(data["players"]))

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> NewTournament:
        return NewTournament(
            data.get("name"),
            tuple(Entrant(p["id"], p.get("name")) for p in data["players"]),
            data["threshold"],
            data["game"],
            data["two_player_games"],
            data["strategy"],
            data["plans"],
            data.get("seed"),
            data["late_entry_strikes"],
        )


class TournamentSettingsIn(Schema):
    """The settings a director may change before the first result; those left out stay."""

    threshold = fields.Integer(
        strict=True,
        validate=validate.Range(1, MAX_THRESHOLD),
        metadata={"description": "Eliminated at this many strikes (seed: 23, 35 or 47)."},
    )
    late_entry_strikes = fields.String(
        validate=validate.OneOf(LATE_STARTS),
        metadata={
            "description": "The strikes a late entrant (or a reinstated player) starts with, "
            "of the players still in: the most, their mean, or the fewest."
        },
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> SettingsChange:
        return SettingsChange(sent(data, "threshold"), sent(data, "late_entry_strikes"))


# --- what the answers read ----------------------------------------------------------------


@dataclass(frozen=True)
class EndingView:
    """An ending as answered: the event's, or the one a round decided, with whether a
    tiebreak game may still decide the event (asked of the event, either way)."""

    ending: Ending
    event: Event

    @staticmethod
    def of(event: Event, ending: Ending | None) -> EndingView | None:
        return None if ending is None else EndingView(ending, event)


class TournamentView(HeldView[HeldEvent]):
    """A strikes tournament as its page answers it."""

    @cached_property
    def ending(self) -> EndingView | None:
        return EndingView.of(self.state, self.state.ending())

    @property
    def winners(self) -> list[str]:
        """Shown once the event is finished."""
        ending = self.ending
        return list(ending.ending.winners) if ending and ending.ending.finished else []

    @property
    def winner_names(self) -> list[str]:
        """The winners by name (their id when they gave none)."""
        entrants = self.state.entrants
        return [entrants[player].name or player for player in self.winners]


class RoundView(HeldRound[HeldEvent]):
    """A round as answered: who went out after it and what it decided need the event."""

    @cached_property
    def round(self) -> Round:
        return self.held.state.round(self.number)

    @property
    def tables(self) -> list[TableView]:
        return [TableView(self.held, self.number, table) for table in sorted(self.round.tables())]

    @property
    def eliminated(self) -> list[str]:
        after = self.held.state.eliminated_after()
        return [player for player, number in after.items() if number == self.number]

    @property
    def ending(self) -> EndingView | None:
        return EndingView.of(self.held.state, self.held.state.ending_of_round(self.number))


class TableView(HeldResult[HeldEvent]):
    """A table (``at``) of a round: its group, players and result."""

    @cached_property
    def seats(self) -> list[Seat]:
        return [seat for seat in self.held.state.round(self.number).seats if seat.table == self.at]

    @property
    def group(self) -> int:
        return self.seats[0].group

    @property
    def players(self) -> list[str]:
        return [seat.player for seat in self.seats]

    @property
    def result(self) -> list[Scored] | None:
        return self.held.state.round(self.number).results.get(self.at)


# --- answers --------------------------------------------------------------------------------


class StandingOut(Schema):
    """Reads the engine's :class:`Standing`."""

    place = fields.Integer(
        required=True,
        metadata={
            "description": "1 first, shared by equal standings: the winners, then those "
            "still in by strikes, then the eliminated (the latest out first, then by "
            "strikes), then those who dropped out (the latest first). While the event "
            "runs, the place now."
        },
    )
    player = fields.String(required=True)
    name = fields.String(allow_none=True)
    strikes = StrikesNumber(required=True)
    strikes_exact = ExactText(of="strikes", required=True)
    games = fields.Integer(required=True)
    opponents_met = fields.Integer(required=True)
    status = fields.String(
        required=True, validate=validate.OneOf(["active", "eliminated", "dropped"])
    )
    winner = fields.Boolean(
        required=True, metadata={"description": "A winner of the event, once it is decided."}
    )
    eliminated_after_round = fields.Integer(
        allow_none=True, metadata={"description": "The round the player was eliminated in."}
    )
    dropped_before_round = fields.Integer(allow_none=True)


class EndingOut(ReadOut):
    """Reads an :class:`EndingView`."""

    finished = fields.Boolean(required=True, attribute="ending.finished")
    winners = fields.List(fields.String(), required=True, attribute="ending.winners")
    rule = fields.String(required=True, attribute="ending.rule")
    reason = fields.String(required=True, attribute="ending.reason")
    tiebreak_game = fields.Boolean(
        required=True,
        attribute="event.tiebreak_available",
        metadata={
            "description": "Two winners may play a 2-player game to decide (start it "
            "with POST .../rounds)."
        },
    )


class TournamentOut(ReadOut):
    """Reads a :class:`TournamentView`."""

    clock = clock_field()

    id = fields.String(required=True)
    name = fields.String(allow_none=True)
    game = fields.String(required=True, attribute="state.settings.game")
    threshold = fields.Integer(required=True, attribute="state.settings.threshold")
    two_player_games = fields.Boolean(required=True, attribute="state.settings.two_player_games")
    strategy = fields.String(required=True, attribute="state.settings.strategy")
    plans = fields.Integer(required=True, attribute="state.settings.plans")
    seed = fields.Integer(required=True, attribute="state.settings.seed")
    late_entry_strikes = fields.String(required=True, attribute="state.settings.late_entry")
    created_at = fields.DateTime(required=True)
    revision = fields.Integer(required=True)
    status = round_status()
    current_round = fields.Integer(allow_none=True, required=True, attribute="state.latest.number")
    standings = fields.List(fields.Nested(StandingOut), required=True, attribute="state.standings")
    ending = fields.Nested(EndingOut, allow_none=True, required=True)
    winners = fields.List(fields.String(), required=True)
    winner_names = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "The winners by name (their id when they gave none)."},
    )
    warnings = EntryWarnings(required=True)


class CreatedOut(TournamentOut, TokenOut):
    warnings = EntryWarnings(required=True)


class TableOut(Schema):
    """Reads a :class:`TableView`."""

    table = fields.Integer(required=True, attribute="at")
    group = fields.Integer(required=True)
    players = fields.List(fields.String(), required=True)
    result = fields.List(fields.Nested(StrikesOut), allow_none=True, required=True)


class TableEnteredOut(TableOut):
    changes = changes_field()


class RoundOut(ReadOut):
    """Reads a :class:`RoundView`."""

    tournament = fields.String(required=True, attribute="held.id")
    round = fields.Integer(required=True, attribute="number")
    kind = fields.String(
        required=True,
        attribute="round.kind",
        validate=validate.OneOf(["random", "split", "tiebreak"]),
    )
    status = open_or_closed()
    tables = fields.List(fields.Nested(TableOut), required=True)
    byes = fields.List(fields.String(), required=True, attribute="round.byes")
    detrimental_points = fields.Integer(required=True, attribute="round.detrimental_points")
    eliminated = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Players eliminated after this round (once it is closed)."},
    )
    ending = fields.Nested(EndingOut, allow_none=True, required=True)
