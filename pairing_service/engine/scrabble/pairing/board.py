"""The games of a pairing as they are made (``Board``)."""

from __future__ import annotations

from collections.abc import Sequence

from ..contention import Contention
from ..cost import one_displaced
from ..explain.boards import kept_despite, outsider_words, swiss_reasons
from ..game import Game
from ..judge.candidates import OUTSIDER
from ..standings import Standings
from .swiss import SwissMemo, pair_swiss, swiss_ideal


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
        self.absent = frozenset(withdrawn)
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

    def face_outsider(
        self, player: str, relevant: set[str], basis: str, certain: bool = False
    ) -> None:
        """``player`` plays the highest-ranked free player who cannot be a victor, at the
        round's cost (``cost.py``): no back-to-back rematch and no meeting past the
        allowance where another can be had, then rank weighed against repeats (anyone free
        when nobody is out of contention). The reason: a ``certain`` player is Gibsonized;
        a contender is sent there by ``basis`` ("the pairing that best keeps GP1-GP4")."""
        free = [p for p in self.free() if p != player]
        pool = [p for p in free if p not in relevant]
        if pool:
            opponent = self.nearest(player, pool)
            words = self.outsider_words(player, opponent, pool, relevant)
        else:
            opponent = self.nearest(player, free)
            rank = self.standings.rank(opponent)
            words = f"plays #{rank}, as nobody out of contention is free"
        tag = f"#{self.standings.rank(player)}"
        reason = (
            f"{tag} is certain of a victor place: {words}" if certain else f"{tag} {words}: {basis}"
        )
        self.add(player, opponent, reason)

    def outsider_words(
        self, player: str, opponent: str, pool: Sequence[str], relevant: set[str]
    ) -> str:
        """Whom ``player`` plays from ``pool`` (free players who cannot be a victor, the
        first ideal), in words (``explain.boards.outsider_words``)."""
        outside = frozenset(self.standings.ids).difference(relevant)
        return outsider_words(
            self.standings, self.swiss.policy, player, opponent, pool, outside - self.absent
        )

    def nearest(self, player: str, pool: Sequence[str]) -> str:
        """The opponent for ``player`` among ``pool`` (in order of preference, the first
        ideal) at the round's cost: each place further down the pool is a place from the
        ideal opponent."""
        policy = self.swiss.policy
        best: tuple[tuple[int, int, int], str] | None = None
        for away, opponent in enumerate(pool):
            distance = one_displaced(away)
            if best is not None and best[0][:2] == (0, 0) and distance >= best[0][2]:
                break  # nobody further down the pool can cost less
            back, over, weight = policy.pair_cost(self.standings, player, opponent)
            cost = (back, over, distance + weight)
            if best is None or cost < best[0]:
                best = (cost, opponent)
        assert best is not None, "an empty pool"
        return best[1]

    def finish(self) -> list[Game]:
        """Everyone left Swiss by win group, each game with what placed it
        (``explain.boards.swiss_reasons``); the games in board order, the bye last."""
        free = self.free()
        pairs = pair_swiss(self.standings, free, self.swiss)
        key = frozenset(free)
        reasons = self.swiss.reasons.get(key)
        if reasons is None:
            ordered = sorted(free, key=self.standings.rank)
            ideal = swiss_ideal(self.standings, ordered).tolist()
            partner = {p: ordered[i] for p, i in zip(ordered, ideal, strict=True) if i >= 0}
            reasons = swiss_reasons(self.standings, self.swiss.policy, pairs, partner)
            self.swiss.reasons[key] = reasons
        for (a, b), reason in zip(pairs, reasons, strict=True):
            self.add(a, b, reason)
        rank = self.standings.rank
        return sorted(self.games, key=lambda g: (g.bye, min(rank(p) for p in g.players)))


def play_engine_pairs(
    board: Board,
    chosen: Sequence[tuple[str, str]],
    contention: Contention,
    basis: str,
) -> None:
    """The engine's pairs of players who can be victors, each with what the game is (a
    race for a victor place, and what keeping it costs); a player facing ``OUTSIDER``
    plays the highest-ranked player who cannot be a victor. ``basis``: what pairs them so
    ("the pairing that best keeps GP1-GP4"), said where it is the only reason."""
    standings, policy = board.standings, board.swiss.policy
    relevant = set(contention.relevant)
    clinched = set(contention.clinched)
    rank = standings.rank
    facing_outsiders = []
    for a, b in chosen:
        if OUTSIDER in (a, b):
            facing_outsiders.append(b if a == OUTSIDER else a)
            continue
        a, b = sorted((a, b), key=rank)
        tags = f"#{rank(a)} and #{rank(b)}"
        if a in clinched and b in clinched:
            reason = f"{tags} are certain of victor places: they play each other"
        elif a in clinched or b in clinched:
            sure, other = (a, b) if a in clinched else (b, a)
            reason = (
                f"#{rank(sure)} is certain of a victor place, #{rank(other)} is not: "
                f"paired by {basis}"
            )
        else:
            race = "their race for a victor place"
            reason = kept_despite(standings, policy, a, b, race) or (
                f"{tags} race for a victor place"
            )
        board.add(a, b, reason)
    for a in facing_outsiders:
        if a in board.used:  # nobody was out of contention: another contender took them
            continue
        board.face_outsider(a, relevant, basis, certain=a in clinched)
