"""A Puffing Billy event: PB scores summed over boards, standings, qualifiers, finals.

Preliminary standings rank by, in order: total PB score; boards won; best single-board PB
score; total bonus points; players still level share the rank. Which boards count is the
director's (``counted``): every board a player played (the default, as before), or their
best N (by PB score, then bonus, then the order entered), as TGA events often count a
player's best boards; the seed says neither, and summing every board rewards whoever
plays most. Boards won and bonus points count the counted boards only. The first ``finalists``
ranks qualify for the final; players tied at the cut all qualify, and the answer says so
(the director may prefer a playoff). Final standings rank the final boards' scores (by
the finals method of each board), then the final margin bonus, then the preliminary rank.

Who sits at a final board (the same rule for the calculator and held events): the
qualifiers, each at one final board; a player who did not qualify only when the director
marks them as an ``alternate`` (in place of a qualifier who cannot play). Only a player
who did not qualify is an alternate, and only at a board of the final.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from ..errors import Rule
from ..ranking import rank_by
from .scoring import (
    BoardEntry,
    BoardRules,
    FinalsScoring,
    InvalidBoard,
    Method,
    ScoredEntry,
    score_board,
)


@dataclass(frozen=True)
class Board:
    entries: tuple[BoardEntry, ...]
    stage: Method = Method.PRELIMINARY
    name: str | None = None


@dataclass
class Standing:
    id: str
    total: Decimal = Decimal(0)
    boards: int = 0  # boards counted (``counted_boards``)
    played: int = 0  # boards played
    wins: int = 0
    best_board: Decimal = Decimal(0)
    bonus: Decimal = Decimal(0)
    rank: int = 0
    qualified: bool = False
    scores: list[ScoredEntry] = field(default_factory=list)

    def add(self, entry: ScoredEntry) -> None:
        self.total += entry.total
        self.boards += 1
        self.played += 1
        self.wins += entry.place == 1
        self.best_board = max(self.best_board, entry.total)
        self.bonus += entry.bonus
        self.scores.append(entry)


@dataclass(frozen=True)
class EventResult:
    preliminary: list[Standing]
    final: list[Standing]
    qualifiers: list[str]
    tied_at_cut: list[str]
    champions: list[str]
    boards: list[list[ScoredEntry]]


def check_seats(entries: Sequence[BoardEntry], stage: Method, qualifiers: Collection[str]) -> None:
    """Who may sit at a board of this stage: anyone at a preliminary board (no alternates
    there); at a final board, the qualifiers, and players who did not qualify marked as
    alternates. Fields are relative to the board."""
    for index, entry in enumerate(entries):
        if entry.alternate and stage is not Method.FINAL:
            raise InvalidBoard(
                ("players", index, "alternate"),
                "only a board of the final seats an alternate",
                rule=Rule.FINAL_SEATS,
            )
        if stage is not Method.FINAL:
            continue
        if entry.alternate and entry.id in qualifiers:
            raise InvalidBoard(
                ("players", index, "alternate"),
                f"{entry.id!r} qualified for the final: only a player who did not is an alternate",
                rule=Rule.FINAL_SEATS,
            )
        if not entry.alternate and entry.id not in qualifiers:
            raise InvalidBoard(
                ("players", index, "id"),
                f"{entry.id!r} did not qualify for the final; mark them as an alternate "
                "if they take the place of a qualifier",
                rule=Rule.FINAL_SEATS,
            )


def standings(
    boards: Sequence[Board],
    rules: BoardRules,
    finalists: int = 0,
    counted: int | None = None,
    finals: FinalsScoring = FinalsScoring.WINNER_MARGIN,
) -> EventResult:
    scored_boards: list[tuple[Method, list[ScoredEntry]]] = []
    for index, board in enumerate(boards):
        try:
            scored = score_board(board.entries, rules, board.stage, finals)
            scored_boards.append((board.stage, scored))
        except InvalidBoard as exc:
            raise InvalidBoard(("boards", index, *exc.at), exc.message, rule=exc.rule) from exc
    result = rank_boards(scored_boards, finalists, counted)
    if finalists == 0 and any(b.stage is Method.FINAL for b in boards):
        raise InvalidBoard(
            ("finalists",), "boards of the final need the cut: say how many qualified"
        )
    seated: dict[str, int] = {}  # player -> the final board they sit at
    for index, board in enumerate(boards):
        try:
            check_seats(board.entries, board.stage, result.qualifiers)
        except InvalidBoard as exc:
            raise InvalidBoard(("boards", index, *exc.at), exc.message, rule=exc.rule) from exc
        if board.stage is not Method.FINAL:
            continue
        for slot, entry in enumerate(board.entries):
            if entry.id in seated:
                raise InvalidBoard(
                    ("boards", index, "players", slot, "id"),
                    f"{entry.id!r} already sits at a final board (boards/{seated[entry.id]})",
                    rule=Rule.UNIQUE_IDS,
                )
            seated[entry.id] = index
    return result


def counted_boards(entries: Sequence[ScoredEntry], counted: int | None) -> list[ScoredEntry]:
    """The preliminary boards that count for a player: all of them, or the best
    ``counted`` by PB score, then bonus, then the order entered."""
    if counted is None or counted >= len(entries):
        return list(entries)
    order = sorted(range(len(entries)), key=lambda i: (-entries[i].total, -entries[i].bonus, i))
    return [entries[i] for i in sorted(order[:counted])]


def rank_boards(
    boards: Sequence[tuple[Method, Sequence[ScoredEntry]]],
    finalists: int = 0,
    counted: int | None = None,
) -> EventResult:
    """Standings, qualifiers and the final from boards already scored (stage, entries);
    ``counted``: the best N preliminary boards count (None: every board)."""
    played: dict[str, list[ScoredEntry]] = {}
    final: dict[str, Standing] = {}
    for stage, scored in boards:
        for entry in scored:
            if stage is Method.PRELIMINARY:
                played.setdefault(entry.id, []).append(entry)
            else:
                final.setdefault(entry.id, Standing(entry.id)).add(entry)
    prelim: dict[str, Standing] = {}
    for player, entries in played.items():
        standing = prelim[player] = Standing(player)
        for entry in counted_boards(entries, counted):
            standing.add(entry)
        standing.played = len(entries)
    ranked = _rank(list(prelim.values()), lambda s: (s.total, s.wins, s.best_board, s.bonus))
    qualifiers: list[str] = []
    tied: list[str] = []
    if finalists > 0 and ranked:
        cut = sorted(s.rank for s in ranked)[min(finalists, len(ranked)) - 1]
        qualifiers = [s.id for s in ranked if s.rank <= cut]
        if len(qualifiers) > finalists:
            tied = [s.id for s in ranked if s.rank == cut]
        for s in ranked:
            s.qualified = s.id in qualifiers
    prelim_rank = {s.id: s.rank for s in ranked}
    worst = len(ranked) + 1
    final_ranked = _rank(
        list(final.values()),
        lambda s: (s.total, s.bonus, -prelim_rank.get(s.id, worst)),
    )
    for s in final_ranked:
        s.qualified = s.id in qualifiers  # an alternate plays the final unqualified
    champions = [s.id for s in final_ranked if s.rank == 1]
    return EventResult(
        ranked, final_ranked, qualifiers, tied, champions, [list(s) for _, s in boards]
    )


def _rank(
    rows: list[Standing], key: Callable[[Standing], tuple[Decimal | int, ...]]
) -> list[Standing]:
    ranked = rank_by(rows, key, lambda s: s.id)
    for rank, row in ranked:
        row.rank = rank
    return [row for _, row in ranked]
