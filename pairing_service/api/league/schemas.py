"""Schemas of the Meeple League's held organisations (bounds stated here): sign-ups,
seasons, games reported, letters, players' records. The stateless tools' schemas, and the
pieces these answers share with them, are ``tool_schemas.py``. The answer schemas read the
engine's objects, or the views of ``views.py`` where an answer joins more than one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, get_args

from marshmallow import Schema, fields, post_load, validate, validates

from ...engine.errors import FieldError, Rule
from ...engine.league.history import short_words
from ...engine.league.log_events import DEFAULT_SHORT_GAMES, SHORT_GAME_MODES, ShortGames
from ...engine.league.season import SignUp
from ...engine.league.table import Result
from ...mail import Reason
from ..common import (
    NAME_LENGTH,
    Contract,
    StrictFloat,
    printable,
)
from ..fields import Count
from ..held.printables import TableFormatIn
from ..held.requests import UNSENT, Unsent, sent_or
from ..held.schemas import EntrantIn, HeldOut, TokenOut, changes_field, event_name
from .tool_schemas import (
    SOMEONE_FINISHED,
    LeagueResultIn,
    MovementOut,
    PairOut,
    TableLineOut,
    exact,
    tiebreakers_field,
)

# --- held organisations -----------------------------------------------------------------------

MAX_SIGNUPS = 1000


# What the organisation's requests load as (each schema's ``post_load``): the engine's own
# types where it has them (ShortGames, SignUp, Result), else these.


@dataclass(frozen=True)
class NewOrganisation:
    code: str
    name: str | None
    short_games: ShortGames | None  # None: the service's default


@dataclass(frozen=True)
class NewSeason:
    short_games: ShortGames | None = None  # None: the organisation's


@dataclass(frozen=True)
class SeasonSettingsChange:
    short_games: ShortGames


@dataclass(frozen=True)
class PlayerEdit:
    """An edit of a player's record: a field sent replaces the record's (null or "" clears
    it), a field not sent (``UNSENT``) stays."""

    name: str | Unsent | None = UNSENT
    email: str | Unsent | None = UNSENT

    def applied(self, name: str | None, email: str | None) -> tuple[str | None, str | None]:
        """The record's name and address after the edit ("" as None)."""
        return sent_or(self.name, name) or None, sent_or(self.email, email) or None


class ShortGamesIn(Schema):
    """How a game played with a seat empty (a player who did not come) is recorded."""

    mode = fields.String(
        required=True,
        validate=validate.OneOf(SHORT_GAME_MODES),
        metadata={
            "description": "dropped_out (the default: the absentee is listed dropped_out, "
            "placed last with no points, and the game stays a 4-player game: 10, 6, 3 for "
            "the three who played) or three_player (the absentee is left out of the report "
            "and the game is not theirs; the three who played score `points`)."
        },
    )
    points = fields.List(
        StrictFloat(validate=validate.Range(0, 1000)),
        load_default=lambda: [10, 6, 3],
        validate=validate.Length(3, 3),
        metadata={"description": "A 3-player game's league points, 1st-3rd (three_player)."},
    )

    @validates("points")
    def _falling(self, value: list[float], **_: Any) -> None:
        if value != sorted(value, reverse=True):
            raise FieldError(
                ("short_games", "points"),  # where every request carries this schema
                "points must not rise from one place to the next",
                rule=Rule.POINTS_FALL,
            )

    @post_load
    def _short_games(self, data: dict[str, Any], **_: Any) -> ShortGames:
        if data["mode"] == "dropped_out":
            return DEFAULT_SHORT_GAMES  # the 3-player scale applies to three_player only
        return ShortGames("three_player", tuple(exact(p) for p in data["points"]))


class ShortGamesOut(Schema):
    """Reads a :class:`~pairing_service.engine.league.log_events.ShortGames`."""

    mode = fields.String(required=True, validate=validate.OneOf(SHORT_GAME_MODES))
    points = fields.List(StrictFloat(), required=True)
    words = fields.Method(
        "_words", required=True, metadata={"description": "The setting in words."}
    )

    def _words(self, short: ShortGames) -> str:
        return short_words(short)


def short_games_field(**kwargs: Any) -> fields.Nested:
    return fields.Nested(
        ShortGamesIn,
        metadata={
            "description": "How a game played with a seat empty is recorded (default: "
            "the absentee dropped out, as the service always did); changeable until the "
            "season's first result."
        },
        **kwargs,
    )


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
    short_games = short_games_field()

    @post_load
    def _request(self, data: dict[str, Any], **_: Any) -> NewOrganisation:
        return NewOrganisation(data["code"], data.get("name"), data.get("short_games"))


class SeasonIn(Schema):
    short_games = short_games_field()

    @post_load
    def _request(self, data: dict[str, Any], **_: Any) -> NewSeason:
        return NewSeason(data.get("short_games"))


class SeasonSettingsIn(Schema):
    short_games = short_games_field(required=True)

    @post_load
    def _request(self, data: dict[str, Any], **_: Any) -> SeasonSettingsChange:
        return SeasonSettingsChange(data["short_games"])


class SignUpIn(EntrantIn):
    laurels = StrictFloat(
        load_default=0,
        validate=validate.Range(0, 100_000),
        metadata={"description": "Lifetime BPA laurels in this game: orders new players."},
    )
    email = fields.Email(
        allow_none=True,
        validate=validate.Length(max=254),
        metadata={
            "description": "Where the season's letter goes (when SMTP is configured); a "
            "returner who gives none keeps the address of their record."
        },
    )

    @post_load
    def _signup(self, data: dict[str, Any], **_: Any) -> SignUp:
        return SignUp(data["id"], data.get("name"), exact(data["laurels"]), data.get("email"))


class SignUpsIn(Schema):
    players = fields.List(
        fields.Nested(SignUpIn),
        required=True,
        validate=validate.Length(1, MAX_SIGNUPS),
        metadata={"description": "Players signing up, in sign-up order."},
    )

    @post_load
    def _request(self, data: dict[str, Any], **_: Any) -> tuple[SignUp, ...]:
        return tuple(data["players"])


class SeasonSummaryOut(Schema):
    """Reads a :class:`~pairing_service.engine.league.season.Season`."""

    season = fields.Integer(required=True, attribute="number")
    status = fields.String(required=True, validate=validate.OneOf(["signup", "running", "closed"]))
    players = Count(required=True, attribute="signups")
    leagues = Count(required=True)
    winner = fields.String(allow_none=True, required=True)


class OrganisationOut(HeldOut):
    """Reads a held :class:`~pairing_service.engine.league.organisation.Organisation`."""

    code = fields.String(required=True, attribute="state.code")
    current_season = fields.Integer(
        allow_none=True,
        required=True,
        attribute="state.latest.number",
        dump_default=None,  # before the first season there is no latest
    )
    seasons = fields.List(fields.Nested(SeasonSummaryOut), required=True, attribute="state.seasons")
    short_games = fields.Nested(
        ShortGamesOut,
        required=True,
        attribute="state.short_games",
        metadata={"description": "The seasons' default for a game with a seat empty."},
    )


class OrganisationCreatedOut(OrganisationOut, TokenOut):
    pass


class SignUpOut(Schema):
    """Reads a :class:`~pairing_service.engine.league.season.SignUp`."""

    id = fields.String(required=True, attribute="player")
    name = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The display name: given at this sign-up, else the record's."},
    )
    laurels = StrictFloat(required=True)


class SeasonLeagueOut(Schema):
    """Reads a :class:`LeagueProgress`."""

    league = fields.String(required=True, attribute="league.name")
    division = fields.Integer(required=True, attribute="league.division")
    players = fields.List(fields.String(), required=True, attribute="league.players")
    games = Count(required=True, attribute="league.games")
    reported = fields.Integer(required=True)


class SeasonOut(Schema):
    """Reads a :class:`HeldSeason`."""

    organisation = fields.String(required=True)
    season = fields.Integer(required=True, attribute="season.number")
    status = fields.String(
        required=True,
        attribute="season.status",
        validate=validate.OneOf(["signup", "running", "closed"]),
    )
    signups = fields.List(fields.Nested(SignUpOut), required=True)
    leagues = fields.List(fields.Nested(SeasonLeagueOut), required=True)
    movements = fields.List(fields.Nested(MovementOut), required=True, attribute="season.movements")
    holes = fields.List(fields.String(), required=True, attribute="season.holes")
    winner = fields.String(allow_none=True, required=True, attribute="season.winner")
    promoted = fields.List(fields.String(), required=True)
    relegated = fields.List(fields.String(), required=True)
    short_games = fields.Nested(
        ShortGamesOut,
        required=True,
        attribute="season.short_games",
        metadata={"description": "How this season records a game with a seat empty."},
    )
    warnings = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "What the write just made asks the organiser to check: a CSV read "
            "as Windows-1252, players signed up under the same name."
        },
    )
    drop_out_flags = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "Players signed up who dropped out of a game in an earlier season, "
            "with the games: the seed takes their place in future events away, and the GM "
            "decides (the service refuses no one)."
        },
    )


class ReportingTokenOut(PairOut):
    """Reads a reporting token of :class:`FormedSeason`: (player, token)."""

    player = fields.String(required=True)
    token = fields.String(required=True)


class LetterNotSentOut(Schema):
    """Reads a :class:`LetterNotSent`."""

    player = fields.String(required=True)
    reason = fields.String(
        required=True,
        validate=validate.OneOf(get_args(Reason)),
    )
    detail = fields.String(required=True)
    letter = fields.String(
        required=True,
        metadata={
            "description": "The player's letter, their reporting token filled in, for the "
            "organiser to send by hand (answered this once, with the tokens)."
        },
    )


class FormedOut(SeasonOut):
    """Reads a :class:`FormedSeason`."""

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
        fields.Nested(LetterNotSentOut),
        required=True,
        metadata={
            "description": "Every player not mailed, in sign-up order, and why: no e-mail "
            "address, no mail server configured, refused by the mail server, or the server "
            "could not be reached. Their letters are at GET …/letters (with the director "
            "token: each player's token filled in)."
        },
    )
    link_warning = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "description": "Null, or why the letters' links would not open on players' "
            "phones (built from a loopback or private address with no PAIRING_PUBLIC_URL). "
            "The letters are mailed all the same (an address on the club's own network can "
            "be meant: phones in the room open it); with this warning, set the address and "
            "send corrected letters from GET …/letters, whose links then start with it."
        },
    )


class HeldGameOut(Schema):
    """Reads a :class:`~pairing_service.engine.league.season.HeldGame`."""

    game = fields.Integer(required=True, attribute="number")
    name = fields.String(required=True)
    league = fields.String(required=True)
    seats = fields.List(fields.String(), required=True)
    results = fields.List(fields.Nested(LeagueResultIn), allow_none=True, required=True)
    reported_by = fields.String(allow_none=True, required=True)


class GameReportedOut(HeldGameOut):
    """Reads a :class:`ReportedGame`."""

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

    @post_load
    def _request(self, data: dict[str, Any], **_: Any) -> tuple[Result, ...]:
        return tuple(data["results"])


class LeagueFormatIn(TableFormatIn):
    rows = fields.String(
        load_default="games",
        validate=validate.OneOf(["games", "standings"]),
        metadata={
            "description": "As CSV or text: games (a line a seat, the default) or standings "
            "(the league table: names, points as decimals, every tiebreak value)."
        },
    )


class HeldLeagueOut(Schema):
    """Reads a :class:`LeaguePage`."""

    organisation = fields.String(required=True)
    season = fields.Integer(required=True)
    league = fields.String(required=True, attribute="league.name")
    division = fields.Integer(required=True, attribute="league.division")
    standings = fields.List(fields.Nested(TableLineOut), required=True)
    games = fields.List(fields.Nested(HeldGameOut), required=True)
    tiebreakers = tiebreakers_field()


class LetterOut(Schema):
    """Reads a :class:`Letter`."""

    player = fields.String(required=True)
    email = fields.String(allow_none=True, required=True)
    text = fields.String(
        required=True,
        metadata={
            "description": "The letter. With the organisation's director token, the "
            "player's reporting token filled in in its link; else a placeholder."
        },
    )
    token_filled_in = fields.Boolean(
        required=True,
        metadata={
            "description": "Whether the link carries the player's working token (false on "
            "a public read; with the director token, false only for a token issued before "
            "the director token was replaced: reissue it, POST …/players/{id}/token)."
        },
    )


class LettersOut(Schema):
    """Reads :class:`SeasonLetters`."""

    season = fields.Integer(required=True)
    letters = fields.List(fields.Nested(LetterOut), required=True)
    link_warning = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "description": "Null, or why the letters' links would not open on players' "
            "phones (built from a loopback or private address with no PAIRING_PUBLIC_URL): "
            "read it before sending them."
        },
    )


class ReissuedTokenOut(Schema):
    """Reads a :class:`ReissuedToken`."""

    player = fields.String(required=True)
    token = fields.String(
        required=True,
        metadata={"description": "The player's new reporting token; the old one is retired."},
    )
    letter = fields.String(
        required=True,
        metadata={"description": "The player's letter, the new token filled in, to send."},
    )
    link_warning = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "As in the formation's answer."},
    )


# --- players across seasons -------------------------------------------------------------------


class PlayerEditIn(Schema):
    """An edit of a player's record: the fields sent replace the record's (null clears)."""

    name = fields.String(allow_none=True, validate=[validate.Length(max=NAME_LENGTH), printable])
    email = fields.Email(allow_none=True, validate=validate.Length(max=254))

    @post_load
    def _request(self, data: dict[str, Any], **_: Any) -> PlayerEdit:
        return PlayerEdit(**data)


class PlayedSeasonOut(Schema):
    """Reads a :class:`PlayedSeason`."""

    season = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["signup", "running", "closed"]))
    league = fields.String(allow_none=True, required=True)
    division = fields.Integer(allow_none=True, required=True)
    place = fields.Integer(allow_none=True, required=True)
    league_points = StrictFloat(allow_none=True, required=True)


class PlayerOut(Schema):
    """Reads a :class:`PlayerView`."""

    id = fields.String(required=True)
    name = fields.String(allow_none=True, required=True)
    email = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "Only with the organisation's director token; else null."},
    )
    seasons = fields.List(fields.Nested(PlayedSeasonOut), required=True)


class PlayersOut(Schema):
    players = fields.List(fields.Nested(PlayerOut), required=True)
