"""Persistent strikes tournaments: create, seat rounds, enter results, close, drop, read;
and the day of the event: late entrants, no-shows re-seated, late corrections, a round's
seating and the standings as CSV or printable text.

Reads are public; every write needs ``Authorization: Bearer <director token>`` of that
tournament (401 without one, 403 with another tournament's).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from flask import Response

from ...engine.event_log import Action
from ...engine.strikes.event import Standing
from ...engine.strikes.ledger import HeldEvent, StrikesLedger
from ...engine.strikes.records import Settings
from ...store import Held
from ..held.blueprint import RoundRoutes, RouteDocs
from ..held.printables import tabular
from ..held.requests import Entered, sent_or
from ..held.schemas import LateEntrantIn
from .requests import NewTournament, SettingsChange, TableResult
from .schemas import (
    CreatedOut,
    RoundOut,
    RoundView,
    TableEnteredOut,
    TableView,
    TournamentIn,
    TournamentOut,
    TournamentSettingsIn,
    TournamentView,
)
from .tool_schemas import MAX_FIELD, MAX_PLAN_SEATS, MAX_SEED, TableResultIn
from .views import STANDING_COLUMNS, seating_table


class StrikesRoutes(RoundRoutes[HeldEvent, StrikesLedger]):
    """The round routes of strikes: a round is seated at tables, a result is a table's."""

    clock_minutes = 90  # a round of a 3–5 player board game runs an hour and a half

    docs = RouteDocs(
        about="Persistent strikes tournaments, run round by round.",
        create="""Create a tournament; the answer carries the director token, once.""",
        read="""The tournament: settings, status, standings, and the winner(s) once decided.""",
        start_round="""Start the next round: its type, table plan and least-times-met seating.

        After an ending with two winners and 2-player games allowed, this starts their
        tiebreak game instead.
        """,
        round="""A round's tables, byes and results; its seating as CSV (`?format=csv` or
        `Accept: text/csv`) or as a printable list (`?format=text` or `Accept: text/plain`),
        one line a seat.""",
        round_answer="The round's tables, byes and results",
        reseat="""No-shows: drop players who did not come to the open round and seat the round
        again for those who did, as its start would have (least-times-met, the same plan
        rules). Only before any result of the round is entered (409 after); undo puts the
        first seating and the players back.""",
        result="""Enter or correct a table's result (idempotent).

        The latest round's tables may be entered, and corrected with `If-Match` (the
        revision read: a different result over one that stands without it is a 409 naming
        the result that stands; the same result again changes nothing). A table of an
        earlier round may be corrected when that changes nobody's elimination and not the
        ending (else 409: undo back to it); the later rounds were seated from the old
        standings and stand as played, and `changes` (and the history) say what changed.
        A correction keeps the entry it replaces in the history.
        """,
        close="""Close a round: refused while a table has no result. Says who is out, and the
        ending when the event is decided.""",
        late_entry="""A late entrant, between rounds (409 while a round is open or once the event is
        decided): they start with the most strikes of any player still in (0 before the
        first round), so joining late puts nobody behind them who played; or the mean or
        the fewest, as the event's `late_entry_strikes` says.""",
        drop="""Drop a player between rounds; they get no further tables.""",
        reinstate="""Reinstate a player who dropped (or was re-seated as a no-show), between
        rounds: the next round seats them. Their strikes become the larger of their own and
        what a late entrant would start with now (the event's `late_entry_strikes`), so
        leaving and coming back never pays. 409 while a round is open, once the event is
        decided, for a player who was eliminated or has not dropped; 404 for an unknown
        player. Logged as `player_reinstated` (with the strikes added); undo takes it back.""",
        settings="""Change the settings the seed leaves to the director: `threshold` (the
        elimination level, as the seed suggests 23, 35 or 47) and `late_entry_strikes`.
        Those the body leaves out stay as they are. Until the first result is entered (409
        after, naming it: undo the results to change them); the same settings again change
        nothing. Logged as `settings_changed`, the settings whole.""",
    )
    name, url_prefix = "tournaments", "/v1/strikes/tournaments"
    ledger_kind, view, read_out = StrikesLedger, TournamentView, TournamentOut
    create_in, created_out = TournamentIn, CreatedOut

    def created(self, body: NewTournament) -> Action:
        settings = Settings(
            game=body.game,
            threshold=body.threshold,
            two_player_games=body.two_player_games,
            strategy=body.strategy,
            plans=body.plans,
            seed=secrets.randbelow(MAX_SEED) if body.seed is None else body.seed,
            late_entry=body.late_entry,
        )
        return self.ledger().created(settings, body.entrants)

    round_view, round_out = RoundView, RoundOut

    def start_round(self, state: HeldEvent) -> Action:
        return self.ledger().start_round(state)

    def round_file(self, held: Held[HeldEvent], number: int, wanted: str) -> Response:
        return tabular(seating_table(held, number), wanted, f"strikes-{held.id}-round-{number}")

    result_at = "tables/<int(min=1, max=100000):table>"
    result_in, result_view, result_out = TableResultIn, TableView, TableEnteredOut

    def enter_result(
        self, state: HeldEvent, number: int, at: int, body: TableResult
    ) -> Action | None:
        return self.ledger().enter_result(state, number, at, body.finishes)

    def reseat(self, state: HeldEvent, number: int, no_shows: Sequence[str]) -> Action:
        return self.ledger().reseat(state, number, no_shows)

    entrant_in = LateEntrantIn

    def enter_late(self, state: HeldEvent, body: Entered) -> Action:
        most = min(MAX_FIELD, MAX_PLAN_SEATS // state.settings.plans)
        return self.ledger().enter_late(state, body.id, body.name, most)

    settings_in = TournamentSettingsIn

    def change_settings(self, state: HeldEvent, body: SettingsChange) -> Action | None:
        now = state.settings
        settings = replace(
            now,
            threshold=sent_or(body.threshold, now.threshold),
            late_entry=sent_or(body.late_entry, now.late_entry),
        )
        return self.ledger().change_settings(state, settings)

    def standings(self, held: Held[HeldEvent]) -> tuple[list[str], list[Sequence[Any]]]:
        def shown(standing: Standing, column: str) -> Any:
            value = getattr(standing, column)
            return str(value) if column == "strikes" else value  # exactly, as text

        rows = held.state.standings()
        return STANDING_COLUMNS, [[shown(row, c) for c in STANDING_COLUMNS] for row in rows]


# The export's columns: a standing's fields as the page answers them, strikes once, exactly.
HELD = StrikesRoutes().add_routes()
