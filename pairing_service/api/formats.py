"""The registry of tournament formats: everything the app serves of a format comes from here.

A :class:`Format` names the format, its stateless tools' blueprints and, for a format the
service holds, its ledger (made from the rules loaded at start-up) and its held resource
module (:class:`HeldResource`). From the registry, :func:`ledgers` makes the app's ledgers,
and :func:`register_formats` adds each held format's log routes (history, undo, token,
export), registers every blueprint and the director's list of held tournaments (whose
``format`` enum names the held formats, in registry order).

Adding a format:

1. its rules in ``engine/<format>/``: the stateless engine and, to hold tournaments, a
   ``Ledger`` (``engine/event_log.py``) in ``engine/<format>/ledger.py``;
2. its HTTP layer in ``api/<format>/``: a module per feature on a ``StrictBlueprint``
   (stateless tools) and, to hold tournaments, one on a ``HeldBlueprint`` calling
   ``held_store().create/read/write`` and ending with ``HELD = HeldResource(...)`` (its read
   schema and shape, its standings as a table, its read endpoint and its status in a
   word);
3. one line in :data:`FORMATS` below.

No table, migration, token code, rate limit or log route is written for it. (The status
description of the director's list, in ``held_listing.py``, is prose: say there what the
new format's status words are.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from flask_smorest import Api, Blueprint

from ..engine.diagonal.ledger import RaceLedger
from ..engine.event_log import Ledger
from ..engine.league.ledger import LeagueLedger
from ..engine.puffing_billy.ledger import BoardLedger
from ..engine.strikes.ledger import StrikesLedger
from ..rules import Rules
from .diagonal import events as diagonal_events
from .diagonal import tools as diagonal_tools
from .held_blueprint import HeldResource
from .held_listing import listing_blueprint
from .league import organisations as league_organisations
from .league import tools as league_tools
from .log_routes import add_log_routes
from .puffing_billy import events as puffing_billy_events
from .puffing_billy import tools as puffing_billy_tools
from .scrabble import final_round as scrabble_final_round
from .strikes import tools as strikes_tools
from .strikes import tournaments as strikes_tournaments


@dataclass(frozen=True)
class Format:
    """A tournament format the service serves."""

    name: str  # as the store, the history and the director's list name it
    tools: tuple[Blueprint, ...]  # the blueprints of its stateless endpoints
    ledger: Callable[[Rules], Ledger[Any]] | None = None  # None: the service holds none
    held: HeldResource | None = None  # its held tournaments' resource module

    def __post_init__(self) -> None:
        if (self.ledger is None) != (self.held is None):
            raise ValueError(f"format {self.name!r}: a held format has a ledger and a resource")

    @property
    def blueprints(self) -> tuple[Blueprint, ...]:
        return self.tools if self.held is None else (*self.tools, self.held.blueprint)


FORMATS: tuple[Format, ...] = (
    Format("scrabble", (scrabble_final_round.blp,)),
    Format(
        "strikes",
        (strikes_tools.blp,),
        lambda rules: StrikesLedger(rules.strikes),
        strikes_tournaments.HELD,
    ),
    Format("diagonal", (diagonal_tools.blp,), lambda _: RaceLedger(), diagonal_events.HELD),
    Format(
        "puffing_billy",
        (puffing_billy_tools.blp,),
        lambda rules: BoardLedger(rules.puffing_billy),
        puffing_billy_events.HELD,
    ),
    Format(
        "league",
        (league_tools.blp,),
        lambda rules: LeagueLedger(rules.league),
        league_organisations.HELD,
    ),
)

# The order openapi.yaml has listed these blueprints in since before the registry: kept,
# so that the published document does not move. A new format's blueprints follow them.
DOCUMENT_ORDER = (
    "scrabble",
    "strikes",
    "tournaments",
    "puffing_billy",
    "diagonal",
    "diagonal_events",
    "puffing_billy_events",
    "league",
    "league_organisations",
)


def ledgers(rules: Rules, formats: Sequence[Format] = FORMATS) -> dict[str, Ledger[Any]]:
    """The ledger of every held format, by its name, made from the loaded rules."""
    made: dict[str, Ledger[Any]] = {}
    for fmt in formats:
        if fmt.ledger is not None:
            made[fmt.name] = ledger = fmt.ledger(rules)
            if ledger.format != fmt.name:
                raise ValueError(f"format {fmt.name!r} has the ledger of {ledger.format!r}")
    return made


def blueprints(formats: Sequence[Format] = FORMATS) -> list[Blueprint]:
    """Every format's blueprints, in the order the OpenAPI document lists them."""
    found = [blueprint for fmt in formats for blueprint in fmt.blueprints]

    def place(blueprint: Blueprint) -> int:
        if blueprint.name in DOCUMENT_ORDER:
            return DOCUMENT_ORDER.index(blueprint.name)
        return len(DOCUMENT_ORDER) + found.index(blueprint)

    return sorted(found, key=place)


def register_formats(api: Api, formats: Sequence[Format] = FORMATS) -> None:
    """Register every format's blueprints, with the log routes of each held format, then
    the director's list of the held formats' tournaments."""
    held = {fmt.name: fmt.held for fmt in formats if fmt.held is not None}
    for name, resource in held.items():
        add_log_routes(name, resource)
    for blueprint in blueprints(formats):
        api.register_blueprint(blueprint)
    api.register_blueprint(listing_blueprint(held))
