"""One board's Puffing Billy scores, in exact decimals.

Preliminary boards (the seed): placement 3/2/1/0 for 1st-4th, nothing for 5th and 6th;
places 2-4 add 0.5 x score / winner's score (0.5 when above the winner, as in Rail Baron
where the winner need not have the most money), each rounded to the thousandth; the winner
adds 0.03 x the sum of those bonuses, rounded. The seed's example: Jenny 252,000 wins,
Damien's bonus .492, the bonus column .492 + .240 + .194, Jenny's bonus .028 = 3.028.

Finals (this service's own rule; the seed's text is cut off after "reward those players
who could soundly defeat their opponents"): the same placement, and the winner's margin
bonus = 0.5 x (winning score - the best score placed below first) / winning score, at
least 0, rounded to the thousandth; no other place has a bonus. It depends on the top two
scores only, so it is the same on every board size (a 201-200 final: .002 to the winner,
nothing to the loser). A board with no one below first (one player, or all tied) gives none.

Ties. Players are listed in finishing order; ``place`` may be given to mark ties (equal
places, as 1, 2, 2, 4 or 1, 2, 2, 3). Tied players share evenly everything their places
give: the placement scores and the bonuses of those places, each place's bonus computed
from the score of the player listed in it (so the board's total is what it would be
untied). The winner's bonus counts the bonuses of places 2-4, and the winning score is
the highest score among the players placed first. Shares are rounded to the thousandth.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from typing import Any

from ..errors import FieldError, Rule, refuse_repeats
from ..ranking import read_places


class Method(StrEnum):
    PRELIMINARY = "preliminary"
    FINAL = "final"


class FinalsScoring(StrEnum):
    """How a board of the final is scored: the seed's text of its finals method is cut
    off, so the director chooses (docs/puffing-billy.md, "Finals").

    ``winner_margin`` (the default, this service's reading of "reward those players who
    could soundly defeat their opponents"): placement, and the winner's margin over the
    runner-up. ``close_play``: the preliminaries' method, for directors who keep one
    method throughout. ``placement_only``: 3, 2, 1, 0; ties at the final are broken by
    the preliminary rank."""

    WINNER_MARGIN = "winner_margin"
    CLOSE_PLAY = "close_play"
    PLACEMENT_ONLY = "placement_only"


class InvalidBoard(FieldError):
    """A board the rules cannot score, at ``at`` in the input."""


@dataclass(frozen=True)
class BoardRules:
    placement: tuple[Decimal, ...]
    bonus_places: tuple[int, ...]
    bonus_factor: Decimal
    winner_factor: Decimal
    decimals: int
    max_players: int
    final_margin_factor: Decimal

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> BoardRules:
        try:
            rules = cls(
                placement=tuple(Decimal(str(p)) for p in data["placement"]),
                bonus_places=tuple(int(p) for p in data["bonus_places"]),
                bonus_factor=Decimal(str(data["bonus_factor"])),
                winner_factor=Decimal(str(data["winner_factor"])),
                decimals=int(data["decimals"]),
                max_players=int(data["max_players"]),
                final_margin_factor=Decimal(str(data["final_margin_factor"])),
            )
        except (KeyError, TypeError, ValueError, ArithmeticError) as exc:
            raise ValueError(f"malformed Puffing Billy rules: {exc!r}") from exc
        if len(rules.placement) != rules.max_players or 1 in rules.bonus_places:
            raise ValueError("placement needs one score per place; 1st place has its own bonus")
        return rules

    @property
    def quantum(self) -> Decimal:
        return Decimal(1).scaleb(-self.decimals)

    def round(self, value: Decimal) -> Decimal:
        return value.quantize(self.quantum, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class BoardEntry:
    id: str
    score: int
    place: int | None = None
    alternate: bool = False  # seated at a final board in place of a qualifier (event.py)


@dataclass(frozen=True)
class ScoredEntry:
    id: str
    place: int
    score: int
    placement: Decimal
    bonus: Decimal

    @property
    def total(self) -> Decimal:
        return self.placement + self.bonus


def score_board(
    entries: Sequence[BoardEntry],
    rules: BoardRules,
    method: Method = Method.PRELIMINARY,
    finals: FinalsScoring = FinalsScoring.WINNER_MARGIN,
) -> list[ScoredEntry]:
    """Every listed player's placement, bonus and total, in the order given (a board of
    the final scored the ``finals`` way)."""
    if not entries:
        raise InvalidBoard(("players",), "a board needs at least one player")
    if len(entries) > rules.max_players:
        raise InvalidBoard(("players",), f"a board has at most {rules.max_players} players")
    refuse_repeats([e.id for e in entries], ("players",), InvalidBoard, ("id",))
    for index, entry in enumerate(entries):
        if entry.score < 0:
            raise InvalidBoard(("players", index, "score"), "scores cannot be negative")
    places = _places(entries)
    scores = [e.score for e in entries]
    winning = max(s for s, p in zip(scores, places, strict=True) if p == 1)
    if method is Method.PRELIMINARY or finals is FinalsScoring.CLOSE_PLAY:
        slot_bonus = _preliminary_bonuses(scores, winning, rules)
    elif finals is FinalsScoring.PLACEMENT_ONLY:
        slot_bonus = [Decimal(0)] * len(scores)
    else:
        slot_bonus = _final_bonuses(scores, places, winning, rules)
    scored = []
    for index, entry in enumerate(entries):
        group = [i for i, p in enumerate(places) if p == places[index]]
        slots = range(group[0], group[0] + len(group))  # the places the group occupies
        placement = sum((rules.placement[s] for s in slots), Decimal(0)) / len(group)
        bonus = sum((slot_bonus[s] for s in slots), Decimal(0)) / len(group)
        scored.append(
            ScoredEntry(
                entry.id, places[index], entry.score, rules.round(placement), rules.round(bonus)
            )
        )
    return scored


def _preliminary_bonuses(scores: list[int], winning: int, rules: BoardRules) -> list[Decimal]:
    """The bonus of each place (by listing slot), the seed's way."""
    bonus = [Decimal(0)] * len(scores)
    for slot in range(1, len(scores)):
        if slot + 1 in rules.bonus_places:
            if winning == 0 or scores[slot] > winning:
                bonus[slot] = rules.bonus_factor  # more than the winner (or a 0-0 board)
            else:
                bonus[slot] = rules.round(
                    rules.bonus_factor * Decimal(scores[slot]) / Decimal(winning)
                )
    bonus[0] = rules.round(rules.winner_factor * sum(bonus[1:], Decimal(0)))
    return bonus


def _final_bonuses(
    scores: list[int], places: list[int], winning: int, rules: BoardRules
) -> list[Decimal]:
    """This service's finals rule: the winner's margin over the best score placed below
    first, as a share of the winning score; the 1st place's slot only (tied winners share
    it), so no other place, and no board size, changes it."""
    bonus = [Decimal(0)] * len(scores)
    below = [s for s, p in zip(scores, places, strict=True) if p > 1]
    if below and winning > 0:
        share = rules.final_margin_factor * Decimal(winning - max(below)) / Decimal(winning)
        bonus[0] = rules.round(max(share, Decimal(0)))  # Rail Baron: the richest may lose
    return bonus


def _places(entries: Sequence[BoardEntry]) -> list[int]:
    given = [e.place for e in entries]
    if all(p is None for p in given):
        return list(range(1, len(entries) + 1))
    if any(p is None for p in given):
        raise InvalidBoard(("players",), "give a place for every player or for none")
    values = [p or 0 for p in given]
    if values != sorted(values):
        raise InvalidBoard(
            ("players",),
            "list players in finishing order (places never fall)",
            rule=Rule.PLACES_ARE_A_RANKING,
        )
    places = read_places(values)
    if places is None:
        raise InvalidBoard(
            ("players",),
            f"places {values} are not a ranking (as 1, 2, 2, 4 or 1, 2, 2, 3)",
            rule=Rule.PLACES_ARE_A_RANKING,
        )
    return places
