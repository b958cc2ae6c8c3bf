"""The seed's final-round rule table as typed data, and how a row turns into a plan.

The table itself lives in ``rules/scrabble_final_round.yaml``; this module validates the
parsed data (no file access here) and matches configurations against the rows.

Pattern values are games behind the leader: ``"1"`` matches exactly 1, ``"1.5+"`` matches
1.5 or more, ``"1.5-2"`` matches 1.5 up to 2. A pattern shorter than four values says
nothing about the players after it (0/0/1 covers 0/0/1/1, 0/0/1/2, ...). Every pattern
needs at least as many players as it has values.

Selectors name players in a row: ``#3`` (rank 3), ``GB1`` (everyone 1 game behind),
``GB1:lowest-cume`` (the GB1 player with the lowest spread), ``group(#3):last`` (the
lowest-ranked player of #3's win group).

Group specs name a set of players paired by one method: ``top4``, ``GB0``, ``GB0+next``
(the GB0s and the next-ranked player), ``GB0+GB1``.
"""

from __future__ import annotations

import re
from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import InvalidRuleTable
from .standings import Player, Standings, format_half, half_wins_of

PRINCIPLES = ("GP1", "GP2", "GP3", "GP4")
STATUSES = (
    "satisfied",
    "overridden",
    "not_applicable",
    "violated",
    "unavoidable",
    "unverified",
)
GROUP_METHODS = ("top_vs_bottom", "last_plays_second", "swiss")
_SELECTOR = re.compile(
    r"^(?:#(?P<rank>[1-9]\d*)"
    r"|GB(?P<gb>\d+(?:\.5)?)(?::(?P<pick>lowest-cume))?"
    r"|group\(#(?P<grank>[1-9]\d*)\):last)$"
)
_GROUPS = ("top4", "GB0", "GB0+next", "GB0+GB1")


@dataclass(frozen=True, slots=True)
class Bound:
    """Games behind, in half-games: low <= value <= high (high None: no upper limit)."""

    low: int
    high: int | None

    def covers(self, value: int) -> bool:
        return value >= self.low and (self.high is None or value <= self.high)

    def text(self) -> str:
        """As the seed writes games behind: 1.5, 1.5+ (or more), 1.5-2 (a range)."""
        if self.high is None:
            return f"{format_half(self.low)}+"
        if self.high == self.low:
            return format_half(self.low)
        return f"{format_half(self.low)}-{format_half(self.high)}"


def parse_bound(text: str) -> Bound:
    text = str(text).strip()
    try:
        if text.endswith("+"):
            return Bound(half_wins_of(text[:-1]), None)
        if "-" in text:
            low, high = text.split("-", 1)
            return Bound(half_wins_of(low), half_wins_of(high))
        value = half_wins_of(text)
    except ValueError as exc:
        raise InvalidRuleTable(f"bad pattern value {text!r}") from exc
    return Bound(value, value)


@dataclass(frozen=True)
class GroupPlan:
    """Pair a set of players by one method; the method may depend on a cume comparison."""

    members: str
    method: str
    otherwise: str | None = None  # method when the first does not have better cume than the last

    def method_for(self, standings: Standings, ids: Sequence[str]) -> tuple[str, str]:
        """The method to use and why."""
        if self.otherwise is None:
            return self.method, ""
        first, last = standings.player(ids[0]), standings.player(ids[-1])
        if first.spread > last.spread:
            return self.method, (
                f"#{standings.rank(first.id)} has better cume than #{standings.rank(last.id)} "
                f"({first.spread:+d} vs {last.spread:+d})"
            )
        return self.otherwise, (
            f"#{standings.rank(first.id)} does not have better cume than "
            f"#{standings.rank(last.id)} ({first.spread:+d} vs {last.spread:+d})"
        )


@dataclass(frozen=True)
class Row:
    id: str
    pattern: tuple[Bound, ...]
    text: str
    method: str
    reading: str
    gibsonize: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...]
    group: GroupPlan | None
    principles: Mapping[str, tuple[str, str]]
    needs: Mapping[int, str]
    # Where the outcome engine disagrees with the seed's note on the row's example:
    # principle -> (the engine's status, the proving outcome as the engine words it).
    engine: Mapping[str, tuple[str, str]] = field(default_factory=dict)

    def covers(self) -> str:
        """The configurations this row takes, as read (its id is the seed's heading)."""
        return "/".join(bound.text() for bound in self.pattern)

    def matches(self, configuration: Sequence[int]) -> bool:
        return len(configuration) >= len(self.pattern) and all(
            bound.covers(value) for bound, value in zip(self.pattern, configuration, strict=False)
        )


@dataclass(frozen=True)
class RuleTable:
    rows: tuple[Row, ...]
    odd_leaders_rows: tuple[str, ...]  # rows that pair an odd GB0 group with the next player

    def match(self, configuration: Sequence[int]) -> Row | None:
        found = [row for row in self.rows if row.matches(configuration)]
        return found[0] if found else None

    def row(self, row_id: str) -> Row:
        for row in self.rows:
            if row.id == row_id:
                return row
        raise KeyError(row_id)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> RuleTable:
        """Validate parsed rule data; raises InvalidRuleTable with the offending row."""
        raw_rows = data.get("rows")
        if not isinstance(raw_rows, list) or not raw_rows:
            raise InvalidRuleTable("the table needs a non-empty list of rows")
        rows = tuple(_parse_row(raw) for raw in raw_rows)
        ids = [row.id for row in rows]
        if len(set(ids)) != len(ids):
            raise InvalidRuleTable("row ids must be unique")
        odd = tuple(str(x) for x in data.get("odd_leaders_rows", ()))
        for row_id in odd:
            if row_id not in ids:
                raise InvalidRuleTable(f"odd_leaders_rows names unknown row {row_id!r}")
        table = cls(rows=rows, odd_leaders_rows=odd)
        table._check_no_overlap()
        return table

    def _check_no_overlap(self) -> None:
        """No configuration of games behind (0..6 games, four players) matches two rows."""
        values = range(0, 13)
        for b in values:
            for c in values:
                for d in values:
                    if not b <= c <= d:
                        continue
                    for config in ((0, b, c, d), (0, b, c), (0, b)):
                        hits = [row.id for row in self.rows if row.matches(config)]
                        if len(hits) > 1:
                            raise InvalidRuleTable(f"rows {hits} overlap at {config}")


def _parse_row(raw: Any) -> Row:
    if not isinstance(raw, Mapping):
        raise InvalidRuleTable(f"row {raw!r} is not a mapping")
    row_id = str(raw.get("id", ""))
    where = f"row {row_id!r}"
    try:
        pattern = tuple(parse_bound(v) for v in raw["pattern"])
        if not pattern or pattern[0] != Bound(0, 0):
            raise InvalidRuleTable(f"{where}: a pattern starts with the leader, 0")
        gibsonize = tuple(str(s) for s in raw.get("gibsonize", ()))
        pairs = tuple((str(a), str(b)) for a, b in raw.get("pairs", ()))
        for selector in (*gibsonize, *(s for pair in pairs for s in pair)):
            if not all(_SELECTOR.match(part) for part in selector.split("|")):
                raise InvalidRuleTable(f"{where}: bad selector {selector!r}")
        group = _parse_group(raw["group"], where) if "group" in raw else None
        principles = _parse_notes(raw.get("principles"), "reason", PRINCIPLES, where, "principle")
        needs = {int(rank): str(text) for rank, text in (raw.get("needs") or {}).items()}
        engine = _parse_notes(raw.get("engine"), "proof", principles, where, "engine")
        return Row(
            id=row_id,
            pattern=pattern,
            text=str(raw["text"]),
            method=str(raw["method"]),
            reading=str(raw.get("reading", "")),
            gibsonize=gibsonize,
            pairs=pairs,
            group=group,
            principles=principles,
            needs=needs,
            engine=engine,
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, InvalidRuleTable):
            raise
        raise InvalidRuleTable(f"{where}: {exc!r}") from exc


def _parse_group(spec: Any, where: str) -> GroupPlan:
    """A row's group: its members and method (and the method otherwise), each known."""
    group = GroupPlan(
        members=str(spec["members"]),
        method=str(spec["method"]),
        otherwise=None if spec.get("otherwise") is None else str(spec["otherwise"]),
    )
    if group.members not in _GROUPS:
        raise InvalidRuleTable(f"{where}: unknown group {group.members!r}")
    for method in (group.method, group.otherwise):
        if method is not None and method not in GROUP_METHODS:
            raise InvalidRuleTable(f"{where}: unknown method {method!r}")
    return group


def _parse_notes(
    raw: Any, text_key: str, known: Container[str], where: str, kind: str
) -> dict[str, tuple[str, str]]:
    """A row's notes by principle (``known`` ones only): each a status and its text (the
    seed's ``reason``, or the engine's ``proof``)."""
    notes: dict[str, tuple[str, str]] = {}
    for key, value in (raw or {}).items():
        status, text = str(value["status"]), str(value[text_key])
        if key not in known or status not in STATUSES:
            raise InvalidRuleTable(f"{where}: bad {kind} note {key}: {status}")
        notes[str(key)] = (status, text)
    return notes


def select(standings: Standings, selector: str) -> tuple[str, ...]:
    """Resolve a selector to player ids (rank order); empty if nobody fits. Selectors
    joined by ``|`` take the first that fits."""
    if "|" in selector:
        for part in selector.split("|"):
            chosen = select(standings, part)
            if chosen:
                return chosen
        return ()
    found = _SELECTOR.match(selector)
    if found is None:
        raise InvalidRuleTable(f"bad selector {selector!r}")
    if found["rank"]:
        rank = int(found["rank"])
        return (standings.at_rank(rank).id,) if rank <= len(standings) else ()
    if found["gb"] is not None:
        group = standings.group_at(half_wins_of(found["gb"]))
        if found["pick"] == "lowest-cume" and group:
            # Lowest spread; among equal spreads, the lowest-ranked.
            return (
                min(group, key=lambda pid: (standings.player(pid).spread, -standings.rank(pid))),
            )
        return group
    rank = int(found["grank"])
    if rank > len(standings):
        return ()
    return (standings.win_group(standings.at_rank(rank).id)[-1],)


def group_members(standings: Standings, spec: str) -> tuple[str, ...]:
    if spec == "top4":
        return standings.ids[:4]
    leaders = standings.group_at(0)
    if spec == "GB0":
        return leaders
    if spec == "GB0+next":
        return standings.ids[: len(leaders) + 1]
    return leaders + standings.group_at(2)  # GB0+GB1


def pair_group(method: str, ids: Sequence[str]) -> list[tuple[str, str]]:
    """Pair an even list of players (rank order) by a named method."""
    ids = list(ids)
    if len(ids) % 2:
        raise ValueError("a group method needs an even number of players")
    if method == "top_vs_bottom":
        return [(ids[i], ids[-1 - i]) for i in range(len(ids) // 2)]
    if method == "last_plays_second":
        # The seed's 1-3, 2-4 for four players: the last plays #2, the others top vs bottom.
        if len(ids) < 4:
            return pair_group("top_vs_bottom", ids)
        rest = [ids[0], *ids[2:-1]]
        return sorted(
            [(ids[1], ids[-1]), *pair_group("top_vs_bottom", rest)], key=lambda p: ids.index(p[0])
        )
    half = len(ids) // 2
    return [(ids[i], ids[i + half]) for i in range(half)]


EXAMPLE_LEADER_WINS = 20  # half-wins: 10 wins
EXAMPLE_SPREADS = (300, 200, 100, 0)


def example_standings(row: Row) -> Standings:
    """The standings on which a row's notes are checked (``docs/scrabble.md``).

    Ranks 1-4 are the row's pattern at its smallest gaps (a shorter pattern repeats its last
    gap), with spreads 300, 200, 100, 0 (so #1 has better cume than #4); then a fifth
    player one game behind the fourth, spread -100, and three players far below.
    """
    gaps = [bound.low for bound in row.pattern]
    gaps += [gaps[-1]] * (4 - len(gaps))
    players = [
        Player(f"R{i + 1}", EXAMPLE_LEADER_WINS - gap, spread)
        for i, (gap, spread) in enumerate(zip(gaps, EXAMPLE_SPREADS, strict=True))
    ]
    fifth = EXAMPLE_LEADER_WINS - gaps[-1] - 2
    players.append(Player("R5", fifth, -100))
    players += [Player(f"R{6 + i}", 8 - 2 * i, -200) for i in range(3)]
    return Standings.from_players(players)
