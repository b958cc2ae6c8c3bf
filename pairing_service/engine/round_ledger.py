"""What a tournament played round by round keeps in its log, written once for strikes and
Diagonal Race (each format adds only its rules: how a round is seated or paired, what a
result is, what a late entrant starts with).

Both log the same kinds: ``round_started``, ``result_entered`` / ``result_corrected``,
``round_closed``, ``player_dropped``, ``player_entered``, ``round_reseated``,
``player_reinstated`` and ``settings_changed``. Closing a round and dropping a player
record the same events in both; a dropped player is reinstated by the same rules in both
(between rounds, caught up to what a late entrant would start with: each format says with
what); a result (a strikes table,
a Diagonal game) is entered, corrected, and corrected in an earlier round, the same way:
a correction keeps what it replaced, and one of a round that is no longer the latest is
refused when it would change who was eliminated or how the event ends (the later rounds
were made from those), else it says what it changed.

One rule holds for Scrabble too: a scorekeeper enters and corrects results of the open
round only (:func:`late_for_scorekeepers`); after, a correction is a director's.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from .errors import Conflict, FieldError, NotFound, refuse_repeats
from .event_codec import LogEvent
from .event_log import Action, Ledger, changed, standing_changes
from .names import labels

ROUND_STARTED = "round_started"
RESULT_ENTERED = "result_entered"
RESULT_CORRECTED = "result_corrected"
ROUND_CLOSED = "round_closed"
PLAYER_DROPPED = "player_dropped"
PLAYER_ENTERED = "player_entered"
ROUND_RESEATED = "round_reseated"
PLAYER_REINSTATED = "player_reinstated"
SETTINGS_CHANGED = "settings_changed"


def refuse_late_entry(
    in_play: int | None,
    decided: str | None,
    entrants: int,
    most_players: int,
    conflict: type[Conflict] = Conflict,
) -> None:
    """Refuse a late entry into an event with round ``in_play`` open, that is decided
    (``decided`` says how), or that is full."""
    if in_play is not None:
        raise conflict(
            f"round {in_play} has started: a late entrant joins between rounds "
            f"(after round {in_play} closes)"
        )
    if decided is not None:
        raise conflict(decided)
    if entrants >= most_players:
        raise conflict(f"an event holds at most {most_players} players")


def refuse_drop(
    player: str,
    known: bool,
    in_play: int | None,
    decided: str | None,
    gone: bool,
    error: type[Exception] = Conflict,
    missing: type[Exception] = NotFound,
    words: tuple[str, str] = ("drop", "dropped"),
) -> None:
    """Refuse to drop ``player`` (``words``: "withdraw", "withdrew" where the format says
    so) when they are not ``known`` (404), while round ``in_play`` is open, once the event
    is ``decided`` (saying how), or when they are ``gone`` already."""
    leave, left = words
    if not known:
        raise missing(f"there is no player {player!r}")
    if in_play is not None:
        raise error(f"round {in_play} is open; {leave} players between rounds")
    if decided is not None:
        raise error(decided)
    if gone:
        raise error(f"{player!r} already {left}")


def refuse_reinstatement(
    player: str,
    in_play: int | None,
    decided: str | None,
    eliminated_after: int | None,
    dropped_before: int | None,
) -> None:
    """Refuse to reinstate ``player`` while round ``in_play`` is open, once the event is
    ``decided`` (saying how), when they were eliminated (after round ``eliminated_after``),
    or when they have not dropped (``dropped_before``: the round they left before)."""
    if in_play is not None:
        raise Conflict(
            f"round {in_play} has started: a player is reinstated between rounds "
            f"(after round {in_play} closes)"
        )
    if decided is not None:
        raise Conflict(decided)
    if eliminated_after is not None:
        raise Conflict(
            f"{player!r} was eliminated after round {eliminated_after}: an eliminated player "
            "is not reinstated (only one who dropped or did not come)"
        )
    if dropped_before is None:
        raise Conflict(f"{player!r} has not dropped: they are still in")


def refuse_close(
    number: int,
    latest: int | None,
    waiting: Sequence[int],
    where: str,
    error: type[Exception] = Conflict,
) -> None:
    """Refuse to close round ``number`` when a later round (``latest``) has begun, or while
    the tables or games ``waiting`` (``where``: "table", "game") have no result."""
    if latest is not None and number != latest:
        raise error(f"round {number} was closed before round {latest} began")
    if waiting:
        listed = ", ".join(str(key) for key in waiting)
        raise error(f"round {number} cannot close: no result yet for {where}(s) {listed}")


def refuse_after_first_result(results: Sequence[tuple[int, Sequence[int]]], where: str) -> None:
    """Refuse a change of settings once a result is entered: ``results`` holds each round's
    number and its results' tables or games (``where``: "table", "game") in the order they
    were entered; the first is named."""
    for number, keys in results:
        if keys:
            raise Conflict(
                f"the settings can change only before the first result: round {number}, "
                f"{where} {keys[0]} has one (undo the results to change them)"
            )


def refuse_no_shows(
    no_shows: Sequence[str],
    in_round: Collection[str],
    entrants: Collection[str],
    error: type[FieldError],
    unknown: str,
    not_in_round: str,
) -> None:
    """Refuse no-shows listed twice, not entered in the event (``unknown`` says so in the
    format's words) or not playing the round being re-seated (``not_in_round``)."""
    refuse_repeats(list(no_shows), ("no_shows",), error)
    for index, player in enumerate(no_shows):
        if player not in in_round:
            where = unknown if player not in entrants else not_in_round
            raise error(("no_shows", index), f"{player!r} {where}")


def refuse_changed_decisions(
    number: int,
    was_out: Mapping[str, int | None],
    now_out: Mapping[str, int | None],
    ending_changes: bool,
    done: str,
) -> None:
    """Refuse a correction of round ``number`` that would change who was eliminated (player
    -> the round after which they went out; absent or None: not out) or how the event
    ended: the later rounds were ``done`` (seated, paired) on those decisions."""
    moved = [p for p in sorted({*was_out, *now_out}) if was_out.get(p) != now_out.get(p)]
    if moved:
        what = "; ".join(
            f"{p} would no longer be out after round {was_out[p]}"
            if now_out.get(p) is None
            else f"{p} would be out after round {now_out[p]}"
            for p in moved
        )
        raise Conflict(
            f"this correction would change who was eliminated ({what}), and the rounds "
            f"after round {number} were {done} on it: undo back to round {number} to "
            "correct it"
        )
    if ending_changes:
        raise Conflict(
            f"this correction would change how the event ends: undo back to round {number} "
            "to correct it"
        )


def kept_as_played(later: Sequence[int], done: str) -> str:
    """That the rounds after a corrected one stand as they were made ("round 3 was
    seated before this correction and is kept as it was"): nothing is silently redone."""
    if len(later) == 1:
        return f"round {later[0]} was {done} before this correction and is kept as it was"
    return (
        f"rounds {later[0]}-{later[-1]} were {done} before this correction and are kept "
        "as they were"
    )


@dataclass(frozen=True)
class RoundClosed(LogEvent):
    logged_as = ROUND_CLOSED
    round: int


@dataclass(frozen=True)
class PlayerDropped(LogEvent):
    logged_as = PLAYER_DROPPED
    player: str
    before_round: int


@dataclass(frozen=True)
class RoundStart(LogEvent):
    """A round started; each format adds how it was seated or paired."""

    logged_as = ROUND_STARTED
    round: int


@dataclass(frozen=True)
class ResultEntry(LogEvent):
    """A result entered in a round; each format adds where and what (its correction, of
    kind ``result_corrected``, adds what it replaced)."""

    logged_as = RESULT_ENTERED
    round: int


@dataclass(frozen=True)
class LateEntry(LogEvent):
    """A late entrant; each format adds what they start with."""

    logged_as = PLAYER_ENTERED
    player: str
    name: str | None


@dataclass(frozen=True)
class Reseated(LogEvent):
    """The open round's no-shows dropped; each format adds the round made again."""

    logged_as = ROUND_RESEATED
    round: int
    no_shows: tuple[str, ...]


@dataclass(frozen=True)
class Reinstatement(LogEvent):
    """A dropped player back before ``before_round``; each format adds what they were
    given to catch up (the strikes or losses added, 0 when they had as many already)."""

    logged_as = PLAYER_REINSTATED
    player: str
    before_round: int


@dataclass(frozen=True)
class SettingsChange(LogEvent):
    """The director's settings changed before the first result; each format adds them,
    whole, as they now are."""

    logged_as = SETTINGS_CHANGED


class PlayedRound(Protocol):
    number: int
    closed: bool
    results: dict[int, Any]  # table or game number -> its result


class HasRounds(Protocol):
    """A state played round by round, as far as its rounds go."""

    @property
    def latest(self) -> PlayedRound | None: ...

    def round(self, number: int) -> PlayedRound: ...


def late_for_scorekeepers(state: HasRounds, number: int) -> str | None:
    """Why results of round ``number`` are no longer a scorekeeper's to enter or correct,
    or None while the round is open: once it is closed, or once a later round has started
    (the later rounds were made from its results), only a director corrects them.
    NotFound when there is no round ``number``."""
    latest = state.latest
    if state.round(number).closed:
        return f"round {number} is closed"
    if latest is not None and latest.number > number:
        return f"round {latest.number} has started"
    return None


class RoundByRound(HasRounds, Protocol):
    """What the shared part reads of a format's state."""

    @property
    def rounds(self) -> Sequence[PlayedRound]: ...

    def check_close(self, number: int) -> None: ...

    def check_drop(self, player: str) -> int: ...

    def check_reinstate(self, player: str) -> int:
        """The round before which a dropped ``player`` comes back (refusals: 404, 409)."""
        ...

    def names(self) -> Mapping[str, str | None]:
        """Each player's name (None for a player who gave none), by id."""
        ...


S = TypeVar("S", bound=RoundByRound)
R = TypeVar("R")  # a result: a strikes table's places, a Diagonal game's winner


class RoundLedger(Ledger[S], Generic[S, R]):
    """A format played round by round: the shared decisions and folds."""

    remade = "seated"  # what was done to the rounds after a corrected one (or "paired")

    # --- what each format adds --------------------------------------------------------

    @abstractmethod
    def _entered(self, number: int, key: int, result: R) -> LogEvent:
        """The event of a result entered for table or game ``key`` of round ``number``."""

    @abstractmethod
    def _corrected(
        self, number: int, key: int, result: R, was: R, changes: Sequence[str]
    ) -> LogEvent:
        """The event of a correction (``changes``: in words, for an earlier round)."""

    @abstractmethod
    def _drop_player(self, state: S, player: str, before_round: int) -> None:
        """Take ``player`` out of the rounds from ``before_round`` on (a drop, a no-show)."""

    @abstractmethod
    def _apply_rules(self, state: S, event: LogEvent) -> None:
        """Fold an event of the format's own (a round's start, a result, ...)."""

    @abstractmethod
    def _decided(self, state: S) -> Hashable:
        """How the event has ended so far (after its closed rounds)."""

    @abstractmethod
    def _eliminations(self, state: S) -> Mapping[str, int | None]:
        """Every player -> the round after which they went out (None: not out)."""

    @abstractmethod
    def _figures(self, state: S) -> list[tuple[str, str]]:
        """The standings, each player with the figure a correction may change."""

    @abstractmethod
    def _reinstated(self, state: S, player: str, before_round: int) -> Reinstatement:
        """The event of ``player`` reinstated before ``before_round``, with what they are
        given to catch up."""

    @abstractmethod
    def _reinstate_player(self, state: S, event: Reinstatement) -> None:
        """Fold a reinstatement: the player is in again, with what they were given."""

    @abstractmethod
    def _caught_up(self, event: Reinstatement) -> str:
        """What a reinstatement gave, in the history's words ("with 6 strikes added")."""

    measure = "strikes"  # what ``_figures`` shows, in the words of a correction

    # --- decisions ----------------------------------------------------------------------

    def _result(self, state: S, number: int, key: int, result: R) -> Action | None:
        """A result, or its correction; None when it is already exactly this.

        A result of a round that is no longer the latest is corrected only when that
        changes no elimination and not the ending; the correction then says what it
        changed."""
        rnd = state.round(number)
        previous: R | None = rnd.results.get(key)
        if previous == result:
            return None
        if previous is None:
            return Action.of(self._entered(number, key, result))
        changes = [] if rnd is state.latest else self._late_changes(state, number, key, result)
        return Action.of(self._corrected(number, key, result, previous, changes))

    def _late_changes(self, state: S, number: int, key: int, result: R) -> list[str]:
        """What correcting a result of an earlier round changes, in words; refused when it
        would change who was eliminated or the ending, which later rounds were made on."""
        after = self.clone(state)
        after.round(number).results[key] = result
        try:
            now_out, now_decided = self._eliminations(after), self._decided(after)
        except FieldError as impossible:
            # Out sooner, a player could not have played the later games they did: the
            # later rounds stand on the result being replaced (not a fault of the request).
            raise Conflict(
                f"this correction would change who was eliminated (with it, "
                f"{impossible.message} in a later round), and the rounds after round "
                f"{number} were {self.remade} on it: undo back to round {number} to correct it"
            ) from None
        refuse_changed_decisions(
            number,
            self._eliminations(state),
            now_out,
            self._decided(state) != now_decided,
            self.remade,
        )
        changes = standing_changes(
            self._figures(state), self._figures(after), self.measure, names=labels(state.names())
        )
        later = [r.number for r in state.rounds if r.number > number]
        changes.append(kept_as_played(later, self.remade))
        return changes

    def close_round(self, state: S, number: int) -> Action | None:
        """Close the round; None when it is closed already (closing twice is harmless)."""
        state.check_close(number)
        if state.round(number).closed:
            return None
        return Action.of(RoundClosed(number))

    def drop(self, state: S, player: str) -> Action:
        return Action.of(PlayerDropped(player, state.check_drop(player)))

    def reinstate(self, state: S, player: str) -> Action:
        """A dropped player (or a no-show) back, between rounds; they catch up to what a
        late entrant would start with now, and keep more if they have more."""
        before_round = state.check_reinstate(player)
        return Action.of(self._reinstated(state, player, before_round))

    # --- fold ---------------------------------------------------------------------------

    def _apply_event(self, state: S, event: LogEvent, actor: str) -> None:
        match event:
            case RoundClosed(round=number):
                state.round(number).closed = True
            case PlayerDropped(player=player, before_round=before_round):
                self._drop_player(state, player, before_round)
            case Reinstatement():
                self._reinstate_player(state, event)
            case Reseated(round=number, no_shows=no_shows):
                for player in no_shows:
                    self._drop_player(state, player, number)
                self._apply_rules(state, event)  # the round made again
            case _:
                self._apply_rules(state, event)

    def _describe_event(self, event: LogEvent) -> str:
        return self._describe_named(event, {})

    def _describe_named(self, event: LogEvent, names: Mapping[str, str]) -> str:
        match event:
            case RoundClosed(round=number):
                return f"Round {number} closed"
            case PlayerDropped(player=player, before_round=before_round):
                return f"{names.get(player, player)} dropped before round {before_round}"
            case Reinstatement(player=player, before_round=before_round):
                return (
                    f"{names.get(player, player)} reinstated before round {before_round}, "
                    f"{self._caught_up(event)}"
                )
        raise ValueError(f"a {self.format} log has no action {event.logged_as!r}")


def result_words(number: int, where: str, result: str) -> str:
    """A result entered, in the history's words ("Round 2, table 3: ...")."""
    return f"Round {number}, {where}: {result}"


def correction_words(number: int, where: str, result: str, was: str, changes: Sequence[str]) -> str:
    """A result corrected, in the history's words, with what it replaced and changed."""
    return f"Round {number}, {where} corrected: {result} (was {was}){changed(changes)}"
