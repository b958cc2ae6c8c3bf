"""A strikes tournament as a log of the director's actions (see ``engine/event_log.py``).

The log records what the engine decided when the director acted: a round's seating (so
a later change of the seating algorithm never rewrites a played round) and each table's
strikes as exact fractions. The fold rebuilds the :class:`HeldEvent` the rules work on.

The day of the event (the seed is silent on all three; this service's readings,
``docs/strikes.md``):

- a late entrant joins between rounds and starts with the most strikes of any player still
  in, so that joining late never puts anyone ahead of a player who played;
- a no-show, before any result of the round is entered, is dropped and the round is seated
  again for the players who came, as the round's start would have seated them;
- a result of a round that is no longer the latest may be corrected when the correction
  changes nobody's elimination and not the ending: the later rounds were seated from the
  old standings and are kept as played, and the correction says what changed;
- a player who dropped (or did not come) may be reinstated between rounds: their strikes
  become the larger of theirs and what a late entrant would start with, so leaving and
  coming back never pays;
- the settings the seed leaves to the director (the elimination threshold, a late
  entrant's start) may change until the first result is entered.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction

from ..errors import refuse_repeats
from ..event_codec import LogEvent
from ..event_log import Action, Entry, ListedPlayer
from ..names import called
from ..round_ledger import (
    RoundLedger,
    correction_words,
    refuse_after_first_result,
    refuse_late_entry,
    refuse_no_shows,
    refuse_reinstatement,
    result_words,
)
from ..wording import counted
from .data import StrikesRules
from .errors import InvalidInput
from .event import Event, EventConflict, EventNotFound
from .log_events import (
    STRIKES_EVENTS,
    Created,
    PlayerEntered,
    PlayerReinstated,
    PlayerResult,
    ResultCorrected,
    ResultEntered,
    RoundReseated,
    RoundStarted,
    SettingsChanged,
)
from .records import Entrant, Round, Seat, Settings, late_start
from .scoring import Finish, Scored


class HeldEvent(Event):
    """A strikes event as its log holds it: an :class:`Event` whose late entrants start
    with the strikes they were given when they joined, and whose reinstated players keep
    the strikes they were given to catch up."""

    def __init__(
        self,
        settings: Settings,
        entrants: Sequence[Entrant],
        rounds: Sequence[Round],
        rules: StrikesRules,
        starting: Mapping[str, Fraction] | None = None,
    ) -> None:
        super().__init__(settings, entrants, rounds, rules)
        # Strikes beyond a player's results: a late entrant's start, a reinstated player's
        # catch-up (both below the threshold, so never an elimination of a round played).
        self.starting = dict(starting or {})

    def strikes(self, through_round: int | None = None) -> dict[str, Fraction]:
        totals = super().strikes(through_round)
        for player, strikes in self.starting.items():
            totals[player] += strikes
        return totals

    def as_of(self, number: int) -> HeldEvent:
        """The event as it stood while round ``number`` was the latest."""
        earlier = [r for r in self.rounds if r.number <= number]
        return HeldEvent(
            self.settings, list(self.entrants.values()), earlier, self.rules, self.starting
        )

    def late_entry(self, player: str, most_players: int) -> tuple[int, Fraction]:
        """The round a late entrant joins before, and the strikes they start with."""
        if player in self.entrants:
            raise InvalidInput(("id",), f"{player!r} is in this tournament already")
        latest = self.latest
        ending = self.ending()
        refuse_late_entry(
            latest.number if latest and not latest.closed else None,
            "the event is decided: " + ", ".join(ending.winners)
            if ending is not None and ending.finished
            else None,
            len(self.entrants),
            most_players,
            EventConflict,
        )
        return (latest.number if latest else 0) + 1, self.late_start()

    def late_start(self) -> Fraction:
        """The strikes a late entrant would start with now: the most, the mean or the
        fewest of the players still in (the event's ``late_entry`` setting)."""
        totals = self.strikes()
        return late_start([totals[p] for p in self.active()], self.settings.late_entry)

    def check_reinstate(self, player: str) -> int:
        """The round before which a dropped ``player`` comes back (the next round)."""
        if player not in self.entrants:
            raise EventNotFound(f"there is no player {player!r}")
        latest = self.latest
        ending = self.ending()
        refuse_reinstatement(
            player,
            latest.number if latest and not latest.closed else None,
            f"the event is over: {', '.join(ending.winners)} ({ending.reason})"
            if ending is not None and ending.finished
            else None,
            self.eliminated_after().get(player),
            self.entrants[player].dropped_before_round,
        )
        return (latest.number if latest else 0) + 1

    def without_no_shows(self, number: int, no_shows: Sequence[str]) -> HeldEvent:
        """The event before round ``number`` started, the no-shows dropped before it:
        what the round is seated again from."""
        rnd = self.round(number)
        latest = self.latest
        if rnd is not latest or rnd.closed:
            raise EventConflict(f"round {number} is closed: only the open round is re-seated")
        if rnd.kind == "tiebreak":
            raise EventConflict("the tiebreak game is for the two winners: undo its start instead")
        if rnd.results:
            tables = ", ".join(str(t) for t in sorted(rnd.results))
            raise EventConflict(
                f"round {number} has results for table(s) {tables}: a round is re-seated "
                "only before any result is entered (undo them first, or enter the no-show's "
                "table as played)"
            )
        refuse_no_shows(
            no_shows,
            set(rnd.players()),
            self.entrants,
            InvalidInput,
            "is not in this tournament",
            f"is not seated in round {number}",
        )
        entrants = [
            replace(e, dropped_before_round=number) if e.id in no_shows else e
            for e in self.entrants.values()
        ]
        before = [r for r in self.rounds if r.number < number]
        view = HeldEvent(self.settings, entrants, before, self.rules, self.starting)
        ending = view.ending()
        if ending is not None and ending.finished:
            raise EventConflict(
                f"without {', '.join(no_shows)} the players left cannot be seated "
                f"({ending.reason}): undo round {number}'s start and drop them instead"
            )
        return view


def _places(rows: Sequence[PlayerResult], names: Mapping[str, str]) -> str:
    return ", ".join(f"{names.get(r.player, r.player)} {r.place} ({r.strikes})" for r in rows)


def _rows(scored: Sequence[Scored]) -> tuple[PlayerResult, ...]:
    return tuple(PlayerResult.of(s) for s in scored)


def _tables(seats: Sequence[Seat]) -> int:
    return len({s.table for s in seats if s.table is not None})


class StrikesLedger(RoundLedger[HeldEvent, list[Scored]]):
    format = "strikes"
    events = STRIKES_EVENTS

    def __init__(self, rules: StrikesRules) -> None:
        self.rules = rules

    # --- decisions ----------------------------------------------------------------------

    @staticmethod
    def created(settings: Settings, entrants: Sequence[Entrant]) -> Action:
        refuse_repeats([e.id for e in entrants], ("players",), InvalidInput, ("id",))
        players = tuple(ListedPlayer(e.id, e.name) for e in entrants)
        return Action.of(Created(settings, players))

    def start_round(self, event: HeldEvent) -> Action:
        new = event.next_round()
        points = new.seating.detrimental_points if new.seating else 0
        return Action.of(RoundStarted(new.number, new.kind, points, tuple(new.seats)))

    def enter_result(
        self, event: HeldEvent, number: int, table: int, finishes: Sequence[Finish]
    ) -> Action | None:
        """A table's result, or its correction; None when it is already exactly this.

        A round that is no longer the latest is corrected as it stood (its tables, who was
        still in), and only when that changes no elimination and not the ending; the
        correction then says what it changed."""
        late = event.latest is not event.round(number)
        scored = (event.as_of(number) if late else event).score(number, table, finishes)
        return self._result(event, number, table, scored)

    def _entered(self, number: int, key: int, result: list[Scored]) -> LogEvent:
        return ResultEntered(number, key, _rows(result))

    def _corrected(
        self, number: int, key: int, result: list[Scored], was: list[Scored], changes: Sequence[str]
    ) -> LogEvent:
        return ResultCorrected(number, key, _rows(result), _rows(was), tuple(changes))

    def _decided(self, state: HeldEvent) -> Hashable:
        ending = state.ending()
        return (ending.finished, tuple(ending.winners)) if ending is not None else (False, ())

    def _eliminations(self, state: HeldEvent) -> Mapping[str, int | None]:
        return state.eliminated_after()

    def _figures(self, state: HeldEvent) -> list[tuple[str, str]]:
        return [(s.player, str(s.strikes)) for s in state.standings()]

    def enter_late(
        self, event: HeldEvent, player: str, name: str | None, most_players: int
    ) -> Action:
        """A late entrant, between rounds; they start with the strikes the event's
        ``late_entry`` setting gives (by default the most of anyone still in)."""
        before_round, strikes = event.late_entry(player, most_players)
        return Action.of(PlayerEntered(player, name, before_round, strikes))

    def _reinstated(self, state: HeldEvent, player: str, before_round: int) -> PlayerReinstated:
        """Caught up to a late entrant's start (the event's setting), or as they are when
        they have more strikes than that."""
        behind = state.late_start() - state.strikes()[player]
        return PlayerReinstated(player, before_round, max(behind, Fraction(0)))

    def change_settings(self, event: HeldEvent, settings: Settings) -> Action | None:
        """The settings changed, until the first result is entered (then a 409 naming it);
        None when they are these already."""
        if settings == event.settings:
            return None
        refuse_after_first_result([(r.number, list(r.results)) for r in event.rounds], "table")
        return Action.of(SettingsChanged(settings))

    def reseat(self, event: HeldEvent, number: int, no_shows: Sequence[str]) -> Action:
        """Drop the no-shows of the open round (no result entered yet) and seat it again."""
        new = event.without_no_shows(number, no_shows).next_round()
        return Action.of(
            RoundReseated(
                number,
                tuple(no_shows),
                new.kind,
                new.seating.detrimental_points if new.seating else 0,
                tuple(new.seats),
                tuple(event.round(number).seats),
            )
        )

    # --- fold ---------------------------------------------------------------------------

    def start(self, created: Entry) -> HeldEvent:
        match self._event(created.action):
            case Created(settings=settings, players=players):
                entrants = [Entrant(p.id, p.name) for p in players]
                return HeldEvent(settings, entrants, [], self.rules)
        raise ValueError(f"a strikes log begins with its creation, not {created.kind!r}")

    def _drop_player(self, state: HeldEvent, player: str, before_round: int) -> None:
        state.entrants[player] = replace(state.entrants[player], dropped_before_round=before_round)

    def _reinstate_player(self, state: HeldEvent, event: LogEvent) -> None:
        match event:
            case PlayerReinstated(player=player, strikes=strikes):
                state.entrants[player] = replace(state.entrants[player], dropped_before_round=None)
                state.starting[player] = state.starting.get(player, Fraction(0)) + strikes
            case _:
                raise ValueError(f"not a strikes reinstatement: {event.logged_as!r}")

    def _caught_up(self, event: LogEvent) -> str:
        match event:
            case PlayerReinstated(strikes=strikes) if strikes:
                return f"{counted(strikes, 'strike')} added to catch up"
            case PlayerReinstated():
                return "with their own strikes (no fewer than a late entrant's)"
        raise ValueError(f"not a strikes reinstatement: {event.logged_as!r}")

    def _apply_rules(self, state: HeldEvent, event: LogEvent) -> None:
        match event:
            case SettingsChanged(settings=settings):
                state.settings = settings
            case RoundStarted(round=number, kind=kind, detrimental_points=points, seats=seats):
                state.rounds.append(Round(number, kind, False, list(seats), {}, points))
            case ResultEntered(round=number, table=table, results=rows):  # or corrected
                state.round(number).results[table] = [r.scored() for r in rows]
            case PlayerEntered(player=player, name=name, strikes=strikes):
                state.entrants[player] = Entrant(player, name)
                state.starting[player] = strikes
            case RoundReseated(round=number, seats=seats):  # the no-shows are dropped
                rnd = state.round(number)
                rnd.seats = list(seats)
                rnd.kind, rnd.detrimental_points = event.kind, event.detrimental_points
            case _:
                raise ValueError(f"a strikes log has no action {event.logged_as!r}")

    def clone(self, event: HeldEvent) -> HeldEvent:
        # apply() replaces entrants, a round's seats (a new list) and fills each round's
        # results; it adds late entrants' starting strikes.
        rounds = [replace(r, results=dict(r.results)) for r in event.rounds]
        return HeldEvent(
            event.settings, list(event.entrants.values()), rounds, self.rules, event.starting
        )

    def _describe_named(self, event: LogEvent, names: Mapping[str, str]) -> str:
        match event:
            case Created(settings=settings, players=players):
                return (
                    f"Created with {len(players)} players: game {settings.game}, "
                    f"eliminated at {settings.threshold} strikes"
                )
            case RoundStarted(round=number, kind=kind, seats=seats):
                byes = [s.player for s in seats if s.table is None]
                bye = f"; bye: {called(names, byes)}" if byes else ""
                return f"Round {number} started ({kind}): {counted(_tables(seats), 'table')}{bye}"
            case ResultCorrected(round=number, table=table, results=rows, was=was):
                where = f"table {table}"
                now, before = _places(rows, names), _places(was, names)
                return correction_words(number, where, now, before, event.changes)
            case ResultEntered(round=number, table=table, results=rows):
                return result_words(number, f"table {table}", _places(rows, names))
            case PlayerEntered(player=player, before_round=before_round, strikes=strikes):
                return (
                    f"{names.get(player, player)} entered late, before round {before_round}, "
                    f"starting with {counted(strikes, 'strike')}"
                )
            case RoundReseated(round=number, no_shows=no_shows, seats=seats):
                return (
                    f"Round {number} seated again without {called(names, no_shows)} "
                    f"(no-show, dropped): {counted(_tables(seats), 'table')}"
                )
            case SettingsChanged(settings=settings):
                return (
                    f"Settings changed: eliminated at {settings.threshold} strikes; a late "
                    f"entrant starts with the {settings.late_entry} strikes of the players "
                    "still in"
                )
        return super()._describe_named(event, names)
