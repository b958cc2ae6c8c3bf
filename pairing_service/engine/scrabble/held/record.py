"""A held Scrabble event's rounds and each player's record: a game's result, a player's
round (its outcome and the spread it counts), the rounds as paired, a row of the
standings; and every player's rounds read from the event's (``played_rounds``).

A game's spread is capped at the event's ``spread_cap`` either way when it has one; a
bye scores ``bye_spread``, a forfeit its own spread; a penalty comes off the (capped)
spread, after the result, as tsh takes it. An imported round's player without an opponent
(tsh's opponent 0) has the spread tsh gave them: a win above 0, a loss below, no result
at 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from ...errors import Conflict, NotFound
from .log_events import IMPORTED, NO_PENALTIES, EventSettings, Method, Pair, RoundMethod


@dataclass(frozen=True)
class GameResult:
    """A game's result: both scores in the game's order with the penalties taken off each
    player's spread, or the player who forfeited and the forfeit's spread."""

    scores: tuple[int, int] | None
    forfeit: str | None = None
    spread: int = 0
    penalties: tuple[int, int] = NO_PENALTIES
    players: Pair = field(default=("", ""), compare=False)  # the game's, for its words

    @property
    def margin(self) -> int:
        """By how much the game was won, as played: the scores' difference (0 a draw), or a
        forfeit's spread."""
        if self.scores is None:
            return self.spread
        return abs(self.scores[0] - self.scores[1])


Outcome = Literal["win", "draw", "loss", "bye", "forfeit_win", "forfeit_loss"]


@dataclass(slots=True)  # not frozen: a round of 400 players makes thousands of these
class PlayedRound:
    """One player's round: the opponent (None: a bye or a forfeit), the scores, the
    outcome and the spread it counts (a penalty taken off: ``penalty``)."""

    round: int
    opponent: str | None
    score: int | None
    against: int | None
    outcome: Outcome
    spread: int
    penalty: int = 0

    @property
    def half_wins(self) -> int:
        return {"win": 2, "bye": 2, "forfeit_win": 2, "draw": 1}.get(self.outcome, 0)


@dataclass
class ScrabbleRound:
    number: int
    method: RoundMethod
    games: list[Pair]
    bye: str | None
    repeats_allowed: int
    seed: int | None = None
    rule: str | None = None
    results: dict[int, GameResult] = field(default_factory=dict)  # game number (from 1)
    closed: bool = False
    # An imported round's players without an opponent -> their spread (tsh's opponent 0).
    sat_out: dict[str, int] = field(default_factory=dict)
    # A round robin's players whose opponent withdrew: a bye each, as the round's bye.
    unopposed: list[str] = field(default_factory=list)

    def paired_by(self) -> Method:
        """The method that paired the round; Conflict for a round imported from tsh."""
        if self.method == IMPORTED:
            raise Conflict(
                f"round {self.number} was imported as tsh paired it: it is not paired again"
            )
        return self.method

    def waiting(self) -> list[int]:
        return [g for g in range(1, len(self.games) + 1) if g not in self.results]

    def game(self, number: int) -> Pair:
        if not 1 <= number <= len(self.games):
            raise NotFound(f"round {self.number} has no game {number}")
        return self.games[number - 1]


@dataclass(frozen=True)
class Standing:
    rank: int
    player: str
    name: str | None
    rating: int
    wins: float  # a multiple of 0.5: exact
    losses: float
    spread: int
    games: int  # results counted: games, byes and forfeits
    byes: int
    opponents: tuple[str | None, ...]  # by round played: None for a bye or forfeit
    status: str  # active or withdrawn
    withdrawn_before_round: int | None


def played_rounds(
    players: Iterable[str], rounds: Sequence[ScrabbleRound], settings: EventSettings
) -> dict[str, list[PlayedRound]]:
    """Every player's rounds with a result so far (or a bye), in round order."""
    cap = settings.spread_cap
    record: dict[str, list[PlayedRound]] = {p: [] for p in players}
    for rnd in rounds:
        _without_opponent(record, rnd, settings.bye_spread)
        for number, pair in enumerate(rnd.games, start=1):
            result = rnd.results.get(number)
            if result is None:
                continue
            if result.scores is None:
                _forfeited(record, rnd.number, pair, result)
            else:
                _game(record, rnd.number, pair, result.scores, result.penalties, cap)
    return record


def _without_opponent(
    record: dict[str, list[PlayedRound]], rnd: ScrabbleRound, bye_spread: int
) -> None:
    """The round's byes, and an imported round's players without an opponent."""
    n = rnd.number
    # A round robin's unopposed players (their opponent withdrew) have a bye too.
    for player in rnd.unopposed if rnd.bye is None else [rnd.bye, *rnd.unopposed]:
        record[player].append(PlayedRound(n, None, None, None, "bye", bye_spread))
    for player, spread in rnd.sat_out.items():  # an imported round's opponent 0
        if spread:
            sat: Outcome = "bye" if spread > 0 else "forfeit_loss"
            record[player].append(PlayedRound(n, None, None, None, sat, spread))


def _forfeited(
    record: dict[str, list[PlayedRound]], n: int, pair: Pair, result: GameResult
) -> None:
    loser = result.forfeit
    for p in pair:
        outcome: Outcome = "forfeit_loss" if p == loser else "forfeit_win"
        spread = -result.spread if p == loser else result.spread
        record[p].append(PlayedRound(n, None, None, None, outcome, spread))


def _game(
    record: dict[str, list[PlayedRound]],
    n: int,
    pair: Pair,
    scores: tuple[int, int],
    penalties: tuple[int, int],
    cap: int | None,
) -> None:
    a, b = pair
    mine, theirs = scores
    pa, pb = penalties
    for p, q, own, other, penalty in ((a, b, mine, theirs, pa), (b, a, theirs, mine, pb)):
        margin = own - other
        if cap is not None:
            margin = max(-cap, min(cap, margin))
        outcome: Outcome = "win" if margin > 0 else "draw" if margin == 0 else "loss"
        if own != other and margin == 0:  # unreachable: a cap is at least 1
            outcome = "win" if own > other else "loss"
        # A penalty comes off the (capped) spread, after the result: as tsh.
        record[p].append(PlayedRound(n, q, own, other, outcome, margin - penalty, penalty))
