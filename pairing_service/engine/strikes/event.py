"""A whole strikes event as records, and the rules that move it on.

The ledger (``ledger.py``) folds the log into an :class:`Event`; this module decides, by
the seed's rules, what the next round is, whether a result may be entered, whether a round can
close, and who won. Everything else is derived from the entered results, so a correction
(allowed on the latest round until the next one starts) changes strikes, eliminations and
the ending consistently.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from ..errors import Conflict, NotFound
from ..ranking import rank_by
from ..round_ledger import refuse_close, refuse_drop
from .data import StrikesRules
from .errors import InvalidInput, NoTablePlan, StrikesError
from .plans import RoundType, TablePlan, round_type, table_plan
from .records import Entrant, NewRound, Round, Seat, Settings
from .scoring import Finish, Scored, score_table
from .seating import Contestant, seat
from .winners import Ending, decide, decide_after_drops, decide_tiebreak


class EventConflict(StrikesError, Conflict):
    """The event's state does not allow this now (a 409): the message says why."""


class EventNotFound(StrikesError, NotFound):
    """No such round, table or player in this event (a 404)."""


@dataclass(frozen=True)
class Standing:
    player: str
    name: str | None
    strikes: Fraction
    games: int
    opponents_met: int
    eliminated_after_round: int | None
    dropped_before_round: int | None
    place: int = 0  # 1 first; equal standings share it
    winner: bool = False

    @property
    def status(self) -> str:
        """active, eliminated or dropped."""
        if self.dropped_before_round is not None:
            return "dropped"
        return "eliminated" if self.eliminated_after_round is not None else "active"


def _standing_key(row: Standing, winner: bool) -> tuple[int, int, Fraction]:
    """Larger is better: the winners (sharing 1st), then those still in by strikes, then
    the eliminated (the latest out first, then by strikes), then those who dropped out
    (the latest first, then by strikes)."""
    if winner:
        return (3, 0, Fraction(0))
    if row.dropped_before_round is not None:
        return (0, row.dropped_before_round, -row.strikes)
    if row.eliminated_after_round is not None:
        return (1, row.eliminated_after_round, -row.strikes)
    return (2, 0, -row.strikes)


class Event:
    def __init__(
        self,
        settings: Settings,
        entrants: Sequence[Entrant],
        rounds: Sequence[Round],
        rules: StrikesRules,
    ) -> None:
        self.settings = settings
        self.entrants = {e.id: e for e in entrants}
        self.rounds = sorted(rounds, key=lambda r: r.number)
        self.rules = rules

    # --- derived state ------------------------------------------------------------------

    def names(self) -> dict[str, str | None]:
        """Each player's name (None for a player who gave none), by id."""
        return {player: entrant.name for player, entrant in self.entrants.items()}

    @property
    def latest(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def strikes(self, through_round: int | None = None) -> dict[str, Fraction]:
        totals = {pid: Fraction(0) for pid in self.entrants}
        for rnd in self.rounds:
            if through_round is not None and rnd.number > through_round:
                break
            if rnd.kind == "tiebreak":
                continue  # the tiebreak game decides the winner, not strikes
            for result in rnd.results.values():
                for entry in result:
                    totals[entry.player] += entry.strikes
        return totals

    def eliminated_after(self) -> dict[str, int]:
        """Player -> the closed round after which they reached the threshold."""
        out: dict[str, int] = {}
        for rnd in self.rounds:
            if not rnd.closed or rnd.kind == "tiebreak":
                continue
            totals = self.strikes(rnd.number)
            for pid in rnd.players():
                if pid not in out and totals[pid] >= self.settings.threshold:
                    out[pid] = rnd.number
        return out

    def active(self) -> list[str]:
        gone = self.eliminated_after()
        return [
            e.id
            for e in self.entrants.values()
            if e.id not in gone and e.dropped_before_round is None
        ]

    def standings(self) -> list[Standing]:
        """Every entrant best first, with their place (shared by equals): the winners once
        the event is decided, then those still in by strikes, then the eliminated (the
        latest out first), then those who dropped out (the latest first)."""
        totals = self.strikes()
        gone = self.eliminated_after()
        games = dict.fromkeys(self.entrants, 0)
        met: dict[str, set[str]] = {pid: set() for pid in self.entrants}
        for rnd in self.rounds:
            for number, table in rnd.tables().items():
                if number not in rnd.results:  # still being played: counted once entered,
                    continue  # as its strikes are
                for pid in table:
                    games[pid] += 1
                    met[pid].update(p for p in table if p != pid)
        rows = [
            Standing(
                e.id,
                e.name,
                totals[e.id],
                games[e.id],
                len(met[e.id]),
                gone.get(e.id),
                e.dropped_before_round,
            )
            for e in self.entrants.values()
        ]
        ending = self.ending()
        winners = set(ending.winners) if ending is not None and ending.finished else set()
        ranked = rank_by(rows, lambda s: _standing_key(s, s.player in winners), lambda s: s.player)
        return [replace(row, place=place, winner=row.player in winners) for place, row in ranked]

    def ending(self) -> Ending | None:
        """Where the event stands: the latest closed round's ending, or the one drops made
        since (players left who cannot be seated); None while nothing is decided yet."""
        decided = self._round_ending()
        if decided is not None and decided.finished:
            return decided
        after_drops = self._ending_after_drops()
        if after_drops is not None:
            return after_drops
        if decided is None:
            return None
        return Ending(False, (), "continues", f"{len(self.active())} players remain", False)

    def _ending_after_drops(self) -> Ending | None:
        """The ending when drops left too few active players to seat, between rounds."""
        latest = self.latest
        if latest is not None and not latest.closed:
            return None
        active = self.active()
        if not active or self._plan(len(active)) is not None:
            return None
        last = next((r for r in reversed(self.rounds) if r.kind != "tiebreak"), None)
        if last is None:
            return decide_after_drops(active, [], [], self.strikes())
        tables = [last.results[t] for t in sorted(last.results)]
        return decide_after_drops(active, tables, last.byes(), self.strikes(last.number))

    def _round_ending(self) -> Ending | None:
        """The ending the latest closed round decided (None before any round closes)."""
        closed = [r for r in self.rounds if r.closed]
        if not closed:
            return None
        last = closed[-1]
        if last.kind == "tiebreak":
            previous = self._ending_of(closed[-2]) if len(closed) > 1 else None
            table = next(iter(last.results.values()))
            if previous is None:  # pragma: no cover - a tiebreak always follows an ending
                raise EventConflict("a tiebreak game without an ending before it")
            return decide_tiebreak(table, previous)
        return self._ending_of(last)

    def tiebreak_available(self) -> bool:
        """Two winners may still play the 2-player tiebreak game."""
        ending = self.ending()
        latest = self.latest
        return bool(
            ending is not None
            and ending.tiebreak_game
            and latest is not None
            and latest.kind != "tiebreak"
        )

    def status(self) -> str:
        """registered, round_open, between_rounds or finished."""
        latest = self.latest
        if latest is not None and not latest.closed:
            return "round_open"
        ending = self.ending()
        if ending is not None and ending.finished and not self.tiebreak_available():
            return "finished"  # drops may finish an event before its first round
        return "registered" if latest is None else "between_rounds"

    def ending_of_round(self, number: int) -> Ending | None:
        """What round ``number`` decided, if it is the latest closed round, else None
        (drops after it may have ended the event since: see :meth:`ending`)."""
        closed = [r.number for r in self.rounds if r.closed]
        return self._round_ending() if closed and closed[-1] == number else None

    def _ending_of(self, rnd: Round) -> Ending:
        return decide(
            [rnd.results[t] for t in sorted(rnd.results)],
            rnd.byes(),
            self.strikes(rnd.number),
            self.settings.threshold,
            two_player_games=self.settings.two_player_games,
        )

    def history(self) -> list[tuple[str, ...]]:
        return [tuple(t) for rnd in self.rounds for t in rnd.tables().values()]

    # --- transitions --------------------------------------------------------------------

    def next_round(self) -> NewRound:
        latest = self.latest
        if latest is not None and not latest.closed:
            raise EventConflict(f"round {latest.number} is still open; close it first")
        ending = self.ending()
        number = (latest.number if latest else 0) + 1
        if ending is not None and ending.finished:
            if self.tiebreak_available():
                seats = [Seat(pid, 1) for pid in ending.winners]
                return NewRound(number, "tiebreak", seats, None)
            if latest is not None and latest.kind == "tiebreak":
                raise EventConflict("the event is over: the tiebreak game has been played")
            raise EventConflict(
                "the event is over: " + ", ".join(ending.winners) + " (" + ending.reason + ")"
            )
        active = self.active()
        kind = self._next_round_type()
        plan = self._plan(len(active))
        if plan is None:  # pragma: no cover - ending() ends the event when none fits
            raise EventConflict(f"{len(active)} active players cannot be seated")
        totals = self.strikes()
        seating = seat(
            [Contestant(pid, totals[pid]) for pid in active],
            self.history(),
            plan,
            self.rules.detrimental_points,
            strategy=self.settings.strategy,
            plans=self.settings.plans,
            seed=self.settings.seed * 1009 + number,
        )
        seats = [
            Seat(pid, number_of_table, table.group)
            for number_of_table, table in enumerate(seating.tables, start=1)
            for pid in table.players
        ]
        seats += [Seat(pid, None, 1) for pid in seating.byes]
        return NewRound(number, "split" if kind is RoundType.SPLIT else "random", seats, seating)

    def _next_round_type(self) -> RoundType:
        return round_type(sum(1 for r in self.rounds if r.kind != "tiebreak") + 1)

    def _plan(self, players: int) -> TablePlan | None:
        """The next round's table plan for this many players; None when they cannot play."""
        try:
            return table_plan(
                players,
                self._next_round_type(),
                self.settings.game,
                self.rules,
                two_player_games=self.settings.two_player_games,
            )
        except NoTablePlan:
            return None

    def round(self, number: int) -> Round:
        for rnd in self.rounds:
            if rnd.number == number:
                return rnd
        raise EventNotFound(f"there is no round {number}")

    def score(self, number: int, table: int, finishes: Sequence[Finish]) -> list[Scored]:
        """Strikes for a table's result, if it may be entered or corrected now."""
        rnd = self.round(number)
        latest = self.latest
        if latest is not None and rnd.number != latest.number:
            raise EventConflict(
                f"round {number} is closed and round {latest.number} has started; "
                "results can no longer change"
            )
        tables = rnd.tables()
        if table not in tables:
            raise EventNotFound(f"round {number} has no table {table}")
        seated = tables[table]
        gone = self.eliminated_after()
        listed: set[str] = set()
        for index, finish in enumerate(finishes):
            if finish.player in listed:
                raise InvalidInput(
                    ("results", index, "player"), f"{finish.player!r} is listed twice"
                )
            listed.add(finish.player)
            if finish.player not in seated:
                if finish.player in gone and gone[finish.player] < number:
                    why = f"was eliminated after round {gone[finish.player]}"
                elif finish.player in self.entrants:
                    why = f"is not at table {table} of round {number}"
                else:
                    why = "is not in this tournament"
                raise InvalidInput(("results", index, "player"), f"{finish.player!r} {why}")
        missing = [p for p in seated if p not in {f.player for f in finishes}]
        if missing:
            raise InvalidInput(("results",), f"table {table} also seats {', '.join(missing)}")
        return score_table(finishes, self.rules.strikes_by_place)

    def check_close(self, number: int) -> None:
        rnd = self.round(number)
        latest = self.latest.number if self.latest is not None else None
        refuse_close(
            number,
            latest,
            [t for t in rnd.tables() if t not in rnd.results],
            "table",
            EventConflict,
        )

    def check_drop(self, player: str) -> int:
        """The round before which ``player`` leaves (the next round's number)."""
        latest = self.latest
        ending = self.ending()
        entrant = self.entrants.get(player)
        refuse_drop(
            player,
            entrant is not None,
            latest.number if latest is not None and not latest.closed else None,
            "the event is over" if ending is not None and ending.finished else None,
            entrant is not None and entrant.dropped_before_round is not None,
            EventConflict,
            EventNotFound,
        )
        gone = self.eliminated_after()
        if player in gone:
            raise EventConflict(f"{player!r} was eliminated after round {gone[player]}")
        return (latest.number if latest else 0) + 1
