"""The plan for a final round: a seed table row's (fixed pairs, Gibsonized players, a group
and its method), or the fallback's when no row fits (certain victors Gibsonized, the
contenders paired by the principles).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .contention import Contention
from .rule_table import Row, RuleTable, group_members, select
from .standings import Standings, configuration_text, format_half


@dataclass(frozen=True, slots=True)
class RuleUsed:
    id: str
    source: str  # "table" or "fallback"
    method: str
    text: str
    reading: str = ""
    covers: str = ""  # the configurations the row takes, as read (table rows)


@dataclass
class Plan:
    rule: RuleUsed
    gibsonized: tuple[str, ...]
    fixed: list[tuple[str, str]]
    group: tuple[str, ...]
    group_method: str  # a table method, or "principled" for the fallback matching
    row: Row | None = None  # the row whose pairing is applied
    row_notes_apply: bool = False  # the row's principle and needs notes fit these ranks
    victors: int = 2
    cap: int | None = None
    rounds_left: int = 1
    notes: list[str] = field(default_factory=list)


def table_plan(
    standings: Standings, table: RuleTable, contention: Contention, cap: int | None = None
) -> tuple[Plan | None, str]:
    """The plan of the table's row for this configuration, or None and why the table does
    not fit."""
    config = standings.configuration()
    row = table.match(config)
    text = configuration_text(config)
    if row is None:
        return None, f"the seed's table has no row for {text}"
    applied, note = _odd_leaders_row(standings, table, row)
    group_spec = applied.group
    notes = [note] if note is not None else []
    gibsonized: list[str] = []
    for selector in applied.gibsonize:
        gibsonized.extend(select(standings, selector))
    fixed: list[tuple[str, str]] = []
    used = set(gibsonized)
    for left, right in applied.pairs:
        found_left, found_right = select(standings, left), select(standings, right)
        if len(found_left) != 1 or len(found_right) != 1:
            return None, f"row {row.id} names {left}-{right}, which do not exist here"
        a, b = found_left[0], found_right[0]
        if a == b or a in used or b in used:
            return None, f"row {row.id} pairs {left}-{right}, which clash here"
        fixed.append((a, b))
        used.update((a, b))
    members: tuple[str, ...] = ()
    method = ""
    if group_spec is not None:
        members = tuple(p for p in group_members(standings, group_spec.members) if p not in used)
        method = group_spec.method
    missed = [p for p in contention.clinched if p not in gibsonized]
    if missed:
        names = ", ".join(f"#{standings.rank(p)}" for p in missed)
        return None, (
            f"row {row.id} does not Gibsonize {names}, who is already certain of a victor "
            "place here, so the table does not fit"
        )
    rule = RuleUsed(
        id=row.id,
        source="table",
        method=applied.method,
        text=row.text,
        reading=applied.reading,
        covers=row.covers(),
    )
    return (
        Plan(
            rule=rule,
            gibsonized=tuple(gibsonized),
            fixed=fixed,
            group=members,
            group_method=method,
            row=applied,
            row_notes_apply=applied is row,
            cap=cap,
            notes=notes,
        ),
        "",
    )


def _odd_leaders_row(standings: Standings, table: RuleTable, row: Row) -> tuple[Row, str | None]:
    """The row to apply for ``row``: when its group is the leaders (GB0) and they are odd in
    number, the odd-leaders row that covers the next player's games behind, and a note
    saying so; else ``row`` itself."""
    if row.group is None or row.group.members != "GB0":
        return row, None
    leaders = standings.group_at(0)
    if not len(leaders) % 2 or len(standings) <= len(leaders):
        return row, None
    next_gb = standings.games_behind(standings.ids[len(leaders)])
    for candidate_id in table.odd_leaders_rows:
        candidate = table.row(candidate_id)
        if candidate.pattern[-1].covers(next_gb):
            return candidate, (
                f"{len(leaders)} leaders (odd): paired with the next player "
                f"({format_half(next_gb)} behind) as row {candidate.id}"
            )
    return row, None


def fallback_plan(
    standings: Standings,
    contention: Contention,
    victors: int,
    cap: int | None,
    config: str,
    rounds_left: int,
) -> Plan:
    rule = RuleUsed(
        id=config,
        source="fallback",
        method="principled search",
        text=(
            "Certain victors are Gibsonized; the other contenders get the pairing that best "
            "keeps GP1, then GP2, GP3 and GP4, judged by the outcome engine over every "
            "pairing of the contenders (or standard candidates when there are too many); "
            "ties go to the round's cost (no back-to-back rematch, no meeting past the "
            "repeat allowance, then the closest ranks weighed against repeats); everyone else "
            "is paired Swiss."
        ),
        reading=f"{victors} victor{'s' if victors != 1 else ''}"
        + (f", {rounds_left} rounds left" if rounds_left > 1 else ""),
    )
    return Plan(
        rule=rule,
        gibsonized=contention.clinched,
        fixed=[],
        group=contention.contenders,
        group_method="principled",
        victors=victors,
        cap=cap,
        rounds_left=rounds_left,
    )
