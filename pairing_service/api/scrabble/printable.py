"""The final round's advice and an audit as text to read in a terminal or print
(``Accept: text/plain``): first what to post (the advice's headline), then boards in
columns as wide as their names with each pair's earlier meetings, the principles with the
seed's notes where they differ, what each contender needs, warnings."""

from __future__ import annotations

from collections.abc import Sequence

from ...engine.scrabble import Standings
from .answers import (
    NOT_ASKED,
    AuditAnswer,
    FinalRoundAnswer,
    NeedAnswer,
    PairingAnswer,
    PrincipleAnswer,
)


def _who(standings: Standings, pid: str) -> str:
    player = standings.player(pid)
    label = f"{player.name} ({pid})" if player.name else pid
    return f"#{standings.rank(pid)} {label}"


def _boards(standings: Standings, pairings: Sequence[PairingAnswer]) -> list[str]:
    cells = [
        (
            _who(standings, g.players[0]),
            "BYE" if g.bye else _who(standings, g.players[1]),
            str(g.repeats) if g.repeats else "",
            g.reason,
        )
        for g in pairings
    ]
    # Columns as wide as their longest entry (28 at least), so long names stay apart; Met:
    # the pair's earlier meetings (the warnings count them for the round).
    width = max([28, *(len(c) + 2 for first, second, _, _ in cells for c in (first, second))])
    rows = [f"{'Board':<6}{'Player':<{width}}{'Opponent':<{width}}{'Met':<5}Why"]
    for board, (first, second, met, why) in enumerate(cells, start=1):
        rows.append(f"{board:<6}{first:<{width}}{second:<{width}}{met:<5}{why}")
    return rows


def _principles(verdicts: Sequence[PrincipleAnswer]) -> list[str]:
    lines = ["Principles:"]
    for v in verdicts:
        lines.append(f"  {v.id} {v.status}: {v.reason}")
        if v.seed and v.seed.difference:
            lines.append(f"      the seed says {v.seed.status}: {v.seed.reason}")
            lines.append(f"      why they differ: {v.seed.difference}")
    return lines


def _needs(standings: Standings, listed: Sequence[NeedAnswer]) -> list[str]:
    if not listed:
        return []
    return ["Needs:", *(f"  {_who(standings, n.player)}: {n.text}" for n in listed)]


def render_text(standings: Standings, answer: FinalRoundAnswer) -> str:
    """The final round's answer as text."""

    def who(pid: str) -> str:
        return _who(standings, pid)

    rule = answer.rule
    lines = [
        answer.headline,
        f"Configuration {answer.configuration}: rule {rule.id} ({rule.source}) {rule.text}",
        "",
        *_boards(standings, answer.pairings),
        "",
    ]
    if answer.gibsonized:
        lines.append("Gibsonized: " + ", ".join(who(p) for p in answer.gibsonized))
    if answer.contenders:
        lines.append("Contenders: " + ", ".join(who(p) for p in answer.contenders))
    lines += _principles(answer.principles)
    lines += _needs(standings, answer.needs)
    lines.append("Clinching: " + answer.clinching)
    for alt in answer.alternatives:
        kind = "the seed's table" if alt.source == "table" else "ranks above on the principles"
        lines += [
            "",
            f"Alternative ({kind}): {alt.tradeoff}",
            *_boards(standings, alt.pairings),
        ]
        lines += _principles(alt.principles)
        lines += _needs(standings, alt.needs)
    for warning in answer.warnings:
        lines.append("Warning: " + warning)
    if answer.tsh_commands is not NOT_ASKED:
        lines += answer.tsh_commands
    return "\n".join(lines) + "\n"


def render_audit_text(standings: Standings, audited: AuditAnswer) -> str:
    """An audit's answer as text: the proposal judged, how it differs from the
    recommendation, then the recommendation itself."""
    lines = ["Proposal:", *_boards(standings, audited.pairings), ""]
    lines += _principles(audited.principles)
    lines += _needs(standings, audited.needs)
    if audited.matches_recommendation:
        lines.append("The proposal is the advisor's own recommendation.")
    else:
        lines += ["", "Differences from the recommendation:"]
        lines += [f"  {difference}" for difference in audited.differences]
    lines += ["", "Recommendation:", render_text(standings, audited.recommendation)]
    return "\n".join(lines)
