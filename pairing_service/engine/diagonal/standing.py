"""How a held Diagonal Race stands (``race_event.py`` holds its state): its ending after
the closed rounds (the last player left, or a playoff's winner and the players it placed
after them), and its standings, each player's record, status and place."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .event import GameResult, Tally, break_tie

if TYPE_CHECKING:
    from .race_event import RaceEvent, RaceRound


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


def race_ending(main: Tally, rounds: Sequence[RaceRound]) -> RaceEnding | None:
    """How the event stands after its closed rounds (``main``: the tally of its closed main
    rounds): finished, a playoff due (or under way), or None while it goes on."""
    if main.finished:
        return RaceEnding(True, tuple(main.winners), (), main.reason)
    if not main.playoff:
        return None
    tied, reason = list(main.playoff), main.reason
    played: list[GameResult] = []
    out_by_step: list[list[str]] = []  # the players each playoff round left behind
    for rnd in (r for r in rounds if r.playoff and r.closed):
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


def race_standings(event: RaceEvent, main: Tally, ending: RaceEnding | None) -> list[RaceStanding]:
    """Every player with the results entered so far (``main``: the tally of every main
    round, ``ending``: the event's): the winner first, then those still in (fewest losses,
    most wins), then the eliminated (latest out first, fewest losses, most wins, most
    pieces), then the dropped."""
    winners = set(ending.winners) if ending else set()
    playoff = set(ending.playoff) if ending else set()
    played = [g for r in event.rounds for g in r.entered()]
    # A late entrant's losses start at those they joined with.
    wins, losses, pieces = Counter[str](), Counter[str](event.starting), Counter[str]()
    opponents: dict[str, list[str]] = {p: [] for p in event.racers}
    for g in played:
        a, b = g.players
        wins[g.winner] += 1
        pieces[g.winner] += g.pieces_left
        losses[b if g.winner == a else a] += 1
        opponents[a].append(b)
        opponents[b].append(a)
    rows = []
    for pid, racer in event.racers.items():
        out = main.records[pid].eliminated_after_round
        if pid in winners:
            status = "winner"
        elif pid in event.dropped:
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
                event.dropped.get(pid),
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
