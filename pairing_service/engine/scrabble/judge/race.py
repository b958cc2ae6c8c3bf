"""GP2's head-to-head part: who races whom for the victor places left.

The seed's GP2 asks that a contender keep "the opportunity to face a player that they need
to defeat", and its rows say what that means: "GP2 requires the top-ranked GB1 to be
paired with a GB0" (0/0/0/1), "the top-ranked GB0.5 to be included in the pairings"
(0/0/0/0.5). The contenders holding the victor places not already clinched (the first
``victors - clinched`` of them, in rank order) need only stay there; each contender below
them, a *chaser*, needs to pass a player above them in the race, and can face one: a
contender ranked above them whom beating can carry them past (their record after a win
may reach that player's record after a loss). A chaser who plays anyone else (someone who
cannot become a victor, a clinched player, a chaser below) is sent away from the race,
unless nobody above them can be passed that way.

The weaker reading, keeping a way to become a victor through others' results, is GP2's
first part (the removed flags) and still comes first; among pairings that remove the same
contenders, this part keeps the higher-ranked chasers in their race first ("the highest
ranked ones should remain in contention"). Only for the final round: with more rounds
left, a chaser will still face others. A contender sitting out holds their place in rank
order, but faces nobody: they chase no one, and no chaser can be sent to them.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import rustworkx as rx

from ..contention import Contention, Final, Result, final_after, may_reach
from ..standings import Standings


@dataclass(frozen=True)
class Race:
    """The final round's race: per contender in rank order, the players above them they
    can pass by beating them (empty for a player holding a place, or who cannot).

    ``places``: with prize places that pay differently, the tier boundaries each player
    can still finish either side of (``prize_places.PlaceRace.races``). Two players who
    share one race head to head for a place: neither is sent away by that game, and a
    draw between them settles no place they race for (GP4's "engineer a tie to share
    victory" is about equal places, the seed's victors)."""

    contenders: tuple[str, ...]
    targets: tuple[frozenset[str], ...]
    places: Mapping[str, frozenset[int]] = field(default_factory=dict)

    def rivals(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` race for one paid place (``places``)."""
        return bool(self.places.get(a, frozenset()) & self.places.get(b, frozenset()))

    def sent_away(self, pairs: Iterable[tuple[str, str]]) -> tuple[int, ...]:
        """Per contender in rank order: 1 when they are a chaser with someone to face and
        face none of them in ``pairs``, nor a rival for a paid place of theirs."""
        opponent: dict[str, str] = {}
        for a, b in pairs:
            opponent[a], opponent[b] = b, a
        if not self.places:  # equal places: the targets alone (most fields; this is hot)
            return tuple(
                1 if targets and opponent.get(player) not in targets else 0
                for player, targets in zip(self.contenders, self.targets, strict=True)
            )
        return tuple(
            1
            if targets
            and opponent.get(player) not in targets
            and not self.rivals(player, opponent.get(player, ""))
            else 0
            for player, targets in zip(self.contenders, self.targets, strict=True)
        )

    def head_to_head(
        self,
        players: Sequence[str],
        outsider: str,
        preference: Callable[[str, str], tuple[int, ...]] | None = None,
    ) -> list[tuple[str, str]]:
        """A pairing of ``players`` (in rank order) that keeps the race: each chaser,
        highest first, faces a free player above them they can pass, the lowest-ranked
        one unless ``preference(chaser, target)`` (least first) says otherwise; the others
        by rank (KOTH), an odd one out against ``outsider``. A candidate for the
        comparisons (the weighted matching and the standard pairings do not aim at it),
        and the pairing of a race the comparisons cannot afford."""
        targets = dict(zip(self.contenders, self.targets, strict=True))
        free = list(players)
        pairs: list[tuple[str, str]] = []
        for chaser in players:
            if chaser not in free:
                continue
            above = [p for p in free if p in targets.get(chaser, ())]
            if above:
                ordered = list(reversed(above))  # the lowest-ranked (closest) first
                chosen = (
                    min(ordered, key=lambda t: preference(chaser, t)) if preference else ordered[0]
                )
                pairs.append((chosen, chaser))
                free.remove(chosen)
                free.remove(chaser)
        if len(free) % 2:
            pairs.append((free.pop(), outsider))
        pairs += list(zip(free[0::2], free[1::2], strict=True))
        return pairs

    def can_all_face(self, chasers: Sequence[str], unavailable: frozenset[str]) -> bool:
        """Whether one pairing gives every one of ``chasers`` a player above they can pass
        (none of them ``unavailable``, e.g. the bye). A chaser who faces their own target
        cannot be another's (their opponent is below them), so this is a bipartite
        matching of the chasers into their targets outside the set: rustworkx's matching
        answers it exactly."""
        targets = dict(zip(self.contenders, self.targets, strict=True))
        wanted = set(chasers)
        graph: rx.PyGraph = rx.PyGraph()
        index = {p: graph.add_node(p) for p in {*chasers, *itertools.chain(*targets.values())}}
        for chaser in chasers:
            for target in targets.get(chaser, ()):
                if target not in wanted and target not in unavailable:
                    graph.add_edge(index[chaser], index[target], 1)
        matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
        return len(matched) == len(wanted)

    def of(self, contenders: Sequence[str], pairs: Iterable[tuple[str, str]]) -> tuple[int, ...]:
        """``sent_away`` for ``contenders`` (a subset of the race, in rank order)."""
        flags = dict(zip(self.contenders, self.sent_away(pairs), strict=True))
        return tuple(flags[p] for p in contenders)


def race_of(
    standings: Standings,
    contention: Contention,
    victors: int,
    cap: int | None,
    rounds_left: int,
    prize_races: Mapping[str, frozenset[int]] | None = None,
) -> Race:
    """The race for the places that ``contention`` leaves open; ``prize_races``: the
    paid places' races, where they pay differently (``Race.places``)."""
    shared = prize_races or {}
    sitting = contention.fixed
    contenders = contention.contenders
    if sitting:
        contenders = tuple(sorted((*contenders, *sitting), key=standings.rank))
    places = max(victors - len(contention.clinched), 0)
    if rounds_left > 1 or len(contenders) < 2:
        return Race(contenders, tuple(frozenset() for _ in contenders), shared)

    def final(player: str, result: Result) -> Final:
        p = standings.player(player)
        return final_after(p.half_wins, p.spread, result, cap)

    won = [final(p, Result.WIN) for p in contenders]
    lost = [final(p, Result.LOSS) for p in contenders]
    targets: list[frozenset[str]] = []
    for at in range(len(contenders)):
        passable = () if at < places else range(at)
        targets.append(frozenset(contenders[k] for k in passable if may_reach(won[at], lost[k])))
    if sitting:  # nobody faces a player sitting out
        targets = [
            frozenset() if p in sitting else t - sitting.keys()
            for p, t in zip(contenders, targets, strict=True)
        ]
    return Race(contenders, tuple(targets), shared)
