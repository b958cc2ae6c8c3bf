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
  old standings and are kept as played, and the correction says what changed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, replace
from fractions import Fraction
from typing import Any

from ..errors import refuse_repeats
from ..event_log import (
    CREATED,
    JSON,
    Action,
    Entry,
    Ledger,
    kept_as_played,
    refuse_changed_decisions,
    refuse_late_entry,
    refuse_no_shows,
    standing_changes,
)
from .data import StrikesRules
from .errors import InvalidInput
from .event import Entrant, Event, EventConflict, Round, Seat, Settings
from .scoring import Finish, Scored
from .winners import Ending

ROUND_STARTED = "round_started"
RESULT_ENTERED = "result_entered"
RESULT_CORRECTED = "result_corrected"
ROUND_CLOSED = "round_closed"
PLAYER_DROPPED = "player_dropped"
PLAYER_ENTERED = "player_entered"
ROUND_RESEATED = "round_reseated"


class HeldEvent(Event):
    """A strikes event as its log holds it: an :class:`Event` whose late entrants start
    with the strikes they were given when they joined."""

    def __init__(
        self,
        settings: Settings,
        entrants: Sequence[Entrant],
        rounds: Sequence[Round],
        rules: StrikesRules,
        starting: Mapping[str, Fraction] | None = None,
    ) -> None:
        super().__init__(settings, entrants, rounds, rules)
        self.starting = dict(starting or {})  # late entrant -> the strikes they started with

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
            raise InvalidInput("id", f"{player!r} is in this tournament already")
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
        totals = self.strikes()
        start = max((totals[p] for p in self.active()), default=Fraction(0))
        return (latest.number if latest else 0) + 1, start

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


def encode_result(scored: Sequence[Scored]) -> list[dict[str, JSON]]:
    return [
        {"player": s.player, "place": s.place, "score": s.score, "strikes": str(s.strikes)}
        for s in scored
    ]


def decode_result(rows: Sequence[Mapping[str, Any]]) -> list[Scored]:
    return [Scored(r["player"], r["place"], Fraction(r["strikes"]), r["score"]) for r in rows]


def _places(rows: Sequence[Mapping[str, Any]]) -> str:
    return ", ".join(f"{r['player']} {r['place']} ({r['strikes']})" for r in rows)


def _decided(ending: Ending | None) -> tuple[bool, tuple[str, ...]]:
    return (ending.finished, tuple(ending.winners)) if ending is not None else (False, ())


def _seats(seats: Sequence[Seat]) -> list[dict[str, JSON]]:
    return [{"player": s.player, "table": s.table, "group": s.group} for s in seats]


class StrikesLedger(Ledger[HeldEvent]):
    format = "strikes"

    def __init__(self, rules: StrikesRules) -> None:
        self.rules = rules

    # --- decisions ----------------------------------------------------------------------

    @staticmethod
    def created(settings: Settings, entrants: Sequence[Entrant]) -> Action:
        refuse_repeats([e.id for e in entrants], "players", InvalidInput, "/id")
        return Action(
            CREATED,
            {
                "settings": asdict(settings),
                "players": [{"id": e.id, "name": e.name} for e in entrants],
            },
        )

    def start_round(self, event: HeldEvent) -> Action:
        new = event.next_round()
        return Action(
            ROUND_STARTED,
            {
                "round": new.number,
                "kind": new.kind,
                "detrimental_points": new.seating.detrimental_points if new.seating else 0,
                "seats": _seats(new.seats),
            },
        )

    def enter_result(
        self, event: HeldEvent, number: int, table: int, finishes: Sequence[Finish]
    ) -> Action | None:
        """A table's result, or its correction; None when it is already exactly this.

        A round that is no longer the latest is corrected as it stood (its tables, who was
        still in), and only when that changes no elimination and not the ending; the
        correction then says what it changed."""
        rnd = event.round(number)
        late = event.latest is not rnd
        scored = (event.as_of(number) if late else event).score(number, table, finishes)
        previous = rnd.results.get(table)
        if previous == scored:
            return None
        data: dict[str, JSON] = {"round": number, "table": table, "results": encode_result(scored)}
        if previous is None:
            return Action(RESULT_ENTERED, data)
        corrected: dict[str, JSON] = {**data, "was": encode_result(previous)}
        if late:
            corrected["changes"] = self._late_changes(event, number, table, scored)
        return Action(RESULT_CORRECTED, corrected)

    def _late_changes(
        self, event: HeldEvent, number: int, table: int, scored: list[Scored]
    ) -> list[JSON]:
        """What correcting a table of an earlier round changes, in words; refused when it
        would change who was eliminated or the ending, which later rounds were built on."""
        after = self.clone(event)
        after.round(number).results[table] = scored
        ending_changes = _decided(event.ending()) != _decided(after.ending())
        refuse_changed_decisions(
            number, event.eliminated_after(), after.eliminated_after(), ending_changes, "seated"
        )
        changes: list[JSON] = list(
            standing_changes(
                [(s.player, str(s.strikes)) for s in event.standings()],
                [(s.player, str(s.strikes)) for s in after.standings()],
                "strikes",
            )
        )
        later = [r.number for r in event.rounds if r.number > number]
        changes.append(kept_as_played(later, "seated"))
        return changes

    def enter_late(
        self, event: HeldEvent, player: str, name: str | None, most_players: int
    ) -> Action:
        """A late entrant, between rounds; they start with the most strikes of anyone in."""
        before_round, strikes = event.late_entry(player, most_players)
        return Action(
            PLAYER_ENTERED,
            {"player": player, "name": name, "before_round": before_round, "strikes": str(strikes)},
        )

    def reseat(self, event: HeldEvent, number: int, no_shows: Sequence[str]) -> Action:
        """Drop the no-shows of the open round (no result entered yet) and seat it again."""
        new = event.without_no_shows(number, no_shows).next_round()
        return Action(
            ROUND_RESEATED,
            {
                "round": number,
                "no_shows": list(no_shows),
                "kind": new.kind,
                "detrimental_points": new.seating.detrimental_points if new.seating else 0,
                "seats": _seats(new.seats),
                "was": _seats(event.round(number).seats),
            },
        )

    def close_round(self, event: HeldEvent, number: int) -> Action | None:
        """Close the round; None when it is closed already (closing twice is harmless)."""
        event.check_close(number)
        if event.round(number).closed:
            return None
        return Action(ROUND_CLOSED, {"round": number})

    def drop(self, event: HeldEvent, player: str) -> Action:
        return Action(PLAYER_DROPPED, {"player": player, "before_round": event.check_drop(player)})

    # --- fold ---------------------------------------------------------------------------

    def start(self, created: Entry) -> HeldEvent:
        settings = Settings(**created.data["settings"])
        entrants = [Entrant(p["id"], p.get("name")) for p in created.data["players"]]
        return HeldEvent(settings, entrants, [], self.rules)

    def apply(self, event: HeldEvent, entry: Entry) -> None:
        data = entry.data
        if entry.kind == ROUND_STARTED:
            seats = [Seat(s["player"], s["table"], s["group"]) for s in data["seats"]]
            event.rounds.append(
                Round(data["round"], data["kind"], False, seats, {}, data["detrimental_points"])
            )
        elif entry.kind in (RESULT_ENTERED, RESULT_CORRECTED):
            event.round(data["round"]).results[data["table"]] = decode_result(data["results"])
        elif entry.kind == ROUND_CLOSED:
            event.round(data["round"]).closed = True
        elif entry.kind == PLAYER_DROPPED:
            player = data["player"]
            event.entrants[player] = replace(
                event.entrants[player], dropped_before_round=data["before_round"]
            )
        elif entry.kind == PLAYER_ENTERED:
            event.entrants[data["player"]] = Entrant(data["player"], data["name"])
            event.starting[data["player"]] = Fraction(data["strikes"])
        elif entry.kind == ROUND_RESEATED:
            rnd = event.round(data["round"])
            for player in data["no_shows"]:
                event.entrants[player] = replace(
                    event.entrants[player], dropped_before_round=data["round"]
                )
            rnd.seats = [Seat(s["player"], s["table"], s["group"]) for s in data["seats"]]
            rnd.kind, rnd.detrimental_points = data["kind"], data["detrimental_points"]
        else:
            raise ValueError(f"a strikes log has no action {entry.kind!r}")

    def clone(self, event: HeldEvent) -> HeldEvent:
        # apply() replaces entrants, a round's seats (a new list) and fills each round's
        # results; it adds late entrants' starting strikes.
        rounds = [replace(r, results=dict(r.results)) for r in event.rounds]
        return HeldEvent(
            event.settings, list(event.entrants.values()), rounds, self.rules, event.starting
        )

    def describe(self, action: Action) -> str:
        data = action.data
        if action.kind == CREATED:
            settings = data["settings"]
            return (
                f"Created with {len(data['players'])} players: game {settings['game']}, "
                f"eliminated at {settings['threshold']} strikes"
            )
        if action.kind == ROUND_STARTED:
            tables = {s["table"] for s in data["seats"] if s["table"] is not None}
            byes = [s["player"] for s in data["seats"] if s["table"] is None]
            bye = f"; bye: {', '.join(byes)}" if byes else ""
            return f"Round {data['round']} started ({data['kind']}): {len(tables)} tables{bye}"
        if action.kind == RESULT_ENTERED:
            where = f"Round {data['round']}, table {data['table']}"
            return f"{where}: {_places(data['results'])}"
        if action.kind == RESULT_CORRECTED:
            where = f"Round {data['round']}, table {data['table']} corrected"
            changed = "".join(f"; {line}" for line in data.get("changes", ()))
            return f"{where}: {_places(data['results'])} (was {_places(data['was'])}){changed}"
        if action.kind == ROUND_CLOSED:
            return f"Round {data['round']} closed"
        if action.kind == PLAYER_DROPPED:
            return f"{data['player']} dropped before round {data['before_round']}"
        if action.kind == PLAYER_ENTERED:
            return (
                f"{data['player']} entered late, before round {data['before_round']}, "
                f"starting with {data['strikes']} strikes"
            )
        if action.kind == ROUND_RESEATED:
            tables = {s["table"] for s in data["seats"] if s["table"] is not None}
            return (
                f"Round {data['round']} seated again without {', '.join(data['no_shows'])} "
                f"(no-show, dropped): {len(tables)} tables"
            )
        raise ValueError(f"a strikes log has no action {action.kind!r}")
