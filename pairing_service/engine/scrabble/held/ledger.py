"""A Scrabble event held round by round, as a log of the director's actions.

The director creates the event (players with ratings, the rounds planned, the spread cap,
the bye's spread, the repeat allowance, the victors the final round pairs for, the pairing
system: Swiss or a round robin), then, round by round: pairs the next round (by the method
asked for, else the default schedule's: ``schedule.py``), enters each game's scores (or a
forfeit), and closes the round when every game has a result. Between rounds a player may
withdraw (paired no more; their games count) or enter late (their missed rounds are
unplayed: no result, as tsh records them). A no-show of the open round, before any result
of it is entered, is withdrawn and the round paired again by its method. A result of an
earlier round may be corrected: the later rounds' pairings stand, and the correction says
what it changed in the standings.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace

from ...errors import Conflict
from ...event_codec import LogEvent
from ...event_log import DIRECTOR, Action, Entry
from ...names import called
from ...round_ledger import (
    Reinstatement,
    RoundLedger,
    correction_words,
    refuse_after_first_result,
    result_words,
)
from ...wording import counted
from ..prize_places import amount_text
from ..rule_table import RuleTable
from .checks import InvalidEvent, check_created
from .event import ScrabbleEvent
from .log_events import (
    IMPORTED,
    SCRABBLE_EVENTS,
    Created,
    Entrant,
    EventSettings,
    ImportedGame,
    Method,
    PlayerEntered,
    PlayerReinstated,
    ResultCorrected,
    ResultEntered,
    RoundImported,
    RoundPaired,
    RoundRepaired,
    SatOut,
    Score,
    SettingsChanged,
)
from .record import GameResult, ScrabbleRound


def _score_words(
    result: GameResult | Score, game: tuple[str, str], names: Mapping[str, str]
) -> str:
    """A result in the history's words: "Ann 412, Bob 388"; "Bob forfeited to Ann (+50)";
    with penalties "Ann 412, Bob 388 (penalty: Bob -10)" (each player by their label in
    ``names``, else their id)."""
    first, second = (names.get(player, player) for player in game)
    if result.scores is None:
        loser, winner = (first, second) if result.forfeit == game[0] else (second, first)
        return f"{loser} forfeited to {winner} ({result.spread:+d})"
    (a, b), (x, y) = (first, second), result.scores
    penalised_players = zip(game, result.penalties, strict=True)
    taken = ", ".join(f"{names.get(p, p)} {-n:d}" for p, n in penalised_players if n)
    penalised = f" (penalty: {taken})" if taken else ""
    return f"{a} {x}, {b} {y}{penalised}"


def _sat_out_words(spread: int) -> str:
    """A player without an opponent in an imported round, in the history's words."""
    if spread > 0:
        return f"a bye ({spread:+d})"
    return f"a forfeit ({spread:+d})" if spread else "did not play"


class ScrabbleLedger(RoundLedger[ScrabbleEvent, GameResult]):
    format = "scrabble"
    events = SCRABBLE_EVENTS
    remade = "paired"
    measure = "record"

    def __init__(self, table: RuleTable) -> None:
        self.table = table  # the seed's rule table, for the final round's advisor

    @staticmethod
    def created(settings: EventSettings, players: Sequence[Entrant]) -> Action:
        check_created(settings, players)
        return Action.of(Created(settings, tuple(players)))

    def start_round(
        self,
        event: ScrabbleEvent,
        method: Method | None = None,
        repeats_allowed: int | None = None,
        seed: int | None = None,
    ) -> Action:
        """Pair the next round by ``method`` (default: the schedule's)."""
        chosen, allowance, used_seed, pairing = event.plan(
            self.table, method, repeats_allowed, seed
        )
        latest = event.latest
        number = (latest.number if latest else 0) + 1
        return Action.of(
            RoundPaired(
                number,
                chosen,
                pairing.games,
                pairing.bye,
                allowance,
                used_seed,
                pairing.rule,
                pairing.unopposed,
            )
        )

    def enter_result(
        self,
        event: ScrabbleEvent,
        number: int,
        game: int,
        scores: tuple[int, int] | None,
        forfeit: str | None = None,
        spread: int | None = None,
        penalties: tuple[int, int] | None = None,
    ) -> Action | None:
        """A game's scores (or forfeit) with any penalties, or its correction; None when it
        is already so."""
        result = event.result(number, game, scores, forfeit, spread, penalties)
        return self._result(event, number, game, result)

    def _entered(self, number: int, key: int, result: GameResult) -> LogEvent:
        return ResultEntered(
            number,
            key,
            result.players,
            result.scores,
            result.forfeit,
            result.spread,
            result.penalties,
        )

    def _corrected(
        self,
        number: int,
        key: int,
        result: GameResult,
        was: GameResult,
        changes: Sequence[str],
    ) -> LogEvent:
        previous = Score(was.scores, was.forfeit, was.spread, was.penalties)
        return ResultCorrected(
            number,
            key,
            result.players,
            result.scores,
            result.forfeit,
            result.spread,
            result.penalties,
            tuple(changes),
            was=previous,
        )

    def _decided(self, state: ScrabbleEvent) -> Hashable:
        return ()  # no decision is taken on the results: later pairings simply stand

    def _eliminations(self, state: ScrabbleEvent) -> Mapping[str, int | None]:
        return {}

    def _figures(self, state: ScrabbleEvent) -> list[tuple[str, str]]:
        return [(s.player, f"{s.wins:g}-{s.losses:g} {s.spread:+d}") for s in state.standings()]

    def enter_late(self, event: ScrabbleEvent, entrant: Entrant) -> Action:
        before_round = event.late_entry(entrant)
        return Action.of(PlayerEntered(entrant.id, entrant.name, entrant.rating, before_round))

    def _reinstated(self, state: ScrabbleEvent, player: str, before_round: int) -> Reinstatement:
        return PlayerReinstated(player, before_round)

    def change_settings(self, event: ScrabbleEvent, settings: EventSettings) -> Action | None:
        """The settings changed, until the first result is entered (then a 409 naming it);
        None when they are these already. Fewer rounds than are paired already: 409."""
        if settings == event.settings:
            return None
        refuse_after_first_result([(r.number, list(r.results)) for r in event.rounds], "game")
        check_created(settings, list(event.players.values()))
        paired = len(event.rounds)
        if settings.rounds < paired:
            raise Conflict(f"{paired} rounds are paired already: plan at least {paired}")
        return Action.of(SettingsChanged(settings))

    def import_round(
        self,
        event: ScrabbleEvent,
        number: int,
        games: Sequence[ImportedGame],
        sat_out: Sequence[SatOut] = (),
    ) -> Action:
        """Round ``number`` as tsh paired and scored it (``tsh_import.py``), before the
        service pairs any round: closed as it is imported."""
        event.check_imported(number, games, sat_out)
        return Action.of(RoundImported(number, tuple(games), tuple(sat_out)))

    def imported(
        self,
        settings: EventSettings,
        players: Sequence[Entrant],
        rounds: Sequence[tuple[Sequence[ImportedGame], Sequence[SatOut]]],
        withdrawn: Mapping[str, int] | None = None,
    ) -> list[Action]:
        """The log of an event started elsewhere: its creation, then each round played as
        it was imported, each withdrawn player (``withdrawn``: player -> the round they
        withdrew before) withdrawn between the rounds; each action decided by the rules on
        the state the ones before it give."""
        leaving = withdrawn or {}
        actions = [self.created(settings, players)]
        if len(rounds) > settings.rounds:
            raise InvalidEvent(
                ("rounds",),
                f"{len(rounds)} rounds are played already: plan at least {len(rounds)}",
            )
        state = ScrabbleEvent(settings, players)

        def logged(action: Action) -> None:
            actions.append(action)
            self._apply_event(state, self._event(action), DIRECTOR)

        for number in range(1, len(rounds) + 2):
            for player in (p for p, before in leaving.items() if before == number):
                if number > settings.rounds:
                    raise InvalidEvent(
                        ("rounds",),
                        f"{player!r} withdrew after the last of the {settings.rounds} rounds "
                        "planned: plan more rounds to withdraw them",
                    )
                logged(self.drop(state, player))
            if number <= len(rounds):
                games, sat_out = rounds[number - 1]
                logged(self.import_round(state, number, games, sat_out))
        return actions

    def reseat(self, event: ScrabbleEvent, number: int, no_shows: Sequence[str]) -> Action:
        """Withdraw the open round's no-shows and pair it again by its method."""
        rnd = event.round(number)
        view = event.without_no_shows(number, no_shows)
        method = rnd.paired_by()
        _, _, _, pairing = view.pair(number, self.table, method, rnd.repeats_allowed, rnd.seed)
        return Action.of(
            RoundRepaired(
                number,
                tuple(no_shows),
                pairing.games,
                pairing.bye,
                tuple(rnd.games),
                rnd.bye,
                pairing.unopposed,
                tuple(rnd.unopposed),
            )
        )

    # --- fold ---------------------------------------------------------------------------

    def start(self, created: Entry) -> ScrabbleEvent:
        match self._event(created.action):
            case Created(settings=settings, players=players):
                return ScrabbleEvent(settings, players)
        raise ValueError(f"a scrabble log begins with its creation, not {created.kind!r}")

    def _drop_player(self, state: ScrabbleEvent, player: str, before_round: int) -> None:
        state.dropped[player] = before_round

    def _reinstate_player(self, state: ScrabbleEvent, event: Reinstatement) -> None:
        del state.dropped[event.player]

    def _caught_up(self, event: Reinstatement) -> str:
        return "the rounds missed stay unplayed"

    def _apply_rules(self, state: ScrabbleEvent, event: LogEvent) -> None:
        match event:
            case SettingsChanged(settings=settings):
                state.settings = settings
            case RoundPaired(round=number, games=games, bye=bye):
                if event.method == "round_robin":
                    state.begin_round_robin(number)
                state.rounds.append(
                    ScrabbleRound(
                        number,
                        event.method,
                        list(games),
                        bye,
                        event.repeats_allowed,
                        event.seed,
                        event.rule,
                        unopposed=list(event.unopposed),
                    )
                )
            case ResultEntered(round=number, game=game):  # or corrected
                state.round(number).results[game] = GameResult(
                    event.scores, event.forfeit, event.spread, event.penalties, event.players
                )
            case PlayerEntered(player=player, name=name, rating=rating):
                state.players[player] = Entrant(player, name, rating)
                state.joined[player] = event.before_round
            case RoundImported(round=number, games=games, sat_out=sat_out):
                state.rounds.append(
                    ScrabbleRound(
                        number,
                        IMPORTED,
                        [g.players for g in games],
                        None,
                        0,
                        results={
                            at: GameResult(g.scores, penalties=g.penalties, players=g.players)
                            for at, g in enumerate(games, start=1)
                        },
                        closed=True,
                        sat_out={s.player: s.spread for s in sat_out},
                    )
                )
            case RoundRepaired(round=number, games=games, bye=bye):  # no-shows withdrawn
                rnd = state.round(number)
                rnd.games, rnd.bye, rnd.unopposed = list(games), bye, list(event.unopposed)
            case _:
                raise ValueError(f"a scrabble log has no action {event.logged_as!r}")

    def clone(self, event: ScrabbleEvent) -> ScrabbleEvent:
        copy = ScrabbleEvent(event.settings, list(event.players.values()))
        copy.rounds = [
            replace(
                r,
                games=list(r.games),
                results=dict(r.results),
                sat_out=dict(r.sat_out),
                unopposed=list(r.unopposed),
            )
            for r in event.rounds
        ]
        copy.dropped = dict(event.dropped)
        copy.joined = dict(event.joined)
        copy.circle, copy.circle_began = event.circle, event.circle_began
        return copy

    def _describe_named(self, event: LogEvent, names: Mapping[str, str]) -> str:
        match event:
            case Created(players=players, settings=settings):
                return f"Created with {len(players)} players, {settings.rounds} rounds planned"
            case RoundPaired(round=number, method=method, games=games, bye=bye):
                sitting = ([bye] if bye else []) + list(event.unopposed)
                byes = f", {'byes' if len(sitting) > 1 else 'bye'} {called(names, sitting)}"
                byes = byes if sitting else ""
                rule = f" ({event.rule})" if event.rule else ""
                return (
                    f"Round {number} paired by {method}{rule}: {counted(len(games), 'game')}{byes}"
                )
            case ResultCorrected(round=number, game=game, was=was):
                now = _score_words(
                    GameResult(event.scores, event.forfeit, event.spread, event.penalties),
                    event.players,
                    names,
                )
                before = _score_words(was, event.players, names)
                return correction_words(number, f"game {game}", now, before, event.changes)
            case ResultEntered(round=number, game=game):
                now = _score_words(
                    GameResult(event.scores, event.forfeit, event.spread, event.penalties),
                    event.players,
                    names,
                )
                return result_words(number, f"game {game}", now)
            case PlayerEntered(player=player, rating=rating, before_round=before_round):
                return (
                    f"{names.get(player, player)} entered late, rated {rating}, "
                    f"before round {before_round}"
                )
            case SettingsChanged(settings=settings):
                cap = (
                    "no spread cap"
                    if settings.spread_cap is None
                    else (f"spread capped at {settings.spread_cap}")
                )
                robin = settings.pairing_system == "round_robin"
                return (
                    f"Settings changed{', a round robin' if robin else ''}: "
                    f"{settings.rounds} rounds planned, {cap}, bye spread "
                    f"{settings.bye_spread}, "
                    f"{counted(settings.repeats_allowed, 'repeat')} allowed, "
                    + (
                        counted(settings.victors, "victor")
                        if settings.prizes is None
                        else f"prizes {', '.join(amount_text(a) for a in settings.prizes)}"
                    )
                )
            case RoundImported(round=number, games=games, sat_out=sat_out):
                return (
                    f"Round {number} imported as tsh paired it: {counted(len(games), 'game')}"
                    + "".join(
                        f", {names.get(s.player, s.player)} {_sat_out_words(s.spread)}"
                        for s in sat_out
                    )
                )
            case RoundRepaired(round=number, no_shows=no_shows, games=games):
                return (
                    f"Round {number} paired again without {called(names, no_shows)} "
                    f"(no-show, withdrawn): {counted(len(games), 'game')}"
                )
        return super()._describe_named(event, names)
