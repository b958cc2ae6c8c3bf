"""Held Diagonal Race events: create, generate rounds, enter games, close, drop, read;
and the day of the event: late entrants, no-shows paired again, late corrections, a
round's pairings as CSV or a printable board list.

Reads are public; every write needs the event's director token
(``director_token.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from flask import Response

from ...engine.diagonal.ledger import RaceLedger
from ...engine.diagonal.log_events import Racer
from ...engine.diagonal.race_event import RaceEvent
from ...engine.event_log import Action
from ...engine.wording import number_text
from ...store import Held
from ..held.blueprint import RoundRoutes, RouteDocs
from ..held.printables import tabular
from ..held.requests import sent_or
from .requests import GameWon, NewRace, RaceSettingsChange
from .schemas import (
    MAX_FIELD,
    GameView,
    RaceEventCreatedOut,
    RaceEventIn,
    RaceEventOut,
    RaceEventView,
    RaceGameEnteredOut,
    RaceResultIn,
    RacerIn,
    RaceRoundOut,
    RaceRoundView,
    RaceSettingsIn,
)
from .views import STANDING_COLUMNS, board_list, pairing_table


class DiagonalRoutes(RoundRoutes[RaceEvent, RaceLedger]):
    """The round routes of Diagonal Race: a round is paired into games of two, a result is
    a game's winner and the loser's pieces left."""

    clock_minutes = 30  # a Diagonal Race round is a few short two-player games

    docs = RouteDocs(
        about="Held Diagonal Race events, run round by round.",
        create="""Create an event from players with ratings (or in rating order); the answer
        carries the director token, once.""",
        read="""The event: status, standings (losses, games, opponents), and the winner.""",
        start_round="""Generate the next round: four opponents each in the first, two after, in the
        diagonal pattern by rating, avoiding rematches; a playoff round when the seed
        asks for one.""",
        round="""A round's games and results; the board list to pin up with `?format=text` or
        `Accept: text/plain`, and the games as CSV with `?format=csv` or `Accept: text/csv`.""",
        round_answer="The round's games and results",
        reseat="""No-shows: drop players who did not come to the open round and pair the round
        again without them, as its start would have. Only before any result of the round
        is entered (409 after: enter their games as lost); undo puts the first pairing and
        the players back.""",
        result="""Enter or correct a game's result (idempotent): the winner and the loser's
        pieces left. A different result where one stands is a correction only with
        `If-Match` (else 409, saying what stands); it keeps the entry it replaces in the
        history.

        A game of an earlier round may be corrected when that changes nobody's
        elimination and not the ending (else 409: undo back to it); the later rounds'
        pairings stand, and `changes` (and the history) say what changed.""",
        close="""Close a round once every game has a result: who is out, and the ending.""",
        late_entry="""A late entrant, between main rounds (409 while a round is open, once a playoff
        is due, or the event is over): with a rating when the event's players have one,
        else ranked last. They start with the most losses of any player still in (0 before
        the first round), or the fewest, as the event's `late_entry_losses` says.""",
        drop="""Drop a player between rounds; their games so far still count.""",
        reinstate="""Reinstate a player who dropped (or was paired again as a no-show), between
        main rounds: the next round pairs them. Their losses become the larger of their own
        and what a late entrant would start with now (the event's `late_entry_losses`), so
        leaving and coming back never pays. 409 while a round is open, once a playoff is
        due or the event is over, for a player who was eliminated or has not dropped; 404
        for an unknown player. Logged as `player_reinstated` (with the losses added); undo
        takes it back.""",
        settings="""Change the event's `late_entry_losses`, until the first result is entered
        (409 after, naming it: undo the results to change it); the same setting again
        changes nothing. Logged as `settings_changed`, the settings whole.""",
    )
    name, url_prefix = "diagonal_events", "/v1/diagonal/events"
    ledger_kind, view, read_out = RaceLedger, RaceEventView, RaceEventOut
    create_in, created_out = RaceEventIn, RaceEventCreatedOut

    def created(self, body: NewRace) -> Action:
        return self.ledger().created(body.settings, body.racers)

    round_view, round_out = RaceRoundView, RaceRoundOut

    def start_round(self, state: RaceEvent) -> Action:
        return self.ledger().start_round(state)

    def round_file(self, held: Held[RaceEvent], number: int, wanted: str) -> Response:
        if wanted == "text":
            return Response(board_list(held, number), mimetype="text/plain")
        return tabular(pairing_table(held, number), wanted, f"diagonal-{held.id}-round-{number}")

    result_at = "games/<int(min=1, max=100000):game>"
    result_in, result_view, result_out = RaceResultIn, GameView, RaceGameEnteredOut

    def enter_result(self, state: RaceEvent, number: int, at: int, body: GameWon) -> Action | None:
        return self.ledger().enter_result(state, number, at, body.winner, body.pieces_left)

    def reseat(self, state: RaceEvent, number: int, no_shows: Sequence[str]) -> Action:
        return self.ledger().reseat(state, number, no_shows)

    entrant_in = RacerIn

    def enter_late(self, state: RaceEvent, body: Racer) -> Action:
        return self.ledger().enter_late(state, body, MAX_FIELD)

    settings_in = RaceSettingsIn

    def change_settings(self, state: RaceEvent, body: RaceSettingsChange) -> Action | None:
        now = state.settings
        settings = replace(now, late_entry=sent_or(body.late_entry, now.late_entry))
        return self.ledger().change_settings(state, settings)

    def standings(self, held: Held[RaceEvent]) -> tuple[list[str], list[Sequence[Any]]]:
        rows = held.state.standings()
        return STANDING_COLUMNS, [
            [
                number_text(row.rating)
                if c == "rating" and row.rating is not None
                else getattr(row, c)
                for c in STANDING_COLUMNS
            ]
            for row in rows
        ]


# The export's columns: a standing's fields as the page answers them, but its opponents.
HELD = DiagonalRoutes().add_routes()
