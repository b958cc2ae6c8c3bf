"""The state of a held Scrabble event, folded from its log: players, rounds with their
pairings and scores, withdrawals and late entrants; its standings, and the next round's
pairing by the method asked for (or the default schedule's).

Standings: wins (a draw is half a win; a bye or a forfeit win is a win), then spread
(each game's score difference, capped at the event's ``spread_cap`` either way when it
has one; a bye scores ``bye_spread``, a forfeit its own spread), then rating, then the
order the players were listed in. Results count as they are entered.

A round imported from tsh (``tsh_import.py``) holds its games with their scores, and each
player without an opponent with the spread tsh gave them (opponent 0): a win above 0, a
loss below, no result at 0. Such rounds come before any round the service pairs; each
is complete (closed) as it is imported.

A round robin (``round_robin.py``) is paired from its circle: the players not withdrawn
when its first round was paired, in rating order, kept from then on. A player who
withdraws keeps their place (their opponent has a bye); nobody joins it late.

Beside it: each player's rounds and the rounds' results (``record.py``), and what the
event refuses, its limits and the checks of its settings and imported rounds
(``checks.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ...errors import Conflict, NotFound, Rule
from ...event_log import numbered
from ...round_ledger import (
    refuse_close,
    refuse_drop,
    refuse_late_entry,
    refuse_no_shows,
    refuse_reinstatement,
)
from ..pairing.advisor import MAX_VICTORS
from ..rule_table import RuleTable
from ..standings import LEFT_THE_FIELD, Player, Standings
from .checks import (
    MAX_PLAYERS,
    InvalidEvent,
    check_imported,
    check_penalties,
)
from .gibsonization import Places
from .log_events import NO_PENALTIES, Entrant, EventSettings, ImportedGame, Method, SatOut
from .methods import FinalRound, Pairing, pair_round
from .record import GameResult, PlayedRound, ScrabbleRound, Standing, played_rounds
from .round_robin import RoundRobin
from .schedule import scheduled


class ScrabbleEvent:
    """A held Scrabble event, folded from its log."""

    def __init__(self, settings: EventSettings, players: Sequence[Entrant]) -> None:
        self.settings = settings
        self.players = {p.id: p for p in players}
        self.rounds: list[ScrabbleRound] = []
        self.dropped: dict[str, int] = {}  # player -> the round before which they left
        self.joined: dict[str, int] = {}  # late entrant -> the round they joined before
        # The round robin's circle (the players it began with, in seeding order), from the
        # round it began in: set as its first round is paired (``begin_round_robin``).
        self.circle: tuple[str, ...] | None = None
        self.circle_began = 0

    # --- reading ------------------------------------------------------------------------

    def names(self) -> dict[str, str | None]:
        """Each player's name (None for a player who gave none), by id."""
        return {player: entrant.name for player, entrant in self.players.items()}

    @property
    def latest(self) -> ScrabbleRound | None:
        return self.rounds[-1] if self.rounds else None

    def round(self, number: int) -> ScrabbleRound:
        return numbered(self.rounds, number, "round")

    def status(self) -> str:
        """registered, round_open, between_rounds or finished."""
        latest = self.latest
        if latest is None:
            return "registered"
        if not latest.closed:
            return "round_open"
        return "finished" if latest.number >= self.settings.rounds else "between_rounds"

    def rating_order(self) -> list[str]:
        """Best rating first; equal ratings in the order listed (late entrants last)."""
        listed = {p: at for at, p in enumerate(self.players)}
        return sorted(listed, key=lambda p: (-self.players[p].rating, listed[p]))

    def played(self) -> dict[str, list[PlayedRound]]:
        """Every player's rounds with a result so far (or a bye), in round order."""
        return played_rounds(self.players, self.rounds, self.settings)

    def standings(self, played: dict[str, list[PlayedRound]] | None = None) -> list[Standing]:
        """Every player, by wins, then spread, then rating, then the order listed
        (``played``: ``self.played()``, when the caller has it already)."""
        played = self.played() if played is None else played
        order = self.rating_order()
        at = {p: i for i, p in enumerate(order)}
        rows = []
        for pid in order:
            mine = played[pid]
            half = sum(r.half_wins for r in mine)
            spread = sum(r.spread for r in mine)
            rows.append((pid, half, spread, mine))
        rows.sort(key=lambda row: (-row[1], -row[2], at[row[0]]))
        result = []
        for rank, (pid, half, spread, mine) in enumerate(rows, start=1):
            entrant = self.players[pid]
            result.append(
                Standing(
                    rank,
                    pid,
                    entrant.name,
                    entrant.rating,
                    half / 2,
                    (2 * len(mine) - half) / 2,
                    spread,
                    len(mine),
                    sum(r.outcome == "bye" for r in mine),
                    tuple(r.opponent for r in mine),
                    "withdrawn" if pid in self.dropped else "active",
                    self.dropped.get(pid),
                )
            )
        return result

    def active(self) -> list[str]:
        return [p for p in self.players if p not in self.dropped]

    def round_robin(self, number: int) -> RoundRobin:
        """Round ``number`` as a round of the event's round robin: its circle (the players
        not withdrawn when its first round was paired, in rating order) and how many of its
        rounds came before, whatever other method paired a round in between."""
        before = sum(r.method == "round_robin" for r in self.rounds if r.number < number)
        if self.circle is None:
            circle = tuple(p for p in self.rating_order() if p not in self.dropped)
            return RoundRobin(circle, before + 1, number)
        return RoundRobin(self.circle, before + 1, self.circle_began)

    def begin_round_robin(self, number: int) -> None:
        """Keep the circle as round ``number``, the round robin's first, was paired."""
        if self.circle is None:
            robin = self.round_robin(number)
            self.circle, self.circle_began = robin.circle, robin.began

    def outside_round_robin(self, player: str) -> str | None:
        """Why ``player`` cannot join (late, or back from before it began) the round robin
        the event is paired by, once it has begun; None when they can."""
        if (
            self.settings.pairing_system != "round_robin"
            or self.circle is None
            or player in self.circle
        ):
            return None
        return (
            f"the round robin began in round {self.circle_began}: its schedule is fixed by "
            f"the players it began with, so {player!r} cannot join it"
        )

    def meetings(self, before: int | None = None) -> Counter[frozenset[str]]:
        """How often each pair has been paired (games of every round started, or of the
        rounds before round ``before``)."""
        rounds = self.rounds if before is None else self.rounds[: before - 1]
        return Counter(frozenset(g) for r in rounds for g in r.games)

    def repeat(self, number: int, game: int) -> int:
        """How many times the players of a game were paired in the rounds before."""
        pair = frozenset(self.round(number).game(game))
        return sum(frozenset(g) == pair for r in self.rounds[: number - 1] for g in r.games)

    # --- deciding -----------------------------------------------------------------------

    def pairing_standings(
        self,
        players: Sequence[str],
        played: dict[str, list[PlayedRound]] | None = None,
        table: Sequence[Standing] | None = None,
    ) -> Standings:
        """The standings a round is paired from, of ``players`` (withdrawn players left
        out: a meeting with them no longer matters, but the round keeps its place in the
        record as ``LEFT_THE_FIELD``, so the game before it is not taken for last
        round's), as the engine's pairing reads them;
        ``played`` and ``table``: ``self.played()`` and ``self.standings()`` where the
        caller has them (a round reads them once: 400 players' rounds take milliseconds)."""
        keep = set(players)
        played = self.played() if played is None else played
        table = self.standings(played) if table is None else table
        ranked = [s for s in table if s.player in keep]
        return Standings.from_players(
            [
                Player(
                    s.player,
                    int(s.wins * 2),
                    s.spread,
                    name=s.name,
                    opponents=tuple(
                        r.opponent if r.opponent is None or r.opponent in keep else LEFT_THE_FIELD
                        for r in played[s.player]
                    ),
                )
                for s in ranked
            ]
        )

    def plan(
        self,
        table: RuleTable,
        method: Method | None = None,
        repeats_allowed: int | None = None,
        seed: int | None = None,
    ) -> tuple[Method, int, int | None, Pairing]:
        """The next round's method, allowance, seed and pairing (the default schedule's
        method and allowance where not given)."""
        latest = self.latest
        if latest is not None and not latest.closed:
            raise Conflict(f"round {latest.number} is still open; close it first")
        number = (latest.number if latest else 0) + 1
        if number > self.settings.rounds:
            raise Conflict(
                f"the event's {self.settings.rounds} planned rounds are played: it is over"
            )
        return self.pair(number, table, method, repeats_allowed, seed)

    def pair(
        self,
        number: int,
        table: RuleTable,
        method: Method | None,
        repeats_allowed: int | None,
        seed: int | None,
    ) -> tuple[Method, int, int | None, Pairing]:
        default_method, default_allowance = scheduled(number, self.settings)
        chosen = method or default_method
        allowance = default_allowance if repeats_allowed is None else repeats_allowed
        players = self.active()
        if len(players) < 2:
            raise Conflict("fewer than two players are left to pair")
        used_seed = None
        if chosen == "random":
            used_seed = self.settings.seed + number if seed is None else seed
        ratings = {p: self.players[p].rating for p in players}
        played = self.played()
        table_now = self.standings(played)
        byes = {s.player: s.byes for s in table_now}
        paid = min(self.settings.paid_places, MAX_VICTORS, len(players) - 1) or 1
        rounds_left = max(1, self.settings.rounds - number + 1)
        # A field smaller than the places paid: the places it can fill.
        prizes = None if self.settings.prizes is None else self.settings.prizes[:paid]
        robin = self.round_robin(number) if chosen == "round_robin" else None
        playing = self.pairing_standings(players, played, table_now)
        # The withdrawn keep their places: who is settled is judged over everyone.
        everyone = (
            playing
            if len(players) == len(self.players)
            else self.pairing_standings(list(self.players), played, table_now)
        )
        places = Places(paid, prizes, self.settings.spread_cap, rounds_left, everyone)
        final = None
        if chosen == "advisor":
            final = FinalRound(table, paid, self.settings.spread_cap, rounds_left, everyone, prizes)
        pairing = pair_round(
            chosen,
            playing,
            players,
            byes,
            allowance,
            ratings,
            used_seed or 0,
            final,
            places,
            robin=robin,
        )
        return chosen, allowance, used_seed, pairing

    def result(
        self,
        number: int,
        game: int,
        scores: tuple[int, int] | None,
        forfeit: str | None,
        spread: int | None,
        penalties: tuple[int, int] | None = None,
    ) -> GameResult:
        """A game's result as entered; ``spread``: a forfeit's (default: the bye's);
        ``penalties``: a game played's, taken off each player's spread."""
        a, b = self.round(number).game(game)
        if (scores is None) == (forfeit is None):
            raise InvalidEvent(("scores",), "give both scores, or the player who forfeited")
        if penalties is not None:
            check_penalties(penalties, ("penalties",))
            # A forfeit has no game to penalise: its spread is the director's to set.
            if forfeit is not None:
                raise InvalidEvent(("penalties",), "penalties are for a game played, not a forfeit")
        if forfeit is not None:
            if forfeit not in (a, b):
                raise InvalidEvent(
                    ("forfeit",),
                    f"{forfeit!r} is not in game {game} ({a} v {b})",
                    rule=Rule.KNOWN_PLAYER,
                )
            spread = self.settings.bye_spread if spread is None else spread
            return GameResult(None, forfeit, spread, players=(a, b))
        if spread is not None:
            raise InvalidEvent(("spread",), "a spread is given for a forfeit only")
        return GameResult(scores, penalties=penalties or NO_PENALTIES, players=(a, b))

    def late_entry(self, entrant: Entrant) -> int:
        """The round a late entrant joins before."""
        if entrant.id in self.players:
            raise InvalidEvent(("id",), f"{entrant.id!r} is in this event already")
        latest = self.latest
        decided = "the event is over" if self.status() == "finished" else None
        refuse_late_entry(
            latest.number if latest and not latest.closed else None,
            decided or self.outside_round_robin(entrant.id),
            len(self.players),
            MAX_PLAYERS,
        )
        return (latest.number if latest else 0) + 1

    def without_no_shows(self, number: int, no_shows: Sequence[str]) -> ScrabbleEvent:
        """The event before round ``number`` was paired, the no-shows withdrawn before it."""
        rnd = self.round(number)
        if rnd is not self.latest or rnd.closed:
            raise Conflict(f"round {number} is closed: only the open round is paired again")
        if rnd.results:
            games = ", ".join(str(g) for g in sorted(rnd.results))
            raise Conflict(
                f"round {number} has results for game(s) {games}: a round is paired again "
                "only before any result is entered (undo them first, or enter the no-show's "
                "games as forfeits)"
            )
        in_round = {p for game in rnd.games for p in game} | ({rnd.bye} if rnd.bye else set())
        in_round |= set(rnd.unopposed)
        refuse_no_shows(
            no_shows,
            in_round,
            self.players,
            InvalidEvent,
            "is not in this event",
            f"is not paired in round {number}",
        )
        view = ScrabbleEvent(self.settings, list(self.players.values()))
        view.rounds = [r for r in self.rounds if r.number < number]
        view.dropped = {**self.dropped, **dict.fromkeys(no_shows, number)}
        view.joined = dict(self.joined)
        # the round robin keeps its circle: a no-show's opponents have a bye
        view.circle, view.circle_began = self.circle, self.circle_began
        return view

    def check_imported(
        self, number: int, games: Sequence[ImportedGame], sat_out: Sequence[SatOut]
    ) -> None:
        """Refuse a round imported from tsh that the event cannot hold as round ``number``
        (``checks.check_imported``)."""
        check_imported(self, number, games, sat_out)

    def check_close(self, number: int) -> None:
        rnd = self.round(number)
        latest = self.latest.number if self.latest is not None else None
        refuse_close(number, latest, rnd.waiting(), "game")

    def check_drop(self, player: str) -> int:
        """The round before which ``player`` withdraws (the next round's number)."""
        latest = self.latest
        refuse_drop(
            player,
            player in self.players,
            latest.number if latest is not None and not latest.closed else None,
            "the event is over" if self.status() == "finished" else None,
            player in self.dropped,
            words=("withdraw", "withdrew"),
        )
        return (latest.number if latest else 0) + 1

    def check_reinstate(self, player: str) -> int:
        """The round before which a withdrawn ``player`` comes back (the next round)."""
        if player not in self.players:
            raise NotFound(f"there is no player {player!r}")
        latest = self.latest
        refuse_reinstatement(
            player,
            latest.number if latest and not latest.closed else None,
            "the event is over"
            if self.status() == "finished"
            else self.outside_round_robin(player),
            None,  # nobody is eliminated in a Scrabble event
            self.dropped.get(player),
        )
        return (latest.number if latest else 0) + 1
