"""A Diagonal Race event held round by round, as a log of the director's actions (seed 002).

The director creates the event from players in rating order (or with ratings), and then:
starts a round (the engine pairs it: four opponents in the first round, two after, in the
diagonal pattern by rating, avoiding rematches; ``pattern.py``), enters each game's winner
and pieces left, and closes the round when every game has a result. Two accumulated
losses eliminate. The event ends as the seed says (``event.py``): the last player left
wins; when everyone left went out in the same round, the fewest losses, the direct
comparison and the pieces left decide, and if they are still level, new rounds between
the tied players: each such playoff round pairs them in the same pattern (everyone plays
everyone when there are two or three), and after it the same chain is applied to the
playoff games so far, until one player is ahead.

Results count as they are entered; eliminations and the winner are read when a round is
closed. A result may be corrected while its round is the latest one (open, or closed with
no later round yet). Dropping a player (between rounds) takes them out of later rounds;
their games so far still count for their opponents.

The day of the event (the seed is silent; this service's readings, ``docs/diagonal.md``):
a late entrant joins between main rounds with the most losses of anyone still in (so
joining late never puts anyone behind a player who played); a no-show, before any result
of the round is entered, is dropped and the round is paired again without them; a game of
an earlier round may be corrected when that changes no elimination and not the ending (the
later rounds' pairings stand), and the correction says what it changed; a player who
dropped may be reinstated between main rounds, their losses caught up to a late entrant's
start (leaving and coming back never pays); the late entrants' setting may change until
the first result.

This module decides the director's actions and folds them; the state they are folded
into, with its checks, is ``race_event.py`` (how it stands, its ending and standings:
``standing.py``), and the history's words for each action are ``history.py``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace

from ..errors import refuse_repeats
from ..event_codec import LogEvent
from ..event_log import Action, Entry
from ..round_ledger import RoundLedger, refuse_after_first_result
from .event import GameResult, InvalidRound
from .history import race_words
from .log_events import (
    DIAGONAL_EVENTS,
    Created,
    Outcome,
    PlayerEntered,
    PlayerReinstated,
    Racer,
    RaceSettings,
    ResultCorrected,
    ResultEntered,
    RoundReseated,
    RoundStarted,
    SettingsChanged,
)
from .race_event import RaceEvent, RaceRound


class RaceLedger(RoundLedger[RaceEvent, GameResult]):
    format = "diagonal"
    events = DIAGONAL_EVENTS
    remade = "paired"
    measure = "record"

    @staticmethod
    def created(settings: RaceSettings, racers: Sequence[Racer]) -> Action:
        if len(racers) < 2:
            raise InvalidRound(("players",), "a race needs at least two players")
        refuse_repeats([r.id for r in racers], ("players",), InvalidRound, ("id",))
        rated = [r.rating is not None for r in racers]
        if any(rated) and not all(rated):
            index = rated.index(False)
            raise InvalidRound(
                ("players", index, "rating"), "give every player a rating, or none (listing order)"
            )
        for name, value in (
            ("first_round_opponents", settings.first_round_opponents),
            ("opponents", settings.opponents),
        ):
            if value < 2 or value % 2:
                raise InvalidRound((name,), "the diagonal pattern needs an even number, 2 or more")
        return Action.of(Created(settings, tuple(racers)))

    def start_round(self, event: RaceEvent) -> Action:
        plan, playoff = event.plan()
        latest = event.latest
        number = (latest.number if latest else 0) + 1
        return Action.of(
            RoundStarted(number, playoff, plan.games, plan.opponents, plan.step, plan.rematches)
        )

    def enter_result(
        self, event: RaceEvent, number: int, game: int, winner: str, pieces_left: int
    ) -> Action | None:
        """A game's result, or its correction; None when it is already exactly this.

        A game of a round that is no longer the latest is corrected only when that changes
        no elimination and not the ending; the correction then says what it changed."""
        return self._result(event, number, game, event.result(number, game, winner, pieces_left))

    def _entered(self, number: int, key: int, result: GameResult) -> LogEvent:
        return ResultEntered(number, key, result.winner, result.pieces_left)

    def _corrected(
        self, number: int, key: int, result: GameResult, was: GameResult, changes: Sequence[str]
    ) -> LogEvent:
        previous = Outcome(was.winner, was.pieces_left)
        return ResultCorrected(
            number, key, result.winner, result.pieces_left, previous, tuple(changes)
        )

    def _decided(self, state: RaceEvent) -> Hashable:
        """What the ending decided: finished, its winners, a playoff's players."""
        ending = state.ending()
        return (ending.finished, ending.winners, ending.playoff) if ending else (False, (), ())

    def _eliminations(self, state: RaceEvent) -> Mapping[str, int | None]:
        return state.eliminations()

    def _figures(self, state: RaceEvent) -> list[tuple[str, str]]:
        return [
            (s.player, f"{s.wins}-{s.losses}, {s.pieces_left} pieces") for s in state.standings()
        ]

    def enter_late(self, event: RaceEvent, racer: Racer, most_players: int) -> Action:
        """A late entrant, between rounds; they start with the most losses of anyone in."""
        before_round, losses = event.late_entry(racer, most_players)
        return Action.of(PlayerEntered(racer.id, racer.name, racer.rating, before_round, losses))

    def _reinstated(self, state: RaceEvent, player: str, before_round: int) -> PlayerReinstated:
        """Caught up to a late entrant's start (the event's setting), or as they are when
        they have more losses than that."""
        losses = next(s.losses for s in state.standings() if s.player == player)
        return PlayerReinstated(player, before_round, max(state.late_start() - losses, 0))

    def change_settings(self, event: RaceEvent, settings: RaceSettings) -> Action | None:
        """The settings changed, until the first result is entered (then a 409 naming it);
        None when they are these already."""
        if settings == event.settings:
            return None
        refuse_after_first_result([(r.number, list(r.results)) for r in event.rounds], "game")
        return Action.of(SettingsChanged(settings))

    def reseat(self, event: RaceEvent, number: int, no_shows: Sequence[str]) -> Action:
        """Drop the no-shows of the open round (no result entered yet) and pair it again."""
        plan, _ = event.without_no_shows(number, no_shows).plan()
        return Action.of(
            RoundReseated(
                number,
                tuple(no_shows),
                plan.games,
                plan.opponents,
                plan.step,
                plan.rematches,
                tuple(event.round(number).games),
            )
        )

    # --- fold ---------------------------------------------------------------------------

    def start(self, created: Entry) -> RaceEvent:
        match self._event(created.action):
            case Created(settings=settings, players=players):
                return RaceEvent(settings, players)
        raise ValueError(f"a diagonal log begins with its creation, not {created.kind!r}")

    def _drop_player(self, state: RaceEvent, player: str, before_round: int) -> None:
        state.dropped[player] = before_round

    def _reinstate_player(self, state: RaceEvent, event: LogEvent) -> None:
        match event:
            case PlayerReinstated(player=player, losses=losses):
                del state.dropped[player]
                state.starting[player] = state.starting.get(player, 0) + losses
            case _:
                raise ValueError(f"not a diagonal reinstatement: {event.logged_as!r}")

    def _caught_up(self, event: LogEvent) -> str:
        match event:
            case PlayerReinstated(losses=losses) if losses:
                return f"{losses} loss(es) added to catch up"
            case PlayerReinstated():
                return "with their own losses (no fewer than a late entrant's)"
        raise ValueError(f"not a diagonal reinstatement: {event.logged_as!r}")

    def _apply_rules(self, state: RaceEvent, event: LogEvent) -> None:
        match event:
            case SettingsChanged(settings=settings):
                state.settings = settings
            case RoundStarted(round=number, playoff=playoff, games=games):
                state.rounds.append(
                    RaceRound(
                        number, playoff, list(games), event.opponents, event.step, event.rematches
                    )
                )
            case ResultEntered(round=number, game=game, winner=winner):  # or corrected
                rnd = state.round(number)
                rnd.results[game] = GameResult(rnd.game(game), winner, event.pieces_left)
            case PlayerEntered(player=player, name=name, rating=rating, losses=losses):
                state.racers[player] = Racer(player, name, rating)
                state.starting[player] = losses
            case RoundReseated(round=number, games=games):  # the no-shows are dropped
                rnd = state.round(number)
                rnd.games = list(games)
                rnd.opponents, rnd.step = event.opponents, event.step
                rnd.rematches = event.rematches
            case _:
                raise ValueError(f"a diagonal log has no action {event.logged_as!r}")

    def clone(self, event: RaceEvent) -> RaceEvent:
        # apply() appends rounds, fills and closes them (or pairs one again), records
        # drops, and adds late entrants.
        copy = RaceEvent(event.settings, list(event.racers.values()))
        copy.rounds = [replace(r, results=dict(r.results)) for r in event.rounds]
        copy.dropped = dict(event.dropped)
        copy.starting = dict(event.starting)
        return copy

    def _describe_named(self, event: LogEvent, names: Mapping[str, str]) -> str:
        words = race_words(event, names)
        return super()._describe_named(event, names) if words is None else words
