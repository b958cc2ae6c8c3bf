"""The games of a pairing as they are made (``Board``), and the games as the judge takes
them (``pairs_of``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..judge.candidates import OUTSIDER
from ..standings import Standings
from .cost import displaced
from .swiss import SwissMemo, pair_swiss


@dataclass(frozen=True, slots=True)
class Game:
    players: tuple[str, ...]
    bye: bool
    repeats: int
    reason: str


def pairs_of(games: Sequence[Game]) -> list[tuple[str, str]]:
    """The games as the judge takes them: each game's two players, the bye left out."""
    return [(g.players[0], g.players[1]) for g in games if not g.bye]


class Board:
    """The games of a pairing as they are made, and the players still free."""

    def __init__(
        self,
        standings: Standings,
        withdrawn: frozenset[str] = frozenset(),
        swiss: SwissMemo | None = None,
    ) -> None:
        self.standings = standings
        self.games: list[Game] = []
        self.used: set[str] = set(withdrawn)  # withdrawn players are never paired
        self.swiss = swiss if swiss is not None else SwissMemo()

    def add(self, a: str, b: str, reason: str) -> None:
        a, b = sorted((a, b), key=self.standings.rank)
        self.games.append(Game((a, b), False, self.standings.meetings(a, b), reason))
        self.used.update((a, b))

    def add_bye(self, player: str, reason: str) -> None:
        self.games.append(Game((player,), True, 0, reason))
        self.used.add(player)

    def free(self) -> list[str]:
        return [p for p in self.standings.ids if p not in self.used]

    def face_outsider(self, player: str, relevant: set[str], reason: str) -> None:
        """``player`` plays the highest-ranked free player who cannot be a victor, at the
        round's cost (``cost.py``): no back-to-back rematch and no meeting past the
        allowance where another can be had, then rank weighed against repeats (anyone free
        when nobody is out of contention)."""
        free = [p for p in self.free() if p != player]
        pool = [p for p in free if p not in relevant]
        if not pool:
            pool, reason = free, f"{reason.split(':')[0]}: nobody out of contention is free"
        self.add(player, self.nearest(player, pool), reason)

    def nearest(self, player: str, pool: Sequence[str]) -> str:
        """The opponent for ``player`` among ``pool`` (in order of preference, the first
        ideal) at the round's cost: each place further down the pool is a place from the
        ideal opponent."""
        policy = self.swiss.policy

        def cost(item: tuple[int, str]) -> tuple[int, int, int]:
            away, opponent = item
            back, over, weight = policy.pair_cost(self.standings, player, opponent)
            return back, over, displaced(away) // 2 + weight

        return min(enumerate(pool), key=cost)[1]

    def finish(self) -> list[Game]:
        """Everyone left Swiss by win group; the games in board order, the bye last."""
        for a, b in pair_swiss(self.standings, self.free(), self.swiss):
            self.add(a, b, "rest Swiss")
        rank = self.standings.rank
        return sorted(self.games, key=lambda g: (g.bye, min(rank(p) for p in g.players)))


def play_engine_pairs(
    board: Board, chosen: Sequence[tuple[str, str]], relevant: set[str], who: str
) -> None:
    """The engine's pairs of contenders; a contender facing ``OUTSIDER`` plays the
    highest-ranked player who cannot be a victor."""
    facing_outsiders = []
    for a, b in chosen:
        if OUTSIDER in (a, b):
            facing_outsiders.append(b if a == OUTSIDER else a)
        else:
            board.add(a, b, f"{who}: the pairing that best keeps GP1-GP4")
    for a in facing_outsiders:
        if a in board.used:  # nobody was out of contention: another contender took them
            continue
        board.face_outsider(
            a, relevant, f"{who}: plays the highest-ranked player who cannot be a victor"
        )
