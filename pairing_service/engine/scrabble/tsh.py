"""tsh interoperability: read a division file (``.t``), write ``pair`` commands.

A ``.t`` line is ``Surname, Given RATING opp1 opp2 ... ; score1 score2 ... ; tag words ...``.
Players are numbered by line from 1, which is their tsh id and the id used here. ``00``
stands for "not yet": a round not paired, or a score not entered. Opponent ``0`` is a bye
or a forfeit: its score is the spread itself, a win when positive, a loss when negative,
and no game at all at 0 (tsh counts neither a win nor a loss). Otherwise the result of a
game follows from the two scores, and its spread is the player's score minus the
opponent's (at most the event's spread cap either way, when it has one: the file keeps
the scores as played, and tsh caps the spread only as it counts it) plus any ``penalty``
for that round. Of the tagged sections after the scores, ``off`` (the player withdrew:
tsh pairs them no more and scores each later round as a bye of that spread), ``penalty``
(spread penalties by round) and ``initrec`` (a record carried in: wins, losses, spread)
are read; the others are ignored. ``docs/tsh.md`` has each reading with its reason.

Contract: ``read_division(text, after_round, complete_rounds_only=False, spread_cap=None)``
returns players with wins (half-wins), spread and previous opponents over the rounds
counted, and which players withdrew, or raises :class:`TshError` naming the line. The
rounds counted are ``after_round`` when given (it must be complete), else every round with
results; a round that only some players have results for is an error naming the first
player without one, unless ``complete_rounds_only``, which counts the complete rounds and
leaves it out. Withdrawn players do not make a round incomplete.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .errors import ScrabbleEngineError
from .standings import Player, half_wins_of

_HEAD = re.compile(r"^(?P<name>.*?\S)\s+(?P<rating>\d+)(?P<opponents>(?:\s+\d+)*)\s*$")
_SECTION = re.compile(r"(?:\\.|[^\\;])+")  # a ';'-separated section; '\;' escapes a ';'
_MEMBER_ID = re.compile(r":(?:[A-Z]{2}\d{6})?(?:/\d+)?,?$")  # "Chew, John:AA000000"
MAX_LINES = 2000
MAX_ROUNDS = 200


class TshError(ScrabbleEngineError, ValueError):
    """A division file that cannot be read; ``line`` is 1-based (0: the whole file)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message


class PartlyEntered(TshError):
    """A round partly entered where every round counted must be complete: ``complete``
    rounds are, which a request may ask to pair after."""

    def __init__(self, line: int, message: str, complete: int) -> None:
        super().__init__(line, message)
        self.complete = complete


@dataclass(frozen=True)
class TshPlayer:
    """One line as written. ``None`` in ``opponents`` or ``scores`` is tsh's ``00``."""

    number: int
    name: str
    rating: int
    opponents: tuple[int | None, ...]
    scores: tuple[int | None, ...]
    line: int = 0
    off: int | None = None  # the ``off`` section: withdrawn, each later round this spread
    penalties: tuple[int, ...] = ()
    initial: tuple[int, int] | None = None  # the ``initrec`` section: (half-wins, spread)

    def has_result(self, r: int) -> bool:
        """True when 0-based round ``r`` has both an opponent (or 0) and a score."""
        return (
            r < len(self.opponents)
            and self.opponents[r] is not None
            and r < len(self.scores)
            and self.scores[r] is not None
        )

    @property
    def label(self) -> str:
        return f"{_display_name(self.name)} (player {self.number})"


@dataclass(frozen=True)
class Division:
    players: tuple[Player, ...]
    rounds: int  # the rounds counted: the next round to pair is rounds + 1
    # Players marked ``off`` in the file (they withdrew): id -> the spread tsh gives each of
    # their later rounds. They are in ``players`` (their games count) but not to be paired.
    withdrawn: Mapping[str, int] = field(default_factory=dict)
    # The first round after ``rounds`` that has some results but not all (then left out),
    # and the last round with any result (rounds up to it were left out too).
    partly_entered: int | None = None
    rounds_entered: int = 0
    # Players not withdrawn whose last counted round was a forfeit loss or an unplayed
    # round (opponent 0, score <= 0): tsh pairs them; if they left, they should be ``off``.
    absent_last_round: tuple[str, ...] = ()


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
        match = _HEAD.match(head)
        if match is None:
            raise TshError(number, "expected a name, a rating and opponent numbers before ';'")
        score_text, _, tagged = rest.partition(";")
        opponents = _numbers(match.group("opponents"), number, "opponent numbers")
        scores = _numbers(score_text, number, "scores")
        if len(opponents) > MAX_ROUNDS or len(scores) > MAX_ROUNDS:
            raise TshError(number, f"more than {MAX_ROUNDS} rounds")
        if any(s is not None and abs(s) > 10_000 for s in scores):
            raise TshError(number, "a score is beyond 10,000")
        if len(scores) > len(opponents):  # a round still to be scored has an opponent only
            raise TshError(
                number,
                f"round {len(opponents) + 1} has a score but no opponent "
                f"({len(scores)} scores, {len(opponents)} opponents)",
            )
        sections = _sections(tagged)
        players.append(
            TshPlayer(
                len(players) + 1,
                match.group("name"),
                int(match.group("rating")),
                opponents,
                scores,
                line=number,
                off=_off(sections, number),
                penalties=_penalties(sections, number),
                initial=_initial(sections, number),
            )
        )
    if not players:
        raise TshError(0, "the division file has no players")
    return players


def read_division(
    text: str,
    after_round: int | None = None,
    *,
    complete_rounds_only: bool = False,
    spread_cap: int | None = None,
) -> Division:
    """The standings of a division file over the rounds counted (see the module's contract).

    ``spread_cap``: the most spread a game counts either way (tsh's ``spread_cap``, which
    its configuration holds, not the file); byes and forfeits count their spread as
    written.

    ``after_round`` counts rounds 1..after_round, which every player not withdrawn must
    have results for; it takes precedence over ``complete_rounds_only``. Without it, every
    round with results is counted, and a round only partly entered is an error naming the
    first player (by line) without a result in it, unless ``complete_rounds_only`` asks to
    count the complete rounds only (``Division.partly_entered`` then names the round left
    out).
    """
    lines = parse_lines(text)
    active = [p for p in lines if p.off is None]
    if not active:
        raise TshError(0, "every player is marked off (withdrawn)")
    entered = max(
        (r + 1 for p in active for r in range(len(p.scores)) if p.has_result(r)), default=0
    )
    complete = 0
    while complete < entered and all(p.has_result(complete) for p in active):
        complete += 1
    rounds = _rounds_counted(active, entered, complete, after_round, complete_rounds_only)
    by_number = {p.number: p for p in lines}
    players = tuple(_standing(p, rounds, by_number, spread_cap) for p in lines)
    absent = tuple(
        str(p.number)
        for p in active
        if rounds and _at(p.opponents, rounds - 1) == 0 and (_at(p.scores, rounds - 1) or 0) <= 0
    )
    return Division(
        players,
        rounds,
        withdrawn={str(p.number): p.off for p in lines if p.off is not None},
        partly_entered=complete + 1 if complete < entered else None,
        rounds_entered=entered,
        absent_last_round=absent,
    )


def _rounds_counted(
    active: Sequence[TshPlayer],
    entered: int,
    complete: int,
    after_round: int | None,
    complete_rounds_only: bool,
) -> int:
    """How many rounds ``read_division`` counts, of ``entered`` (some result) and
    ``complete`` (every active player's result); TshError naming the first player without a
    result in a round that must be complete."""
    if after_round is not None:
        if after_round < 0:
            raise TshError(0, f"round {after_round} does not exist")
        if after_round > entered:
            raise TshError(
                0,
                f"the file has results for {entered} round{'s' if entered != 1 else ''} "
                f"(the last complete one is round {complete}): there is no round "
                f"{after_round} to pair after",
            )
        if after_round > complete:
            missing = _first_without_result(active, complete)
            raise TshError(
                missing.line,
                f"round {after_round} is not complete: {missing.label} has no result in "
                f"round {complete + 1}, the first round with a result missing",
            )
        return after_round
    if complete < entered and not complete_rounds_only:
        missing = _first_without_result(active, complete)
        have = sum(p.has_result(complete) for p in active)
        where = (
            "is only partly entered"
            if complete + 1 == entered
            else f"is not complete, though results are entered up to round {entered}"
        )
        raise PartlyEntered(
            missing.line,
            f"round {complete + 1} {where}: {missing.label} has no result in it ({have} of "
            f"{len(active)} players have one); enter the missing results, or pair after "
            f"round {complete} (complete rounds only)",
            complete,
        )
    return complete


def _standing(
    p: TshPlayer, rounds: int, by_number: Mapping[int, TshPlayer], cap: int | None
) -> Player:
    half_wins, spread = p.initial or (0, 0)
    opponents: list[str | None] = []
    for r in range(rounds):
        opponent, score = _at(p.opponents, r), _at(p.scores, r)
        if opponent is None or score is None:
            # Only a withdrawn player can lack a counted result: no game that round.
            opponents.append(None)
            continue
        if opponent == 0:
            margin = score
            opponents.append(None)
        else:
            other = by_number.get(opponent)
            if opponent == p.number:
                raise TshError(p.line, f"round {r + 1}: player {opponent} is paired with themself")
            if other is None:
                raise TshError(p.line, f"round {r + 1}: no player {opponent}")
            if _at(other.opponents, r) != p.number:
                raise TshError(
                    p.line, f"round {r + 1}: player {opponent} did not play player {p.number}"
                )
            theirs = _at(other.scores, r)
            if theirs is None:
                raise TshError(
                    other.line, f"round {r + 1}: player {opponent} has no score against {p.label}"
                )
            margin = score - theirs
            opponents.append(str(opponent))
        counted = margin if cap is None or not opponent else max(-cap, min(cap, margin))
        spread += counted + _at_or_zero(p.penalties, r)
        if opponent or margin:  # a bye scoring 0 is an unplayed round: no result (tsh)
            half_wins += 2 if margin > 0 else 1 if margin == 0 else 0
    return Player(
        str(p.number),
        half_wins,
        spread,
        name=_display_name(p.name),
        opponents=tuple(opponents),
    )


def _first_without_result(players: Sequence[TshPlayer], r: int) -> TshPlayer:
    return next(p for p in players if not p.has_result(r))


def _at(values: Sequence[int | None], r: int) -> int | None:
    return values[r] if r < len(values) else None


def _at_or_zero(values: Sequence[int], r: int) -> int:
    return values[r] if r < len(values) else 0


def _numbers(text: str, line: int, what: str) -> tuple[int | None, ...]:
    """Whole numbers, tsh's ``00`` (not yet) as None."""
    try:
        return tuple(None if word == "00" else int(word) for word in text.split())
    except ValueError as exc:
        raise TshError(line, f"{what} must be whole numbers") from exc


def _sections(text: str) -> dict[str, str]:
    """The tagged sections tsh keeps after the scores (``; off -50; penalty 0 -10``), tag ->
    words; a later section with the same tag replaces an earlier one, as in tsh."""
    sections: dict[str, str] = {}
    for section in _SECTION.findall(text):
        tag, _, words = section.strip().partition(" ")
        if tag:
            sections[tag] = words
    return sections


def _off(sections: Mapping[str, str], line: int) -> int | None:
    """The ``off`` section: None when the player is active, else the spread of a later round."""
    if "off" not in sections:
        return None
    words = _numbers(sections["off"], line, "the off section")
    return words[0] if words and words[0] is not None else 0


def _penalties(sections: Mapping[str, str], line: int) -> tuple[int, ...]:
    words = _numbers(sections.get("penalty", ""), line, "penalties")
    return tuple(0 if w is None else w for w in words)


def _initial(sections: Mapping[str, str], line: int) -> tuple[int, int] | None:
    """The ``initrec`` section (wins losses spread ...) as (half-wins, spread)."""
    if "initrec" not in sections:
        return None
    words = sections["initrec"].split()
    try:
        return half_wins_of(Fraction(words[0])), int(words[2])
    except (IndexError, ValueError, ZeroDivisionError) as exc:
        raise TshError(
            line, "the initrec section must be wins (a multiple of 0.5), losses, spread"
        ) from exc


def _display_name(name: str) -> str:
    """ "Surname, Given" -> "Given Surname" (without a ":AA000000" member id); other forms
    unchanged."""
    name = _MEMBER_ID.sub("", name.strip())
    surname, sep, given = name.partition(",")
    return f"{given.strip()} {surname.strip()}" if sep and given.strip() else name.strip()


def pair_commands(
    pairs: Sequence[Sequence[str]], round_number: int, division: str | None = None
) -> list[str]:
    """tsh commands for a round: ``pair ID1 ID2 ROUND [DIVISION]``; a bye is
    ``pair ID 0 ROUND``. tsh needs the division when the event has more than one."""
    suffix = f" {division}" if division else ""
    commands = []
    for players in pairs:
        first = players[0]
        second = players[1] if len(players) > 1 else "0"
        commands.append(f"pair {first} {second} {round_number}{suffix}")
    return commands
