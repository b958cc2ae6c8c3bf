"""The registry of tournament formats: everything the app serves of a format comes from here,
and it is the only table of formats in the HTTP layer.

A :class:`Format` names the format, its stateless tools' blueprints and, for a format the
service holds, its ledger (made from the rules loaded at start-up), its held resource
module (:class:`HeldResource`) and what else it has: its backup (:class:`FormatBackup`),
its scorekeepers, what its event page shows (:class:`EventPages`), its desk
(:class:`DeskPage`) and pages of its own. From the registry, :func:`ledgers` makes the
app's ledgers, and :func:`register_formats` adds each held format's log and backup routes
(history, undo, token, export; backup, import) and scorekeeper routes, registers every
blueprint and the director's list of held tournaments (whose ``format`` enum names the held
formats, in registry order). The held pages and desk (``api/held/``) find the app's formats
while they answer (``held/links.held_formats``): nothing there names a format.

Adding a format (``docs/architecture.md``, "Add a format"; ``tests/support/toy_format.py``
follows it, ``tests/api/test_toy_format.py`` checks what the entry gives):

1. its rules in ``engine/<format>/``: the stateless engine and, to hold tournaments, its
   typed log events and a ``Ledger`` (``engine/event_log.py``) in
   ``engine/<format>/ledger.py``;
2. its HTTP layer in ``api/<format>/``: a module per feature on a ``StrictBlueprint``
   (stateless tools) and, to hold tournaments, one on a ``HeldBlueprint`` calling
   ``held_store().create/read/write`` and ending with ``HELD = HeldResource(...)`` (its read
   schema and what that schema reads of a stored tournament, its standings as a table,
   its read endpoint and its status in a word);
3. to back its tournaments up, ``api/<format>/backup.py``: how its rules decide each entry
   again and which request made it (``BACKUP = FormatBackup(replayer, request_of)``); what
   its event page shows besides its read and its desk, in ``api/<format>/pages.py``
   (``PAGES = EventPages(...)``, ``DESK = DeskPage(...)``);
4. one entry in :data:`FORMATS` below; a held format also says what its status words are
   (``status_words``), which the director's list describes (:func:`status_description`),
   and, where it has them, ``backup``, ``scorekeeping``, ``pages``, ``desk`` and
   ``own_pages``.

No table, migration, token code, rate limit or log route is written for it. The OpenAPI
document lists the blueprints in registry order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint as PageBlueprint
from flask_smorest import Api, Blueprint

from ..engine.diagonal.ledger import RaceLedger
from ..engine.event_log import Ledger
from ..engine.league.ledger import LeagueLedger
from ..engine.puffing_billy.ledger import BoardLedger
from ..engine.scrabble.held.ledger import ScrabbleLedger
from ..engine.strikes.ledger import StrikesLedger
from ..rules import Rules
from .diagonal import backup as diagonal_backup
from .diagonal import events as diagonal_events
from .diagonal import pages as diagonal_pages
from .diagonal import tools as diagonal_tools
from .held.backup import FormatBackup, add_backup_routes
from .held.blueprint import HeldResource
from .held.desk import DeskPage
from .held.listing import listing_blueprint
from .held.log_routes import add_log_routes
from .held.pages import EventPages
from .held.scorekeepers import add_scorekeeper_routes
from .league import backup as league_backup
from .league import desk as league_desk
from .league import events as league_events
from .league import pages as league_pages
from .league import tools as league_tools
from .puffing_billy import backup as puffing_billy_backup
from .puffing_billy import events as puffing_billy_events
from .puffing_billy import pages as puffing_billy_pages
from .puffing_billy import tools as puffing_billy_tools
from .scrabble import backup as scrabble_backup
from .scrabble import events as scrabble_events
from .scrabble import pages as scrabble_pages
from .scrabble import tools as scrabble_tools
from .scrabble import tsh_interchange  # noqa: F401  (adds the tsh routes to Scrabble's blueprint)
from .strikes import backup as strikes_backup
from .strikes import events as strikes_events
from .strikes import pages as strikes_pages
from .strikes import tools as strikes_tools


@dataclass(frozen=True)
class Format:
    """A tournament format the service serves."""

    name: str  # as the store, the history and the director's list name it
    tools: tuple[Blueprint, ...]  # the blueprints of its stateless endpoints
    ledger: Callable[[Rules], Ledger[Any]] | None = None  # None: the service holds none
    held: HeldResource | None = None  # its held tournaments' resource module
    # A held format's status words (``held.status``), as the director's list describes
    # them, and the format's name in that description ("": ``name``).
    status_words: str = ""
    title: str = ""
    # How its results are entered, if scorekeepers may enter them (``scorekeepers.py``):
    # "rounds" (a token may be limited to one round) or "boards"; "": only the director.
    scorekeeping: str = ""
    # How an import decides its log again, and the request that made each entry
    # (``api/<format>/backup.py``): its backup and import routes; None: it has none.
    backup: FormatBackup | None = None
    # What its event page (``/events/<format>/<id>``) shows besides the read: a round's
    # tables, the round by name, links to pages of its own, the players entered, the
    # winners, the settings and its statuses in words (``api/<format>/pages.py``).
    pages: EventPages = field(default_factory=EventPages)
    # Its director's desk and scorekeeper's page (``held/desk.py``); None: it has none there.
    desk: DeskPage | None = None
    # Pages of its own (plain Flask blueprints): a league's seasons and organiser's desk.
    own_pages: tuple[PageBlueprint, ...] = ()

    def __post_init__(self) -> None:
        if (self.ledger is None) != (self.held is None):
            raise ValueError(f"format {self.name!r}: a held format has a ledger and a resource")
        if (self.held is None) != (not self.status_words):
            raise ValueError(f"format {self.name!r}: a held format, and only one, has status words")
        held_only = self.scorekeeping or self.backup or self.desk or self.pages != EventPages()
        if self.held is None and held_only:
            raise ValueError(f"format {self.name!r}: only a held format has held pages or routes")

    @property
    def blueprints(self) -> tuple[Blueprint, ...]:
        return self.tools if self.held is None else (*self.tools, self.held.blueprint)


FORMATS: tuple[Format, ...] = (
    Format(
        "scrabble",
        (scrabble_tools.blp,),
        lambda rules: ScrabbleLedger(rules.scrabble),
        scrabble_events.HELD,
        status_words="registered, round_open, between_rounds or finished",
        title="Scrabble",
        scorekeeping="rounds",
        backup=scrabble_backup.BACKUP,
        pages=scrabble_pages.PAGES,
        desk=scrabble_pages.DESK,
    ),
    Format(
        "strikes",
        (strikes_tools.blp,),
        lambda rules: StrikesLedger(rules.strikes),
        strikes_events.HELD,
        status_words="registered, round_open, between_rounds or finished",
        scorekeeping="rounds",
        backup=strikes_backup.BACKUP,
        pages=strikes_pages.PAGES,
        desk=strikes_pages.DESK,
    ),
    Format(
        "diagonal",
        (diagonal_tools.blp,),
        lambda _: RaceLedger(),
        diagonal_events.HELD,
        status_words="registered, round_open, between_rounds or finished",
        title="Diagonal Race",
        scorekeeping="rounds",
        backup=diagonal_backup.BACKUP,
        pages=diagonal_pages.PAGES,
        desk=diagonal_pages.DESK,
    ),
    Format(
        "puffing_billy",
        (puffing_billy_tools.blp,),
        lambda rules: BoardLedger(rules.puffing_billy),
        puffing_billy_events.HELD,
        status_words="its stage (preliminary, final, finished)",
        title="Puffing Billy",
        scorekeeping="boards",
        backup=puffing_billy_backup.BACKUP,
        pages=puffing_billy_pages.PAGES,
        desk=puffing_billy_pages.DESK,
    ),
    Format(
        "league",
        (league_tools.blp,),
        lambda rules: LeagueLedger(rules.league),
        league_events.HELD,
        status_words="its latest season's (signup, running, closed), or no_season",
        title="a league organisation",
        backup=league_backup.BACKUP,
        pages=league_pages.PAGES,
        own_pages=(league_desk.bp, league_pages.bp),
    ),
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
    """Every format's blueprints, in registry order: the order the OpenAPI document lists
    them in."""
    return [blueprint for fmt in formats for blueprint in fmt.blueprints]


def status_description(formats: Sequence[Format] = FORMATS) -> str:
    """What the director's list says of a tournament's ``status``: each held format's
    status words, formats with the same words named together, in registry order."""
    named: dict[str, list[str]] = {}  # status words -> the formats that have them
    for fmt in formats:
        if fmt.held is not None:
            named.setdefault(fmt.status_words, []).append(fmt.title or fmt.name)
    return "; ".join(f"{_and(names)}: {words}" for words, names in named.items()) + "."


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def register_formats(api: Api, formats: Sequence[Format] = FORMATS) -> None:
    """Register every format's blueprints, with the log and backup routes of each held
    format and its scorekeeper routes, then the director's list of the held formats'
    tournaments. (Their pages find them at request time: ``held/links.init_event_links``.)"""
    held = {fmt.name: fmt.held for fmt in formats if fmt.held is not None}
    for fmt in formats:
        if fmt.held is not None:
            add_log_routes(fmt.name, fmt.held)
            if fmt.backup is not None:
                add_backup_routes(fmt.name, fmt.held, fmt.backup)
    for fmt in formats:
        if fmt.held is not None and fmt.scorekeeping:
            add_scorekeeper_routes(fmt.name, fmt.held, fmt.scorekeeping == "rounds")
    for blueprint in blueprints(formats):
        api.register_blueprint(blueprint)
    api.register_blueprint(listing_blueprint(held, status_description(formats)))
