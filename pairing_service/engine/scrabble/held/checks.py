"""What a held Scrabble event refuses: its limits (players, rounds, scores, penalties),
settings it cannot run, penalties out of range, and a round imported from tsh that it
cannot hold."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...errors import Conflict, FieldError, Rule, first_repeat, refuse_repeats
from ..pairing.advisor import MAX_VICTORS
from ..prize_places import PrizePlaces
from .log_events import IMPORTED, Entrant, EventSettings, ImportedGame, SatOut

if TYPE_CHECKING:
    from .event import ScrabbleEvent

MAX_PLAYERS = 1000
MAX_ROUNDS = 50
MAX_RATING = 4000
MAX_SCORE = 2000  # a game's score, either way
# A game's penalty, each player: tsh's time penalty is 10 a minute over, and a director
# who takes more than a game's worth of points has disqualified the player instead.
MAX_PENALTY = 500


class InvalidEvent(FieldError):
    """Input the event's rules cannot apply to, at ``at`` in the input."""


def check_imported(
    event: ScrabbleEvent, number: int, games: Sequence[ImportedGame], sat_out: Sequence[SatOut]
) -> None:
    """Refuse a round imported from tsh that the event cannot hold as round ``number``:
    every player in it once, in a game or without an opponent (a withdrawn player
    without one only), and every player not withdrawn in it; scores within bounds."""
    if any(r.method != IMPORTED for r in event.rounds):
        raise Conflict("rounds are imported from tsh only before the service pairs one")
    expected = len(event.rounds) + 1
    if number != expected:
        raise InvalidEvent(("round",), f"the next round is round {expected}, not {number}")
    if number > event.settings.rounds:
        raise InvalidEvent(
            ("round",), f"round {number} is beyond the {event.settings.rounds} planned"
        )
    seen: list[str] = []
    for index, game in enumerate(games):
        for player in game.players:
            if player in event.dropped:
                raise InvalidEvent(
                    ("games", index, "players"),
                    f"{player!r} withdrew before round {event.dropped[player]}: not paired",
                    rule=Rule.KNOWN_PLAYER,
                )
        seen += game.players
        if any(abs(score) > MAX_SCORE for score in game.scores):
            raise InvalidEvent(
                ("games", index, "scores"), f"a score is beyond {MAX_SCORE} either way"
            )
        check_penalties(game.penalties, ("games", index, "penalties"))
    seen += [s.player for s in sat_out]
    for player in seen:
        if player not in event.players:
            raise InvalidEvent(
                ("games",), f"{player!r} is not in this event", rule=Rule.KNOWN_PLAYER
            )
    twice = first_repeat(seen)
    if twice is not None:
        raise InvalidEvent(
            ("games",), f"{seen[twice]!r} is in round {number} twice", rule=Rule.UNIQUE_IDS
        )
    missing = [p for p in event.active() if p not in set(seen)]
    if missing:
        raise InvalidEvent(("games",), f"{missing[0]!r} has no game in round {number}")
    if any(abs(s.spread) > MAX_SCORE for s in sat_out):
        raise InvalidEvent(("sat_out",), f"a spread is beyond {MAX_SCORE} either way")


def check_penalties(penalties: Sequence[int], at: tuple[str | int, ...]) -> None:
    """Refuse penalties other than two whole numbers from 0 to ``MAX_PENALTY``."""
    if len(penalties) != 2 or any(
        isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= MAX_PENALTY
        for p in penalties
    ):
        raise InvalidEvent(at, f"two penalties, each a whole number from 0 to {MAX_PENALTY}")


def check_created(settings: EventSettings, players: Sequence[Entrant]) -> None:
    """Refuse an event the rules cannot run, naming the field."""
    if len(players) < 2:
        raise InvalidEvent(("players",), "an event needs at least two players")
    refuse_repeats([p.id for p in players], ("players",), InvalidEvent, ("id",))
    if not 1 <= settings.rounds <= MAX_ROUNDS:
        raise InvalidEvent(("rounds",), f"plan 1 to {MAX_ROUNDS} rounds")
    if not 1 <= settings.victors <= MAX_VICTORS:
        raise InvalidEvent(("victors",), f"the advisor pairs for 1 to {MAX_VICTORS} victors")
    check_round_ranges(settings)
    if settings.prizes is not None:
        if not 1 <= len(settings.prizes) <= MAX_VICTORS:
            raise InvalidEvent(("prizes",), f"the advisor pairs for 1 to {MAX_VICTORS} places")
        try:
            PrizePlaces(settings.prizes)
        except ValueError as refused:
            raise InvalidEvent(("prizes",), str(refused), rule=Rule.POINTS_FALL) from None


def check_round_ranges(settings: EventSettings) -> None:
    """Refuse ranges of rounds that are out of order, overlap or pass the rounds planned
    (a round has one allowance)."""
    after = 0
    for index, given in enumerate(settings.repeats_by_round):
        if given.first <= after:
            raise InvalidEvent(
                ("repeats_by_round", index, "first"),
                f"ranges run in order without overlapping: round {given.first} is covered already",
                rule=Rule.ROUND_RANGES,
            )
        if given.last < given.first:
            raise InvalidEvent(
                ("repeats_by_round", index, "last"),
                f"the range ends before it starts (round {given.first})",
                rule=Rule.ROUND_RANGES,
            )
        if given.last > settings.rounds:
            raise InvalidEvent(
                ("repeats_by_round", index, "last"),
                f"the event plans {settings.rounds} rounds",
                rule=Rule.ROUND_RANGES,
            )
        after = given.last
