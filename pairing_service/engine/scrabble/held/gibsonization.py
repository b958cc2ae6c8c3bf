"""Gibsonization in every round of a held event, whatever the method.

tsh checks Gibsonization in any round, not only the last: a player whose place can no
longer change (with one round left or ten) is paired so as not to decide anyone else's
race. Here a player is **settled** when their place in the money is certain whatever the
results of the rounds left (each round won or lost by the event's spread cap, or on wins
alone without a cap, as tsh's lead-in-wins rule): with graded ``prizes``, the place's tier
(``prize_places.place_race``); with ``victors`` equal places, a victor place
(``contention``). A settled player plays the highest-ranked player who is in no race
(settled too, or out of reach of the money), never a player still racing; in an odd
field a lone settled player takes the bye (tsh's rule) unless they have had more byes
than the player the method would give it. Everyone else is paired by the round's method.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from ..contention import contention
from ..cost import RepeatPolicy
from ..explain.boards import outsider_words
from ..pairing.board import Board
from ..pairing.swiss import SwissMemo
from ..prize_places import PrizePlaces, place_race
from ..standings import Standings
from .log_events import Pair

# The spread each round left scores a withdrawn player of a held event: none, and no
# result. A held event scores nothing for a player who has withdrawn (a ``drop`` records
# no spread, and an imported tsh ``off`` spread is not carried on: ``docs/tsh.md``), so
# the record a director sees in the standings is the one they finish with.
WITHDRAWN_SPREAD = 0


@dataclass(frozen=True)
class Places:
    """What decides who is settled: the places paid, the spread cap, the rounds left, and
    ``everyone``'s standings (the withdrawn too, at their record as it stands: a place
    they hold is not free) when some players have withdrawn."""

    victors: int
    prizes: tuple[Decimal | None, ...] | None
    spread_cap: int | None
    rounds_left: int
    everyone: Standings | None = None


@dataclass(frozen=True)
class Gibsonized:
    """The settled players' games, the bye when a lone settled player takes it, and the
    players left to the round's method."""

    games: tuple[Pair, ...]
    bye: str | None
    left: tuple[str, ...]
    reasons: tuple[str, ...]  # one per game, in words


def settled_and_racing(
    standings: Standings, places: Places, playing: frozenset[str] | None = None
) -> tuple[dict[str, str], set[str]]:
    """The settled players in rank order, each with what they are certain of in words,
    and everyone still in a race; those in ``standings`` but not ``playing`` (default:
    everyone plays) finish at their record as it stands (``WITHDRAWN_SPREAD``)."""
    sitting = frozenset() if playing is None else frozenset(standings.ids) - playing
    fixed = dict.fromkeys(sitting, WITHDRAWN_SPREAD)
    if places.prizes is not None and PrizePlaces(places.prizes).graded:
        race = place_race(
            standings, PrizePlaces(places.prizes), places.spread_cap, places.rounds_left, fixed
        )
        reach = {r.player: r.text() for r in race.reach}
        return {p: reach[p] for p in race.settled}, {*race.racing, *race.line}
    found = contention(standings, places.victors, places.spread_cap, places.rounds_left, fixed)
    return dict.fromkeys(found.clinched, "certain of a victor place"), set(found.contenders)


def settled_bye(
    settled: Sequence[str], byes: Mapping[str, int], method_bye: str | None
) -> str | None:
    """The round's bye: a lone settled player's (tsh's rule) unless they have had more
    byes than ``method_bye``, the player the method would give it in an odd field."""
    if method_bye is None or not len(settled) % 2:
        return method_bye
    lone = settled[-1]
    return lone if byes.get(lone, 0) <= byes.get(method_bye, 0) else method_bye


def opponent_words(
    standings: Standings,
    policy: RepeatPolicy,
    game: tuple[str, str],
    certain: Mapping[str, str],
    pool: Sequence[str],
    outside: frozenset[str],
) -> str:
    """Why a settled player plays this opponent, in words: "#1 is certain of 1st: plays
    #4, another settled player" (or the highest-ranked in no race)."""
    player, opponent = game
    rank = standings.rank
    whom = (
        f"plays #{rank(opponent)}, another settled player"
        if opponent in certain
        else outsider_words(
            standings, policy, player, opponent, pool, outside - {player}, "in no race"
        )
    )
    return f"#{rank(player)} is {certain[player]}: {whom}"


def gibsonize(
    standings: Standings,
    players: Sequence[str],
    byes: Mapping[str, int],
    places: Places,
    policy: RepeatPolicy,
    method_bye: str | None,
) -> Gibsonized:
    """The settled players paired (module docs); ``method_bye``: the bye the round's
    method would give in an odd field."""
    judged = standings if places.everyone is None else places.everyone
    certain, racing = settled_and_racing(judged, places, frozenset(players))
    playing = set(players)
    settled = [p for p in certain if p in playing]
    if not settled:
        return Gibsonized((), method_bye, tuple(p for p in players if p != method_bye), ())
    bye = settled_bye(settled, byes, method_bye)
    board = Board(standings, frozenset(standings.ids) - playing, SwissMemo(policy))
    if bye is not None:
        board.add_bye(bye, "bye")
    reasons = []
    # Whom a settled player may play, to say whether theirs is the highest-ranked of them.
    outside = frozenset(p for p in playing if p not in racing and p not in certain)
    for player in settled:
        if player in board.used:
            continue
        pool = [p for p in board.free() if p != player and p not in racing]
        if not pool:
            continue  # everyone left races: the method pairs them
        opponent = board.nearest(player, pool)
        board.add(player, opponent, "")
        reasons.append(
            opponent_words(standings, policy, (player, opponent), certain, pool, outside)
        )
    games = tuple((g.players[0], g.players[1]) for g in board.games if not g.bye)
    used = {p for game in games for p in game}
    left = tuple(p for p in players if p not in used and p != bye)
    return Gibsonized(games, bye, left, tuple(reasons))
