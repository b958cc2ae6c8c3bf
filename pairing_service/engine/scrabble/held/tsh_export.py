"""A held Scrabble event as a tsh division file (``.t``), the interchange every Scrabble
director program reads (``docs/tsh.md``: how the service's own reader reads it back).

One line per player, in rating order (their tsh numbers, from 1):
``NAME RATING opp1 opp2 ... ; score1 score2 ...``. A game is the opponent's number and the
player's own score; a bye is opponent 0 scoring the bye's spread; a forfeit is opponent 0
scoring its spread (negative for the player who forfeited); a round the player did not
play (before a late entry, after a withdrawal) is opponent 0 scoring 0, which tsh counts
as no result. A game of the open round without a result yet has its opponent only (tsh
writes pairings before scores). A withdrawn player carries tsh's ``; off 0``. A player
with a penalty carries tsh's ``; penalty`` section: by round, the points taken off their
spread as tsh writes them, negative (``; penalty 0 -10 0``), 0 where there was none.

Names are written as the event has them (the player's id when it has no name), with what
would break a line made safe: ``;`` becomes ``,``, a leading ``#`` is dropped, and a word
of digits is joined to the word before it by ``-`` (tsh reads the first number of a line
as the rating).

**Spread cap.** Every game is written with its scores as played, as tsh keeps them: tsh
holds its spread cap in its configuration (``config spread_cap``), not in the division
file, and caps a game's spread only as it counts the standings. So the file reads back to
the event's standings with the event's cap given to the reader (``read_division``'s
``spread_cap``, the import's ``spread_cap``); read without it, a game won by more than the
cap counts its whole margin.

The rows (:func:`tsh_rows`) are also what the web export, ``tourney.js``, writes
(``tourney_js.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .event import ScrabbleEvent
from .record import PlayedRound

_DIGIT_WORD = re.compile(r"\s+(?=\d+(?:\s|$))")


def tsh_name(name: str) -> str:
    """A name as a ``.t`` line can hold it."""
    safe = " ".join(name.replace(";", ",").split()).lstrip("#").strip()
    return _DIGIT_WORD.sub("-", safe) or "?"


@dataclass(frozen=True)
class TshRow:
    """A player's line: tsh number, name, rating, opponent and score by round (a round
    of the open round without a result has its opponent only), withdrawn or not, and the
    penalty by round as tsh writes it (negative; empty when the player has none)."""

    number: int
    name: str
    rating: int
    opponents: tuple[int, ...]
    scores: tuple[int, ...]
    withdrawn: bool
    penalties: tuple[int, ...] = ()


def tsh_rows(event: ScrabbleEvent) -> list[TshRow]:
    """Every player's line, in rating order (their tsh numbers, from 1)."""
    order = event.rating_order()
    number = {p: i for i, p in enumerate(order, start=1)}
    played = event.played()
    rounds = len(event.rounds)
    rows = []
    for pid in order:
        entrant = event.players[pid]
        by_round: dict[int, PlayedRound] = {r.round: r for r in played[pid]}
        paired: dict[int, str] = {}
        for rnd in event.rounds:
            for a, b in rnd.games:
                if pid in (a, b):
                    paired[rnd.number] = b if pid == a else a
        opponents: list[int] = []
        scores: list[int] = []
        penalties = [-(by_round[n].penalty if n in by_round else 0) for n in range(1, rounds + 1)]
        for n in range(1, rounds + 1):
            result = by_round.get(n)
            if result is None and n in paired:  # paired, no result yet: the open round
                opponents.append(number[paired[n]])
                continue
            if result is None:
                opponents.append(0)
                scores.append(0)
            elif result.opponent is None or result.score is None:
                opponents.append(0)
                scores.append(result.spread)
            else:
                opponents.append(number[result.opponent])
                scores.append(result.score)
        rows.append(
            TshRow(
                number[pid],
                tsh_name(entrant.name or pid),
                max(entrant.rating, 0),
                tuple(opponents),
                tuple(scores),
                pid in event.dropped,
                tuple(penalties) if any(penalties) else (),
            )
        )
    return rows


def division_file(event: ScrabbleEvent) -> str:
    """The event as a tsh ``.t`` file."""
    lines = []
    for row in tsh_rows(event):
        head = " ".join([row.name, str(row.rating), *map(str, row.opponents)])
        line = f"{head} ; {' '.join(map(str, row.scores))}".rstrip()
        if row.withdrawn:
            line += " ; off 0"
        if row.penalties:
            line += f" ; penalty {' '.join(map(str, row.penalties))}"
        lines.append(line)
    return "\n".join(lines) + "\n"
