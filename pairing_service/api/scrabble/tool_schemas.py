"""Request schemas of the Scrabble final-round advisor and its audit (bounds stated here);
``answer_schemas.py`` holds the answers'."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from marshmallow import Schema, fields, post_load, validate, validates, validates_schema

from ...engine.errors import FieldError, Rule
from ...engine.scrabble import MAX_VICTORS, PREFERENCES
from ...engine.scrabble.cost import DEFAULT_REPEATS_ALLOWED, MAX_REPEATS_ALLOWED
from ..common import (
    ID_LENGTH,
    NAME_LENGTH,
    Contract,
    IdList,
    MultipleOf,
    Requires,
    StrictBoolean,
    StrictFloat,
    all_or_none,
    for_every,
    is_true,
    needs,
    one_of_fields,
    printable,
)
from ..csv_upload import file_read
from ..fast_fields import CheckedList
from .tool_requests import (
    DEFAULT_VICTORS,
    AuditRequest,
    FinalRoundRequest,
    ProposedGame,
    audit_request,
    final_round_request,
    proposed_game,
)

MAX_PLAYERS = 2000
MAX_ROUNDS_LEFT = 50
MAX_TSH_LENGTH = 500_000
MAX_LISTED_OUTCOMES = 729  # six games of contenders
MAX_GAMES = 500
MAX_SPREAD = 1_000_000
MAX_SPREAD_PER_ROUND = 10_000  # a game's, and a bye's or forfeit's
MAX_WINS = 1000
MAX_PRIZE = 1e9
VICTORS_OR_PRIZES = "give victors (equal places) or prizes (the places that pay), not both"


class PrizeAmount(StrictFloat):
    """A prize amount: a JSON number, kept exact as the Decimal of its digits (0.1 is
    Decimal("0.1")), answered as the number it was (a float: ``fields.Float`` dumps it;
    ``fields.Decimal`` would not do, as Flask's JSON writes a Decimal as text). An
    event's own amount, already a Decimal, loads as it is (a backup's import asks the
    requests again, ``api/held/backup.py``)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, Decimal):
            return value
        return Decimal(str(super()._deserialize(value, attr, data, **kwargs)))


def prizes_field() -> fields.List:  # type: ignore[type-arg]
    """The places that pay, in order: 1st, 2nd, ... each with its amount (null: paid,
    amount not given)."""
    return fields.List(
        PrizeAmount(allow_none=True, validate=validate.Range(0, MAX_PRIZE)),
        validate=validate.Length(1, MAX_VICTORS),
        metadata={
            "description": "The places that pay, in order (1st first), each with its amount "
            "or null (paid, amount not given: worth more than the next place). Places of "
            "equal amounts are equal places, where the seed's principles apply; places that "
            "pay differently are raced head to head, and a player certain of the money but "
            f"still racing for a better place is not Gibsonized. Instead of `victors`; at "
            f"most {MAX_VICTORS} places.",
            "example": [1000, 500, 250, 100, 100],
        },
    )


def refuse_victors_with_prizes(given: Any) -> None:
    """A request gives the places as ``victors`` or as ``prizes``, not both (``given``: the
    request's fields as sent, the query string's included, before defaults). A named rule:
    the query string's parameters cannot state it."""
    if isinstance(given, Mapping) and {"victors", "prizes"} <= given.keys():
        raise FieldError(("prizes",), VICTORS_OR_PRIZES, rule=Rule.VICTORS_OR_PRIZES)


def check_prizes_fall(value: list[Decimal | None], at: tuple[str, ...] = ("prizes",)) -> None:
    """Amounts never rise from one place to the next (``points-fall``)."""
    given = [amount for amount in value if amount is not None]
    if given != sorted(given, reverse=True):
        raise FieldError(
            at, "prize amounts must not rise from one place to the next", rule=Rule.POINTS_FALL
        )


# A text/csv body (api/csv_upload.py): an optional header, then one player a line,
# id,wins,spread[,name]. The pattern states what the parser and PlayerIn accept: an id of 1-64
# characters without comma, quote or control character that neither begins nor ends with a
# space (the parser strips them), wins in half-steps, a whole spread. It does not count the
# lines: "{0,1999}" of a line makes a regex too large for common engines (the Rust one behind
# schemathesis refuses it), so the description states the 2,000 players instead.
_SPACE = r"\x00-\x20\x7f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"


def _csv_pattern(separator: str) -> str:
    """One separator's CSV: an optional header in the columns' own order (any case), then
    ``id,wins,spread[,name]`` lines."""
    other = rf'{separator}"\x00-\x1f\x7f'
    ident = rf"[^{separator}\"{_SPACE}](?:[^{other}]{{0,62}}[^{separator}\"{_SPACE}])?"
    name = rf"(?:{separator}[^{other}]{{0,{NAME_LENGTH}}})?"
    row = rf"{ident}{separator}[0-9]{{1,3}}(?:\.[05])?{separator}-?[0-9]{{1,6}}{name}"
    header = rf"[Ii][Dd]{separator}[Ww][Ii][Nn][Ss]{separator}[Ss][Pp][Rr][Ee][Aa][Dd]"
    header += rf"(?:{separator}[Nn][Aa][Mm][Ee])?"
    return rf"(?:{header}\r?\n)?(?:{row}\r?\n)*{row}(?:\r?\n)?"


CSV_PATTERN = "^\ufeff?(?:" + "|".join(_csv_pattern(sep) for sep in (",", ";", "\t")) + ")$"
CSV_BODY = {
    "type": "string",
    "pattern": CSV_PATTERN,
    "description": "Standings as CSV: an optional header line, then one player a line, "
    f"1-{MAX_PLAYERS} of them, `id,wins,spread[,name]`; other fields go in the query string. "
    "A first line holding no number is a header: its columns are read by name, in any "
    "order (`id,spread,wins` too: the pattern shows the usual order), `id`, `wins` and "
    "`spread` required and no other column than `name`; `;` or a tab may separate the "
    "columns, and a byte-order mark may start the body (spreadsheets). UTF-8, unless "
    "the Content-Type declares a charset (`text/csv; charset=windows-1252`).",
}
TSH_BODY = {
    "type": "string",
    "minLength": 1,
    "maxLength": MAX_TSH_LENGTH,
    "pattern": "[^\\t\\n\\v\\f\\r ]",  # not blank: a blank body is a 400
    "description": "A tsh division file (.t); what a tsh file must hold is the named rule "
    "tsh-file (docs/validation.md).",
}


def _round_spread(description: str) -> fields.Integer:
    """A spread one round scores a player who does not play it (a bye, a forfeit)."""
    return fields.Integer(
        strict=True,
        validate=validate.Range(-MAX_SPREAD_PER_ROUND, MAX_SPREAD_PER_ROUND),
        metadata={"description": description},
    )


class PlayerIn(Schema):
    id = fields.String(
        required=True,
        validate=[validate.Length(1, ID_LENGTH), printable],
        metadata={"description": f"Unique player id, 1-{ID_LENGTH} characters.", "example": "A"},
    )
    name = fields.String(
        allow_none=True,
        validate=[validate.Length(max=NAME_LENGTH), printable],
        metadata={"example": "Ann"},
    )
    wins = StrictFloat(
        required=True,
        validate=[
            validate.Range(0, MAX_WINS),
            MultipleOf(0.5, error="wins must be a multiple of 0.5"),
        ],
        metadata={
            "description": "Wins so far, a multiple of 0.5 (a draw is half a win).",
            "example": 8,
        },
    )
    spread = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(-MAX_SPREAD, MAX_SPREAD),
        metadata={"description": "Cumulative spread (cume).", "example": 412},
    )
    withdrawn = StrictBoolean(
        load_default=False,
        metadata={
            "description": "The player has left the event: kept in the standings (their "
            "games count) but not paired."
        },
    )
    off_spread = _round_spread(
        "With `withdrawn`: the spread each round left scores for the "
        "player (tsh's `off`: negative a forfeit loss, positive a bye win, 0 no result). "
        "Their final record is then known: a player certain of a victor place sits the "
        "round out and the rest are judged for the places left; one who may still finish "
        "either side of a victor line is judged at that record (docs/scrabble.md). A "
        "tsh file's `off` section gives it; without it, a withdrawn player who can still "
        "be a victor is refused (withdrawn-contender)."
    )
    rank = fields.Integer(
        strict=True,
        validate=validate.Range(1, MAX_PLAYERS),
        metadata={
            "description": "Optional; if given for one player, give it for all "
            "(a permutation of 1..n that agrees with wins)."
        },
    )
    opponents = IdList(
        fields.String(allow_none=True, validate=[validate.Length(1, ID_LENGTH), printable]),
        validate=validate.Length(max=MAX_GAMES),
        metadata={"description": "Previous opponents' ids in round order; null for a bye."},
    )


_OFF_SPREAD_WITHDRAWN = {"anyOf": [is_true("withdrawn"), {"not": {"required": ["off_spread"]}}]}


def _players(sent: Any) -> list[tuple[int, Any]]:
    """The players as sent, numbered (none when they are not a list)."""
    listed = sent.get("players") if isinstance(sent, dict) else None
    return list(enumerate(listed)) if isinstance(listed, list | tuple) else []


def _off_ok(player: Any) -> bool:
    """``_OFF_SPREAD_WITHDRAWN`` in Python (the compiled schema is slow on 2,000 players)."""
    return (
        not isinstance(player, dict)
        or "off_spread" not in player
        or player.get("withdrawn") is True
    )


class PaidPlacesIn(Schema):
    """``prizes`` and its two checks, for every request that says which places pay (the
    final round, a held event's create, import and settings): amounts never rise, and
    ``victors`` is not given beside them."""

    prizes = prizes_field()

    @validates("prizes")
    def _prizes_fall(self, value: list[Decimal | None], **_: Any) -> None:
        check_prizes_fall(value)

    @validates_schema(pass_original=True)
    def _victors_or_prizes(self, _: Any, original: Any, **__: Any) -> None:
        refuse_victors_with_prizes(original)


class FinalRoundIn(Contract, PaidPlacesIn):
    requires = (
        Requires(one_of_fields("players", "tsh"), "players", "give either players or tsh"),
        Requires(needs("tsh_round", "tsh"), "tsh_round", "tsh_round needs tsh"),
        Requires(
            needs("tsh_complete_rounds_only", "tsh", when_true=True),
            "tsh_complete_rounds_only",
            "tsh_complete_rounds_only needs tsh",
        ),
        # A spread cap of the file's games: JSON standings carry their spread counted already.
        Requires(needs("spread_cap", "tsh"), "spread_cap", "spread_cap needs tsh"),
        all_or_none("players", "rank", "give a rank for every player or for none"),
        Requires(
            for_every("players", _OFF_SPREAD_WITHDRAWN),
            "players",
            "off_spread is for a withdrawn player: give withdrawn true",
            lambda sent: next(
                (f"players/{i}/off_spread" for i, p in _players(sent) if not _off_ok(p)), None
            ),
            lambda sent: all(_off_ok(p) for _, p in _players(sent)),
        ),
    )

    players = CheckedList(
        fields.Nested(PlayerIn),
        validate=validate.Length(1, MAX_PLAYERS),
        metadata={
            "description": f"The standings, 1-{MAX_PLAYERS} players (or give `tsh` instead)."
        },
    )
    tsh = fields.String(
        validate=validate.Length(1, MAX_TSH_LENGTH),
        metadata={
            "description": "A tsh division file (.t) instead of `players`: one player per "
            "line, `Surname, Given RATING opp1 opp2 ... ; score1 score2 ...` (opponent 0 is "
            "a bye). Player ids are the line numbers. Or send the file as text/plain."
        },
    )
    tsh_round = fields.Integer(
        strict=True,
        validate=validate.Range(0, MAX_GAMES),
        metadata={
            "description": "With `tsh`: pair after this round (default: every round with "
            "results; a partly entered last round is a 422 naming the first player without "
            "a result, unless `tsh_complete_rounds_only`)."
        },
    )
    tsh_complete_rounds_only = StrictBoolean(
        load_default=False,
        metadata={
            "description": "With `tsh`: pair after the last round every player has finished, "
            "leaving a partly entered round out (docs/tsh.md). As text/plain: "
            "`?complete_rounds_only=true`."
        },
    )
    spread_cap = fields.Integer(
        strict=True,
        validate=validate.Range(1, MAX_SPREAD_PER_ROUND),
        metadata={
            "description": "With `tsh`: the event's spread cap, the most spread one of the "
            "file's games counts either way (tsh's `config spread_cap`, which the file does "
            "not carry: it keeps the scores as played). Byes and forfeits count as written. "
            "Default: uncapped. The final round's own margins are `max_spread_per_game`'s.",
            "example": 250,
        },
    )
    rounds_left = fields.Integer(
        strict=True,
        load_default=1,
        validate=validate.Range(1, MAX_ROUNDS_LEFT),
        metadata={
            "description": "Rounds left including this one. With more than one, contention "
            "and Gibsonization use each player's best possible finish (as tsh does)."
        },
    )
    round = fields.Integer(
        strict=True,
        validate=validate.Range(1, MAX_GAMES + 1),
        metadata={
            "description": "The round being paired, for `tsh_commands` (with `tsh`: the round "
            "after the last one counted)."
        },
    )
    division = fields.String(
        validate=validate.Regexp(r"^[A-Za-z0-9]{1,16}$"),
        metadata={
            "description": "The tsh division's name, added to `tsh_commands` (tsh needs it "
            "when the event has more than one division).",
            "example": "A",
        },
    )
    tsh_commands = StrictBoolean(
        load_default=False,
        metadata={"description": "Also answer the pairing as tsh commands (`pair 3 7 8`)."},
    )
    list_outcomes = StrictBoolean(
        load_default=False,
        metadata={
            "description": f"Also list every outcome of the contenders' games and who finishes "
            f"as a victor in each (up to {MAX_LISTED_OUTCOMES} outcomes)."
        },
    )
    # No load_default: the answer says when the seed's two victors were assumed.
    victors = fields.Integer(
        strict=True,
        validate=validate.Range(1, MAX_VICTORS),
        metadata={
            "description": f"How many players share the victory, as equal places (default "
            f"{DEFAULT_VICTORS}, the seed's case; give `prizes` instead when places pay "
            "differently)."
        },
    )
    prefer = fields.String(
        load_default="table",
        validate=validate.OneOf(PREFERENCES),
        metadata={
            "description": "table: the seed's table row decides, and a pairing the engine "
            "proves ranks above it on the principles is answered under `alternatives`; "
            "principles: that pairing is recommended instead (the table's is the alternative)."
        },
    )
    repeats_allowed = fields.Integer(
        strict=True,
        load_default=DEFAULT_REPEATS_ALLOWED,
        validate=validate.Range(0, MAX_REPEATS_ALLOWED),
        metadata={
            "description": "The repeat allowance (tsh's repeats argument): among pairings the "
            "principles score alike, a pair who have met this many times or fewer may meet "
            "again at no cost but the last tie-break, rank order coming first; beyond it a "
            "meeting is avoided where it can be (a back-to-back rematch always is). Default 2: "
            "a second or third meeting rather than give up rank order, as real directors "
            "pair final rounds; a fourth only when needed (docs/scrabble.md, Pairing policy)."
        },
    )
    max_spread_per_game = fields.Integer(
        strict=True,
        allow_none=True,
        load_default=None,
        validate=validate.Range(1, MAX_SPREAD_PER_ROUND),
        metadata={
            "description": "Largest spread a player can gain or lose in one game. Null: unbounded, "
            "so clinching is decided on wins only (tsh assumes 500, COP 250)."
        },
    )

    @post_load(pass_original=True)
    def _request(self, loaded: dict[str, Any], sent: Any, **_: Any) -> FinalRoundRequest:
        """The typed request, with what reading an uploaded file found (``sent`` is the
        parser's ``FileBody`` then: its lines name a refused player, its notes warn)."""
        return final_round_request(loaded, file_read(sent))


class ProposedPairingIn(Contract):
    """A game of the proposal. The advice's own pairing objects are accepted as answered
    (a director pastes them back): their other fields are read but not used."""

    requires = (
        Requires(
            {
                "anyOf": [
                    {"not": {"required": ["spread"]}},
                    {"properties": {"players": {"maxItems": 1}}},
                ]
            },
            "spread",
            "spread is for a one-player entry (a bye, or a forfeit when negative)",
        ),
    )

    players = fields.List(
        fields.String(validate=[validate.Length(1, ID_LENGTH), printable]),
        required=True,
        validate=validate.Length(1, 2),
        metadata={"description": "Two ids, or one for the bye."},
    )
    bye = StrictBoolean(metadata={"description": "As answered by the advice; not used."})
    spread = _round_spread(
        "For one player: the spread the round scores them (a bye, or a "
        "forfeit when negative). A lone bye of an odd field without it, or with 50, is "
        "the bye the engine judges; every other one-player entry is a player sitting "
        "the round out with that known result (default 50), such as finalists resting "
        "on byes or a no-show's forfeit."
    )
    names = fields.List(
        fields.String(allow_none=True, validate=[validate.Length(max=NAME_LENGTH), printable]),
        validate=validate.Length(1, 2),
        metadata={"description": "As answered by the advice; not used."},
    )
    ranks = fields.List(
        fields.Integer(strict=True, validate=validate.Range(1, MAX_PLAYERS)),
        validate=validate.Length(1, 2),
        metadata={"description": "As answered by the advice; not used."},
    )
    repeats = fields.Integer(
        strict=True,
        validate=validate.Range(0, 1000),
        metadata={"description": "As answered by the advice; not used."},
    )
    reason = fields.String(
        validate=validate.Length(max=1000),
        metadata={"description": "As answered by the advice; not used."},
    )

    @post_load
    def _game(self, loaded: dict[str, Any], **_: Any) -> ProposedGame:
        return proposed_game(loaded)


class AuditIn(FinalRoundIn):
    pairings = fields.List(
        fields.Nested(ProposedPairingIn),
        required=True,
        validate=validate.Length(1, MAX_PLAYERS),
        metadata={"description": "The pairing to judge: every player exactly once."},
    )

    @post_load(pass_original=True)
    def _request(self, loaded: dict[str, Any], sent: Any, **_: Any) -> AuditRequest:
        return audit_request(loaded, file_read(sent))
