"""Which complete pairing the advice recommends, once the table row's (or the fallback's)
is made and judged: the row's, the one the engine proves ranks above it on the principles
GP1-GP4 (when asked for, or when the row's breaks the repeat policy and it does not), or
the row's without a back-to-back rematch when the principles score both alike. The other
is answered beside it as the :class:`Alternative`, with the trade-off in words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..contention import Contention
from ..cost import RepeatPolicy
from ..explain.needs import needs
from ..explain.tradeoffs import tradeoff_text
from ..game import Game, pairs_of
from ..judge.candidates import OUTSIDER
from ..judge.comparison import Judge
from ..judge.principles import PRINCIPLES, Need, Verdict
from ..plans import Plan, RuleUsed
from ..standings import Standings
from .board import Board, play_engine_pairs
from .completion import BEST_KEEPS
from .swiss import SwissMemo


@dataclass(frozen=True)
class Alternative:
    """Another complete pairing and its explanation: the one that ranks above the table's
    on the principles, or (when that one is recommended) the table's own."""

    source: str  # "principles" or "table"
    games: tuple[Game, ...]
    principles: tuple[Verdict, ...]
    needs: tuple[Need, ...]
    tradeoff: str  # one sentence, in plain words
    # The principle on which the principles' pairing ranks above the table's (an index of
    # ``PRINCIPLES``); None beside a row without its rematch (the principles tie).
    level: int | None = None


@dataclass(frozen=True)
class Side:
    """A complete pairing with its verdicts and needs."""

    games: tuple[Game, ...]
    principles: tuple[Verdict, ...]
    needs: tuple[Need, ...]


@dataclass(frozen=True)
class JudgedRound:
    """The round as the advice judges it: the field, who is in contention, the judge of
    pairings, the bye, who sits out, the pairing memo, and whose needs are said."""

    standings: Standings
    contention: Contention
    judge: Judge
    bye: str | None
    withdrawn: frozenset[str]
    swiss: SwissMemo
    ranked_relevant: Sequence[str]

    def completed(
        self, beside: Sequence[Game], chosen: Sequence[tuple[str, str]], reason: str
    ) -> list[Game]:
        """``chosen`` games among the players in contention, completed as the plan's
        pairing ``beside`` was (its bye kept, the rest paired by the memo)."""
        board = Board(self.standings, self.withdrawn, self.swiss)
        if self.bye is not None:
            board.add_bye(self.bye, next(g.reason for g in beside if g.bye))
        play_engine_pairs(board, chosen, self.contention, reason)
        return board.finish()

    def needs_of(self, games: Sequence[Game]) -> tuple[Need, ...]:
        return tuple(needs(self.judge.evaluate(pairs_of(games)), self.ranked_relevant))


def _principled_alternative(
    judged: JudgedRound, plan: Plan, table_side: Side
) -> tuple[Side, int] | None:
    """The complete pairing that the engine proves ranks above a table row's on the
    principles, and the first principle it does better on; None when there is none.

    One ranks above exactly when some verdict is "violated" (a candidate better on it and
    no worse on every higher one), so the search runs only then.
    """
    principles = table_side.principles
    if plan.rule.source != "table" or not any(v.status == "violated" for v in principles):
        return None
    better = judged.judge.proven_better(pairs_of(table_side.games))
    if better is None:
        return None
    chosen, level = better
    other_games = judged.completed(table_side.games, chosen, BEST_KEEPS)
    verdicts = tuple(judged.judge.judge(pairs_of(other_games)))
    return Side(tuple(other_games), verdicts, judged.needs_of(other_games)), level


def _rematches(standings: Standings, games: Sequence[Game]) -> list[tuple[str, str]]:
    return [
        (g.players[0], g.players[1])
        for g in games
        if not g.bye and g.repeats and standings.back_to_back(*g.players)
    ]


def _rematch_free(judged: JudgedRound, table_side: Side) -> Side | None:
    """When a table row's pairing holds a back-to-back rematch between players who can
    be victors and a pairing the principles score the same avoids it: that pairing,
    completed (the pairing policy's first rule, applied to a row). None otherwise."""
    standings, judge = judged.standings, judged.judge
    relevant = set(judged.contention.relevant)
    mine = [pair for pair in _rematches(standings, table_side.games) if set(pair) <= relevant]
    if not mine:
        return None
    pairs = pairs_of(table_side.games)
    tied, _ = judge.best_ties(pairs)
    scores = judge.scores_of(pairs)
    if any(score is None for score in scores):
        return None
    policy = judged.swiss.policy
    outsider_ranks = [standings.rank(p) for p in standings.ids if p not in relevant]
    better = [
        c
        for c in tied
        if judge.scores_of(c) == scores
        and policy.pairing_cost(standings, c, outsider_ranks, OUTSIDER)[0] < len(mine)
    ]
    if not better:
        return None
    chosen = min(better, key=lambda c: policy.pairing_cost(standings, c, outsider_ranks, OUTSIDER))
    games = judged.completed(table_side.games, chosen, "the row's pairing without its rematch")
    verdicts = tuple(judge.judge(pairs_of(games)))
    if [v.status for v in verdicts] != [v.status for v in table_side.principles]:
        return None  # completed, it is not judged alike: the row's pairing stands
    if len(_rematches(standings, games)) >= len(_rematches(standings, table_side.games)):
        return None
    return Side(tuple(games), verdicts, judged.needs_of(games))


def _without_rematch(
    standings: Standings, plan: Plan, table_side: Side, rematch_free: Side
) -> tuple[Side, RuleUsed, Alternative, str]:
    """The rematch-free pairing recommended, the row's named beside it."""
    tag = standings.tag
    shown = "; ".join(f"{tag(a)} and {tag(b)}" for a, b in _rematches(standings, table_side.games))
    rule = RuleUsed(
        id=plan.rule.id,
        source="fallback",
        method="row without its rematch",
        text=f"Row {plan.rule.id}'s pairing ({plan.rule.text.rstrip('.')}) would repeat last "
        "round's game; this pairing is judged the same on GP1-GP4 and avoids it.",
        reading=plan.rule.reading,
        covers=plan.rule.covers,
    )
    tradeoff = (
        f"the seed's table (row {plan.rule.id}) pairs {shown}, who met in the previous round; "
        "the recommended pairing keeps every principle the same and avoids that rematch"
    )
    alternative = Alternative(
        "table", table_side.games, table_side.principles, table_side.needs, tradeoff
    )
    note = (
        f"row {plan.rule.id} would pair {shown} again straight after their last game; an "
        "equally principled pairing without that rematch is recommended, the row's beside it"
    )
    return rematch_free, rule, alternative, note


@dataclass(frozen=True)
class Choice:
    """The pairing recommended, the rule it follows, what is answered beside it, which
    preference chose it ("table" or "principles"), the warnings the choice adds, and
    whether the principles' pairing was chosen (the seed row's notes then do not apply)."""

    side: Side
    rule: RuleUsed
    alternatives: tuple[Alternative, ...]
    preferred: str
    warnings: list[str]
    principled: bool


def choose_recommended(judged: JudgedRound, plan: Plan, table_side: Side, prefer: str) -> Choice:
    """The recommended pairing among the plan's (``table_side``) and the ones the
    principles or the repeat policy put forward (module docstring)."""
    standings, swiss = judged.standings, judged.swiss
    found = _principled_alternative(judged, plan, table_side)
    if found is None:
        return _without_rematch_if_better(judged, plan, table_side, prefer)
    # The principles' pairing is recommended when asked for, or when the row's breaks
    # the repeat policy where it does not (a back-to-back rematch or a meeting past
    # the allowance): a pairing the principles rank higher and a director would post.
    row_breaks = _policy_breaks(standings, swiss.policy, table_side.games)
    their_breaks = _policy_breaks(standings, swiss.policy, found[0].games)
    repeats_avoided = row_breaks > their_breaks
    chosen = "principles" if repeats_avoided else prefer
    recommendation = _recommend(standings, judged.judge, plan, table_side, *found, chosen)
    warnings = recommendation.warnings
    if repeats_avoided and prefer != "principles":
        allowance = swiss.policy.allowance
        warnings = [
            f"row {plan.rule.id}'s pairing holds {_breaks_text(row_breaks, allowance)}; "
            "the pairing that ranks above it on the principles holds "
            f"{_breaks_text(their_breaks, allowance)}, and is recommended (the row's "
            "beside it)"
        ]
    return Choice(
        recommendation.side,
        recommendation.rule,
        (recommendation.alternative,),
        chosen,
        warnings,
        chosen == "principles",
    )


def _without_rematch_if_better(
    judged: JudgedRound, plan: Plan, table_side: Side, prefer: str
) -> Choice:
    """Without a pairing ranked above it: the row's, or the row's without its
    back-to-back rematch when one the principles score alike avoids it."""
    unchanged = Choice(table_side, plan.rule, (), prefer, [], False)
    if plan.rule.source != "table":
        return unchanged
    rematch_free = _rematch_free(judged, table_side)
    if rematch_free is None:
        return unchanged
    side, rule, alternative, note = _without_rematch(
        judged.standings, plan, table_side, rematch_free
    )
    return Choice(side, rule, (alternative,), prefer, [note], False)


@dataclass(frozen=True)
class _Recommendation:
    side: Side
    rule: RuleUsed
    alternative: Alternative
    warnings: list[str]


def _recommend(
    standings: Standings,
    judge: Judge,
    plan: Plan,
    table_side: Side,
    principled: Side,
    level: int,
    prefer: str,
) -> _Recommendation:
    """With a pairing proven to rank above the table row's on the principles: the one
    recommended (the row's, unless ``prefer`` is "principles"), the rule it follows, the
    other as the alternative, and the trade-off between them."""
    principles = list(table_side.principles)
    if principles[level].status == "violated":
        # The verdict names the pairing answered beside it, completed, not the first
        # candidate its comparison met (both do better on it; a director asks about
        # the one shown).
        principled_pairs = pairs_of(principled.games)
        principles[level] = judge.violated(
            pairs_of(table_side.games), PRINCIPLES[level], judge.describe_games(principled_pairs)
        )
    table_side = Side(table_side.games, tuple(principles), table_side.needs)
    tradeoff = tradeoff_text(
        standings,
        level,
        (list(table_side.games), principles),
        (principled.games, principled.principles),
        plan.rule.id,
    )
    if prefer != "principles":
        alternative = Alternative(
            "principles",
            principled.games,
            principled.principles,
            principled.needs,
            tradeoff,
            level,
        )
        return _Recommendation(table_side, plan.rule, alternative, [])
    rule = RuleUsed(
        id=plan.rule.id,
        source="fallback",
        method="principled search",
        text=f"The pairing that ranks above row {plan.rule.id}'s "
        f"({plan.rule.text.rstrip('.')}) on the principles GP1-GP4.",
        reading=plan.rule.reading,
        covers=plan.rule.covers,
    )
    warning = (
        f"prefer=principles: the pairing that ranks above row {plan.rule.id}'s on "
        f"{PRINCIPLES[level]} is recommended; the table's is the alternative"
    )
    alternative = Alternative(
        "table", table_side.games, table_side.principles, table_side.needs, tradeoff, level
    )
    return _Recommendation(principled, rule, alternative, [warning])


def _policy_breaks(
    standings: Standings, policy: RepeatPolicy, games: Sequence[Game]
) -> tuple[int, int]:
    """Back-to-back rematches and meetings past the allowance among ``games``."""
    costs = [policy.pair_cost(standings, *g.players) for g in games if not g.bye]
    return sum(c[0] for c in costs), sum(c[1] for c in costs)


def _breaks_text(breaks: tuple[int, int], allowance: int) -> str:
    """``_policy_breaks`` in words: "1 back-to-back rematch and 2 meetings past the
    allowance of 2"."""
    back, past = breaks
    return (
        f"{back} back-to-back rematch{'es' if back != 1 else ''} and {past} "
        f"meeting{'s' if past != 1 else ''} past the allowance of {allowance}"
    )
