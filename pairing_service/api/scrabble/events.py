"""Scrabble events held by the service, round by round: create, pair each round (by the
director's method or the default schedule's), enter games by their scores, close, withdraw,
late entrants, no-shows paired again, late corrections. The tsh interchange (the ``.t``
and ``tourney.js`` exports, the import of a ``.t`` file) is ``tsh_interchange.py``.

Reads are public; every write needs the event's director token (``director_token.py``);
results also a scorekeeper's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Response

from ...engine.event_log import Action
from ...engine.scrabble.held.event import ScrabbleEvent
from ...engine.scrabble.held.ledger import ScrabbleLedger
from ...engine.scrabble.held.log_events import Entrant
from ...engine.scrabble.prize_places import place_labels
from ...store import Held
from ..held.blueprint import RoundRoutes, RouteDocs
from ..held.printables import tabular
from .requests import GameEntered, NewScrabbleEvent, RoundStart, ScrabbleSettingsChange
from .schemas import (
    ScrabbleEntrantIn,
    ScrabbleEventCreatedOut,
    ScrabbleEventIn,
    ScrabbleEventOut,
    ScrabbleEventView,
    ScrabbleGameEnteredOut,
    ScrabbleGameView,
    ScrabbleResultIn,
    ScrabbleRoundOut,
    ScrabbleRoundView,
    ScrabbleSettingsIn,
    StartRoundIn,
)
from .views import STANDING_COLUMNS, pairing_table


class ScrabbleRoutes(RoundRoutes[ScrabbleEvent, ScrabbleLedger]):
    """The round routes of a held Scrabble event: a round is paired into games of two, a
    result is both scores, with any penalties (or a forfeit)."""

    clock_minutes = 50  # a Scrabble game with 25-minute clocks, and time to record it

    docs = RouteDocs(
        about="Scrabble events held by the service, run round by round.",
        create="""Create an event: players with ratings, the rounds planned, the spread cap, the
        bye's spread, the repeat allowance and the victors the final round pairs for (or
        the `prizes`, when places pay differently: the last three rounds then race each
        place head to head), and the `pairing_system` (`round_robin`: every round from the
        round robin's circle). The answer carries the director token, once.""",
        read="""The event: status, standings (wins, spread), and the default schedule.""",
        start_round="""Pair the next round. An optional body chooses the `method` (seeded,
        random, swiss, koth, advisor, round_robin), the `repeats_allowed` and a random
        round's `seed`; without it the default schedule's: seeded in round 1, Swiss by win
        group in the middle (no repeat where the field allows), the final-round advisor in
        the last; or, for a round robin, the circle's next round. A round robin's round
        with a player outside its circle (a late entrant, a player back from before it
        began) is a 409.""",
        round="""A round's games and results; the board list to pin up with `?format=text` or
        `Accept: text/plain`, and the games as CSV with `?format=csv` or `Accept: text/csv`.""",
        round_answer="The round's games and results",
        reseat="""No-shows: withdraw players who did not come to the open round and pair it
        again by its method without them (a round robin: their opponents have a bye).
        Only before any result of the round is entered (409 after: enter their games as
        forfeits); undo puts the first pairing back.""",
        result="""Enter or correct a game's result (idempotent): both scores in the game's
        order, with any penalties taken off each player's spread (spread only, never who
        won, as tsh), or the player who forfeited (and the forfeit's spread). A different
        result where one stands is a correction only with `If-Match` (else 409, saying
        what stands); it keeps the entry it replaces in the history.

        A game of an earlier round may be corrected: the later rounds' pairings stand,
        and `changes` (and the history) say what changed in the standings.""",
        close="""Close a round once every game has a result.""",
        late_entry="""A late entrant, with a rating, between rounds (409 while a round is open,
        once the event is over, or once a round robin has begun: its schedule is fixed by
        the players it began with): the rounds missed are unplayed (no result).""",
        drop="""Withdraw a player between rounds: not paired again; their games still count.
        In a round robin, whoever the schedule sets against them has a bye.""",
        reinstate="""Reinstate a withdrawn player (or a no-show), between rounds: paired again
        from the next round; the rounds they missed stay unplayed (no result), as a late
        entrant's. 409 while a round is open, once the event is over, or for a player who
        has not withdrawn; 404 for an unknown player. Logged as `player_reinstated`; undo
        takes it back.""",
        settings="""Change the event's settings (the rounds planned, spread cap, bye spread,
        repeat allowance, victors, seed, pairing system; those left out stay), until the
        first result is entered (then 409 naming it); the same settings again change
        nothing. Logged as `settings_changed`, the settings whole.""",
    )
    name, url_prefix = "scrabble_events", "/v1/scrabble/events"
    ledger_kind, view, read_out = ScrabbleLedger, ScrabbleEventView, ScrabbleEventOut
    create_in, created_out = ScrabbleEventIn, ScrabbleEventCreatedOut
    start_in = StartRoundIn

    def created(self, body: NewScrabbleEvent) -> Action:
        return self.ledger().created(body.settings, body.players)

    round_view, round_out = ScrabbleRoundView, ScrabbleRoundOut

    def start_round(self, state: ScrabbleEvent) -> Action:
        return self.ledger().start_round(state)

    def start_round_as(self, state: ScrabbleEvent, body: RoundStart) -> Action:
        return self.ledger().start_round(state, body.method, body.repeats_allowed, body.seed)

    def round_file(self, held: Held[ScrabbleEvent], number: int, wanted: str) -> Response:
        return tabular(pairing_table(held, number), wanted, f"scrabble-{held.id}-round-{number}")

    result_at = "games/<int(min=1, max=100000):game>"
    result_in, result_view, result_out = (
        ScrabbleResultIn,
        ScrabbleGameView,
        ScrabbleGameEnteredOut,
    )

    def enter_result(
        self, state: ScrabbleEvent, number: int, at: int, body: GameEntered
    ) -> Action | None:
        return self.ledger().enter_result(
            state, number, at, body.scores, body.forfeit, body.spread, body.penalties
        )

    def reseat(self, state: ScrabbleEvent, number: int, no_shows: Sequence[str]) -> Action:
        return self.ledger().reseat(state, number, no_shows)

    entrant_in = ScrabbleEntrantIn
    settings_in = ScrabbleSettingsIn

    def change_settings(self, state: ScrabbleEvent, body: ScrabbleSettingsChange) -> Action | None:
        return self.ledger().change_settings(state, body.applied(state.settings))

    def enter_late(self, state: ScrabbleEvent, body: Entrant) -> Action:
        return self.ledger().enter_late(state, body)

    def standings(self, held: Held[ScrabbleEvent]) -> tuple[list[str], list[Sequence[Any]]]:
        """The standings; with prizes, a ``prize`` column: the place each of the first
        players holds now, with its amount, players level on wins and spread shown tied
        (``prize_places.place_labels``)."""
        standing = held.state.standings()
        rows: list[Sequence[Any]] = [
            [getattr(row, c) for c in STANDING_COLUMNS] for row in standing
        ]
        prizes = held.state.settings.prizes
        if prizes is None:
            return STANDING_COLUMNS, rows
        paid = place_labels(prizes, [(row.wins, row.spread) for row in standing])
        shown: list[Sequence[Any]] = [[*row, label] for row, label in zip(rows, paid, strict=True)]
        return [*STANDING_COLUMNS, "prize"], shown


ROUTES = ScrabbleRoutes()
HELD = ROUTES.add_routes()
blp = ROUTES.blueprint
