"""A Puffing Billy event held board by board, as a log of the director's actions (seed 004).

The director registers the players, then enters each preliminary board's score sheet
(players in finishing order, game scores, places to mark ties; up to six listed) under the
sheet's number, closes the preliminaries choosing how many qualify for the final(s),
enters the final boards (qualifiers, and players marked as alternates, each on one final
board: ``event.check_seats``), and closes the final.
Each board is scored when it is entered, by the seed's method for preliminaries and this
service's documented finals rule for finals (``scoring.py``), and the log keeps the
scores as exact decimals (text), so the standings add up digit for digit.

A board may be corrected while its stage is the current one. A preliminary board may
still be corrected during the final when that changes nobody's place in the cut (who
qualified, who was level at it): the final was seated from the cut, which stands, and the
correction says what it changed; else undo back to the close. The full ranking: the players
of the final by the final standings, then qualifiers who played no final board, then
everyone else by the preliminary standings.

A late entrant (the seed has no rule; this service's reading, ``docs/puffing-billy.md``)
registers while the preliminaries are open and starts with no board, like anyone who has
not played yet. Boards are entered whole, so a no-show is simply not on the sheet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from ..errors import Conflict, NotFound, refuse_repeats
from ..event_codec import JSON, LogEvent
from ..event_log import Action, Entry, Ledger, ListedPlayer, changed, standing_changes
from ..names import called, labels
from ..ranking import competition_places
from .event import EventResult, check_seats, rank_boards
from .log_events import (
    BOARDS_COUNTED,
    FINALS_SCORING,
    PUFFING_BILLY_EVENTS,
    BoardCorrected,
    BoardEntered,
    Created,
    FinalClosed,
    PlayerEntered,
    PreliminariesClosed,
    SettingsChanged,
)
from .scoring import (
    BoardEntry,
    BoardRules,
    FinalsScoring,
    InvalidBoard,
    Method,
    ScoredEntry,
    score_board,
)

Stage = Literal["preliminary", "final", "finished"]


@dataclass(frozen=True)
class HeldBoard:
    number: int
    stage: Method
    name: str | None
    entries: tuple[ScoredEntry, ...]
    alternates: tuple[str, ...] = ()  # players of a final board who did not qualify


@dataclass(frozen=True)
class Placing:
    """One row of the full ranking."""

    rank: int
    id: str
    basis: str  # final, qualified (no final board), preliminaries


@dataclass(frozen=True)
class EventSettings:
    """What the seed leaves to the director: the best ``counted`` preliminary boards count
    (None: every one), and how boards of the final are scored. The defaults are what the
    service did before these were settings."""

    counted: int | None = None
    finals: FinalsScoring = FinalsScoring.WINNER_MARGIN

    def logged(self) -> dict[str, JSON]:
        """As the log keeps them: a setting at its default is left out."""
        kept: dict[str, JSON] = {}
        if self.counted is not None:
            kept[BOARDS_COUNTED] = self.counted
        if self.finals is not FinalsScoring.WINNER_MARGIN:
            kept[FINALS_SCORING] = self.finals.value
        return kept

    @classmethod
    def read(cls, logged: Mapping[str, JSON]) -> EventSettings:
        counted = logged.get(BOARDS_COUNTED)
        finals = logged.get(FINALS_SCORING, FinalsScoring.WINNER_MARGIN.value)
        return cls(counted if isinstance(counted, int) else None, FinalsScoring(str(finals)))

    def words(self) -> str:
        every = "every board" if self.counted is None else f"the best {self.counted} boards"
        return f"the preliminaries count {every}; finals are scored {self.finals.value}"


class BoardEvent:
    """The state of a held Puffing Billy event, folded from its log."""

    def __init__(
        self, players: Mapping[str, str | None], settings: EventSettings | None = None
    ) -> None:
        self.players = dict(players)  # id -> name, in registration order
        self.boards: dict[int, HeldBoard] = {}
        self.stage: Stage = "preliminary"
        self.finalists = 0
        self.chosen = settings or EventSettings()

    def names(self) -> dict[str, str | None]:
        """Each player's name (None for a player who gave none), by id."""
        return dict(self.players)

    @property
    def counted(self) -> int | None:
        """The best N preliminary boards count (None: every one)."""
        return self.chosen.counted

    def settings(self) -> dict[str, JSON]:
        """The director's settings as the log keeps them (absent: the default)."""
        return self.chosen.logged()

    # --- reading ------------------------------------------------------------------------

    def board(self, number: int) -> HeldBoard:
        if number not in self.boards:
            raise NotFound(f"there is no board {number}")
        return self.boards[number]

    def result(self, finalists: int | None = None) -> EventResult:
        """Standings of the boards so far; qualifiers by ``finalists`` (default: the
        number chosen when the preliminaries closed)."""
        boards = [self.boards[n] for n in sorted(self.boards)]
        cut = self.finalists if finalists is None else finalists
        return rank_boards([(b.stage, b.entries) for b in boards], cut, self.counted)

    def without_boards(self) -> list[str]:
        """Registered players with no board yet."""
        played = {e.id for b in self.boards.values() for e in b.entries}
        return [p for p in self.players if p not in played]

    def ranking(self, result: EventResult | None = None) -> list[Placing]:
        """The full ranking: the final's players by the final standings, then qualifiers
        who played no final board, then everyone else, each group by the preliminary
        standings and placed after the groups above it. Places run on without a gap (an
        alternate who played the final leaves no hole among the preliminaries), and only
        players level in the preliminaries share one."""
        result = result or self.result()
        placings = [Placing(s.rank, s.id, "final") for s in result.final]
        played_final = {s.id for s in result.final}
        qualified = set(result.qualifiers)
        groups = (
            ("qualified, no final board", [s for s in result.preliminary if s.id in qualified]),
            ("preliminaries", [s for s in result.preliminary if s.id not in qualified]),
        )
        for basis, group in groups:
            rest = [s for s in group if s.id not in played_final]
            places = competition_places([s.rank for s in rest], higher_is_better=False)
            placed = len(placings)
            placings += [
                Placing(placed + p, s.id, basis) for p, s in zip(places, rest, strict=True)
            ]
        return placings

    # --- deciding -----------------------------------------------------------------------

    def check_board(self, number: int, entries: Sequence[BoardEntry]) -> Method:
        """The stage a board entered now belongs to, if it may be entered or corrected."""
        if self.stage == "finished":
            raise Conflict("the event is over; undo the close of the final to change a board")
        existing = self.boards.get(number)
        if existing is not None:  # a correction: a preliminary board stays one in the final
            stage = existing.stage
        else:
            stage = Method.PRELIMINARY if self.stage == "preliminary" else Method.FINAL
        refuse_repeats([e.id for e in entries], ("players",), InvalidBoard, ("id",))
        for index, entry in enumerate(entries):
            if entry.id not in self.players:
                raise InvalidBoard(
                    ("players", index, "id"), f"{entry.id!r} is not a player of this event"
                )
        qualifiers = set(self.result().qualifiers) if stage is Method.FINAL else set()
        check_seats(entries, stage, qualifiers)
        if stage is Method.FINAL:
            self._refuse_second_final_board(number, entries)
        return stage

    def late_entry(self, player: str, most_players: int) -> None:
        """Refuse a late entrant who cannot join now."""
        if player in self.players:
            raise InvalidBoard(("id",), f"{player!r} is registered already")
        if self.stage != "preliminary":
            raise Conflict(
                "the preliminaries are closed: a late entrant joins while preliminary "
                "boards are being played"
            )
        if len(self.players) >= most_players:
            raise Conflict(f"an event holds at most {most_players} players")

    def _refuse_second_final_board(self, number: int, entries: Sequence[BoardEntry]) -> None:
        for index, entry in enumerate(entries):
            other = next(
                (
                    b.number
                    for b in self.boards.values()
                    if b.stage is Method.FINAL
                    and b.number != number
                    and any(e.id == entry.id for e in b.entries)
                ),
                None,
            )
            if other is not None:
                raise InvalidBoard(
                    ("players", index, "id"), f"{entry.id!r} already plays final board {other}"
                )


def _totals(entries: Sequence[ScoredEntry], names: Mapping[str, str]) -> str:
    return ", ".join(f"{names.get(e.id, e.id)} {e.total}" for e in entries)


def _alternates(alternates: Sequence[str], names: Mapping[str, str]) -> str:
    return f" (alternate: {called(names, alternates)})" if alternates else ""


class BoardLedger(Ledger[BoardEvent]):
    format = "puffing_billy"
    events = PUFFING_BILLY_EVENTS

    def __init__(self, rules: BoardRules) -> None:
        self.rules = rules

    @staticmethod
    def created(
        players: Sequence[tuple[str, str | None]], settings: EventSettings | None = None
    ) -> Action:
        """A new event, with the director's settings (the defaults without)."""
        if not players:
            raise InvalidBoard(("players",), "register at least one player")
        refuse_repeats([p for p, _ in players], ("players",), InvalidBoard, ("id",))
        logged = (settings or EventSettings()).logged()
        return Action.of(Created(logged, tuple(ListedPlayer(p, n) for p, n in players)))

    @staticmethod
    def change_settings(event: BoardEvent, settings: EventSettings) -> Action | None:
        """The settings changed, until the first board is entered (then a 409: the boards
        were scored and ranked under the old ones); None when they are already these."""
        wanted = settings.logged()
        if wanted == event.settings():
            return None
        if event.boards:
            raise Conflict(
                "the settings can change only before the first board: undo the boards "
                "entered to change them"
            )
        return Action.of(SettingsChanged(wanted))

    def enter_board(
        self,
        event: BoardEvent,
        number: int,
        entries: Sequence[BoardEntry],
        name: str | None = None,
    ) -> Action | None:
        """A board's score sheet, or its correction; None when it is already exactly this."""
        stage = event.check_board(number, entries)
        scored = tuple(score_board(entries, self.rules, stage, event.chosen.finals))
        alternates = tuple(e.id for e in entries if e.alternate)
        existing = event.boards.get(number)
        if existing is not None and (existing.entries, existing.name, existing.alternates) == (
            scored,
            name,
            alternates,
        ):
            return None
        if existing is None:
            return Action.of(BoardEntered(number, stage, name, scored, alternates))
        changes: list[str] = []
        if stage is Method.PRELIMINARY and event.stage != "preliminary":
            board = HeldBoard(number, stage, name, scored, alternates)
            changes = self._late_changes(event, board)
        return Action.of(
            BoardCorrected(
                number,
                stage,
                name,
                scored,
                alternates,
                was=existing.entries,
                changes=tuple(changes),
            )
        )

    def _late_changes(self, event: BoardEvent, board: HeldBoard) -> list[str]:
        """What correcting a preliminary board during the final changes, in words;
        refused when it would change the cut, from which the final was seated."""
        after = self.clone(event)
        after.boards[board.number] = board
        was, now = event.result(), after.result()
        names = labels(event.names())
        if (was.qualifiers, was.tied_at_cut) != (now.qualifiers, now.tied_at_cut):
            gained = [p for p in now.qualifiers if p not in was.qualifiers]
            lost = [p for p in was.qualifiers if p not in now.qualifiers]
            what = "; ".join(
                [f"{names.get(p, p)} would qualify" for p in gained]
                + [f"{names.get(p, p)} would no longer qualify" for p in lost]
            ) or ("who is level at the cut would change: " + called(names, now.tied_at_cut))
            raise Conflict(
                f"this correction would change the cut ({what}), and the final was seated "
                "from it: undo back to the close of the preliminaries to correct it"
            )
        changes = standing_changes(
            [(s.id, str(s.total)) for s in was.preliminary],
            [(s.id, str(s.total)) for s in now.preliminary],
            "preliminary PB score",
            "preliminary standings",
            names,
        )
        changes += standing_changes(
            [(s.id, str(s.total)) for s in was.final],
            [(s.id, str(s.total)) for s in now.final],
            "final PB score",
            "final standings (the preliminary rank breaks ties)",
            names,
        )
        changes.append(
            "the cut made when the preliminaries closed stands: the same players qualify"
        )
        return changes

    def enter_late(
        self, event: BoardEvent, player: str, name: str | None, most_players: int
    ) -> Action:
        """A late entrant, while the preliminaries are open; they start with no board."""
        event.late_entry(player, most_players)
        return Action.of(PlayerEntered(player, name))

    def close_preliminaries(self, event: BoardEvent, finalists: int) -> Action | None:
        """Close the preliminaries with this cut. Closing them again with the same cut
        changes nothing (None: a repeated close is answered as done, as a round's is in
        strikes and Diagonal Race); with another cut it is refused (undo the close)."""
        if event.stage != "preliminary":
            if finalists == event.finalists:
                return None
            raise Conflict(
                f"the preliminaries are closed already, with {event.finalists} to qualify: "
                "undo the close to cut again"
            )
        result = event.result()
        if not result.preliminary:
            raise Conflict("no preliminary board has been entered")
        if finalists > len(result.preliminary):
            raise InvalidBoard(
                ("finalists",), f"only {len(result.preliminary)} players have played a board"
            )
        cut = event.result(finalists)
        return Action.of(
            PreliminariesClosed(finalists, tuple(cut.qualifiers), tuple(cut.tied_at_cut))
        )

    def close_final(self, event: BoardEvent) -> Action | None:
        """Close the final; closing it again changes nothing (None)."""
        if event.stage == "finished":
            return None
        if event.stage != "final":
            raise Conflict("close the preliminaries first")
        result = event.result()
        if not result.final:
            raise Conflict("no final board has been entered")
        return Action.of(FinalClosed(tuple(result.champions)))

    # --- fold ---------------------------------------------------------------------------

    def start(self, created: Entry) -> BoardEvent:
        match self._event(created.action):
            case Created(players=players, settings=settings):
                return BoardEvent({p.id: p.name for p in players}, EventSettings.read(settings))
        raise ValueError(f"a Puffing Billy log begins with its creation, not {created.kind!r}")

    def _apply_event(self, state: BoardEvent, event: LogEvent, actor: str) -> None:
        match event:
            case BoardEntered(board=number, stage=stage, name=name, players=entries):
                # a board entered, or corrected
                state.boards[number] = HeldBoard(number, stage, name, entries, event.alternates)
            case PreliminariesClosed(finalists=finalists):
                state.stage, state.finalists = "final", finalists
            case FinalClosed():
                state.stage = "finished"
            case PlayerEntered(player=player, name=name):
                state.players[player] = name
            case SettingsChanged(settings=settings):
                state.chosen = EventSettings.read(settings)
            case _:
                raise ValueError(f"a Puffing Billy log has no action {event.logged_as!r}")

    def clone(self, event: BoardEvent) -> BoardEvent:
        # apply() replaces whole boards (each immutable), moves the stage on and registers
        # late entrants (BoardEvent copies the players).
        copy = BoardEvent(event.players, event.chosen)
        copy.boards = dict(event.boards)
        copy.stage, copy.finalists = event.stage, event.finalists
        return copy

    def _describe_event(self, event: LogEvent) -> str:
        return self._describe_named(event, {})

    def _describe_named(self, event: LogEvent, names: Mapping[str, str]) -> str:
        match event:
            case Created(players=players):
                return f"Created with {len(players)} players"
            case BoardCorrected(board=number, stage=stage, players=entries, was=was):
                return (
                    f"Board {number} ({stage.value}) corrected: {_totals(entries, names)}"
                    f"{_alternates(event.alternates, names)} (was {_totals(was, names)})"
                    f"{changed(event.changes)}"
                )
            case BoardEntered(board=number, stage=stage, players=entries):
                return (
                    f"Board {number} ({stage.value}): {_totals(entries, names)}"
                    f"{_alternates(event.alternates, names)}"
                )
            case PlayerEntered(player=player):
                return f"{names.get(player, player)} entered late"
            case PreliminariesClosed(finalists=finalists, qualifiers=qualifiers, tied_at_cut=tied):
                level = f"; level at the cut, all qualify: {called(names, tied)}" if tied else ""
                return (
                    f"Preliminaries closed, {finalists} to qualify: "
                    f"{called(names, qualifiers)}{level}"
                )
            case FinalClosed(champions=champions):
                return f"Final closed: {called(names, champions)} won"
            case SettingsChanged(settings=settings):
                return f"Settings changed: {EventSettings.read(settings).words()}"
        raise ValueError(f"a Puffing Billy log has no action {event.logged_as!r}")
