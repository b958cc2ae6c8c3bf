"""What every format's engine raises for input its rules cannot apply to."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from enum import StrEnum


class Rule(StrEnum):
    """The input rules that JSON Schema cannot state, by their stable names: the OpenAPI
    document states every other constraint, and a 422 that breaks one of these names it
    (``rule`` in the problem). What each checks: docs/validation.md."""

    UNIQUE_IDS = "unique-ids"
    KNOWN_PLAYER = "known-player"
    CONSISTENT_HISTORY = "consistent-history"
    RANKS_FOLLOW_WINS = "ranks-follow-wins"
    PLACES_ARE_A_RANKING = "places-are-a-ranking"
    TSH_FILE = "tsh-file"
    WORK_BOUND = "work-bound"
    WITHDRAWN_CONTENDER = "withdrawn-contender"
    PAIRING_COVERS_FIELD = "pairing-covers-field"
    FINAL_SEATS = "final-seats"
    GAME_SIZE = "game-size"
    POINTS_FALL = "points-fall"
    FORMATION_RECORDS = "formation-records"


class FieldError(ValueError):
    """Input the rules cannot apply to; ``field`` is a slash path into the input (the API
    answers a 422 whose JSON Pointer is built from it). ``rule`` names the rule broken
    when it is one of the named rules (:class:`Rule`)."""

    def __init__(self, field: str, message: str, *, rule: Rule | None = None) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message
        self.rule = rule


def first_repeat(items: Sequence[Hashable]) -> int | None:
    """The index of the first item that appeared before, or None."""
    seen: set[Hashable] = set()
    for index, item in enumerate(items):
        if item in seen:
            return index
        seen.add(item)
    return None


def refuse_repeats(
    items: Sequence[str], field: str, error: type[FieldError], suffix: str = ""
) -> None:
    """Raise ``error`` at ``<field>/<index><suffix>`` for the first id listed twice."""
    index = first_repeat(items)
    if index is not None:
        raise error(
            f"{field}/{index}{suffix}", f"{items[index]!r} is listed twice", rule=Rule.UNIQUE_IDS
        )


class Conflict(Exception):
    """The held tournament's state does not allow this now (a 409); the message says why."""


class NotPermitted(Exception):
    """The one acting may not take this action (a 403); the message says why. (A wrong
    director token is the store's; this is the rules': a player reporting a game that
    player did not play.)"""


class NotFound(Exception):
    """No such round, table, game, board or player in this tournament (a 404)."""
