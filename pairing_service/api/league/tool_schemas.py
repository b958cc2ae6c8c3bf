"""Schemas of the Meeple League's stateless tools (a table, a schedule, a formation, the
lifetime standings; bounds stated here), and the pieces the held organisation's answers
share with them (``schemas.py``). The answer schemas read the engine's objects."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from marshmallow import Schema, fields, post_load, validate, validates

from ...engine.errors import FieldError, Rule
from ...engine.league import (
    TIEBREAKERS,
    Finish,
    Game,
    NewPlayer,
    Result,
    SeasonLeague,
)
from ..common import (
    ID_LENGTH,
    Contract,
    Requires,
    StrictBoolean,
    StrictFloat,
    for_every,
    player_id,
    printable,
    unique_items,
)
from ..fields import ExactNumber, ExactText

MAX_GAMES = 2000
MAX_PLAYERS = 2000
MAX_SCORE = 10**9
SEASON_SCORES = validate.Range(-MAX_GAMES * MAX_SCORE, MAX_GAMES * MAX_SCORE)  # sums of games
LEAGUE_NAME = validate.Regexp(r"^[1-9][0-9]{0,2}-[A-Z]{1,3}$", error="a league is named like 3-B")


def exact(value: float) -> Fraction:
    """A JSON number as the exact fraction its shortest form writes (0.1 is 1/10)."""
    return Fraction(str(value))


def id_field(**kwargs: Any) -> fields.String:
    return fields.String(validate=[validate.Length(1, ID_LENGTH), printable], **kwargs)


# What the tools' requests load as (each schema's ``post_load``): the engine's own types
# where it has them (Result, Game, Finish, NewPlayer, SeasonLeague), else these.


@dataclass(frozen=True)
class TableRequest:
    games: tuple[Game, ...]
    previous_ranking: tuple[str, ...]
    points: tuple[Fraction, ...] | None  # the league points by place, else the rules'


@dataclass(frozen=True)
class ScheduleRequest:
    players: tuple[str, ...]
    game: str
    season: int
    league: str
    seed: int


@dataclass(frozen=True)
class FormationRequest:
    signups: tuple[str, ...]
    last_season: tuple[Finish, ...]
    returning: tuple[Finish, ...]
    new_players: tuple[NewPlayer, ...]


class LeagueResultIn(Schema):
    player = player_id(example="A")
    score = fields.Integer(
        required=True, strict=True, validate=validate.Range(-MAX_SCORE, MAX_SCORE)
    )
    position = fields.Integer(required=True, strict=True, validate=validate.Range(1, 8))
    dropped_out = StrictBoolean(
        load_default=False,
        metadata={
            "description": "The player abandoned the game (the seed's Dropping Out): placed "
            "below every player who finished, with no league points and no place; the "
            "others score their places as usual (docs/league.md)."
        },
    )

    @post_load
    def _result(self, data: dict[str, Any], **_: Any) -> Result:
        return Result(**data)


SOMEONE_FINISHED = Requires(
    {
        "not": for_every(
            "results",
            {"required": ["dropped_out"], "properties": {"dropped_out": {"enum": [True]}}},
        )
    },
    "results",
    "nobody finished the game: it cannot score",
)


class LeagueGameIn(Contract):
    requires = (SOMEONE_FINISHED,)

    name = fields.String(
        load_default="",
        validate=[validate.Length(max=100), printable],
        metadata={
            "description": "The game's unique name (AGR S2 L3-B G12): a name entered twice "
            "is refused, ignoring case and spacing; unnamed games are not compared.",
        },
    )
    results = fields.List(
        fields.Nested(LeagueResultIn), required=True, validate=validate.Length(2, 8)
    )

    @post_load
    def _game(self, data: dict[str, Any], **_: Any) -> Game:
        return Game(data["name"], tuple(data["results"]))


class TableIn(Schema):
    games = fields.List(
        fields.Nested(LeagueGameIn), required=True, validate=validate.Length(1, MAX_GAMES)
    )
    previous_ranking = fields.List(
        id_field(), load_default=list, validate=validate.Length(max=MAX_PLAYERS)
    )
    points = fields.List(
        StrictFloat(validate=validate.Range(0, 1000)),
        validate=validate.Length(2, 8),
        metadata={"description": "League points by place, overriding the rules' scale."},
    )

    @validates("points")
    def _falling(self, value: list[float], **_: Any) -> None:
        if value != sorted(value, reverse=True):
            raise FieldError(
                ("points",),
                "points must not rise from one place to the next",
                rule=Rule.POINTS_FALL,
            )

    @post_load
    def _request(self, data: dict[str, Any], **_: Any) -> TableRequest:
        points = data.get("points")
        return TableRequest(
            tuple(data["games"]),
            tuple(data["previous_ranking"]),
            None if points is None else tuple(exact(p) for p in points),
        )


class SeatScoreIn(Schema):
    score = fields.Integer(
        required=True, strict=True, validate=validate.Range(-MAX_SCORE, MAX_SCORE)
    )
    dropped_out = StrictBoolean(load_default=False)


class PositionsIn(Schema):
    results = fields.List(
        fields.Nested(SeatScoreIn),
        required=True,
        validate=validate.Length(2, 8),
        metadata={"description": "Each player's score as typed, in the game's seat order."},
    )

    @post_load
    def _request(self, data: dict[str, Any], **_: Any) -> PositionsRequest:
        results = data["results"]
        return PositionsRequest(
            tuple(r["score"] for r in results), tuple(r["dropped_out"] for r in results)
        )


@dataclass(frozen=True)
class PositionsRequest:
    scores: tuple[int, ...]
    dropped_out: tuple[bool, ...]


class SeatPositionOut(Schema):
    """Reads a seat's positions: the tuple the engine allows, its own position first."""

    position = fields.Integer(required=True, metadata={"description": "The scores' position."})
    allowed = fields.List(
        fields.Integer(),
        required=True,
        metadata={
            "description": "Every position the scores allow (more than one in a tie, which "
            "the game's own tie-break may split)."
        },
    )


class PositionsOut(Schema):
    positions = fields.List(fields.Nested(SeatPositionOut), required=True)


class Share(StrictFloat):
    """An average share (an exact fraction) to six decimals: its repeating digits cut."""

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> float | None:
        return None if value is None else round(float(value), 6)


class RankFromOne(fields.Integer):
    """A position in a list (0 first) answered as a rank, 1 first; unranked stays None."""

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> int | None:
        return None if value is None else value + 1


class TiebreakValuesOut(Schema):
    """Reads a table line's ``values``."""

    league_points = ExactNumber(required=True)
    wins = fields.Integer(required=True)
    seconds = fields.Integer(required=True)
    thirds = fields.Integer(required=True)
    winner_share = Share(required=True)
    margin = fields.Integer(required=True)
    total_score = fields.Integer(required=True)
    head_to_head = fields.Integer(allow_none=True, required=True)
    previous_rank = RankFromOne(allow_none=True, required=True)


class TableLineOut(Schema):
    """Reads a :class:`~pairing_service.engine.league.Line`."""

    player = fields.String(required=True)
    name = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The player's display name (a held league's sign-ups)."},
    )
    rank = fields.Integer(required=True)
    league_points = StrictFloat(required=True)
    league_points_exact = ExactText("league_points", required=True)
    games = fields.Integer(required=True)
    dropped_out = fields.Integer(
        required=True,
        attribute="dropouts",
        metadata={"description": "Games the player dropped out of."},
    )
    decided_by = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The tiebreaker that puts this player above the next one."},
    )
    ahead_on = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "description": "That tiebreaker in words with both players' values: "
            '"wins 3 v 2", "share of the winner\'s score 0.92 v 0.87".'
        },
    )
    values = fields.Nested(TiebreakValuesOut, required=True)


def tiebreakers_field() -> fields.List:  # type: ignore[type-arg]
    # The same chain in every table: no object carries it, the schema does.
    return fields.List(fields.String(), required=True, dump_default=TIEBREAKERS)


class LeagueTableOut(Schema):
    """Reads a :class:`LeagueTable`."""

    standings = fields.List(fields.Nested(TableLineOut), required=True)
    tiebreakers = tiebreakers_field()


class PairOut(Schema):
    """Reads a pair, as the engine keeps a season's winner (season, player), a division's
    points (division, points): the first field from its first item, the second from the
    second."""

    def get_attribute(self, obj: Sequence[Any], attr: str, default: Any) -> Any:
        return obj[list(self.dump_fields).index(attr)]


class SortedItems(fields.List):  # type: ignore[type-arg]
    """A mapping answered as the list of its (key, value) items, in key order."""

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> list[Any] | None:
        items = None if value is None else sorted(value.items())
        return super()._serialize(items, attr, obj, **kwargs)


class ScheduleIn(Schema):
    players = fields.List(
        id_field(), required=True, validate=[validate.Length(4, 16), unique_items]
    )
    game = fields.String(
        required=True, validate=[validate.Regexp(r"^[A-Za-z0-9]{1,10}$"), validate.Length(1, 10)]
    )
    season = fields.Integer(required=True, strict=True, validate=validate.Range(1, 10_000))
    league = fields.String(required=True, validate=LEAGUE_NAME)
    seed = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, 2**31))

    @post_load
    def _request(self, data: dict[str, Any], **_: Any) -> ScheduleRequest:
        return ScheduleRequest(**{**data, "players": tuple(data["players"])})


class ScheduledGameOut(PairOut):
    """Reads a game of :attr:`NamedSchedule.games`: (name, seats)."""

    name = fields.String(required=True, metadata={"example": "AGR S2 L3-B G1"})
    seats = fields.List(fields.String(), required=True)


class MeetingOut(PairOut):
    """Reads a meeting of :attr:`NamedSchedule.meetings`: (players, games)."""

    players = fields.List(fields.String(), required=True)
    games = fields.Integer(required=True)


class ScheduleOut(Schema):
    """Reads a :class:`NamedSchedule`."""

    games = fields.List(fields.Nested(ScheduledGameOut), required=True)
    meetings = fields.List(fields.Nested(MeetingOut), required=True)
    optimal = fields.String(required=True)


class FinishIn(Schema):
    player = player_id()
    league = fields.String(required=True, validate=LEAGUE_NAME)
    place = fields.Integer(required=True, strict=True, validate=validate.Range(1, 16))
    league_points = StrictFloat(load_default=0, validate=validate.Range(0, 10_000))
    wins = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, 1000))
    league_size = fields.Integer(
        strict=True,
        validate=validate.Range(4, 16),
        metadata={
            "description": "Players in that league (default: counted from last season, else "
            "7); it says who the bottom two were."
        },
    )
    # The rest of the season's tiebreaker chain (the table's ``values``): players on the
    # same place of the same division are ordered by it; 0 (or unranked) when not given.
    seconds = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, 1000))
    thirds = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, 1000))
    winner_share = StrictFloat(
        load_default=0,
        validate=validate.Range(-1000, 1000),
        metadata={"description": "Average share of the winner's score that season."},
    )
    margin = fields.Integer(strict=True, load_default=0, validate=SEASON_SCORES)
    total_score = fields.Integer(strict=True, load_default=0, validate=SEASON_SCORES)
    previous_rank = fields.Integer(
        strict=True,
        allow_none=True,
        load_default=None,
        validate=validate.Range(1, 100_000),
        metadata={
            "description": "The player's rank coming into that season (1 = top): the chain's "
            "last tiebreaker."
        },
    )

    @post_load
    def _finish(self, data: dict[str, Any], **_: Any) -> Finish:
        return Finish(
            **{
                **data,
                "division": int(data["league"].split("-", 1)[0]),
                "league_points": exact(data["league_points"]),
                "winner_share": exact(data["winner_share"]),
            }
        )


class NewPlayerIn(Schema):
    player = player_id()
    laurels = StrictFloat(load_default=0, validate=validate.Range(0, 10_000))

    @post_load
    def _player(self, data: dict[str, Any], **_: Any) -> NewPlayer:
        return NewPlayer(data["player"], exact(data["laurels"]))


class FormationIn(Schema):
    signups = fields.List(
        id_field(),
        required=True,
        validate=[validate.Length(4, MAX_PLAYERS), unique_items],
        metadata={"description": "Step 1: everyone playing, in sign-up order."},
    )
    last_season = fields.List(
        fields.Nested(FinishIn),
        load_default=list,
        validate=validate.Length(max=MAX_PLAYERS),
        metadata={"description": "Every finish of last season (drop-outs included)."},
    )
    returning = fields.List(
        fields.Nested(FinishIn),
        load_default=list,
        validate=validate.Length(max=MAX_PLAYERS),
        metadata={"description": "Returners' most recent finishes."},
    )
    new_players = fields.List(
        fields.Nested(NewPlayerIn), load_default=list, validate=validate.Length(max=MAX_PLAYERS)
    )

    @post_load
    def _request(self, data: dict[str, Any], **_: Any) -> FormationRequest:
        return FormationRequest(**{name: tuple(items) for name, items in data.items()})


class FormedLeagueOut(Schema):
    """Reads a formed :class:`~pairing_service.engine.league.League`."""

    league = fields.String(required=True, attribute="name")
    players = fields.List(fields.String(), required=True)


class DivisionOut(PairOut):
    """Reads a division of :attr:`FormationByDivision.divisions`: (division, leagues)."""

    division = fields.Integer(required=True)
    leagues = fields.List(fields.Nested(FormedLeagueOut), required=True)


class MovementOut(Schema):
    """Reads a :class:`~pairing_service.engine.league.Movement`."""

    player = fields.String(required=True)
    league = fields.String(required=True)
    division = fields.Integer(required=True)
    previous_division = fields.Integer(allow_none=True, required=True)
    movement = fields.String(
        required=True,
        attribute="kind",
        validate=validate.OneOf(["promoted", "relegated", "stayed", "returning", "new"]),
    )


class FormationOut(Schema):
    """Reads a :class:`FormationByDivision`."""

    divisions = fields.List(fields.Nested(DivisionOut), required=True)
    order = fields.List(fields.String(), required=True, attribute="formation.order")
    movements = fields.List(
        fields.Nested(MovementOut), required=True, attribute="formation.movements"
    )
    holes = fields.List(fields.String(), required=True, attribute="formation.holes")


class SeasonStandingIn(Schema):
    player = player_id()
    league_points = StrictFloat(required=True, validate=validate.Range(0, 10_000))

    @post_load
    def _standing(self, data: dict[str, Any], **_: Any) -> tuple[str, Fraction]:
        return data["player"], exact(data["league_points"])


class SeasonLeagueIn(Schema):
    season = fields.Integer(required=True, strict=True, validate=validate.Range(1, 10_000))
    league = fields.String(required=True, validate=LEAGUE_NAME)
    standings = fields.List(
        fields.Nested(SeasonStandingIn),
        required=True,
        validate=validate.Length(1, 16),
        metadata={"description": "The league's final standings, winner first."},
    )

    @post_load
    def _league(self, data: dict[str, Any], **_: Any) -> SeasonLeague:
        return SeasonLeague(data["season"], data["league"], tuple(data["standings"]))


class LifetimeIn(Schema):
    leagues = fields.List(
        fields.Nested(SeasonLeagueIn), required=True, validate=validate.Length(1, 5000)
    )

    @post_load
    def _request(self, data: dict[str, Any], **_: Any) -> tuple[SeasonLeague, ...]:
        return tuple(data["leagues"])


class DivisionPointsOut(PairOut):
    """Reads an item of a lifetime line's ``by_division``: (division, points)."""

    division = fields.Integer(required=True)
    league_points = StrictFloat(required=True)


class LifetimeLineOut(Schema):
    """Reads a :class:`~pairing_service.engine.league.lifetime.LifetimeLine`."""

    rank = fields.Integer(required=True)
    player = fields.String(required=True)
    name = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The display name (held organisations)."},
    )
    seasons = fields.Integer(required=True)
    by_division = SortedItems(fields.Nested(DivisionPointsOut), required=True)


class SeasonWinnerOut(PairOut):
    """Reads a season's winner: (season, player)."""

    season = fields.Integer(required=True)
    player = fields.String(required=True)


class LifetimeOut(Schema):
    """Reads a :class:`~pairing_service.engine.league.Lifetime`."""

    standings = fields.List(fields.Nested(LifetimeLineOut), required=True)
    season_winners = fields.List(fields.Nested(SeasonWinnerOut), required=True)
