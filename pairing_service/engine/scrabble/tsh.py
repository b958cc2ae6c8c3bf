"""tsh interoperability: read a division file (``.t``), write ``pair`` commands.

A ``.t`` line is ``Surname, Given RATING opp1 opp2 ... ; score1 score2 ...`` (tsh may add
more ``;`` sections after the scores; they are ignored). Players are numbered by line from
1, which is their tsh id and the id used here. Opponent ``0`` is a bye (or a forfeit): the
score then is the spread itself, a win when positive, a loss when negative, a draw at 0 —
as tsh records byes (+50 by default) and forfeits. Otherwise the spread of a game is the
player's score minus the opponent's score in that round, and the result follows from it.

Contract: ``read_division(text, after_round)`` returns players with wins (half-wins),
spread and previous opponents over the first ``after_round`` rounds (default: every round
all players have played), or raises :class:`TshError` naming the line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .standings import Player

_LINE = re.compile(r"^(?P<name>.*?\S)\s+(?P<rating>\d+)(?P<opponents>(?:\s+\d+)*)\s*$")
MAX_LINES = 2000
MAX_ROUNDS = 200


class TshError(ValueError):
    """A division file that cannot be read; ``line`` is 1-based (0: the whole file)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message


@dataclass(frozen=True)
class TshPlayer:
    number: int
    name: str
    rating: int
    opponents: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True)
class Division:
    players: tuple[Player, ...]
    rounds: int  # the rounds counted: the next round to pair is rounds + 1


def parse_lines(text: str) -> list[TshPlayer]:
    players: list[TshPlayer] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if len(players) >= MAX_LINES:
            raise TshError(number, f"more than {MAX_LINES} players")
        head, sep, rest = line.partition(";")
        if not sep:
            raise TshError(number, "expected 'name rating opponents ; scores'")
        match = _LINE.match(head)
        if match is None:
            raise TshError(number, "expected a name, a rating and opponent numbers before ';'")
        score_text = rest.split(";", 1)[0]
        try:
            scores = tuple(int(x) for x in score_text.split())
        except ValueError as exc:
            raise TshError(number, "scores must be whole numbers") from exc
        opponents = tuple(int(x) for x in match.group("opponents").split())
        if len(opponents) > MAX_ROUNDS or len(scores) > MAX_ROUNDS:
            raise TshError(number, f"more than {MAX_ROUNDS} rounds")
        if any(abs(s) > 10_000 for s in scores):
            raise TshError(number, "a score is beyond 10,000")
        players.append(
            TshPlayer(
                len(players) + 1, match.group("name"), int(match.group("rating")), opponents, scores
            )
        )
    if not players:
        raise TshError(0, "the division file has no players")
    return players


def read_division(text: str, after_round: int | None = None) -> Division:
    lines = parse_lines(text)
    played = min(min(len(p.opponents), len(p.scores)) for p in lines)
    rounds = played if after_round is None else after_round
    if rounds > played:
        raise TshError(0, f"round {rounds} is not complete: every player has {played} results")
    by_number = {p.number: p for p in lines}
    players = []
    for p in lines:
        half_wins = 0
        spread = 0
        opponents: list[str | None] = []
        for r in range(rounds):
            opponent = p.opponents[r]
            score = p.scores[r]
            if opponent == 0:
                margin = score
                opponents.append(None)
            else:
                other = by_number.get(opponent)
                if other is None or opponent == p.number:
                    raise TshError(_line_of(text, p.number), f"round {r + 1}: no player {opponent}")
                if other.opponents[r] != p.number:
                    raise TshError(
                        _line_of(text, p.number),
                        f"round {r + 1}: player {opponent} did not play player {p.number}",
                    )
                margin = score - other.scores[r]
                opponents.append(str(opponent))
            spread += margin
            half_wins += 2 if margin > 0 else 1 if margin == 0 else 0
        players.append(
            Player(
                str(p.number),
                half_wins,
                spread,
                name=_display_name(p.name),
                opponents=tuple(opponents),
            )
        )
    return Division(tuple(players), rounds)


def _display_name(name: str) -> str:
    """ "Surname, Given" -> "Given Surname"; other forms unchanged."""
    surname, sep, given = name.partition(",")
    return f"{given.strip()} {surname.strip()}" if sep and given.strip() else name.strip()


def _line_of(text: str, number: int) -> int:
    """The file line of the ``number``-th player line."""
    seen = 0
    for index, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line and not line.startswith("#"):
            seen += 1
            if seen == number:
                return index
    return 0


def pair_commands(pairs: Sequence[Sequence[str]], round_number: int) -> list[str]:
    """tsh commands for a round: ``pair ID1 ID2 ROUND``; a bye is ``pair ID 0 ROUND``."""
    commands = []
    for players in pairs:
        first = players[0]
        second = players[1] if len(players) > 1 else "0"
        commands.append(f"pair {first} {second} {round_number}")
    return commands
