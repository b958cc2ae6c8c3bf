"""A league's table: league points and the seed's full tiebreaker chain.

Points: 10/6/3/1 for 1st-4th in a 4-player game; tied players split the points of the
places they occupy (exact fractions). Positions may be given as 1, 2, 2, 4 or 1, 2, 2, 3,
and follow the scores: among the players who finished, a higher score is a better
position; equal scores share a position, or the game's own tie-break splits them.

The chain, in order (each only among players still level):

1. league points;
2. wins (games finished 1st, shared 1st included);
3. 2nd places; 4. 3rd places (by the competition position: a tie for 2nd is a 2nd place);
5. average share of the winner's score: the mean over the player's games of score /
   winning score (a game whose winning score is 0 or less counts 1 for players level with
   the winner, else 0);
6. margin of victory: the sum over the player's games of (own score - the best score of
   the other players in that game): the margin of each win, minus the margin of each defeat;
7. total points scored in all games;
8. net score in head-to-head games: among the players still level, the sum, over every game
   where the player met another of them, of (own score - that player's score);
9. the ranking coming into the season (earlier in ``previous_ranking`` is higher; players
   not listed come after those listed).
Players level on all nine share the rank. Each player's values are reported, with the
tiebreaker that separated them from the player ranked just below (``decided_by``).

A player who dropped out of a game (``dropped_out``; the seed's "Dropping Out") is placed
below every player who finished it and gets no league points and no place; the players
who finished take the points of their places on the scale of the game's number of
players, leaver included. The leaver's score counts as recorded. A game's name is unique:
the same game entered twice is refused (names compared ignoring case and spacing).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise
from typing import Protocol

from ..errors import FieldError, Location, Rule, refuse_repeats
from ..ranking import competition_places, decimal_text, ordinal, read_places

TIEBREAKERS = (
    "league_points",
    "wins",
    "seconds",
    "thirds",
    "winner_share",
    "margin",
    "total_score",
    "head_to_head",
    "previous_rank",
)
# Each tiebreaker in words, for the line that says what put a player above the next.
TIEBREAK_WORDS = {
    "league_points": "league points",
    "wins": "wins",
    "seconds": "2nd places",
    "thirds": "3rd places",
    "winner_share": "share of the winner's score",
    "margin": "margin of victory",
    "total_score": "total score",
    "head_to_head": "head-to-head net score",
    "previous_rank": "rank coming into the season",
}
# Between seasons (formation) the players compared finished in different leagues, so they
# never met: head-to-head is level for them and the chain goes on without it.
SEEDING_TIEBREAKERS = tuple(name for name in TIEBREAKERS if name != "head_to_head")


class InvalidLeague(FieldError):
    """League input the rules cannot apply to."""


@dataclass(frozen=True)
class Result:
    player: str
    score: int
    position: int
    dropped_out: bool = False


@dataclass(frozen=True)
class Game:
    name: str
    results: tuple[Result, ...]


@dataclass
class Line:
    player: str
    league_points: Fraction = Fraction(0)
    games: int = 0
    wins: int = 0
    seconds: int = 0
    thirds: int = 0
    share_sum: Fraction = Fraction(0)
    margin: int = 0
    total_score: int = 0
    dropouts: int = 0  # games the player dropped out of (not a tiebreaker)
    head_to_head: int | None = None  # only computed where it was needed
    previous_rank: int | None = None
    rank: int = 0
    decided_by: str | None = None
    values: dict[str, object] = field(default_factory=dict)
    ahead_on: str | None = None  # decided_by with both values: "wins 3 v 2"
    name: str | None = None  # the player's display name, where one is known

    @property
    def winner_share(self) -> Fraction:
        return self.share_sum / self.games if self.games else Fraction(0)


class Tiebreaks(Protocol):
    """What the chain compares, bar head-to-head: a table's line or a recorded finish."""

    @property
    def league_points(self) -> Fraction: ...
    @property
    def wins(self) -> int: ...
    @property
    def seconds(self) -> int: ...
    @property
    def thirds(self) -> int: ...
    @property
    def winner_share(self) -> Fraction: ...
    @property
    def margin(self) -> int: ...
    @property
    def total_score(self) -> int: ...
    @property
    def previous_rank(self) -> int | None: ...


def league_table(
    games: Sequence[Game],
    points: Mapping[int, Sequence[Fraction]],
    previous_ranking: Sequence[str] = (),
    players: Sequence[str] = (),
    *,
    recorded: bool = False,
) -> list[Line]:
    """The table of ``games``; ``players`` with no game yet are listed too (with 0).
    ``recorded``: games a held league accepted already, read as they were accepted (a
    report logged before positions had to follow the scores still reads)."""
    lines: dict[str, Line] = {p: Line(p) for p in players}
    scored_games: list[list[tuple[Result, int]]] = []
    named: dict[str, int] = {}
    for g, game in enumerate(games):
        _refuse_entered_twice(game.name, g, named)
        results = game.results
        places = game_places(results, points, ("games", g), follow_scores=not recorded)
        scale = points[len(results)]
        winning = max(r.score for r, p in zip(results, places, strict=True) if p == 1)
        scored_games.append(list(zip(results, places, strict=True)))
        for result, place in zip(results, places, strict=True):
            line = lines.setdefault(result.player, Line(result.player))
            line.games += 1
            if result.dropped_out:
                line.dropouts += 1  # last, with no points and no place
            else:
                tied = places.count(place)  # finishers only: every leaver is below
                line.league_points += Fraction(sum(scale[place - 1 : place - 1 + tied]), tied)
                line.wins += place == 1
                line.seconds += place == 2
                line.thirds += place == 3
            if winning > 0:
                line.share_sum += Fraction(result.score, winning)
            else:
                line.share_sum += 1 if result.score >= winning else 0
            best_other = max(r.score for r in results if r.player != result.player)
            line.margin += result.score - best_other
            line.total_score += result.score
    order = {pid: i for i, pid in enumerate(previous_ranking)}
    for line in lines.values():
        line.previous_rank = order.get(line.player)
    ranked = _rank(list(lines.values()), scored_games)
    for line in ranked:
        line.values = {
            "league_points": line.league_points,
            "wins": line.wins,
            "seconds": line.seconds,
            "thirds": line.thirds,
            "winner_share": line.winner_share,
            "margin": line.margin,
            "total_score": line.total_score,
            "head_to_head": line.head_to_head,
            "previous_rank": line.previous_rank,
        }
    for line, below in pairwise(ranked):
        if line.decided_by is not None:
            line.ahead_on = _ahead_on(line.decided_by, line, below)
    return ranked


def _ahead_on(name: str, line: Line, below: Line) -> str:
    """What put ``line`` above ``below``, with both values: "share of the winner's score
    0.92 v 0.87", "rank coming into the season 3 v 5" (1 = top; unlisted: unranked)."""

    def shown(row: Line) -> str:
        value = getattr(row, name)
        if name == "previous_rank":
            return "unranked" if value is None else str(value + 1)
        return decimal_text(Fraction(value or 0))

    return f"{TIEBREAK_WORDS[name]} {shown(line)} v {shown(below)}"


def game_places(
    results: Sequence[Result],
    points: Mapping[int, Sequence[Fraction]],
    where: Location = (),
    *,
    seats: Sequence[str] = (),
    follow_scores: bool = True,
) -> list[int]:
    """A game's places (competition ranking), once its results are checked: as many as
    the scale has places, each player once, positions a ranking, every leaver below every
    finisher, and (``follow_scores``) positions that follow the scores. ``seats``: the
    game's players in starting-seat order, to name them by seat."""
    if len(results) not in points:
        raise InvalidLeague(
            (*where, "results"),
            f"a game has {' or '.join(str(k) for k in sorted(points))} players, "
            f"not {len(results)}: list a player who dropped out too, marked dropped_out",
            rule=Rule.GAME_SIZE,
        )
    refuse_repeats([r.player for r in results], (*where, "results"), InvalidLeague, ("player",))
    places = read_places([r.position for r in results])
    if places is None:
        raise InvalidLeague(
            (*where, "results"),
            "positions are not a ranking (as 1, 2, 2, 4 or 1, 2, 2, 3)",
            rule=Rule.PLACES_ARE_A_RANKING,
        )
    _refuse_leavers_above_finishers(results, where)
    if follow_scores:
        _refuse_positions_against_scores(results, places, where, seats)
    return places


def positions_the_scores_allow(
    scores: Sequence[int], dropped_out: Sequence[bool]
) -> list[tuple[int, ...]]:
    """Each player's positions by the scores, in the game's order, their own first: one
    more than the players who scored more (competition ranking), or, for equal scores,
    any of the positions the tie spans (the game's own tie-break may split it). A player
    who left comes after every one who finished, ranked among the leavers by score: the
    check (``_refuse_positions_against_scores``) lets leavers stand in any order below
    the finishers, and a form offers the order their scores give. What a report form
    offers (``POST /v1/league/positions``); a report whose positions keep to these passes
    ``game_places``."""
    finished = sum(not left for left in dropped_out)
    allowed = []
    for score, left in zip(scores, dropped_out, strict=True):
        peers = [s for s, other in zip(scores, dropped_out, strict=True) if other == left]
        above = (finished if left else 0) + sum(s > score for s in peers)
        level = sum(s == score for s in peers)
        allowed.append(tuple(range(above + 1, above + level + 1)))
    return allowed


def _refuse_positions_against_scores(
    results: Sequence[Result], places: Sequence[int], where: Location, seats: Sequence[str]
) -> None:
    """Among the players who finished, a higher score is a better position. Equal scores
    may share a position or be split (by the game's own tie-break); a leaver is last
    whatever their score."""

    def who(result: Result) -> str:
        if result.player in seats:
            return f"seat {seats.index(result.player) + 1} ({result.player})"
        return repr(result.player)

    finished = [(r, p) for r, p in zip(results, places, strict=True) if not r.dropped_out]
    # The highest score placed too low, against the best placed of those it outscored.
    for result, place in sorted(finished, key=lambda row: -row[0].score):
        beaten = [(r, p) for r, p in finished if r.score < result.score and p <= place]
        if not beaten:
            continue
        other, other_place = min(beaten, key=lambda row: row[1])
        index = results.index(result)
        by_scores = competition_places([r.score for r, _ in finished], higher_is_better=True)
        expected = sorted(zip(by_scores, (r.player for r, _ in finished), strict=True))
        raise InvalidLeague(
            (*where, "results", index, "position"),
            f"positions contradict the scores: {who(result)} scored {result.score} and is "
            f"placed {ordinal(place)}, not above {who(other)}, who scored {other.score} and "
            f"is placed {ordinal(other_place)}. A higher score finishes higher (equal scores "
            "may share a position, or the game's own tie-break may split them); by the "
            f"scores: {', '.join(f'{player} {ordinal(p)}' for p, player in expected)}",
            rule=Rule.POSITIONS_FOLLOW_SCORES,
        )


def _refuse_entered_twice(name: str, index: int, named: dict[str, int]) -> None:
    """A game's name is unique within a season; ``named`` maps the names seen to games."""
    key = " ".join(name.split()).casefold()  # "AGR S1 L1-A G1" and "agr s1 l1-a g1" alike
    if not key:
        return  # an unnamed game cannot be told apart from another
    if key in named:
        raise InvalidLeague(
            ("games", index, "name"),
            f"game {name!r} is entered twice (also games/{named[key]}): a game counts once",
            rule=Rule.UNIQUE_IDS,
        )
    named[key] = index


def _refuse_leavers_above_finishers(results: Sequence[Result], where: Location) -> None:
    finished = [r.position for r in results if not r.dropped_out]
    if not finished:
        raise InvalidLeague((*where, "results"), "nobody finished the game: it cannot score")
    for index, result in enumerate(results):
        if result.dropped_out and result.position <= max(finished):
            raise InvalidLeague(
                (*where, "results", index, "position"),
                f"{result.player!r} dropped out: placed last, below every player who finished",
                rule=Rule.PLACES_ARE_A_RANKING,
            )


def tiebreak_key(row: Tiebreaks, name: str) -> tuple[int, Fraction]:
    """Larger is better for every tiebreaker but head-to-head (ranks are negated;
    unlisted comes last)."""
    if name == "previous_rank":
        return (0, Fraction(0)) if row.previous_rank is None else (1, Fraction(-row.previous_rank))
    value: Fraction | int = getattr(row, name)
    return (0, Fraction(value))


def seeding_key(row: Tiebreaks) -> tuple[tuple[int, Fraction], ...]:
    """Ascending sort key, best first, by the chain without head-to-head."""
    keys = (tiebreak_key(row, name) for name in SEEDING_TIEBREAKERS)
    return tuple((-kind, -value) for kind, value in keys)


def _key(line: Line, name: str) -> tuple[int, Fraction]:
    if name == "head_to_head":
        return (0, Fraction(line.head_to_head or 0))
    return tiebreak_key(line, name)


def _rank(lines: list[Line], games: list[list[tuple[Result, int]]]) -> list[Line]:
    ordered = _order(lines, 0, games)
    for index, line in enumerate(ordered):
        if index and ordered[index - 1].decided_by is None:
            line.rank = ordered[index - 1].rank  # level on everything with the one above
        else:
            line.rank = index + 1
    return ordered


def _order(group: list[Line], level: int, games: list[list[tuple[Result, int]]]) -> list[Line]:
    """Sort a level group by tiebreaker ``level`` and on; set who is separated by what."""
    if len(group) == 1 or level == len(TIEBREAKERS):
        for line in group:
            line.decided_by = None  # level with the next one (the caller sets the last)
        return group
    name = TIEBREAKERS[level]
    if name == "head_to_head":
        _head_to_head(group, games)
    buckets: dict[tuple[int, Fraction], list[Line]] = {}
    for line in group:
        buckets.setdefault(_key(line, name), []).append(line)
    result: list[Line] = []
    for key in sorted(buckets, reverse=True):
        inner = _order(buckets[key], level + 1, games)
        if result:
            result[-1].decided_by = name  # the last of the group above vs this group
        result.extend(inner)
    if result:
        result[-1].decided_by = None  # set by the caller, if anyone follows
    return result


def _head_to_head(group: list[Line], games: list[list[tuple[Result, int]]]) -> None:
    members = {line.player for line in group}
    for line in group:
        net = 0
        for game in games:
            scores = {r.player: r.score for r, _ in game}
            if line.player in scores:
                mine = scores[line.player]
                net += sum(mine - s for p, s in scores.items() if p in members and p != line.player)
        line.head_to_head = net
