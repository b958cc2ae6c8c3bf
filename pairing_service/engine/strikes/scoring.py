"""Strikes for one table's result: places from scores or as given, ties share strikes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..errors import Rule, refuse_repeats
from ..ranking import competition_places, read_places
from .errors import InvalidInput


@dataclass(frozen=True)
class Finish:
    """One player's result at a table: a game score (highest wins) or a finishing place."""

    player: str
    score: int | None = None
    place: int | None = None


@dataclass(frozen=True)
class Scored:
    player: str
    place: int  # competition ranking: a tie for 2nd at a 5-player table gives 1, 2, 2, 4, 5
    strikes: Fraction
    score: int | None = None


def score_table(
    finishes: Sequence[Finish], strikes_by_place: Mapping[int, Sequence[int]]
) -> list[Scored]:
    """Strikes of every player at one table, best place first (input order among ties).

    Tied players add the strikes of the places they occupy and share them evenly; the
    result is exact (a :class:`~fractions.Fraction`). Places may be given as a standard
    competition ranking (1, 2, 2, 4) or a dense one (1, 2, 2, 3): both mean a tie for 2nd.
    """
    size = len(finishes)
    if size not in strikes_by_place:
        raise InvalidInput(
            ("results",),
            f"a table has {min(strikes_by_place)} to {max(strikes_by_place)} players, not {size}",
        )
    refuse_repeats([f.player for f in finishes], ("results",), InvalidInput, ("player",))
    places = _places(finishes)
    table = strikes_by_place[size]
    scored = []
    for finish, place in zip(finishes, places, strict=True):
        tied = places.count(place)
        shared = Fraction(sum(table[place - 1 : place - 1 + tied]), tied)
        scored.append(Scored(finish.player, place, shared, finish.score))
    order = sorted(range(size), key=lambda i: places[i])
    return [scored[i] for i in order]


def _places(finishes: Sequence[Finish]) -> list[int]:
    with_score = [f.score is not None for f in finishes]
    with_place = [f.place is not None for f in finishes]
    for index, (has_score, has_place) in enumerate(zip(with_score, with_place, strict=True)):
        if has_score == has_place:
            raise InvalidInput(("results", index), "give either a score or a place")
    if all(with_score):
        return competition_places([f.score or 0 for f in finishes], higher_is_better=True)
    if not all(with_place):
        raise InvalidInput(("results",), "give scores for every player or places for every player")
    given = [f.place or 0 for f in finishes]
    places = read_places(given)
    if places is None:
        raise InvalidInput(
            ("results",),
            f"places {given} are not a ranking: number tied players alike and start at 1, "
            "as 1, 2, 2, 4 or 1, 2, 2, 3",
            rule=Rule.PLACES_ARE_A_RANKING,
        )
    return places
