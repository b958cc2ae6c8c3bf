"""Schemas of Diagonal Race tournaments (bounds stated here), and the views the held
events' answers read where a value needs more than one of the engine's objects (what the
request schemas load is ``requests.py``)."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from marshmallow import Schema, fields, post_load, validate, validates_schema

from ...engine.diagonal.event import (
    FIRST_ROUND_OPPONENTS,
    LATER_OPPONENTS,
    TIE_RULES,
    Entrant,
    GameResult,
)
from ...engine.diagonal.log_events import LATE_LOSSES, Racer, RaceSettings
from ...engine.diagonal.race_event import RaceEvent, RaceRound
from ...engine.diagonal.standing import RaceEnding
from ...engine.errors import FieldError, Rule
from ..common import (
    ID_LENGTH,
    Contract,
    MultipleOf,
    StrictBoolean,
    StrictFloat,
    all_or_none,
    player_id,
    printable,
    unique_items,
)
from ..held.entry_warnings import EntryWarnings
from ..held.requests import sent
from ..held.round_clock import clock_field
from ..held.schemas import EntrantIn, HeldOut, TokenOut, changes_field, entrants, event_name
from ..held.views import HeldResult, HeldRound, HeldView, ReadOut, open_or_closed, round_status
from .requests import (
    GameWon,
    NewRace,
    RaceSettingsChange,
    Rated,
    ResultsRequest,
    RoundRequest,
    SimulationRequest,
)

MAX_FIELD = 400
MAX_MET = 200
MAX_ROUNDS = 50
MAX_RATING = 10_000
MAX_PIECES = 1000
MAX_SIMULATED_PLAYERS = 64
# The simulator's time grows with events x players^2 (an event's pairings weigh the pairs of
# its field; measured 5-8 us per player^2 an event from 12 to 64 players). The bound
# admits exactly the largest study docs/diagonal.md reports: 300 events of 48 players,
# 4-5 s of CPU; no request, whatever its field, runs much longer.
MAX_SIMULATION_WORK = 300 * 48**2


EVEN = MultipleOf(2, error="the diagonal pattern needs an even number of opponents")


def id_list(
    max_length: int, required: bool = False, unique: bool = False, **metadata: object
) -> fields.List[str]:
    return fields.List(
        fields.String(validate=[validate.Length(1, ID_LENGTH), printable]),
        required=required,
        validate=[validate.Length(max=max_length), *([unique_items] if unique else [])],
        metadata=metadata,
    )


class RoundPlayerIn(Schema):
    id = player_id(example="A")
    rating = StrictFloat(
        load_default=0, validate=validate.Range(-MAX_RATING, MAX_RATING), metadata={"example": 1720}
    )
    losses = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, MAX_ROUNDS * 4))
    met = id_list(
        MAX_MET,
        description="Earlier opponents, one entry per game (repeat an id for each meeting); "
        "both players of a game list it.",
    )
    dropped = StrictBoolean(
        load_default=False,
        metadata={"description": "Left the event: not paired, but their games still count."},
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> Entrant:
        met = tuple(data.get("met") or ())
        return Entrant(data["id"], data["rating"], data["losses"], met, data["dropped"])


class RoundIn(Schema):
    players = fields.List(
        fields.Nested(RoundPlayerIn),
        required=True,
        validate=validate.Length(1, MAX_FIELD),
        metadata={
            "description": "Every entrant, those eliminated or dropped too: the history "
            "(losses, met) must be one that played rounds could produce."
        },
    )
    round = fields.Integer(
        strict=True,
        validate=validate.Range(1, MAX_ROUNDS),
        metadata={
            "description": "The round to pair: 1 needs no history, a later one some. "
            "Without it, no history means the first round."
        },
    )
    opponents = fields.Integer(
        strict=True,
        validate=[validate.Range(2, 20), EVEN],
        metadata={
            "description": "Opponents per player, even; default 4 in the first round (nobody "
            "has met anyone or lost), 2 after."
        },
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> RoundRequest:
        return RoundRequest(tuple(data["players"]), data.get("round"), data.get("opponents"))


class DiagonalGameOut(Schema):
    players = fields.List(fields.String(), required=True)
    rematch = fields.Boolean(required=True)


class DiagonalRoundOut(Schema):
    games = fields.List(fields.Nested(DiagonalGameOut), required=True)
    eliminated = fields.List(
        fields.String(), required=True, metadata={"description": "Two or more losses: no games."}
    )
    dropped = fields.List(
        fields.String(), required=True, metadata={"description": "Left the event: no games."}
    )
    opponents = fields.Integer(required=True, metadata={"description": "Games per player."})
    step = fields.Integer(
        allow_none=True,
        required=True,
        metadata={
            "description": "The diagonal step used, or null (rematch-avoiding pairing, "
            "or everyone plays everyone)."
        },
    )
    rematches = fields.Integer(required=True)
    order = fields.List(fields.String(), required=True, metadata={"description": "By rating."})
    notes = fields.List(fields.String(), required=True)


class GameResultIn(Schema):
    players = fields.List(
        fields.String(validate=[validate.Length(1, ID_LENGTH), printable]),
        required=True,
        validate=[validate.Length(2, 2), unique_items],
        metadata={"description": "The two players."},
    )
    winner = player_id()
    pieces_left = fields.Integer(
        strict=True,
        load_default=0,
        validate=validate.Range(0, MAX_PIECES),
        metadata={"description": "The loser's pieces still on the board: the winner's margin."},
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> GameResult:
        first, second = data["players"]
        return GameResult((first, second), data["winner"], data["pieces_left"])


class ResultRoundIn(Schema):
    games = fields.List(
        fields.Nested(GameResultIn), required=True, validate=validate.Length(max=MAX_FIELD * 10)
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> tuple[GameResult, ...]:
        return tuple(data["games"])


class ResultsIn(Schema):
    players = id_list(MAX_FIELD, required=True, unique=True, description="Every entrant.")
    rounds = fields.List(
        fields.Nested(ResultRoundIn), required=True, validate=validate.Length(max=MAX_ROUNDS)
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> ResultsRequest:
        return ResultsRequest(tuple(data["players"]), tuple(data["rounds"]))


class DiagonalRecordOut(Schema):
    id = fields.String(required=True)
    wins = fields.Integer(required=True)
    losses = fields.Integer(required=True)
    games = fields.Integer(required=True)
    pieces_left = fields.Integer(required=True)
    eliminated_after_round = fields.Integer(allow_none=True, required=True)


class ResultsOut(Schema):
    players = fields.List(fields.Nested(DiagonalRecordOut), required=True)
    survivors = fields.List(fields.String(), required=True)
    eliminated_last_round = fields.List(fields.String(), required=True)
    finished = fields.Boolean(required=True)
    winners = fields.List(fields.String(), required=True)
    playoff = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "A playoff is required between these."},
    )
    reason = fields.String(required=True)


class RatedIn(Schema):
    id = player_id()
    rating = StrictFloat(required=True, validate=validate.Range(-MAX_RATING, MAX_RATING))

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> Rated:
        return Rated(data["id"], data["rating"])


class SimulateIn(Schema):
    players = fields.List(
        fields.Nested(RatedIn),
        required=True,
        validate=validate.Length(2, MAX_SIMULATED_PLAYERS),
    )
    luck = StrictFloat(
        load_default=0.5,
        validate=validate.Range(0, 1),
        metadata={"description": "0: pure Elo; 1: every game a coin toss."},
    )
    events = fields.Integer(
        strict=True,
        load_default=50,
        validate=validate.Range(1, 2000),
        metadata={
            "description": f"events x players^2 at most {MAX_SIMULATION_WORK:,} (300 events "
            "of 48 players)"
        },
    )
    seed = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, 2**63 - 1))

    @validates_schema
    def _bounded(self, data: dict[str, Any], **_: Any) -> None:
        players, events = len(data.get("players", ())), data.get("events", 0)
        if events * players**2 > MAX_SIMULATION_WORK:
            most = MAX_SIMULATION_WORK // players**2
            raise FieldError(
                ("events",),
                f"events x players^2 may be at most {MAX_SIMULATION_WORK:,} (300 events of 48 "
                f"players): at most {most} events for {players} players",
                rule=Rule.WORK_BOUND,
            )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> SimulationRequest:
        players = tuple(data["players"])
        return SimulationRequest(players, data["luck"], data["events"], data["seed"])


class ChanceOut(Schema):
    id = fields.String(required=True)
    rating = StrictFloat(required=True)
    win_chance = StrictFloat(required=True)
    mean_games = StrictFloat(required=True)


class DiagonalCountOut(Schema):
    value = fields.Integer(required=True)
    count = fields.Integer(required=True)


class SimulateOut(Schema):
    events = fields.Integer(required=True)
    mean_rounds = StrictFloat(required=True)
    rounds = fields.List(fields.Nested(DiagonalCountOut), required=True)
    players = fields.List(fields.Nested(ChanceOut), required=True)
    playoffs = fields.Integer(required=True)


# --- held events ------------------------------------------------------------------------------

TIEBREAKS = (
    "Two losses eliminate; the last player left wins. When everyone left goes out in the "
    f"same round: {', then '.join(TIE_RULES)}; still level, playoff rounds between the "
    "tied players."
)


class RaceEventView(HeldView[RaceEvent]):
    """A held Diagonal Race event as its page answers it."""

    @property
    def winners(self) -> list[str]:
        """Shown once the event is finished."""
        ending = self.state.ending()
        return list(ending.winners) if ending and ending.finished else []

    @property
    def tiebreaks(self) -> str:
        return TIEBREAKS


class RaceRoundView(HeldRound[RaceEvent]):
    """A round as answered: who met before, who went out after it and the ending it decided
    need the event."""

    @cached_property
    def round(self) -> RaceRound:
        return self.held.state.round(self.number)

    @property
    def games(self) -> list[GameView]:
        games = range(1, len(self.round.games) + 1)
        return [GameView(self.held, self.number, game) for game in games]

    @property
    def eliminated(self) -> list[str]:
        return self.held.state.eliminated_in(self.number)

    @property
    def ending(self) -> RaceEnding | None:
        """The event's ending, on its latest round once that is closed."""
        event = self.held.state
        return event.ending() if self.round is event.latest and self.round.closed else None


class GameView(HeldResult[RaceEvent]):
    """A game (``at``) of a round: its two players, whether they met before, its result."""

    @property
    def players(self) -> list[str]:
        return list(self.held.state.round(self.number).game(self.at))

    @property
    def rematch(self) -> bool:
        return self.held.state.rematch(self.number, self.at)

    @property
    def result(self) -> GameResult | None:
        return self.held.state.round(self.number).results.get(self.at)


class RacerIn(EntrantIn):
    rating = StrictFloat(
        allow_none=True,
        validate=validate.Range(-MAX_RATING, MAX_RATING),
        metadata={
            "description": "Give every player a rating, or none: then the order listed is "
            "the rating order, best first.",
            "example": 1720,
        },
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> Racer:
        return Racer(data["id"], data.get("name"), data.get("rating"))


def opponents_field(default: int, when: str) -> fields.Integer:
    return fields.Integer(
        strict=True,
        load_default=default,
        validate=[validate.Range(2, 20), EVEN],
        metadata={"description": f"Opponents per player {when}: even (seed: {default})."},
    )


RATED = {"required": ["rating"], "properties": {"rating": {"not": {"enum": [None]}}}}


class RaceEventIn(Contract):
    requires = (
        all_or_none(
            "players", "rating", "give every player a rating, or none (listing order)", RATED
        ),
    )

    name = event_name()
    players = entrants(RacerIn, 2, MAX_FIELD)
    first_round_opponents = opponents_field(FIRST_ROUND_OPPONENTS, "in the first round")
    opponents = opponents_field(LATER_OPPONENTS, "in every later round")
    late_entry_losses = fields.String(
        load_default="most",
        validate=validate.OneOf(LATE_LOSSES),
        metadata={
            "description": "The losses a late entrant (or a reinstated player) starts with, "
            "of the players still in: the most (the default: nobody falls behind a player "
            "who played), or the fewest. The seed has no rule (docs/diagonal.md)."
        },
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> NewRace:
        settings = RaceSettings(
            data["first_round_opponents"], data["opponents"], data["late_entry_losses"]
        )
        return NewRace(data.get("name"), tuple(data["players"]), settings)


class RaceSettingsIn(Schema):
    """The settings a director may change before the first result; those left out stay."""

    late_entry_losses = fields.String(
        validate=validate.OneOf(LATE_LOSSES),
        metadata={
            "description": "The losses a late entrant (or a reinstated player) starts with, "
            "of the players still in: the most, or the fewest."
        },
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> RaceSettingsChange:
        return RaceSettingsChange(sent(data, "late_entry_losses"))


class RaceStandingOut(Schema):
    """Reads the engine's :class:`RaceStanding`."""

    place = fields.Integer(
        required=True,
        metadata={
            "description": "The standings' order: the winner 1st, a playoff's other players "
            "next, then those still in, then the eliminated (latest out first) and the "
            "dropped; players level on every tiebreak share a place."
        },
    )
    player = fields.String(required=True)
    name = fields.String(allow_none=True, required=True)
    rating = StrictFloat(allow_none=True, required=True)
    wins = fields.Integer(required=True)
    losses = fields.Integer(required=True)
    games = fields.Integer(required=True, metadata={"description": "Results entered so far."})
    pieces_left = fields.Integer(
        required=True, metadata={"description": "Summed over the games they won: the margin."}
    )
    opponents = fields.List(fields.String(), required=True)
    status = fields.String(
        required=True,
        validate=validate.OneOf(["winner", "active", "playoff", "eliminated", "dropped"]),
    )
    eliminated_after_round = fields.Integer(allow_none=True, required=True)
    dropped_before_round = fields.Integer(allow_none=True, required=True)


class RaceEndingOut(Schema):
    """Reads the engine's :class:`RaceEnding`."""

    finished = fields.Boolean(required=True)
    winners = fields.List(fields.String(), required=True)
    playoff = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Not finished: the next round is a playoff between these."},
    )
    reason = fields.String(required=True)
    runners_up = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Decided by a playoff: its other players, best first."},
    )


class RaceEventOut(ReadOut, HeldOut):
    """Reads a :class:`RaceEventView`."""

    clock = clock_field()

    first_round_opponents = fields.Integer(
        required=True, attribute="state.settings.first_round_opponents"
    )
    opponents = fields.Integer(required=True, attribute="state.settings.opponents")
    late_entry_losses = fields.String(required=True, attribute="state.settings.late_entry")
    status = round_status()
    current_round = fields.Integer(allow_none=True, required=True, attribute="state.latest.number")
    standings = fields.List(
        fields.Nested(RaceStandingOut), required=True, attribute="state.standings"
    )
    ending = fields.Nested(RaceEndingOut, allow_none=True, required=True, attribute="state.ending")
    winners = fields.List(fields.String(), required=True)
    tiebreaks = fields.String(required=True)
    warnings = EntryWarnings(required=True)


class RaceEventCreatedOut(RaceEventOut, TokenOut):
    warnings = EntryWarnings(required=True)


class RaceResultIn(Schema):
    winner = player_id(example="ann")
    pieces_left = fields.Integer(
        strict=True,
        load_default=0,
        validate=validate.Range(0, MAX_PIECES),
        metadata={"description": "The loser's pieces still on the board: the winner's margin."},
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> GameWon:
        return GameWon(data["winner"], data["pieces_left"])


class RaceResultOut(Schema):
    """Reads the engine's :class:`GameResult`."""

    winner = fields.String(required=True)
    pieces_left = fields.Integer(required=True)


class RaceGameOut(Schema):
    """Reads a :class:`GameView`."""

    game = fields.Integer(required=True, attribute="at")
    players = fields.List(fields.String(), required=True)
    rematch = fields.Boolean(required=True, metadata={"description": "They met before."})
    result = fields.Nested(RaceResultOut, allow_none=True, required=True)


class RaceGameEnteredOut(RaceGameOut):
    changes = changes_field()


class RaceRoundOut(ReadOut):
    """Reads a :class:`RaceRoundView`."""

    event = fields.String(required=True, attribute="held.id")
    round = fields.Integer(required=True, attribute="number")
    playoff = fields.Boolean(required=True, attribute="round.playoff")
    status = open_or_closed()
    opponents = fields.Integer(
        required=True, attribute="round.opponents", metadata={"description": "Games per player."}
    )
    step = fields.Integer(allow_none=True, required=True, attribute="round.step")
    rematches = fields.Integer(required=True, attribute="round.rematches")
    games = fields.List(fields.Nested(RaceGameOut), required=True)
    waiting = fields.List(
        fields.Integer(),
        required=True,
        attribute="round.waiting",
        metadata={"description": "Games without a result."},
    )
    eliminated = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Players out after this round (once it is closed)."},
    )
    ending = fields.Nested(RaceEndingOut, allow_none=True, required=True)
