"""A strikes tournament as a log of the director's actions (see ``engine/held.py``).

The log records what the engine decided when the director acted: a round's seating (so
a later change of the seating algorithm never rewrites a played round) and each table's
strikes as exact fractions. The fold rebuilds the :class:`Event` the rules work on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, replace
from fractions import Fraction
from typing import Any

from ..errors import refuse_repeats
from ..held import CREATED, JSON, Action, Entry, Ledger
from .data import StrikesRules
from .errors import InvalidInput
from .event import Entrant, Event, Round, Seat, Settings
from .scoring import Finish, Scored

ROUND_STARTED = "round_started"
RESULT_ENTERED = "result_entered"
RESULT_CORRECTED = "result_corrected"
ROUND_CLOSED = "round_closed"
PLAYER_DROPPED = "player_dropped"


def encode_result(scored: Sequence[Scored]) -> list[dict[str, JSON]]:
    return [
        {"player": s.player, "place": s.place, "score": s.score, "strikes": str(s.strikes)}
        for s in scored
    ]


def decode_result(rows: Sequence[Mapping[str, Any]]) -> list[Scored]:
    return [Scored(r["player"], r["place"], Fraction(r["strikes"]), r["score"]) for r in rows]


def _places(rows: Sequence[Mapping[str, Any]]) -> str:
    return ", ".join(f"{r['player']} {r['place']} ({r['strikes']})" for r in rows)


class StrikesLedger(Ledger[Event]):
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

    def start_round(self, event: Event) -> Action:
        new = event.next_round()
        return Action(
            ROUND_STARTED,
            {
                "round": new.number,
                "kind": new.kind,
                "detrimental_points": new.seating.detrimental_points if new.seating else 0,
                "seats": [
                    {"player": s.player, "table": s.table, "group": s.group} for s in new.seats
                ],
            },
        )

    def enter_result(
        self, event: Event, number: int, table: int, finishes: Sequence[Finish]
    ) -> Action | None:
        """A table's result, or its correction; None when it is already exactly this."""
        scored = event.score(number, table, finishes)
        previous = event.round(number).results.get(table)
        if previous == scored:
            return None
        data: dict[str, JSON] = {"round": number, "table": table, "results": encode_result(scored)}
        if previous is None:
            return Action(RESULT_ENTERED, data)
        return Action(RESULT_CORRECTED, {**data, "was": encode_result(previous)})

    def close_round(self, event: Event, number: int) -> Action | None:
        """Close the round; None when it is closed already (closing twice is harmless)."""
        event.check_close(number)
        if event.round(number).closed:
            return None
        return Action(ROUND_CLOSED, {"round": number})

    def drop(self, event: Event, player: str) -> Action:
        return Action(PLAYER_DROPPED, {"player": player, "before_round": event.check_drop(player)})

    # --- fold ---------------------------------------------------------------------------

    def start(self, created: Entry) -> Event:
        settings = Settings(**created.data["settings"])
        entrants = [Entrant(p["id"], p.get("name")) for p in created.data["players"]]
        return Event(settings, entrants, [], self.rules)

    def apply(self, event: Event, entry: Entry) -> None:
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
        else:
            raise ValueError(f"a strikes log has no action {entry.kind!r}")

    def clone(self, event: Event) -> Event:
        # apply() replaces entrants and fills each round's results; seats never change.
        rounds = [replace(r, results=dict(r.results)) for r in event.rounds]
        return Event(event.settings, list(event.entrants.values()), rounds, self.rules)

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
            return f"{where}: {_places(data['results'])} (was {_places(data['was'])})"
        if action.kind == ROUND_CLOSED:
            return f"Round {data['round']} closed"
        if action.kind == PLAYER_DROPPED:
            return f"{data['player']} dropped before round {data['before_round']}"
        raise ValueError(f"a strikes log has no action {action.kind!r}")
