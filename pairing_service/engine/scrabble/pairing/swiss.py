"""Swiss pairing by win group, at the round's cost (``cost.py``).

The seed defines Swiss as "the top half of each win group against the bottom half, in
corresponding order". Win groups are paired from the top down; an odd group floats its
lowest-ranked player to the top of the group below. That is the **ideal pairing**; the
pairing posted is the one closest to it, by ``cost.py``'s levels: no back-to-back rematch,
no meeting past the repeat allowance, then each player's distance from their ideal
opponent in ranks (squared) weighed against the repeats' weights. So a pair that met
long ago meets again rather than send a player far down the field, and a repeat that a
swap of neighbours avoids is avoided; floats to other win groups happen when they are the
cheapest way round a repeat.

When no ideal pair has met, the ideal pairing is the matching's unique optimum (every
other pairing moves someone) and is answered without a matching: most rounds of a field
in its early rounds. Otherwise the whole field is one matching up to ``WHOLE_LIMIT``
players; above, the players near the ideal pairs that have met are (``_repaired``), their
candidates each player's neighbours and those of their ideal opponent
(``cost.candidate_pairs``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import groupby

import numpy as np

from ...matching import Indices
from ..cost import WHOLE_LIMIT, Meetings, RepeatPolicy, pair_closest
from ..standings import Standings

REPAIR_REACH = 8  # places either side of a repeated ideal pair that a large field re-pairs


@dataclass
class SwissMemo:
    """Swiss pairings already made on one field's standings under one repeat policy. An
    alternative pairing of the contenders usually leaves the same players to the Swiss."""

    policy: RepeatPolicy = field(default_factory=RepeatPolicy)
    fields: dict[frozenset[str], list[tuple[str, str]]] = field(default_factory=dict)
    meetings: Meetings | None = None
    # Each field's Swiss games' reasons (``Board.finish``), kept beside its pairs.
    reasons: dict[frozenset[str], list[str]] = field(default_factory=dict)

    def meetings_of(self, standings: Standings) -> Meetings:
        if self.meetings is None:
            self.meetings = Meetings(standings)
        return self.meetings


def pair_swiss(
    standings: Standings, player_ids: Sequence[str], memo: SwissMemo | None = None
) -> list[tuple[str, str]]:
    """Pair an even number of players Swiss by win group; pairs come out in rank order.
    ``memo`` keeps the pairings of this field's standings for the next call."""
    memo = memo if memo is not None else SwissMemo()
    key = frozenset(player_ids)
    if key not in memo.fields:
        memo.fields[key] = _pair_swiss(standings, player_ids, memo)
    return list(memo.fields[key])


def _pair_swiss(
    standings: Standings, player_ids: Sequence[str], memo: SwissMemo
) -> list[tuple[str, str]]:
    ordered = sorted(player_ids, key=standings.rank)
    if len(ordered) % 2:
        raise ValueError("Swiss pairing needs an even number of players")
    ideal = swiss_ideal(standings, ordered)
    meetings = memo.meetings_of(standings)
    firsts = np.flatnonzero(ideal > np.arange(len(ordered)))
    positions = meetings.positions_of(ordered)
    met = meetings.repeats(positions[firsts], positions[ideal[firsts]]) > 0
    if not met.any():
        pairs = [(ordered[a], ordered[b]) for a, b in zip(firsts, ideal[firsts], strict=True)]
    elif len(ordered) <= WHOLE_LIMIT:
        pairs = pair_closest(meetings, memo.policy, ordered, ideal)
    else:
        pairs = _repaired(meetings, memo.policy, ordered, ideal, firsts[met])
    rank = standings.rank
    return sorted(pairs, key=lambda pair: min(rank(pair[0]), rank(pair[1])))


def _repaired(
    meetings: Meetings,
    policy: RepeatPolicy,
    ordered: Sequence[str],
    ideal: Indices,
    met: Indices,
) -> list[tuple[str, str]]:
    """A large field's Swiss where some ideal pairs (``met``: their first players) have
    met: the players within ``REPAIR_REACH`` places of them or of their ideal opponents
    are paired again at the round's cost, everyone else keeps the ideal pairs. A repair
    moves players a few places (the round's cost squares distance); matching the whole of
    a 400-player field for two repeats cost most of a final round's advice."""
    size = len(ordered)
    marks = np.zeros(size, np.int64)
    marks[np.concatenate([met, ideal[met]])] = 1
    near = np.convolve(marks, np.ones(2 * REPAIR_REACH + 1, np.int64), "same") > 0
    near |= near[ideal]  # closed under the ideal pairs (each is its partner's partner)
    inside = np.flatnonzero(near)
    local = np.full(size, -1, np.int64)
    local[inside] = np.arange(len(inside))
    repaired = pair_closest(
        meetings, policy, [ordered[i] for i in inside.tolist()], local[ideal[inside]], inside
    )
    partner = ideal.tolist()
    kept = [
        (ordered[a], ordered[partner[a]]) for a in np.flatnonzero(~near).tolist() if a < partner[a]
    ]
    return kept + repaired


def swiss_ideal(standings: Standings, ordered: Sequence[str]) -> Indices:
    """Each player's ideal Swiss opponent (an index into ``ordered``, in rank order): the
    top half of each win group against its bottom half, an odd group's lowest-ranked
    player floated to the top of the group below."""
    ideal = np.full(len(ordered), -1, np.int64)
    carried: int | None = None
    at = 0
    for _, members_ in groupby(ordered, key=lambda pid: standings.player(pid).half_wins):
        members = list(range(at, at + len(list(members_))))
        at += len(members)
        if carried is not None:
            ideal[carried], ideal[members[0]] = members[0], carried
            members = members[1:]
            carried = None
        if len(members) % 2:
            carried = members.pop()
        half = len(members) // 2
        for a, b in zip(members[:half], members[half:], strict=True):
            ideal[a], ideal[b] = b, a
    return ideal
