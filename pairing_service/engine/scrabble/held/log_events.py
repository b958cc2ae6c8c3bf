"""The events of a held Scrabble event's log (``engine/event_codec.py`` stores them): the
event's settings and players, each round's pairing with the method that made it, each
game's scores (or forfeit), late entrants, withdrawals and closed rounds; and the rounds
played before the event came to the service, imported from tsh (``tsh_import.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ...event_codec import LogEvent, NumberDecimal, omitted_when
from ...event_log import Creation, format_events
from ...round_ledger import (
    RESULT_CORRECTED,
    LateEntry,
    PlayerDropped,
    Reinstatement,
    Reseated,
    ResultEntry,
    RoundClosed,
    RoundStart,
    SettingsChange,
)

Method = Literal["seeded", "random", "swiss", "koth", "advisor", "round_robin"]
METHODS: tuple[Method, ...] = ("seeded", "random", "swiss", "koth", "advisor", "round_robin")
# How a round was paired: by one of the methods, or by tsh before the import ("tsh").
RoundMethod = Literal["seeded", "random", "swiss", "koth", "advisor", "round_robin", "tsh"]
# The event's default schedule (``schedule.py``): seeded, Swiss, the advisor last; or every
# round from the round robin's circle (``round_robin.py``).
PairingSystem = Literal["swiss", "round_robin"]
PAIRING_SYSTEMS: tuple[PairingSystem, ...] = ("swiss", "round_robin")
IMPORTED: Literal["tsh"] = "tsh"
ROUND_IMPORTED = "round_imported"
Pair = tuple[str, str]

NO_PENALTIES = (0, 0)
BYE_SPREAD = 50  # tsh's default: a bye is a win worth +50
DEFAULT_REPEATS_ALLOWED = 2  # the round's cost (``cost.py``): a 4th meeting is past it
DEFAULT_VICTORS = 2


@dataclass(frozen=True)
class RepeatsFor:
    """The director's repeat allowance for rounds ``first`` to ``last`` (tsh's ``pair`` and
    ``koth`` take one per round), instead of the event's."""

    first: int
    last: int
    repeats_allowed: int


@dataclass(frozen=True)
class EventSettings:
    """What the director sets at creation.

    ``rounds``: the rounds planned (the last is the final round); ``spread_cap``: the most
    spread one game counts for, either way (None: uncapped); ``bye_spread``: a bye's (and,
    unless the result says otherwise, a forfeit's) spread; ``repeats_allowed``: the
    meetings a pair may have before a round pairs them again, where the schedule does not
    ask for fewer; ``victors``: the places the final round's advisor pairs for; ``seed``:
    random pairings' seed (each round adds its number); ``prizes``: the places that pay, in
    order, with their amounts (``prize_places.PrizePlaces``; exact, stored as JSON numbers
    as they always were), instead of ``victors`` equal places; ``pairing_system``: the
    default schedule, ``swiss`` (seeded, Swiss, the advisor last) or ``round_robin``
    (every round from the round robin's circle)."""

    rounds: int
    spread_cap: int | None = None
    bye_spread: int = BYE_SPREAD
    repeats_allowed: int = DEFAULT_REPEATS_ALLOWED
    victors: int = DEFAULT_VICTORS
    seed: int = 0
    prizes: tuple[NumberDecimal | None, ...] | None = omitted_when(None)
    repeats_by_round: tuple[RepeatsFor, ...] = omitted_when(())

    def allowance(self, number: int) -> int:
        """Round ``number``'s repeat allowance: its range's, else the event's."""
        for given in self.repeats_by_round:
            if given.first <= number <= given.last:
                return given.repeats_allowed
        return self.repeats_allowed

    pairing_system: PairingSystem = omitted_when("swiss")  # noqa: RUF009

    @property
    def paid_places(self) -> int:
        """The places the final rounds pair for: ``prizes``' count, else ``victors``."""
        return self.victors if self.prizes is None else len(self.prizes)


@dataclass(frozen=True)
class Entrant:
    id: str
    name: str | None
    rating: int


@dataclass(frozen=True)
class Created(Creation):
    settings: EventSettings
    players: tuple[Entrant, ...]


@dataclass(frozen=True)
class RoundPaired(RoundStart):
    """A round's pairing as its method made it: the games in board order, the bye, the
    repeat allowance it kept to, (the advisor) the rule it followed or (a round robin) its
    place in the schedule, and a round robin's players whose opponent withdrew (a bye
    each)."""

    method: Method
    games: tuple[Pair, ...]
    bye: str | None
    repeats_allowed: int
    seed: int | None = omitted_when(None)  # a random round's
    rule: str | None = omitted_when(None)  # the advisor's rule, in words
    unopposed: tuple[str, ...] = omitted_when(())


@dataclass(frozen=True)
class Score:
    """A game's result as a correction keeps what it replaced: both scores (in the
    game's order) with their penalties, or who forfeited and the spread of the forfeit."""

    scores: tuple[int, int] | None
    forfeit: str | None = None
    spread: int = 0
    penalties: tuple[int, int] = omitted_when(NO_PENALTIES)


@dataclass(frozen=True)
class ResultEntered(ResultEntry):
    game: int
    players: Pair  # the game's, in its order: the history names them
    scores: tuple[int, int] | None  # None: a forfeit
    forfeit: str | None  # the player who forfeited
    spread: int  # the forfeit's spread (0 for a game played)
    # Points taken off each player's spread (in the game's order), as tsh's ``penalty``
    # section: spread only, never who won. Left out while none (the logs before them).
    penalties: tuple[int, int] = omitted_when(NO_PENALTIES)


@dataclass(frozen=True)
class ResultCorrected(ResultEntered):
    logged_as = RESULT_CORRECTED
    was: Score = field(kw_only=True)
    changes: tuple[str, ...] = omitted_when(())  # a correction of an earlier round only


@dataclass(frozen=True)
class PlayerEntered(LateEntry):
    rating: int
    before_round: int  # the rounds before it are unplayed for them (no result)


@dataclass(frozen=True)
class RoundRepaired(Reseated):
    """The open round's no-shows withdrawn and the round paired again by its method (a
    round robin's: the no-shows' opponents have a bye, ``unopposed``)."""

    games: tuple[Pair, ...]
    bye: str | None
    was: tuple[Pair, ...]
    was_bye: str | None
    unopposed: tuple[str, ...] = omitted_when(())
    was_unopposed: tuple[str, ...] = omitted_when(())


@dataclass(frozen=True)
class ImportedGame:
    """A game of an imported round: its players and both scores, as tsh had them, and the
    penalties tsh's ``penalty`` section took off each player's spread that round."""

    players: Pair
    scores: tuple[int, int]
    penalties: tuple[int, int] = omitted_when(NO_PENALTIES)


@dataclass(frozen=True)
class SatOut:
    """A player of an imported round without an opponent (tsh's opponent 0), and the
    round's spread: above 0 a bye or a forfeit won (a win), below 0 a forfeit lost (a
    loss), 0 an unplayed round (no result, as tsh counts it)."""

    player: str
    spread: int


@dataclass(frozen=True)
class RoundImported(LogEvent):
    """A round played before the event came to the service, as tsh paired and scored it:
    its games with their scores, and the players without an opponent. The round is
    complete: it is closed as it is imported."""

    logged_as = ROUND_IMPORTED
    round: int
    games: tuple[ImportedGame, ...]
    sat_out: tuple[SatOut, ...] = omitted_when(())


@dataclass(frozen=True)
class PlayerReinstated(Reinstatement):
    """A withdrawn player back before ``before_round``: the rounds they missed stay
    unplayed (no result, as a late entrant's), so nothing is added to catch up."""


@dataclass(frozen=True)
class SettingsChanged(SettingsChange):
    settings: EventSettings  # whole, as they now are


SCRABBLE_EVENTS = format_events(
    "a scrabble log",
    Created,
    RoundPaired,
    ResultEntered,
    ResultCorrected,
    RoundClosed,
    PlayerDropped,
    PlayerEntered,
    RoundRepaired,
    PlayerReinstated,
    SettingsChanged,
    RoundImported,
)
