"""Schemas of the Meeple League (bounds stated here)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate, validates

from ...engine.errors import FieldError, Rule
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
from ..held_schemas import EntrantIn, HeldOut, TokenOut, changes_field, event_name
from ..puffing_billy.schemas import PBNumber as ExactNumber

MAX_GAMES = 2000
MAX_PLAYERS = 2000
MAX_SCORE = 10**9
SEASON_SCORES = validate.Range(-MAX_GAMES * MAX_SCORE, MAX_GAMES * MAX_SCORE)  # sums of games
LEAGUE_NAME = validate.Regexp(r"^[1-9][0-9]{0,2}-[A-Z]{1,3}$", error="a league is named like 3-B")


def id_field(**kwargs: Any) -> fields.String:
    return fields.String(validate=[validate.Length(1, ID_LENGTH), printable], **kwargs)


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


class TiebreakValuesOut(Schema):
    league_points = ExactNumber(required=True)
    wins = fields.Integer(required=True)
    seconds = fields.Integer(required=True)
    thirds = fields.Integer(required=True)
    winner_share = StrictFloat(required=True)
    margin = fields.Integer(required=True)
    total_score = fields.Integer(required=True)
    head_to_head = fields.Integer(allow_none=True, required=True)
    previous_rank = fields.Integer(allow_none=True, required=True)


class TableLineOut(Schema):
    player = fields.String(required=True)
    rank = fields.Integer(required=True)
    league_points = StrictFloat(required=True)
    league_points_exact = fields.String(required=True)
    games = fields.Integer(required=True)
    dropped_out = fields.Integer(
        required=True, metadata={"description": "Games the player dropped out of."}
    )
    decided_by = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The tiebreaker that puts this player above the next one."},
    )
    values = fields.Nested(TiebreakValuesOut, required=True)


class LeagueTableOut(Schema):
    standings = fields.List(fields.Nested(TableLineOut), required=True)
    tiebreakers = fields.List(fields.String(), required=True)


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


class ScheduledGameOut(Schema):
    name = fields.String(required=True, metadata={"example": "AGR S2 L3-B G1"})
    seats = fields.List(fields.String(), required=True)


class MeetingOut(Schema):
    players = fields.List(fields.String(), required=True)
    games = fields.Integer(required=True)


class ScheduleOut(Schema):
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


class NewPlayerIn(Schema):
    player = player_id()
    laurels = StrictFloat(load_default=0, validate=validate.Range(0, 10_000))


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


class FormedLeagueOut(Schema):
    league = fields.String(required=True)
    players = fields.List(fields.String(), required=True)


class DivisionOut(Schema):
    division = fields.Integer(required=True)
    leagues = fields.List(fields.Nested(FormedLeagueOut), required=True)


class MovementOut(Schema):
    player = fields.String(required=True)
    league = fields.String(required=True)
    division = fields.Integer(required=True)
    previous_division = fields.Integer(allow_none=True, required=True)
    movement = fields.String(
        required=True,
        validate=validate.OneOf(["promoted", "relegated", "stayed", "returning", "new"]),
    )


class FormationOut(Schema):
    divisions = fields.List(fields.Nested(DivisionOut), required=True)
    order = fields.List(fields.String(), required=True)
    movements = fields.List(fields.Nested(MovementOut), required=True)
    holes = fields.List(fields.String(), required=True)


class SeasonStandingIn(Schema):
    player = player_id()
    league_points = StrictFloat(required=True, validate=validate.Range(0, 10_000))


class SeasonLeagueIn(Schema):
    season = fields.Integer(required=True, strict=True, validate=validate.Range(1, 10_000))
    league = fields.String(required=True, validate=LEAGUE_NAME)
    standings = fields.List(
        fields.Nested(SeasonStandingIn),
        required=True,
        validate=validate.Length(1, 16),
        metadata={"description": "The league's final standings, winner first."},
    )


class LifetimeIn(Schema):
    leagues = fields.List(
        fields.Nested(SeasonLeagueIn), required=True, validate=validate.Length(1, 5000)
    )


class DivisionPointsOut(Schema):
    division = fields.Integer(required=True)
    league_points = StrictFloat(required=True)


class LifetimeLineOut(Schema):
    rank = fields.Integer(required=True)
    player = fields.String(required=True)
    seasons = fields.Integer(required=True)
    by_division = fields.List(fields.Nested(DivisionPointsOut), required=True)


class SeasonWinnerOut(Schema):
    season = fields.Integer(required=True)
    player = fields.String(required=True)


class LifetimeOut(Schema):
    standings = fields.List(fields.Nested(LifetimeLineOut), required=True)
    season_winners = fields.List(fields.Nested(SeasonWinnerOut), required=True)


# --- held organisations -----------------------------------------------------------------------

MAX_SIGNUPS = 1000


class OrganisationIn(Schema):
    name = event_name()
    code = fields.String(
        required=True,
        validate=validate.Regexp(r"^[A-Z0-9]{2,8}$", error="2-8 capital letters or digits"),
        metadata={
            "description": "The game's code, used in game names (AGR S2 L3-B G5).",
            "example": "AGR",
        },
    )


class SignUpIn(EntrantIn):
    laurels = StrictFloat(
        load_default=0,
        validate=validate.Range(0, 100_000),
        metadata={"description": "Lifetime BPA laurels in this game: orders new players."},
    )
    email = fields.Email(
        allow_none=True,
        validate=validate.Length(max=254),
        metadata={"description": "Where the season's letter goes (when SMTP is configured)."},
    )


class SignUpsIn(Schema):
    players = fields.List(
        fields.Nested(SignUpIn),
        required=True,
        validate=validate.Length(1, MAX_SIGNUPS),
        metadata={"description": "Players signing up, in sign-up order."},
    )


class SeasonSummaryOut(Schema):
    season = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["signup", "running", "closed"]))
    players = fields.Integer(required=True)
    leagues = fields.Integer(required=True)
    winner = fields.String(allow_none=True, required=True)


class OrganisationOut(HeldOut):
    code = fields.String(required=True)
    current_season = fields.Integer(allow_none=True, required=True)
    seasons = fields.List(fields.Nested(SeasonSummaryOut), required=True)


class OrganisationCreatedOut(OrganisationOut, TokenOut):
    pass


class SignUpOut(Schema):
    id = fields.String(required=True)
    name = fields.String(allow_none=True, required=True)
    laurels = StrictFloat(required=True)


class SeasonLeagueOut(Schema):
    league = fields.String(required=True)
    division = fields.Integer(required=True)
    players = fields.List(fields.String(), required=True)
    games = fields.Integer(required=True)
    reported = fields.Integer(required=True)


class SeasonOut(Schema):
    organisation = fields.String(required=True)
    season = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["signup", "running", "closed"]))
    signups = fields.List(fields.Nested(SignUpOut), required=True)
    leagues = fields.List(fields.Nested(SeasonLeagueOut), required=True)
    movements = fields.List(fields.Nested(MovementOut), required=True)
    holes = fields.List(fields.String(), required=True)
    winner = fields.String(allow_none=True, required=True)
    promoted = fields.List(fields.String(), required=True)
    relegated = fields.List(fields.String(), required=True)


class ReportingTokenOut(Schema):
    player = fields.String(required=True)
    token = fields.String(required=True)


class FormedOut(SeasonOut):
    reporting_tokens = fields.List(
        fields.Nested(ReportingTokenOut),
        required=True,
        metadata={"description": "Each player's reporting token: shown only here."},
    )
    letters_sent = fields.Integer(
        required=True,
        metadata={"description": "Letters handed to the SMTP server (0 without one)."},
    )
    letters_not_sent = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Players with an e-mail whose letter could not be sent."},
    )


class HeldGameOut(Schema):
    game = fields.Integer(required=True)
    name = fields.String(required=True)
    league = fields.String(required=True)
    seats = fields.List(fields.String(), required=True)
    results = fields.List(fields.Nested(LeagueResultIn), allow_none=True, required=True)
    reported_by = fields.String(allow_none=True, required=True)


class GameReportedOut(HeldGameOut):
    changes = changes_field()


class GameReportIn(Contract):
    requires = (SOMEONE_FINISHED,)

    results = fields.List(
        fields.Nested(LeagueResultIn),
        required=True,
        validate=validate.Length(2, 8),
        metadata={
            "description": "Every player of the game: score and finishing position (a "
            "player who abandoned it too, marked dropped_out, placed last)."
        },
    )


class HeldLeagueOut(Schema):
    organisation = fields.String(required=True)
    season = fields.Integer(required=True)
    league = fields.String(required=True)
    division = fields.Integer(required=True)
    standings = fields.List(fields.Nested(TableLineOut), required=True)
    games = fields.List(fields.Nested(HeldGameOut), required=True)
    tiebreakers = fields.List(fields.String(), required=True)


class LetterOut(Schema):
    player = fields.String(required=True)
    email = fields.String(allow_none=True, required=True)
    text = fields.String(required=True)


class LettersOut(Schema):
    season = fields.Integer(required=True)
    letters = fields.List(fields.Nested(LetterOut), required=True)
