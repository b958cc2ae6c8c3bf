"""Outcomes in words: each player's result, in rank order ("#1 Player 1 wins, ...")."""

from __future__ import annotations

from collections.abc import Mapping

from ..contention import Result
from ..standings import Standings

_RESULTS = {
    Result.WIN: "wins",
    Result.DRAW: "draws",
    Result.LOSS: "loses",
    None: "has the bye",
}


def outcome_text(standings: Standings, results: Mapping[str, Result | None], complete: bool) -> str:
    """The results (None: the bye) by rank; a partial outcome holds "whatever else
    happens"."""
    ordered = sorted(results.items(), key=lambda item: standings.rank(item[0]))
    text = ", ".join(f"{standings.tag(p)} {_RESULTS[r]}" for p, r in ordered)
    return text if complete else text + ", whatever else happens"
