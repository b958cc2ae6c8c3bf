"""Diagonal Race rounds, results, eliminations and the winner (seed 002).

Players with two or more accumulated losses are eliminated. Each round pairs the rest by
rating in the diagonal pattern (``pattern.py``): four opponents in the first round (nobody
has met anyone yet), two after. The winner is the last player left; if everyone left is
eliminated in the same round: the fewest losses; then the direct comparison of the tied
players' games against each other over all rounds (most wins); then, in those games, the
most pieces left (the loser's pieces still on the board when the winner finished, credited
to the winner); else a playoff between them is required.

``check_history`` refuses a field's history that no played rounds could have produced (the
stateless ``/round`` takes the history from the client; the held ledger builds its own).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

from ..errors import FieldError, Location, Rule, refuse_repeats
from .pattern import Pairing, pair_round

ELIMINATED_AT = 2
FIRST_ROUND_OPPONENTS = 4
LATER_OPPONENTS = 2


class InvalidRound(FieldError):
    """Input the rules cannot apply to, at ``at`` in the input."""


@dataclass(frozen=True)
class Entrant:
    id: str
    rating: float = 0.0
    losses: int = 0
    met: tuple[str, ...] = ()  # earlier opponents, one entry per game
    dropped: bool = False  # left the event: not paired, but their games count


@dataclass(frozen=True)
class RoundPlan:
    games: tuple[tuple[str, str], ...]
    eliminated: tuple[str, ...]
    players: tuple[str, ...]  # those who play, best rating first
    opponents: int
    step: int | None
    rematches: int
    dropped: tuple[str, ...] = ()  # left the event with fewer than two losses: no games


def plan_round(entrants: Sequence[Entrant], opponents: int | None = None) -> RoundPlan:
    refuse_repeats([e.id for e in entrants], ("players",), InvalidRound, ("id",))
    first_round = not any(e.met or e.losses for e in entrants)
    wanted = opponents or (FIRST_ROUND_OPPONENTS if first_round else LATER_OPPONENTS)
    if wanted % 2:
        raise InvalidRound(("opponents",), "the diagonal pattern needs an even number of opponents")
    order = {e.id: i for i, e in enumerate(entrants)}
    active = sorted(
        (e for e in entrants if e.losses < ELIMINATED_AT and not e.dropped),
        key=lambda e: (-e.rating, order[e.id]),
    )
    eliminated = tuple(e.id for e in entrants if e.losses >= ELIMINATED_AT)
    dropped = tuple(e.id for e in entrants if e.dropped and e.losses < ELIMINATED_AT)
    met: dict[str, Counter[str]] = {e.id: Counter(e.met) for e in entrants}

    def meetings(a: int, b: int) -> int:
        x, y = active[a].id, active[b].id
        return max(met[x][y], met[y][x])

    pairing: Pairing = pair_round(len(active), wanted, meetings)
    games = tuple((active[a].id, active[b].id) for a, b in pairing.games)
    return RoundPlan(
        games=games,
        eliminated=eliminated,
        players=tuple(e.id for e in active),
        opponents=pairing.opponents,
        step=pairing.step,
        rematches=pairing.rematches,
        dropped=dropped,
    )


def check_history(entrants: Sequence[Entrant], round_number: int | None = None) -> None:
    """Refuse a history that no played rounds could have produced, naming the entry.

    ``entrants`` is the whole field, eliminated and dropped players included (their games
    are the others' history). Every game was played by two listed players, so each
    meeting is listed by both of them, as often; every game had one loser, so a player
    has no more losses than games, and the field's losses add up to its games.
    ``round_number`` (when given): round 1 has no history, and a later round has some.

    (Complexity 21: one flat list of checks, each raising at the entry it names, in the
    order a director reads the field; split up, the order would be harder to see.)
    """
    refuse_repeats([e.id for e in entrants], ("players",), InvalidRound, ("id",))
    listed = {e.id for e in entrants}
    meetings = {e.id: Counter(e.met) for e in entrants}
    for i, entrant in enumerate(entrants):
        seen: Counter[str] = Counter()
        for j, other in enumerate(entrant.met):
            where = ("players", i, "met", j)
            if other == entrant.id:
                raise InvalidRound(
                    where, f"{other!r} cannot have played themselves", rule=Rule.CONSISTENT_HISTORY
                )
            if other not in listed:
                raise InvalidRound(
                    where,
                    f"{other!r} is not a player: list every entrant, those out or dropped too",
                    rule=Rule.KNOWN_PLAYER,
                )
            seen[other] += 1
            theirs = meetings[other][entrant.id]
            if seen[other] > theirs:
                raise InvalidRound(
                    where,
                    f"{entrant.id!r} lists {other!r} {_times(meetings[entrant.id][other])} "
                    f"but {other!r} lists {entrant.id!r} {_times(theirs)}: both players of "
                    "a game list it",
                    rule=Rule.CONSISTENT_HISTORY,
                )
    for i, entrant in enumerate(entrants):
        if entrant.losses > len(entrant.met):
            raise InvalidRound(
                ("players", i, "losses"),
                f"{_count(entrant.losses, 'loss', 'losses')} but "
                f"{_count(len(entrant.met), 'game', 'games')} in met: every loss is a game, "
                "so list every earlier opponent",
                rule=Rule.CONSISTENT_HISTORY,
            )
    games = sum(len(e.met) for e in entrants) // 2
    losses = sum(e.losses for e in entrants)
    if losses != games:
        raise InvalidRound(
            ("players",),
            f"the players' losses add up to {losses} but their met lists hold "
            f"{_count(games, 'game', 'games')}: every game has one loser",
            rule=Rule.CONSISTENT_HISTORY,
        )
    if round_number == 1 and games:
        first = next(i for i, e in enumerate(entrants) if e.met)
        raise InvalidRound(
            ("players", first, "met"),
            "round 1 is the first round: nobody has played yet",
            rule=Rule.CONSISTENT_HISTORY,
        )
    if round_number is not None and round_number > 1 and not games:
        raise InvalidRound(
            ("round",),
            f"round {round_number} follows {_count(round_number - 1, 'round', 'rounds')}, "
            "but no player lists an earlier opponent: give each player's losses and met",
            rule=Rule.CONSISTENT_HISTORY,
        )


def _times(count: int) -> str:
    return {0: "never", 1: "once", 2: "twice"}.get(count, f"{count} times")


def _count(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


@dataclass(frozen=True)
class GameResult:
    players: tuple[str, str]
    winner: str
    pieces_left: int = 0


@dataclass
class Record:
    id: str
    wins: int = 0
    losses: int = 0
    pieces: int = 0
    eliminated_after_round: int | None = None
    games: int = 0


@dataclass
class Tally:
    records: dict[str, Record]
    rounds: int
    survivors: list[str]
    finished: bool
    winners: list[str]
    reason: str
    playoff: list[str] = field(default_factory=list)
    eliminated_last_round: list[str] = field(default_factory=list)


def _refuse_unplayable(
    game: GameResult, records: Mapping[str, Record], number: int, where: Location
) -> None:
    """A game of round ``number`` at ``where``: two different players of the event, both
    still in, and a winner who played it."""
    for position, pid in enumerate(game.players):
        if pid not in records:
            raise InvalidRound(
                (*where, "players", position),
                f"{pid!r} is not a player",
                rule=Rule.KNOWN_PLAYER,
            )
        out = records[pid].eliminated_after_round
        if out is not None and out < number:
            raise InvalidRound(
                (*where, "players", position),
                f"{pid!r} was eliminated after round {out} and cannot play",
                rule=Rule.CONSISTENT_HISTORY,
            )
    if game.players[0] == game.players[1]:
        raise InvalidRound(
            (*where, "players"), "a player cannot play themselves", rule=Rule.CONSISTENT_HISTORY
        )
    if game.winner not in game.players:
        raise InvalidRound(
            (*where, "winner"),
            f"{game.winner!r} did not play this game",
            rule=Rule.CONSISTENT_HISTORY,
        )


def tally(
    players: Sequence[str],
    rounds: Sequence[Sequence[GameResult]],
    withdrawn: Collection[str] = (),
    starting_losses: Mapping[str, int] | None = None,
) -> Tally:
    """Losses, eliminations and the winner from every round's results.

    ``withdrawn`` players (dropped by the director) are no longer among the survivors;
    their games so far still count for everyone. ``starting_losses``: losses a player
    has before their first game (a held event's late entrant).
    """
    refuse_repeats(list(players), ("players",), InvalidRound)
    starting = starting_losses or {}
    records = {p: Record(p, losses=starting.get(p, 0)) for p in players}
    last_players: list[str] = []
    newly: list[str] = []
    for number, games in enumerate(rounds, start=1):
        last_players = []
        for index, game in enumerate(games):
            _refuse_unplayable(game, records, number, ("rounds", number - 1, "games", index))
            a, b = game.players
            loser = b if game.winner == a else a
            records[game.winner].wins += 1
            records[game.winner].pieces += game.pieces_left
            records[loser].losses += 1
            for pid in game.players:
                records[pid].games += 1
                if pid not in last_players:
                    last_players.append(pid)
        newly = []
        for record in records.values():
            if record.eliminated_after_round is None and record.losses >= ELIMINATED_AT:
                record.eliminated_after_round = number
                newly.append(record.id)
    survivors = [
        r.id for r in records.values() if r.eliminated_after_round is None and r.id not in withdrawn
    ]
    result = Tally(records, len(rounds), survivors, False, [], "", eliminated_last_round=newly)
    if len(survivors) == 1:
        result.finished, result.winners = True, survivors
        result.reason = "the last player left"
    elif not survivors and last_players:
        _everyone_out(result, last_players, rounds)
    elif not survivors:
        result.reason = "nobody is left to play"
    else:
        result.reason = f"{len(survivors)} players left"
    return result


def _everyone_out(result: Tally, last: list[str], rounds: Sequence[Sequence[GameResult]]) -> None:
    records = result.records
    games = [g for games in rounds for g in games]
    level, rule = break_tie(last, {p: records[p].losses for p in last}, games)
    if len(level) == 1:
        result.finished, result.winners = True, level
        result.reason = f"everyone was eliminated: {rule}"
        return
    result.playoff = level
    result.reason = (
        "everyone was eliminated and " + ", ".join(level) + " are level on losses, direct "
        "comparison and pieces left: new rounds between them decide"
    )


TIE_RULES = ("fewest losses", "direct comparison", "pieces left")


def break_tie(
    tied: Sequence[str], losses: Mapping[str, int], games: Sequence[GameResult]
) -> tuple[list[str], str]:
    """The seed's chain for players who all went out together, in order: the fewest
    ``losses``; then the direct comparison, most wins in ``games`` between two of them;
    then, in those games, the most pieces left. Returns the players still level (one: the
    winner) and the rules applied, in words ("fewest losses, then direct comparison")."""
    level = list(tied)
    among = [g for g in games if set(g.players) <= set(tied)]
    wins = Counter(g.winner for g in among)
    pieces: Counter[str] = Counter()
    for g in among:
        pieces[g.winner] += g.pieces_left
    keys: tuple[Callable[[str], int], ...] = (
        lambda p: -losses[p],
        lambda p: wins[p],
        lambda p: pieces[p],
    )
    used: list[str] = []
    for rule, key in zip(TIE_RULES, keys, strict=True):
        used.append(rule)
        best = max(key(p) for p in level)
        level = [p for p in level if key(p) == best]
        if len(level) == 1:
            break
    return level, ", then ".join(used)
