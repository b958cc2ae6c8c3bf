"""What a request to the Scrabble tools asks, as ``tool_schemas.FinalRoundIn`` and
``AuditIn`` load it: the standings (JSON players or a tsh file), the options, the parts of
the answer asked for, and what reading an uploaded file found.

A field the request may leave out and cannot give as null is None when left out; where
leaving it out means something (``victors``: the seed's two places are assumed), the
properties here say so. The players stay the mappings the schema checked (``PlayerIn``'s,
loaded at once by ``fast_fields.CheckedList``): ``tools.standings_of`` reads them into the
engine's standings, and objects of their own would cost a 2,000-player request about 2.5 ms
more for nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ...engine.scrabble import PrizePlaces
from ..csv_upload import FileRead

DEFAULT_VICTORS = 2


@dataclass(frozen=True)
class TshFile:
    """A tsh division file sent instead of players, and how to read it (docs/tsh.md)."""

    text: str
    round: int | None  # pair after this round; None: after every round with results
    complete_rounds_only: bool
    spread_cap: int | None  # the event's cap on one game's spread; None: uncapped


@dataclass(frozen=True)
class Options:
    """How the round is judged: the places that pay, the spread a game may swing, the
    rounds left, the preference between table and principles, the repeat allowance."""

    victors: int | None  # as given; None: not given
    prizes: tuple[Decimal | None, ...] | None  # as given; None: not given
    max_spread_per_game: int | None  # None: unbounded (null, or left out)
    rounds_left: int
    prefer: str
    repeats_allowed: int

    @property
    def places(self) -> int:
        """The places that pay: ``victors``, or as many as ``prizes`` lists."""
        if self.prizes is not None:
            return len(self.prizes)
        return DEFAULT_VICTORS if self.victors is None else self.victors

    @property
    def places_given(self) -> bool:
        """Whether the request says which places pay (``victors`` or ``prizes``)."""
        return self.victors is not None or self.prizes is not None

    @property
    def prize_places(self) -> PrizePlaces | None:
        """The request's prize places, if it gives them."""
        return None if self.prizes is None else PrizePlaces(self.prizes)


@dataclass(frozen=True, kw_only=True)
class FinalRoundRequest:
    """``POST /v1/scrabble/final-round``: standings as ``players`` or ``tsh`` (exactly
    one), the options, and the answer's parts asked for."""

    players: tuple[Mapping[str, Any], ...] | None  # PlayerIn's, checked
    tsh: TshFile | None
    options: Options
    round: int | None  # the round paired, for tsh_commands; None: not given
    division: str | None  # the tsh division named in tsh_commands; None: not given
    tsh_commands: bool
    list_outcomes: bool
    file: FileRead  # what reading an uploaded file found (empty for JSON)


@dataclass(frozen=True)
class ProposedGame:
    """An entry of a proposed pairing: two players, or one with the spread the round
    scores them (None: not given, the bye's)."""

    players: tuple[str, ...]
    spread: int | None


@dataclass(frozen=True, kw_only=True)
class AuditRequest(FinalRoundRequest):
    """``POST /v1/scrabble/audit``: a final round's request and the pairing to judge."""

    pairings: tuple[ProposedGame, ...]


def proposed_game(loaded: Mapping[str, Any]) -> ProposedGame:
    """A proposed game as ``ProposedPairingIn`` loaded it (the advice's other fields, pasted
    back, are not used)."""
    return ProposedGame(tuple(loaded["players"]), loaded.get("spread"))


def _request_fields(loaded: Mapping[str, Any], file: FileRead) -> dict[str, Any]:
    """A final round's request fields from ``FinalRoundIn``'s load (defaults filled in)."""
    players = loaded.get("players")
    text = loaded.get("tsh")
    prizes = loaded.get("prizes")
    return {
        "players": None if players is None else tuple(players),
        "tsh": None
        if text is None
        else TshFile(
            text,
            loaded.get("tsh_round"),
            loaded["tsh_complete_rounds_only"],
            loaded.get("spread_cap"),
        ),
        "options": Options(
            victors=loaded.get("victors"),
            prizes=None if prizes is None else tuple(prizes),
            max_spread_per_game=loaded["max_spread_per_game"],
            rounds_left=loaded["rounds_left"],
            prefer=loaded["prefer"],
            repeats_allowed=loaded["repeats_allowed"],
        ),
        "round": loaded.get("round"),
        "division": loaded.get("division"),
        "tsh_commands": loaded["tsh_commands"],
        "list_outcomes": loaded["list_outcomes"],
        "file": file,
    }


def final_round_request(loaded: Mapping[str, Any], file: FileRead) -> FinalRoundRequest:
    """The final round's request from ``FinalRoundIn``'s load and the file read, if any."""
    return FinalRoundRequest(**_request_fields(loaded, file))


def audit_request(loaded: Mapping[str, Any], file: FileRead) -> AuditRequest:
    """The audit's request from ``AuditIn``'s load (its pairings already ``ProposedGame``)."""
    pairings: Sequence[ProposedGame] = loaded["pairings"]
    return AuditRequest(**_request_fields(loaded, file), pairings=tuple(pairings))
