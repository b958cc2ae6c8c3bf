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
    POSITIONS_FOLLOW_SCORES = "positions-follow-scores"
    TSH_FILE = "tsh-file"
    WORK_BOUND = "work-bound"
    WITHDRAWN_CONTENDER = "withdrawn-contender"
    PAIRING_COVERS_FIELD = "pairing-covers-field"
    FINAL_SEATS = "final-seats"
    GAME_SIZE = "game-size"
    POINTS_FALL = "points-fall"
    FORMATION_RECORDS = "formation-records"
    BACKUP_REPLAYS = "backup-replays"
    QUERY_FIELDS = "query-fields"
    VICTORS_OR_PRIZES = "victors-or-prizes"
    ROUND_RANGES = "round-ranges"


Location = tuple[str | int, ...]
"""Where in the engine's input a value is: the names and positions leading to it, as
the engine's own functions and dataclasses name them (``("players", 3, "rating")``: the
rating of the fourth player given); ``()`` is the input as a whole."""


class EngineError(Exception):
    """Base of every error an engine raises on purpose. The API maps each kind to its
    status in one place (``api/errors.py``): a refusal of input (:class:`FieldError`,
    422), a state that does not allow the action (:class:`Conflict`, 409), an actor who
    may not take it (:class:`NotPermitted`, 403), something that is not there
    (:class:`NotFound`, 404); any other is a fault of the service's own (a 500)."""


class FieldError(EngineError, ValueError):
    """Input the rules cannot apply to, at ``at`` in the engine's input. The engine never
    writes a request's syntax: the API, which knows how its requests map onto the
    engine's input, answers a 422 whose JSON Pointer it builds from ``at``. ``rule`` names
    the rule broken when it is one of the named rules (:class:`Rule`)."""

    def __init__(self, at: Location, message: str, *, rule: Rule | None = None) -> None:
        super().__init__(f"{self.path_of(at)}: {message}" if at else message)
        self.at = at
        self.message = message
        self.rule = rule

    @staticmethod
    def path_of(at: Location) -> str:
        """``at`` as a slash path, for reading (``players/3/rating``)."""
        return "/".join(str(part) for part in at)


def first_repeat(items: Sequence[Hashable]) -> int | None:
    """The index of the first item that appeared before, or None."""
    seen: set[Hashable] = set()
    for index, item in enumerate(items):
        if item in seen:
            return index
        seen.add(item)
    return None


def refuse_repeats(
    items: Sequence[str], at: Location, error: type[FieldError], within: Location = ()
) -> None:
    """Raise ``error`` at ``(*at, index, *within)`` for the first id listed twice."""
    index = first_repeat(items)
    if index is not None:
        raise error(
            (*at, index, *within), f"{items[index]!r} is listed twice", rule=Rule.UNIQUE_IDS
        )


class Conflict(EngineError):
    """The held tournament's state does not allow this now (a 409); the message says why."""


class NotPermitted(EngineError):
    """The one acting may not take this action (a 403); the message says why. (A wrong
    director token is the store's; this is the rules': a player reporting a game that
    player did not play.)"""


class NotFound(EngineError):
    """No such round, table, game, board or player in this tournament (a 404)."""
