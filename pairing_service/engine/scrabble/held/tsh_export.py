"""A held Scrabble event as a tsh division file (``.t``), the interchange every Scrabble
director program reads (``docs/tsh.md``: how the service's own reader reads it back).

One line per player, in rating order (their tsh numbers, from 1):
``NAME RATING opp1 opp2 ... ; score1 score2 ...``. A game is the opponent's number and the
player's own score; a bye is opponent 0 scoring the bye's spread; a forfeit is opponent 0
scoring its spread (negative for the player who forfeited); a round the player did not
play (before a late entry, after a withdrawal) is opponent 0 scoring 0, which tsh counts
as no result. A game of the open round without a result yet has its opponent only (tsh
writes pairings before scores). A withdrawn player carries tsh's ``; off 0``.

Names are written as the event has them (the player's id when it has no name), with what
would break a line made safe: ``;`` becomes ``,``, a leading ``#`` is dropped, and a word
of digits is joined to the word before it by ``-`` (tsh reads the first number of a line
as the rating). Scores are written as played: with a spread cap, a reader counting the raw
difference (the service's own does) shows more spread than the event where a game went
past the cap.
"""

from __future__ import annotations

import re

from .event import PlayedRound, ScrabbleEvent

_DIGIT_WORD = re.compile(r"\s+(?=\d+(?:\s|$))")


def tsh_name(name: str) -> str:
    """A name as a ``.t`` line can hold it."""
    safe = " ".join(name.replace(";", ",").split()).lstrip("#").strip()
    return _DIGIT_WORD.sub("-", safe) or "?"


def division_file(event: ScrabbleEvent) -> str:
    """The event as a tsh ``.t`` file."""
    order = event.rating_order()
    number = {p: i for i, p in enumerate(order, start=1)}
    played = event.played()
    rounds = len(event.rounds)
    lines = []
    for pid in order:
        entrant = event.players[pid]
        by_round: dict[int, PlayedRound] = {r.round: r for r in played[pid]}
        paired: dict[int, str] = {}
        for rnd in event.rounds:
            for a, b in rnd.games:
                if pid in (a, b):
                    paired[rnd.number] = b if pid == a else a
        opponents: list[str] = []
        scores: list[str] = []
        for n in range(1, rounds + 1):
            result = by_round.get(n)
            if result is None and n in paired:  # paired, no result yet: the open round
                opponents.append(str(number[paired[n]]))
                continue
            if result is None:
                opponents.append("0")
                scores.append("0")
            elif result.opponent is None:
                opponents.append("0")
                scores.append(str(result.spread))
            else:
                opponents.append(str(number[result.opponent]))
                scores.append(str(result.score))
        head = " ".join([tsh_name(entrant.name or pid), str(max(entrant.rating, 0)), *opponents])
        line = f"{head} ; {' '.join(scores)}".rstrip()
        if pid in event.dropped:
            line += " ; off 0"
        lines.append(line)
    return "\n".join(lines) + "\n"
