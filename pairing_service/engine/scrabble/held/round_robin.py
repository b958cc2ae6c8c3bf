"""A round robin's schedule (``docs/scrabble.md``, "Round robins"): every player meets
every other once a cycle (twice in a double round robin), on a schedule fixed by the
players it began with and the round's place in it, never by results.

The circle (Berger) method. The players, in their seeding order (rating order, as round 1
is seeded: best first, equal ratings in the order listed), take the circle's places, with
one more, empty place (the bye) when there is an odd number of them: ``m`` places, ``m``
even. The last place stays put while the others turn one place a round: in turn ``k``
(from 0) the player in place ``k`` meets the last place, and the players in places ``i``
and ``j`` meet where ``i + j = 2k (mod m - 1)``. A cycle is the ``m - 1`` turns, in which
every pair meets once; round ``r`` of the round robin (from 1) is turn ``(r - 1) mod
(m - 1)``, so a double round robin turns the circle again. Round 1 is 1 v m, 2 v m - 1,
... (the top seed against the bottom; in an odd field the top seed has the bye, as in a
Berger table).

Scrabble has no colours: who starts a game is drawn at the board (or balanced by the
director), so the home-and-away order of a chess Berger table is left out, and a game
lists its better seed first. The round's games are in seeding order (the game of the best
seed first): the boards do not follow the standings, which never pair a round robin.

A player who withdraws keeps their place: whoever the circle sets against them has a bye
that round, as against the empty place (so the real director of albany2024_B.t gave each
scheduled opponent of a player who left after round 23 a +50 bye).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ...errors import Conflict
from .methods import Pairing

Place = str | None  # a player, or the empty place (the bye) of an odd field


def cycle_length(players: int) -> int:
    """The rounds in which every pair of ``players`` meets once."""
    return players - 1 if players % 2 == 0 else players


def circle_games(circle: Sequence[str], r: int) -> list[tuple[Place, Place]]:
    """Round ``r`` (from 1) of the round robin of ``circle`` (in seeding order): every
    meeting, the empty place's included (None), the best seed's first, each best seed
    first."""
    places: list[Place] = [*circle, None] if len(circle) % 2 else list(circle)
    turns = len(places) - 1
    k = (r - 1) % turns
    met = [(k, k, turns)]  # place k meets the last place
    met += [(i, i, (2 * k - i) % turns) for i in range(turns) if i < (2 * k - i) % turns]
    return [(places[a], places[b]) for _, a, b in sorted(met)]


@dataclass(frozen=True)
class RoundRobin:
    """A round of the event's round robin: its circle (the players it began with, in
    seeding order), the round's place in it (from 1) and the event's round it began in."""

    circle: tuple[str, ...]
    round: int
    began: int

    def pairing(self, playing: Collection[str]) -> Pairing:
        """The round's games among ``playing`` (the players not withdrawn): the empty
        place's opponent has the bye, a withdrawn player's opponent a bye too
        (``unopposed``). Conflict when someone plays who is not in the circle (a late
        entrant, or a player back from before it began): the schedule has no place for
        them."""
        seated = set(self.circle)
        outside = [p for p in playing if p not in seated]
        if outside:
            who = ", ".join(map(repr, outside))
            raise Conflict(
                f"{who} {'is' if len(outside) == 1 else 'are'} not in the round robin that "
                f"began in round {self.began}: its schedule is fixed by the players it "
                "began with; withdraw them, or pair this round by another method"
            )
        here = set(playing)
        games: list[tuple[str, str]] = []
        bye: str | None = None
        unopposed: list[str] = []
        for a, b in circle_games(self.circle, self.round):
            present = [p for p in (a, b) if p is not None and p in here]
            if len(present) == 2:
                games.append((present[0], present[1]))
            elif present and None in (a, b):
                bye = present[0]
            else:
                unopposed += present  # their opponent withdrew (or both did: no game)
        return Pairing(tuple(games), bye, self.words(unopposed), tuple(unopposed))

    def words(self, unopposed: Sequence[str]) -> str:
        """Where the round is in the round robin, and who has a bye for a withdrawal."""
        turns = cycle_length(len(self.circle))
        cycle, turn = divmod(self.round - 1, turns)
        words = f"round robin: round {turn + 1} of {turns}"
        if cycle:
            words += f", cycle {cycle + 1}"
        if unopposed:
            words += f"; a bye for {', '.join(unopposed)} (their opponent withdrew)"
        return words
