"""Schemas of Scrabble events held by the service (bounds stated here; what the request
schemas load is ``requests.py``), and the views the answers read where a value needs more
than one of the engine's objects."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import Any

from marshmallow import (
    Schema,
    fields,
    missing,
    post_load,
    validate,
)

from ...engine.scrabble.cost import MAX_REPEATS_ALLOWED
from ...engine.scrabble.held.checks import MAX_PENALTY, MAX_PLAYERS, MAX_ROUNDS
from ...engine.scrabble.held.event import ScrabbleEvent
from ...engine.scrabble.held.log_events import (
    BYE_SPREAD,
    DEFAULT_REPEATS_ALLOWED,
    DEFAULT_VICTORS,
    METHODS,
    PAIRING_SYSTEMS,
    Entrant,
    EventSettings,
    RepeatsFor,
)
from ...engine.scrabble.held.record import GameResult, ScrabbleRound
from ...engine.scrabble.held.schedule import scheduled
from ...engine.scrabble.pairing.advisor import MAX_VICTORS
from ..common import (
    ID_LENGTH,
    Contract,
    Requires,
    needs,
    one_of_fields,
    player_id,
    printable,
)
from ..held.entry_warnings import EntryWarnings
from ..held.requests import UNSENT, sent
from ..held.round_clock import clock_field
from ..held.schemas import EntrantIn, HeldOut, TokenOut, changes_field, entrants, event_name
from ..held.views import HeldResult, HeldRound, HeldView, ReadOut, open_or_closed, round_status
from .requests import GameEntered, NewScrabbleEvent, RoundStart, ScrabbleSettingsChange
from .tool_schemas import PaidPlacesIn, PrizeAmount

MAX_RATING = 4000
MAX_SCORE = 2000
MAX_SPREAD = 1000
MAX_SEED = 2**31 - 1


def rating_field(required: bool) -> fields.Integer:
    return fields.Integer(
        strict=True,
        required=required,
        validate=validate.Range(0, MAX_RATING),
        metadata={
            "description": "The player's rating (seeds round 1, breaks ties).",
            "example": 1720,
        },
    )


class ScrabblePlayerIn(EntrantIn):
    rating = rating_field(required=True)


def repeats_field(description: str, default: int | None = None) -> fields.Integer:
    if default is None:
        return fields.Integer(
            strict=True,
            validate=validate.Range(0, MAX_REPEATS_ALLOWED),
            metadata={"description": description},
        )
    return fields.Integer(
        strict=True,
        load_default=default,
        validate=validate.Range(0, MAX_REPEATS_ALLOWED),
        metadata={"description": description},
    )


class RepeatsForIn(Schema):
    first = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(1, MAX_ROUNDS),
        metadata={"description": "The range's first round."},
    )
    last = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(1, MAX_ROUNDS),
        metadata={"description": "The range's last round (`first` or later)."},
    )
    repeats_allowed = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(0, MAX_REPEATS_ALLOWED),
        metadata={"description": "The allowance of the range's rounds."},
    )


class ScrabbleEventIn(PaidPlacesIn):
    name = event_name()
    players = entrants(ScrabblePlayerIn, 2, MAX_PLAYERS)
    rounds = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(1, MAX_ROUNDS),
        metadata={"description": "The rounds planned; the last is the final round.", "example": 7},
    )
    spread_cap = fields.Integer(
        strict=True,
        allow_none=True,
        load_default=None,
        validate=validate.Range(1, MAX_SPREAD),
        metadata={
            "description": "The most spread one game counts, either way (null: uncapped); "
            "the final round's advisor bounds a game's margin by it."
        },
    )
    bye_spread = fields.Integer(
        strict=True,
        load_default=BYE_SPREAD,
        validate=validate.Range(0, MAX_SPREAD),
        metadata={"description": "A bye's spread, and a forfeit's unless its result says."},
    )
    repeats_allowed = repeats_field(
        "Meetings a pair may already have when a round pairs them again at the round's "
        "weighed cost (tsh's repeats argument): a repeat within it is weighed against rank "
        "distance, one past it is paired only where nothing else can be (or a race for a "
        "paid place needs it). Every round's, unless `repeats_by_round` gives another.",
        DEFAULT_REPEATS_ALLOWED,
    )
    repeats_by_round = fields.List(
        fields.Nested(RepeatsForIn),
        load_default=list,
        validate=validate.Length(max=MAX_ROUNDS),
        metadata={
            "description": "The director's repeat allowance for ranges of rounds, in order "
            "(tsh's pair and koth take one per round); rounds in no range take "
            "`repeats_allowed`."
        },
    )
    victors = fields.Integer(
        strict=True,
        load_default=DEFAULT_VICTORS,
        validate=validate.Range(1, MAX_VICTORS),
        metadata={"description": "The places the final round's advisor pairs for."},
    )
    seed = fields.Integer(
        strict=True,
        load_default=0,
        validate=validate.Range(0, MAX_SEED),
        metadata={"description": "Random rounds' seed (each round adds its number)."},
    )
    pairing_system = fields.String(
        load_default="swiss",
        validate=validate.OneOf(PAIRING_SYSTEMS),
        metadata={
            "description": "The default schedule (tsh's pairing system): swiss (round 1 "
            "seeded, Swiss by win group, the final-round advisor last) or round_robin (every "
            "player meets every other once a cycle, each round from the circle of the "
            "players in rating order, never from results; more rounds than a cycle turn it "
            "again). A round's `method` still overrides it.",
            "example": "round_robin",
        },
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> NewScrabbleEvent:
        settings = EventSettings(
            data["rounds"],
            data["spread_cap"],
            data["bye_spread"],
            data["repeats_allowed"],
            data["victors"],
            data["seed"],
            kept_prizes(data),
            repeats_by_round=kept_ranges(data),
            pairing_system=data["pairing_system"],
        )
        players = tuple(entrant(p) for p in data["players"])
        return NewScrabbleEvent(data.get("name"), players, settings)


def kept_prizes(data: Mapping[str, Any]) -> tuple[Decimal | None, ...] | None:
    """A create's or import's loaded ``prizes`` (checked by ``PaidPlacesIn``) as the event
    keeps them; None: not given."""
    prizes = data.get("prizes")
    return None if prizes is None else tuple(prizes)


def kept_ranges(data: Mapping[str, Any]) -> tuple[RepeatsFor, ...]:
    """A create's or settings change's loaded ``repeats_by_round`` as the event keeps
    them (the ranges' order is checked by the engine, ``round-ranges``)."""
    return tuple(
        RepeatsFor(r["first"], r["last"], r["repeats_allowed"])
        for r in data.get("repeats_by_round") or ()
    )


def entrant(data: Mapping[str, Any]) -> Entrant:
    """A loaded ``ScrabblePlayerIn`` as the engine enters it."""
    return Entrant(data["id"], data.get("name"), data["rating"])


def _changeable() -> dict[str, fields.Field[Any]]:
    """The create's settings, each optional: a settings change names those it changes."""
    changeable = {}
    for name, declared in ScrabbleEventIn._declared_fields.items():
        if name in ("name", "players"):
            continue
        field = copy.copy(declared)
        field.required, field.load_default = False, missing
        changeable[name] = field
    return changeable


class _SettingsChangeIn(PaidPlacesIn):
    """What the settings schema loads: the settings named, those left out :data:`UNSENT`
    (a null sent is a value)."""

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> ScrabbleSettingsChange:
        return ScrabbleSettingsChange(
            rounds=sent(data, "rounds"),
            spread_cap=sent(data, "spread_cap"),
            bye_spread=sent(data, "bye_spread"),
            repeats_allowed=sent(data, "repeats_allowed"),
            repeats_by_round=kept_ranges(data) if "repeats_by_round" in data else UNSENT,
            victors=sent(data, "victors"),
            seed=sent(data, "seed"),
            pairing_system=sent(data, "pairing_system"),
            prizes=tuple(data["prizes"]) if "prizes" in data else UNSENT,
        )


# The settings a director may change before the first result (those left out stay).
ScrabbleSettingsIn = _SettingsChangeIn.from_dict(_changeable(), name="ScrabbleSettingsIn")


class StartRoundIn(Schema):
    method = fields.String(
        validate=validate.OneOf(METHODS),
        metadata={
            "description": "seeded (by rating, top half against bottom half), random, swiss "
            "(within win groups), koth (adjacent ranks), advisor (the final-round advisor) "
            "or round_robin (the round robin's next round); without it, the default "
            "schedule's (`schedule` in the event's read)."
        },
    )
    repeats_allowed = repeats_field(
        "Meetings a pair may already have and be paired again at no cost; without it, the "
        "schedule's for this round."
    )
    seed = fields.Integer(
        strict=True,
        validate=validate.Range(0, MAX_SEED),
        metadata={"description": "A random round's seed (default: the event's plus the round)."},
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> RoundStart:
        return RoundStart(data.get("method"), data.get("repeats_allowed"), data.get("seed"))


class ScrabbleResultIn(Contract):
    requires = (
        Requires(one_of_fields("scores", "forfeit"), "", "give both scores, or who forfeited"),
        Requires(needs("spread", "forfeit"), "spread", "a spread is given for a forfeit only"),
        # A forfeit has no game to penalise: its spread is the director's to set.
        Requires(
            needs("penalties", "scores"),
            "penalties",
            "penalties are for a game played, not a forfeit (set its spread instead)",
        ),
    )

    scores = fields.List(
        fields.Integer(strict=True, validate=validate.Range(-MAX_SCORE, MAX_SCORE)),
        validate=validate.Length(2, 2),
        metadata={
            "description": "Both players' scores, in the game's order (`players`).",
            "example": [412, 388],
        },
    )
    penalties = fields.List(
        fields.Integer(strict=True, validate=validate.Range(0, MAX_PENALTY)),
        validate=validate.Length(2, 2),
        metadata={
            "description": "Points taken off each player's spread for this game (time, a "
            "challenge), in the game's order, as tsh's `penalty` section: spread only, never "
            "who won. A game played only; default none.",
            "example": [0, 10],
        },
    )
    forfeit = fields.String(
        validate=[validate.Length(1, ID_LENGTH), printable],
        metadata={"description": "The player who forfeited: the other wins by `spread`."},
    )
    spread = fields.Integer(
        strict=True,
        validate=validate.Range(0, MAX_SPREAD),
        metadata={"description": "A forfeit's spread (default: the event's bye spread)."},
    )

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> GameEntered:
        scores, penalties = data.get("scores"), data.get("penalties")
        return GameEntered(
            None if scores is None else (scores[0], scores[1]),
            data.get("forfeit"),
            data.get("spread"),
            None if penalties is None else (penalties[0], penalties[1]),
        )


class ScrabbleEntrantIn(ScrabblePlayerIn):
    """A late entrant: their missed rounds are unplayed (no result), as tsh records them.
    Loads the engine's :class:`Entrant` (a player of a create loads a mapping, which the
    create's checks read)."""

    @post_load
    def _typed(self, data: dict[str, Any], **_: Any) -> Entrant:
        return entrant(data)


# --- views ----------------------------------------------------------------------------------


class ScrabbleEventView(HeldView[ScrabbleEvent]):
    """A held Scrabble event as its page answers it."""

    @property
    def schedule(self) -> list[dict[str, object]]:
        settings = self.state.settings
        planned: list[dict[str, object]] = []
        for number in range(1, settings.rounds + 1):
            method, allowance = scheduled(number, settings)
            planned.append({"round": number, "method": method, "repeats_allowed": allowance})
        return planned


class ScrabbleRoundView(HeldRound[ScrabbleEvent]):
    @cached_property
    def round(self) -> ScrabbleRound:
        return self.held.state.round(self.number)

    def without_opponent(self) -> list[tuple[str, int]]:
        """An imported round's players without an opponent, or a round robin's whose
        opponent withdrew (a bye: the event's bye spread), with their spread."""
        bye = self.held.state.settings.bye_spread
        return [*self.round.sat_out.items(), *((p, bye) for p in self.round.unopposed)]

    @property
    def sat_out(self) -> list[dict[str, object]]:
        return [{"player": p, "spread": s} for p, s in self.without_opponent()]

    @property
    def games(self) -> list[ScrabbleGameView]:
        met = self.held.state.meetings(before=self.number)
        return [
            ScrabbleGameView(self.held, self.number, g, met=met[frozenset(pair)])
            for g, pair in enumerate(self.round.games, start=1)
        ]


@dataclass(frozen=True)
class ScrabbleGameView(HeldResult[ScrabbleEvent]):
    met: int | None = None  # times the two were paired before, when the round counted it

    @property
    def players(self) -> list[str]:
        return list(self.held.state.round(self.number).game(self.at))

    @property
    def repeat(self) -> int:
        if self.met is not None:
            return self.met
        return self.held.state.repeat(self.number, self.at)

    @property
    def result(self) -> GameResult | None:
        return self.held.state.round(self.number).results.get(self.at)


# --- answers --------------------------------------------------------------------------------


class ScrabbleStandingOut(Schema):
    rank = fields.Integer(required=True)
    player = fields.String(required=True)
    name = fields.String(allow_none=True, required=True)
    rating = fields.Integer(required=True)
    wins = fields.Float(required=True, metadata={"description": "A draw is half a win."})
    losses = fields.Float(required=True)
    spread = fields.Integer(required=True)
    games = fields.Integer(
        required=True, metadata={"description": "Results: games, byes, forfeits."}
    )
    byes = fields.Integer(required=True)
    opponents = fields.List(
        fields.String(allow_none=True),
        required=True,
        metadata={"description": "By round played; null for a bye or a forfeit."},
    )
    status = fields.String(required=True, validate=validate.OneOf(["active", "withdrawn"]))
    withdrawn_before_round = fields.Integer(allow_none=True, required=True)


class PlannedRoundOut(Schema):
    round = fields.Integer(required=True)
    method = fields.String(required=True, validate=validate.OneOf(METHODS))
    repeats_allowed = fields.Integer(required=True)


class ScrabbleEventOut(ReadOut, HeldOut):
    """Reads a :class:`ScrabbleEventView`."""

    clock = clock_field()

    rounds = fields.Integer(required=True, attribute="state.settings.rounds")
    spread_cap = fields.Integer(
        allow_none=True, required=True, attribute="state.settings.spread_cap"
    )
    bye_spread = fields.Integer(required=True, attribute="state.settings.bye_spread")
    repeats_allowed = fields.Integer(required=True, attribute="state.settings.repeats_allowed")
    repeats_by_round = fields.List(
        fields.Nested(RepeatsForIn),
        required=True,
        attribute="state.settings.repeats_by_round",
        metadata={"description": "The director's allowance for ranges of rounds."},
    )
    victors = fields.Integer(required=True, attribute="state.settings.paid_places")
    prizes = fields.List(
        PrizeAmount(allow_none=True),
        allow_none=True,
        required=True,
        attribute="state.settings.prizes",
        metadata={"description": "The places that pay, in order (null: victors only)."},
    )
    seed = fields.Integer(required=True, attribute="state.settings.seed")
    pairing_system = fields.String(
        required=True,
        attribute="state.settings.pairing_system",
        validate=validate.OneOf(PAIRING_SYSTEMS),
        metadata={"description": "The default schedule: swiss or round_robin."},
    )
    status = round_status()
    current_round = fields.Integer(allow_none=True, required=True, attribute="state.latest.number")
    schedule = fields.List(
        fields.Nested(PlannedRoundOut),
        required=True,
        metadata={"description": "The default schedule: each round's method when not chosen."},
    )
    standings = fields.List(
        fields.Nested(ScrabbleStandingOut), required=True, attribute="state.standings"
    )
    warnings = EntryWarnings(required=True)


class ScrabbleEventCreatedOut(ScrabbleEventOut, TokenOut):
    warnings = EntryWarnings(required=True)


class ScrabbleResultOut(Schema):
    scores = fields.List(fields.Integer(), allow_none=True, required=True)
    penalties = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "Points taken off each player's spread, in the game's order."},
    )
    forfeit = fields.String(allow_none=True, required=True)
    spread = fields.Integer(
        required=True,
        attribute="margin",
        metadata={
            "description": "By how much the game was won: the scores' difference as played "
            "(0 a draw; the standings count it within the event's `spread_cap`, penalties "
            "taken off), or a forfeit's spread."
        },
    )


class ScrabbleGameOut(ReadOut):
    game = fields.Integer(required=True, attribute="at")
    players = fields.List(fields.String(), required=True)
    repeat = fields.Integer(
        required=True, metadata={"description": "Times these two were paired before."}
    )
    result = fields.Nested(ScrabbleResultOut, allow_none=True, required=True)


class ScrabbleGameEnteredOut(ScrabbleGameOut):
    changes = changes_field()


class SatOutOut(Schema):
    player = fields.String(required=True)
    spread = fields.Integer(required=True)


class ScrabbleRoundOut(ReadOut):
    event = fields.String(required=True, attribute="held.id")
    round = fields.Integer(required=True, attribute="number")
    method = fields.String(
        required=True,
        attribute="round.method",
        metadata={"description": "The method that paired it; `tsh` for a round imported."},
    )
    repeats_allowed = fields.Integer(required=True, attribute="round.repeats_allowed")
    seed = fields.Integer(allow_none=True, required=True, attribute="round.seed")
    rule = fields.String(
        allow_none=True,
        required=True,
        attribute="round.rule",
        metadata={
            "description": "The advisor's rule (its round only), or a round robin's round "
            "in its schedule (and who has a bye for a withdrawal)."
        },
    )
    status = open_or_closed()
    games = fields.List(fields.Nested(ScrabbleGameOut), required=True)
    bye = fields.String(allow_none=True, required=True, attribute="round.bye")
    sat_out = fields.List(
        fields.Nested(SatOutOut),
        required=True,
        metadata={
            "description": "A round imported from tsh (`method` tsh): the players without an "
            "opponent and the spread tsh gave them (above 0 a bye or a forfeit won, below 0 a "
            "forfeit lost, 0 an unplayed round). A round robin's round: the players whose "
            "opponent withdrew, each a bye (the event's bye spread). Empty for the other "
            "rounds the service pairs."
        },
    )
    waiting = fields.List(
        fields.Integer(),
        required=True,
        attribute="round.waiting",
        metadata={"description": "Games without a result."},
    )


__all__ = ["MAX_PLAYERS", "player_id"]
