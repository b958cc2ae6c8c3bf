"""Verdicts in words: the reason a kept principle gives, a player's own result, GP1's
rules for the results."""

from __future__ import annotations

from ..contention import Result

RESULT_WORDS = {Result.WIN: "a win", Result.DRAW: "a draw", Result.LOSS: "a loss", None: "the bye"}
GOOD_REASONS = {
    "GP1": "a player of the leading win group is a victor whatever happens",
    "GP2": "every contender keeps a way to become a victor",
    "GP3": "what each player needs gets no easier down the rankings",
    "GP4": "no two opponents can draw their way into victor places",
}

# Why the engine's verdict can differ from the seed row's note, one line per principle: the
# engine proves each principle over every outcome of the pairing, margins included, and
# reads GP2 as the seed's rows do (a chaser faces a player they need to pass).
SEED_READINGS = {
    "GP1": "the seed counts a leader victor when the games go to form; the engine's GP1 is "
    "strict: a player of the leading win group certain of a victor place in every outcome, "
    "margins included",
    "GP2": "the engine's GP2 asks both that every contender keep a way to become a victor "
    "and that each chaser face a player they need to pass, in every outcome",
    "GP3": "the engine compares what each player needs over every outcome of this pairing, "
    "not only the row's example",
    "GP4": "the engine looks for any two opponents who could draw their way into victor "
    "places, in every outcome",
}

_RULE_RESULT = ("wins", "draws", "loses")


def rule_text(rule: tuple[int, int, int]) -> str:
    """A rule of ``GP1_RULES`` in words."""
    between_leaders, leader_result, others = rule
    against = ("beats", "draws with", "loses to")[leader_result]
    between = (
        "two leaders draw"
        if between_leaders == 1
        else f"the higher-ranked of two leaders {_RULE_RESULT[between_leaders]}"
    )
    return (
        f"each leader {against} anyone outside the leading win group, {between}, and the "
        f"higher-ranked player {_RULE_RESULT[others]} every other game (a player who can "
        "be a victor beats one who cannot)"
    )
