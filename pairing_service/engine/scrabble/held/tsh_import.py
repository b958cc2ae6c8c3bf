"""A tsh division file (``.t``) as the rounds of a held Scrabble event, to continue in the
service an event started in tsh (``docs/tsh.md``, "Importing a division file").

The file is read by the service's own reader (``engine/scrabble/tsh.py``), which checks it
(each game listed on both lines, no round only partly entered) and says which rounds it
counts: every round with results. Then:

- **Players** are the file's lines, in order: id the tsh number (``"1"``, ``"2"``, ...),
  name as written (a member id after ``:`` included, so that the export gives it back),
  rating as written.
- **Each round counted** becomes a round as tsh paired it (``RoundImported``): every pair
  of players listing each other is a game with both scores as written (as played: the
  event's ``spread_cap`` caps the spread they count, as tsh's configuration does); every player with
  opponent 0 sat out with the score tsh wrote as the round's spread (a bye or a forfeit
  won above 0, a forfeit lost below, an unplayed round at 0: no result, as tsh counts it).
  A round only a withdrawn player has no result in (``00``) is unplayed for them.
- **A player marked ``off``** (withdrawn in tsh) is withdrawn before the round after their
  last game or bye won (before round 1 when they have none): the rounds after it hold what
  tsh wrote for them (its ``off`` spread each round), and the service pairs them no more.
- A round paired but without results (tsh writes pairings first) is left out: the service
  pairs that round.

- **A ``penalty`` section** (tsh's points off a player's spread, by round, negative) goes
  with the player's game of that round: the imported game keeps it as a penalty (spread
  only, never who won), as a director enters one.

Refused, naming the line: what the reader refuses; an ``initrec`` section (a held event
carries in no record); a penalty above 0 (a bonus: a held event only takes points off),
beyond what a director may enter, or in a round the player had no game counted (a bye, a
forfeit, a round not played: a held event takes penalties on games only); more rounds
than an event holds; a rating, score or name beyond what the service takes from a
director. So the event's standings are the file's.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..tsh import TshError, TshPlayer, parse_lines, read_division
from .checks import MAX_PENALTY, MAX_PLAYERS, MAX_RATING, MAX_ROUNDS, MAX_SCORE
from .log_events import Entrant, ImportedGame, SatOut

NAME_LENGTH = 100  # a player's name, as the API takes it at creation (``api/common.py``)


@dataclass(frozen=True)
class ImportedRound:
    games: tuple[ImportedGame, ...]
    sat_out: tuple[SatOut, ...]


@dataclass(frozen=True)
class TshEvent:
    """What a division file holds, as a held event's players and rounds."""

    players: tuple[Entrant, ...]
    rounds: tuple[ImportedRound, ...]
    withdrawn: dict[str, int]  # player -> the round they withdrew before


def read_tsh_event(text: str) -> TshEvent:
    """The players and played rounds of a division file; TshError naming the line."""
    division = read_division(text)
    lines = parse_lines(text)
    if len(lines) > MAX_PLAYERS:
        raise TshError(0, f"an event holds at most {MAX_PLAYERS} players, the file {len(lines)}")
    if division.rounds > MAX_ROUNDS:
        raise TshError(0, f"an event holds at most {MAX_ROUNDS} rounds, the file {division.rounds}")
    for p in lines:
        _check_player(p, division.rounds)
    rounds = tuple(_round(lines, r) for r in range(division.rounds))
    withdrawn = {
        str(p.number): _withdrew_before(p, division.rounds) for p in lines if p.off is not None
    }
    players = tuple(Entrant(str(p.number), p.name, p.rating) for p in lines)
    return TshEvent(players, rounds, withdrawn)


def _check_player(p: TshPlayer, rounds: int) -> None:
    for r, penalty in enumerate(p.penalties):
        if not penalty:
            continue
        if penalty > 0:
            raise TshError(p.line, f"round {r + 1}: a penalty above 0 (a held event takes off)")
        if -penalty > MAX_PENALTY:
            raise TshError(p.line, f"round {r + 1}: a penalty beyond {MAX_PENALTY}")
        if r >= rounds or not p.has_result(r) or not p.opponents[r]:
            raise TshError(p.line, f"round {r + 1}: a penalty without a game counted")
    if p.initial is not None:
        raise TshError(p.line, "an initrec section: a held event carries in no record")
    if len(p.name) > NAME_LENGTH:
        raise TshError(p.line, f"the name is longer than {NAME_LENGTH} characters")
    if any(ord(c) < 32 or ord(c) == 127 for c in p.name):
        raise TshError(p.line, "the name holds a control character")
    if p.rating > MAX_RATING:
        raise TshError(p.line, f"the rating is beyond {MAX_RATING}")
    for r in range(rounds):
        score = p.scores[r] if r < len(p.scores) else None
        if score is not None and abs(score) > MAX_SCORE:
            raise TshError(p.line, f"round {r + 1}: the score is beyond {MAX_SCORE} either way")


def _round(lines: list[TshPlayer], r: int) -> ImportedRound:
    """0-based round ``r`` of a file the reader has checked (each game on both lines)."""
    by_number = {p.number: p for p in lines}
    games: list[ImportedGame] = []
    sat_out: list[SatOut] = []
    for p in lines:
        opponent = p.opponents[r] if r < len(p.opponents) else None
        score = p.scores[r] if r < len(p.scores) else None
        if opponent is None or score is None:  # a withdrawn player's round without result
            continue
        if opponent == 0:
            sat_out.append(SatOut(str(p.number), score))
        elif p.number < opponent:
            other = by_number[opponent]
            theirs = other.scores[r]
            assert theirs is not None  # the reader refuses a game scored on one line only
            penalties = (-_penalty(p, r), -_penalty(other, r))
            games.append(ImportedGame((str(p.number), str(opponent)), (score, theirs), penalties))
    return ImportedRound(tuple(games), tuple(sat_out))


def _penalty(p: TshPlayer, r: int) -> int:
    return p.penalties[r] if r < len(p.penalties) else 0


def _withdrew_before(p: TshPlayer, rounds: int) -> int:
    """The round a player marked off withdrew before: after their last game or bye won."""
    played = [
        r
        for r in range(rounds)
        if r < len(p.opponents)
        and r < len(p.scores)
        and p.opponents[r] is not None
        and p.scores[r] is not None
        and (p.opponents[r] != 0 or (p.scores[r] or 0) > 0)
    ]
    return played[-1] + 2 if played else 1
