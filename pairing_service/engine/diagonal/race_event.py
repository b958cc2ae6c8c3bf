"""The state of a held Diagonal Race event, folded from its log (``ledger.py``): its rounds
with their pairings and results, the players who dropped and the losses a late entrant or a
reinstated player started with; how it stands (its ending, its standings), and the checks
of what the director may do now (pair the next round, enter a result, a late entry, a
drop, a reinstatement, a round paired again without its no-shows)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

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
    break_tie,
    plan_round,
    tally,
)
from .log_events import Racer, RaceSettings


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


@dataclass(frozen=True)
class RaceStanding:
    player: str
    name: str | None
    rating: float | None
    wins: int
    losses: int
    games: int
    pieces_left: int
    opponents: tuple[str, ...]
    status: str  # winner, active, playoff, eliminated or dropped
    eliminated_after_round: int | None
    dropped_before_round: int | None
    # 1 + the rows ahead in the standings' order; rows level on every key share it.
    place: int = 0


@dataclass(frozen=True)
class RaceEnding:
    finished: bool
    winners: tuple[str, ...]
    playoff: tuple[str, ...]  # not finished: the next round is a playoff between these
    reason: str
    # Decided by a playoff: its other players, best first (placed right after the winner).
    runners_up: tuple[str, ...] = ()


STANDING_ORDER = ("winner", "active", "playoff", "eliminated", "dropped")


def _runners_up(
    out_by_step: Sequence[Sequence[str]], played: Sequence[GameResult]
) -> tuple[str, ...]:
    """A decided playoff's other players, best first: the later a playoff round left a
    player behind, the better; players left behind together by fewest playoff losses,
    then most playoff wins, then most pieces left in them."""
    lost = Counter(loser for g in played for loser in g.players if loser != g.winner)
    won = Counter(g.winner for g in played)
    pieces: Counter[str] = Counter()
    for g in played:
        pieces[g.winner] += g.pieces_left
    return tuple(
        player
        for step in reversed(out_by_step)
        for player in sorted(step, key=lambda p: (lost[p], -won[p], -pieces[p]))
    )


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
        way), or None while it goes on."""
        main = self._tally(closed_only=True)
        if main.finished:
            return RaceEnding(True, tuple(main.winners), (), main.reason)
        if not main.playoff:
            return None
        tied, reason = list(main.playoff), main.reason
        played: list[GameResult] = []
        out_by_step: list[list[str]] = []  # the players each playoff round left behind
        for rnd in (r for r in self.rounds if r.playoff and r.closed):
            played += rnd.entered()
            lost = Counter(loser for g in played for loser in g.players if loser != g.winner)
            still, rule = break_tie(tied, {p: lost[p] for p in tied}, played)
            out_by_step.append([p for p in tied if p not in still])
            tied = still
            if len(tied) == 1:
                runners_up = _runners_up(out_by_step, played)
                return RaceEnding(True, (tied[0],), (), f"won the playoff: {rule}", runners_up)
            reason = (
                f"the playoff after round {rnd.number} leaves " + ", ".join(tied) + " level "
                f"({rule}): another playoff round decides"
            )
        return RaceEnding(False, (), tuple(tied), reason)

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
        """Every player with the results entered so far: the winner first, then those still
        in (fewest losses, most wins), then the eliminated (latest out first, fewest
        losses, most wins, most pieces), then the dropped."""
        main = self._tally(closed_only=False)
        ending = self.ending()
        winners = set(ending.winners) if ending else set()
        playoff = set(ending.playoff) if ending else set()
        played = [g for r in self.rounds for g in r.entered()]
        # A late entrant's losses start at those they joined with.
        wins, losses, pieces = Counter[str](), Counter[str](self.starting), Counter[str]()
        opponents: dict[str, list[str]] = {p: [] for p in self.racers}
        for g in played:
            a, b = g.players
            wins[g.winner] += 1
            pieces[g.winner] += g.pieces_left
            losses[b if g.winner == a else a] += 1
            opponents[a].append(b)
            opponents[b].append(a)
        rows = []
        for pid, racer in self.racers.items():
            out = main.records[pid].eliminated_after_round
            if pid in winners:
                status = "winner"
            elif pid in self.dropped:
                status = "dropped"
            elif pid in playoff:
                status = "playoff"
            else:
                status = "active" if out is None else "eliminated"
            rows.append(
                RaceStanding(
                    pid,
                    racer.name,
                    racer.rating,
                    wins[pid],
                    losses[pid],
                    len(opponents[pid]),
                    pieces[pid],
                    tuple(opponents[pid]),
                    status,
                    out,
                    self.dropped.get(pid),
                )
            )
        runners_up = ending.runners_up if ending else ()

        def order(row: RaceStanding) -> tuple[int, ...]:
            # The playoff's other players come straight after its winner: the playoff
            # placed them above everyone it did not include (a reading: the seed ranks
            # only the winner).
            group = STANDING_ORDER.index(row.status)
            if row.player in runners_up:
                group = STANDING_ORDER.index("playoff")
            return (
                group,
                runners_up.index(row.player) if row.player in runners_up else 0,
                -(row.eliminated_after_round or 0),
                row.losses,
                -row.wins,
                -row.pieces_left,
            )

        rows.sort(key=order)
        keys = [order(row) for row in rows]
        places = [keys.index(key) + 1 for key in keys]  # level rows share a place
        return [replace(row, place=place) for row, place in zip(rows, places, strict=True)]

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
