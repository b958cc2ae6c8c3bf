"""The trade-off in words: what a pairing that ranks above the table's on the principles
gains over it, and what it costs."""

from __future__ import annotations

from collections.abc import Sequence

from ..game import Game
from ..judge.principles import PRINCIPLES, Verdict
from ..standings import Standings
from ..words.verdicts import GOOD_REASONS

Side = tuple[Sequence[Game], Sequence[Verdict]]  # a pairing's games and its verdicts

PLAIN = {
    "GP1": (
        "guarantees a victor from the leading win group",
        "does not guarantee a victor from the leading win group",
    ),
    "GP2": (
        "keeps every contender able to become a victor",
        "leaves a contender no way to become a victor",
    ),
    "GP3": (
        "keeps what each player needs no easier down the rankings",
        "makes a lower-ranked player's task easier than a higher one's",
    ),
    "GP4": (
        "leaves no game that a draw turns into two victors",
        "leaves a game that a draw turns into two victors",
    ),
}
# GP2 gained on its head-to-head part alone: both pairings keep every contender alive.
HEAD_TO_HEAD = (
    "gives each chaser a player they need to pass",
    "keeps every contender able to become a victor but sends a chaser away from the "
    "players they need to pass",
)


def tradeoff_text(
    standings: Standings,
    level: int,
    table_side: Side,
    principled: Side,
    rule_id: str,
) -> str:
    """One sentence: what the principled pairing gains over the table's (row ``rule_id``'s)
    on the principle at ``level``, and what it costs."""
    table_games, table_principles = table_side
    principled_games, principled_principles = principled
    gained = PRINCIPLES[level]
    cost = first_cost(level, table_principles, principled_principles)
    shown = games_only_in(standings, principled_games, table_games)
    gain, loss = PLAIN[gained]
    table_reason = table_principles[level].reason if level < len(table_principles) else ""
    if gained == "GP2" and table_reason.startswith(GOOD_REASONS["GP2"] + ", but"):
        gain, loss = HEAD_TO_HEAD
    sentence = f"{shown} {gain} ({gained})"
    if cost is not None:
        sentence += f" but breaks {cost.id}: {cost.reason.split(';')[0]}"
    else:
        sentence += " and breaks no principle the table's pairing keeps"
    table = games_only_in(standings, table_games, principled_games)
    if cost is not None:
        return sentence + f"; the seed's table ({rule_id}: {table}) keeps {cost.id}."
    return sentence + f"; the seed's table ({rule_id}: {table}) {loss}."


def games_only_in(standings: Standings, games: Sequence[Game], other: Sequence[Game]) -> str:
    """The games of ``games`` that ``other`` does not hold, by rank ("1-2, 3-4"), at most
    four."""
    theirs = {g.players for g in other}
    shown = [
        "-".join(str(standings.rank(p)) for p in g.players)
        for g in games
        if not g.bye and g.players not in theirs
    ]
    return ", ".join(shown[:4]) + (" …" if len(shown) > 4 else "")


def first_cost(
    level: int, table_principles: Sequence[Verdict], principled_principles: Sequence[Verdict]
) -> Verdict | None:
    """The first principle below ``level`` that the principled pairing breaks and the
    table's keeps (what ranking above costs); None when it costs none."""
    kept = ("satisfied", "not_applicable")
    table_verdicts = {v.id: v for v in table_principles}
    return next(
        (
            v
            for v in principled_principles[level + 1 :]
            if v.status not in kept and table_verdicts[v.id].status in kept
        ),
        None,
    )
