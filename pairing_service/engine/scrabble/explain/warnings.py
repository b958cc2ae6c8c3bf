"""The advice's warnings to the director, in words: players level on wins and spread who can
still be victors, earlier games only one record holds, a player Gibsonized by a row who is
not certain on wins alone."""

from __future__ import annotations

from ..contention import Contention
from ..plans import Plan
from ..standings import Standings

MAX_ONE_SIDED_SHOWN = 3


def complete_tie_warnings(standings: Standings, contention: Contention) -> list[str]:
    """Players level on wins and spread who can still be victors: their order is the
    input's (or the ranks given), which the pairing follows; the director may break the
    tie another way (tsh ranks them by its own tiebreaks)."""
    relevant = set(contention.relevant)
    groups: dict[tuple[int, int], list[str]] = {}
    for player in standings.ranked:
        if player.id in relevant:
            groups.setdefault((player.half_wins, player.spread), []).append(player.id)
    return [
        "complete tie on wins and spread: "
        + ", ".join(standings.tag(p) for p in tied)
        + " (ranked in the order given; check the tiebreak)"
        for tied in groups.values()
        if len(tied) > 1
    ]


def one_sided_warnings(standings: Standings) -> list[str]:
    """Say which earlier games only one of the two players' records holds: they count
    as played (no rematch is made by mistake), but the other record may be missing a game."""
    found = standings.one_sided()
    if not found:
        return []
    tag = standings.tag
    shown = [
        f"{tag(a)} lists {tag(b)} more often than {tag(b)} lists {tag(a)}"
        for a, b in found[:MAX_ONE_SIDED_SHOWN]
    ]
    if len(found) > MAX_ONE_SIDED_SHOWN:
        shown.append(f"and {len(found) - MAX_ONE_SIDED_SHOWN} more")
    return [
        "earlier games that only one player's record holds, counted as played: " + "; ".join(shown)
    ]


def uncertain_gibsonized_warnings(
    standings: Standings, plan: Plan, contention: Contention
) -> list[str]:
    return [
        f"#{standings.rank(pid)} is Gibsonized by row {plan.rule.id} but is not certain "
        "on wins alone: the rest of the row's pairing is what protects the place"
        for pid in plan.gibsonized
        if pid not in contention.clinched
    ]
