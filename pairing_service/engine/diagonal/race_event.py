"""The state of a held Diagonal Race event, folded from its log (``ledger.py``): its rounds
with their pairings and results, the players who dropped and the losses a late entrant or a
reinstated player started with; how it stands (its ending, its standings: worked out in
``standing.py``), and the checks of what the director may do now (pair the next round,
enter a result, a late entry, a drop, a reinstatement, a round paired again without its
no-shows)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..errors import Conflict, NotFound
from ..event_log import numbered
from ..round_ledger import (
    refuse_close,
    refuse_drop,
    refuse_late_entry,
    refuse_no_shows,
    refuse_reinstatement,
)
from .event import (
    ELIMINATED_AT,
    Entrant,
    GameResult,
    InvalidRound,
    RoundPlan,
    Tally,
    plan_round,
    tally,
)
from .log_events import Racer, RaceSettings
from .standing import RaceEnding, RaceStanding, race_ending, race_standings


@dataclass
class RaceRound:
    number: int
    playoff: bool
    games: list[tuple[str, str]]
    opponents: int
    step: int | None
    rematches: int
    results: dict[int, GameResult] = field(default_factory=dict)  # game number (from 1)
    closed: bool = False

    def entered(self) -> list[GameResult]:
        return [self.results[g] for g in sorted(self.results)]

    def waiting(self) -> list[int]:
        return [g for g in range(1, len(self.games) + 1) if g not in self.results]

    def game(self, number: int) -> tuple[str, str]:
        if not 1 <= number <= len(self.games):
            raise NotFound(f"round {self.number} has no game {number}")
        return self.games[number - 1]


class RaceEvent:
    """The state of a held Diagonal Race event, folded from its log."""

    def __init__(self, settings: RaceSettings, racers: Sequence[Racer]) -> None:
        self.settings = settings
        self.racers = {r.id: r for r in racers}
        self.rounds: list[RaceRound] = []
        self.dropped: dict[str, int] = {}  # player -> the round before which they left
        # Losses beyond a player's games: a late entrant's start, a reinstated player's
        # catch-up (never two, so never an elimination of a round played).
        self.starting: dict[str, int] = {}

    # --- reading ------------------------------------------------------------------------

    def names(self) -> dict[str, str | None]:
        """Each player's name (None for a player who gave none), by id."""
        return {player: entrant.name for player, entrant in self.racers.items()}

    @property
    def latest(self) -> RaceRound | None:
        return self.rounds[-1] if self.rounds else None

    def round(self, number: int) -> RaceRound:
        return numbered(self.rounds, number, "round")

    def rating_order(self) -> list[str]:
        """Best first; equal (or no) ratings keep the order the players were listed in."""
        listed = list(self.racers)
        return sorted(listed, key=lambda p: (-(self.racers[p].rating or 0.0), listed.index(p)))

    def _tally(self, closed_only: bool) -> Tally:
        main = [r for r in self.rounds if not r.playoff and (r.closed or not closed_only)]
        return tally(list(self.racers), [r.entered() for r in main], self.dropped, self.starting)

    def ending(self) -> RaceEnding | None:
        """How the event stands after its closed rounds: finished, a playoff due (or under
        way), or None while it goes on (``standing.race_ending``)."""
        return race_ending(self._tally(closed_only=True), self.rounds)

    def status(self) -> str:
        """registered, round_open, between_rounds or finished."""
        ending = self.ending()
        if ending is not None and ending.finished:
            return "finished"
        latest = self.latest
        if latest is None:
            return "registered"
        return "between_rounds" if latest.closed else "round_open"

    def standings(self) -> list[RaceStanding]:
        """Every player with the results entered so far, the winner first
        (``standing.race_standings``)."""
        return race_standings(self, self._tally(closed_only=False), self.ending())

    def rematch(self, number: int, game: int) -> bool:
        """Whether the two players of a game met in an earlier round."""
        pair = frozenset(self.round(number).game(game))
        return any(frozenset(g) == pair for r in self.rounds[: number - 1] for g in r.games)

    def eliminations(self) -> dict[str, int | None]:
        """Every player -> the main round after which they went out (None: not out)."""
        records = self._tally(closed_only=True).records
        return {p: r.eliminated_after_round for p, r in records.items()}

    def eliminated_in(self, number: int) -> list[str]:
        """Players who went out after main round ``number`` (once it is closed)."""
        rnd = self.round(number)
        if rnd.playoff or not rnd.closed:
            return []
        records = self._tally(closed_only=True).records
        return [p for p, r in records.items() if r.eliminated_after_round == number]

    # --- deciding -----------------------------------------------------------------------

    def plan(self) -> tuple[RoundPlan, bool]:
        """The next round's pairing, and whether it is a playoff."""
        latest = self.latest
        if latest is not None and not latest.closed:
            raise Conflict(f"round {latest.number} is still open; close it first")
        ending = self.ending()
        if ending is not None and ending.finished:
            raise Conflict(f"the event is over: {', '.join(ending.winners)} ({ending.reason})")
        met: dict[str, list[str]] = {p: [] for p in self.racers}
        for rnd in self.rounds:
            for a, b in rnd.games:
                met[a].append(b)
                met[b].append(a)
        order = self.rating_order()

        def entrant(pid: str, losses: int) -> Entrant:
            return Entrant(pid, self.racers[pid].rating or 0.0, losses, tuple(met[pid]))

        if ending is not None and ending.playoff:
            field_ = [entrant(p, 0) for p in order if p in ending.playoff]
            return plan_round(field_, self.settings.opponents), True
        records = self._tally(closed_only=True).records
        survivors = [
            p for p in order if records[p].losses < ELIMINATED_AT and p not in self.dropped
        ]
        first = not any(not r.playoff for r in self.rounds)
        wanted = self.settings.first_round_opponents if first else self.settings.opponents
        return plan_round([entrant(p, records[p].losses) for p in survivors], wanted), False

    def result(self, number: int, game: int, winner: str, pieces_left: int) -> GameResult:
        """A game's result, if it may be entered or corrected (a game of an earlier round:
        see ``RaceLedger.enter_result``, ``ledger.py``)."""
        a, b = self.round(number).game(game)
        if winner not in (a, b):
            raise InvalidRound(("winner",), f"{winner!r} did not play game {game} ({a} v {b})")
        return GameResult((a, b), winner, pieces_left)

    def late_entry(self, racer: Racer, most_players: int) -> tuple[int, int]:
        """The round a late entrant joins before, and the losses they start with: the most
        of anyone still in, or the fewest (the event's ``late_entry`` setting)."""
        if racer.id in self.racers:
            raise InvalidRound(("id",), f"{racer.id!r} is in this event already")
        rated = next(iter(self.racers.values())).rating is not None
        if rated and racer.rating is None:
            raise InvalidRound(("rating",), "the players of this event are rated: give a rating")
        if not rated and racer.rating is not None:
            raise InvalidRound(
                ("rating",),
                "this event ranks its players in the order listed: a late entrant is ranked "
                "last, without a rating",
            )
        latest = self.latest
        decided = self.main_rounds_over()
        refuse_late_entry(
            latest.number if latest and not latest.closed else None,
            decided,
            len(self.racers),
            most_players,
        )
        return (latest.number if latest else 0) + 1, self.late_start()

    def main_rounds_over(self) -> str | None:
        """Why nobody joins or comes back now, in words: the event is over, or its main
        rounds are and a playoff is due; None while main rounds go on."""
        ending = self.ending()
        if ending is not None and ending.finished:
            return f"the event is over: {', '.join(ending.winners)} won"
        if ending is not None and ending.playoff:
            return f"the main rounds are over: a playoff between {', '.join(ending.playoff)} is due"
        return None

    def late_start(self) -> int:
        """The losses a late entrant would start with now: the most or the fewest of the
        players still in (the event's ``late_entry`` setting)."""
        losses = [s.losses for s in self.standings() if s.status == "active"]
        start = min if self.settings.late_entry == "fewest" else max
        return start(losses, default=0)

    def check_reinstate(self, player: str) -> int:
        """The round before which a dropped ``player`` comes back (the next round)."""
        if player not in self.racers:
            raise NotFound(f"there is no player {player!r}")
        latest = self.latest
        decided = self.main_rounds_over()
        refuse_reinstatement(
            player,
            latest.number if latest and not latest.closed else None,
            decided,
            self.eliminations().get(player),
            self.dropped.get(player),
        )
        return (latest.number if latest else 0) + 1

    def without_no_shows(self, number: int, no_shows: Sequence[str]) -> RaceEvent:
        """The event before round ``number`` was paired, the no-shows dropped before it:
        what the round is paired again from."""
        rnd = self.round(number)
        if rnd is not self.latest or rnd.closed:
            raise Conflict(f"round {number} is closed: only the open round is paired again")
        if rnd.playoff:
            raise Conflict(
                "a playoff round is between the tied players: enter a no-show's games as "
                "lost, or undo the round's start"
            )
        if rnd.results:
            games = ", ".join(str(g) for g in sorted(rnd.results))
            raise Conflict(
                f"round {number} has results for game(s) {games}: a round is paired again "
                "only before any result is entered (undo them first, or enter the no-show's "
                "games as lost)"
            )
        refuse_no_shows(
            no_shows,
            {p for game in rnd.games for p in game},
            self.racers,
            InvalidRound,
            "is not in this event",
            f"has no game in round {number}",
        )
        view = RaceEvent(self.settings, list(self.racers.values()))
        view.rounds = [r for r in self.rounds if r.number < number]
        view.dropped = {**self.dropped, **dict.fromkeys(no_shows, number)}
        view.starting = dict(self.starting)
        ending = view.ending()
        if ending is not None and ending.finished:
            raise Conflict(
                f"without {', '.join(no_shows)} nobody is left to pair "
                f"({', '.join(ending.winners)} would win): undo round {number}'s start and "
                "drop them instead"
            )
        return view

    def check_close(self, number: int) -> None:
        rnd = self.round(number)
        latest = self.latest.number if self.latest is not None else None
        refuse_close(number, latest, rnd.waiting(), "game")

    def check_drop(self, player: str) -> int:
        """The round before which ``player`` leaves (the next round's number)."""
        latest = self.latest
        ending = self.ending()
        refuse_drop(
            player,
            player in self.racers,
            latest.number if latest is not None and not latest.closed else None,
            "the event is over" if ending is not None and ending.finished else None,
            player in self.dropped,
        )
        row = next(s for s in self.standings() if s.player == player)
        if row.status != "active":
            raise Conflict(f"{player!r} is not in play ({row.status})")
        return (latest.number if latest else 0) + 1
