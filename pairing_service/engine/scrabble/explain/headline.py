"""The advice's first line: what to post and, where the engine prefers another pairing
than the one posted (a pairing that ranks above the table's on the principles, or the
table's own when another is recommended), which and why, in one sentence: "Post 1-3,
2-4, 5-6 (row 0/0/1). The engine's 1-2, 3-4 ranks above it on GP1: it guarantees a
victor from the leading win group but breaks GP4."
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cost import RepeatPolicy
from ..game import Game
from ..judge.principles import PRINCIPLES, Verdict
from ..plans import RuleUsed
from ..standings import Standings
from .tradeoffs import PLAIN, first_cost, games_only_in

MAX_POSTED = 6  # games named; the boards follow
COUNTED = {1: "a game", 2: "two games", 3: "three games"}

# The pairing beside the one posted: its source ("principles", "table"), its games and
# verdicts, and the principle it ranks above or below on (None: not the principles).
Beside = tuple[str, Sequence[Game], Sequence[Verdict], int | None]


def posted_text(standings: Standings, games: Sequence[Game]) -> str:
    """The games to post by rank, board order, the first few and the bye ("1-4, 2-3,
    5-bye"; "1-4, 2-3, …" when the boards go on)."""
    played = [game for game in games if not game.bye][: MAX_POSTED + 1]
    shown = ["-".join(str(standings.rank(p)) for p in game.players) for game in played]
    if len(shown) > MAX_POSTED:
        return ", ".join(shown[:MAX_POSTED]) + ", …"
    shown += [f"{standings.rank(game.players[0])}-bye" for game in games if game.bye]
    return ", ".join(shown)


def headline(
    standings: Standings,
    rule: RuleUsed,
    games: Sequence[Game],
    principles: Sequence[Verdict],
    policy: RepeatPolicy,
    beside: Beside | None,
) -> str:
    """One sentence: post these games, from which rule, and the other pairing when the
    engine ranks one above them or recommended them over the table's (``beside``)."""
    post = f"Post {posted_text(standings, games)}"
    if beside is None:
        return f"{post} ({_basis(rule)})."
    source, other_games, other_principles, level = beside
    other = games_only_in(standings, other_games, games)
    if source == "principles" and level is not None:
        gained = PRINCIPLES[level]
        cost = first_cost(level, principles, other_principles)
        costs = f" but breaks {cost.id}" if cost is not None else ""
        return (
            f"{post} (row {rule.id}). The engine's {other} ranks above it on {gained}: it "
            f"{PLAIN[gained][0]}{costs}."
        )
    posted = {g.players for g in games}
    differing = [g for g in other_games if not g.bye and g.players not in posted]
    why = []
    repeats = repeat_words(standings, policy, differing)
    if repeats:
        why.append(f"would {repeats}")
    if level is not None:
        gained = PRINCIPLES[level]
        why.append(f"{PLAIN[gained][1]} ({gained})")
    said = " and ".join(why) or "is ranked below it"
    if level is None:
        return f"{post} (row {rule.id} without its rematch: the row's {other} {said})."
    return f"{post} (the principles' pairing: row {rule.id}'s {other} {said})."


def repeat_words(standings: Standings, policy: RepeatPolicy, games: Sequence[Game]) -> str:
    """What the repeat policy holds against ``games``: "repeat two games of the last
    round", "hold a meeting past the allowance of 1"; empty when nothing."""
    costs = [policy.pair_cost(standings, *g.players) for g in games if not g.bye]
    back = sum(c[0] for c in costs)
    over = sum(1 for c in costs if c[1])
    parts = []
    if back:
        parts.append(f"repeat {COUNTED.get(back, f'{back} games')} of the last round")
    if over:
        meetings = COUNTED.get(over, f"{over} games").replace("game", "meeting")
        parts.append(f"hold {meetings} past the allowance of {policy.allowance}")
    return " and ".join(parts)


def _basis(rule: RuleUsed) -> str:
    """What the pairing posted follows, when nothing else is answered beside it."""
    if rule.source == "table":
        return f"row {rule.id}"
    if rule.source == "prizes":
        return "prize places: each place's race head to head"
    return f"fallback for {rule.id}: the pairing that best keeps GP1-GP4"
