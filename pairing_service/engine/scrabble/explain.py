"""Judge a pairing against GP1-GP4 and say what each contender needs, from its outcomes.

Used for the fallback and for table rows where the seed gives no note. Readings:
- GP1 holds when, in every outcome, some player of the leading win group is certain of a
  victor place; a violation comes with the outcome that breaks it.
- GP2 holds when every contender keeps at least one outcome in which it can be a victor.
- GP3 holds when a contender's share of outcomes that make it a victor (certain counts
  one, possible counts a half) never rises going down the rankings.
- GP4 holds when no game lets its two players draw into victor places whatever else
  happens (only possible when there are at least two victor places).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from .outcomes import Contention, OutcomeTable, Result, Standing
from .standings import Standings


@dataclass(frozen=True, slots=True)
class Verdict:
    id: str
    status: str
    reason: str


@dataclass(frozen=True, slots=True)
class Need:
    player: str
    text: str


def judge(
    standings: Standings,
    contention: Contention,
    table: OutcomeTable | None,
    pairs: Sequence[tuple[str, str]],
    victors: int,
) -> list[Verdict]:
    if table is None:
        reason = "too many games involve contenders to check every outcome; not verified"
        return [Verdict(gp, "unverified", reason) for gp in ("GP1", "GP2", "GP3", "GP4")]
    return [
        _gp1(standings, table),
        _gp2(standings, contention, table),
        _gp3(standings, table),
        _gp4(standings, table, pairs, victors, set(contention.clinched)),
    ]


def _gp1(standings: Standings, table: OutcomeTable) -> Verdict:
    leaders = set(standings.group_at(0))
    for outcome in table.outcomes:
        if not any(outcome.standing.get(pid) is Standing.CERTAIN for pid in leaders):
            return Verdict(
                "GP1",
                "violated",
                "no player of the leading win group is certain of a victor place if "
                + outcome.describe(standings),
            )
    return Verdict(
        "GP1",
        "satisfied",
        "a player of the leading win group finishes as a victor whatever happens",
    )


def _gp2(standings: Standings, contention: Contention, table: OutcomeTable) -> Verdict:
    removed = [
        pid
        for pid in contention.contenders
        if all(o.standing.get(pid, Standing.OUT) is Standing.OUT for o in table.outcomes)
    ]
    if not contention.contenders:
        return Verdict("GP2", "not_applicable", "nobody is still in contention")
    if removed:
        names = ", ".join(standings.tag(pid) for pid in removed)
        return Verdict(
            "GP2", "violated", f"this pairing leaves no way to become a victor for {names}"
        )
    return Verdict("GP2", "satisfied", "every contender keeps a way to become a victor")


def chances(table: OutcomeTable, pid: str) -> float:
    score = 0.0
    for outcome in table.outcomes:
        standing = outcome.standing.get(pid, Standing.OUT)
        score += (
            1.0 if standing is Standing.CERTAIN else 0.5 if standing is Standing.POSSIBLE else 0.0
        )
    return score / max(len(table.outcomes), 1)


def _gp3(standings: Standings, table: OutcomeTable) -> Verdict:
    ranked = sorted(table.relevant, key=standings.rank)
    for higher, lower in itertools.pairwise(ranked):
        if chances(table, lower) > chances(table, higher) + 1e-9:
            return Verdict(
                "GP3",
                "violated",
                f"{standings.tag(lower)} has more ways to become a victor than "
                f"{standings.tag(higher)}",
            )
    return Verdict("GP3", "satisfied", "what each player needs gets no easier down the rankings")


def _gp4(
    standings: Standings,
    table: OutcomeTable,
    pairs: Sequence[tuple[str, str]],
    victors: int,
    clinched: set[str],
) -> Verdict:
    relevant = set(table.relevant)
    # A game between two players who are already certain cannot change who the victors are.
    contested = [
        (a, b)
        for a, b in pairs
        if a in relevant and b in relevant and not (a in clinched and b in clinched)
    ]
    if not contested or victors < 2:
        return Verdict("GP4", "not_applicable", "no game between two players who can be victors")
    for a, b in contested:
        drawn = [o for o in table.outcomes if o.results.get(a) is Result.DRAW]
        if drawn and all(
            o.standing[a] is Standing.CERTAIN and o.standing[b] is Standing.CERTAIN for o in drawn
        ):
            return Verdict(
                "GP4",
                "violated",
                f"{standings.tag(a)} and {standings.tag(b)} can draw into both victor places",
            )
    return Verdict("GP4", "satisfied", "no two opponents can draw their way into victor places")


_RESULT_WORDS = {Result.WIN: "a win", Result.DRAW: "a draw", Result.LOSS: "a loss", None: "the bye"}


def needs(standings: Standings, table: OutcomeTable, players: Sequence[str]) -> list[Need]:
    """Plain-words needs for each player, from its own result and the outcomes."""
    found: list[Need] = []
    for pid in players:
        by_result: dict[Result | None, list[Standing]] = {}
        for outcome in table.outcomes:
            if pid in outcome.results:
                by_result.setdefault(outcome.results[pid], []).append(outcome.standing[pid])
        found.append(Need(pid, _need_text(by_result)))
    return found


def _need_text(by_result: dict[Result | None, list[Standing]]) -> str:
    certain = [r for r, s in by_result.items() if all(x is Standing.CERTAIN for x in s)]
    maybe = [
        r
        for r, s in by_result.items()
        if r not in certain and any(x is not Standing.OUT for x in s)
    ]
    if len(certain) == len(by_result):
        return "is a victor whatever happens"
    if not certain and not maybe:
        return "cannot become a victor with this pairing"
    if certain == [Result.WIN] and not maybe:
        return "needs to win"
    parts = []
    if certain:
        parts.append("is a victor with " + " or ".join(_RESULT_WORDS[r] for r in certain))
    if maybe:
        results = " or ".join(_RESULT_WORDS[r] for r in maybe)
        parts.append(f"with {results} needs other results or spread to go their way")
    out = [r for r in by_result if r not in certain and r not in maybe]
    if out and (certain or maybe):
        parts.append("is out with " + " or ".join(_RESULT_WORDS[r] for r in out))
    return "; ".join(parts)
