"""Standings before a Scrabble final round: players, ranking, win groups, games behind.

Wins are kept as whole numbers of half-wins (a draw is half a win), so no arithmetic on
wins ever touches binary floating point.
"""

from __future__ import annotations

import itertools
import operator
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import cast

from ..errors import Rule
from .errors import InvalidStandings

# An opponent who has left the field (a held event's withdrawn player): the round keeps
# its place in the record, so "last round" and "rounds since" stay true, and meets nobody
# who is paired now. Never a real id (ids are printable).
LEFT_THE_FIELD = "\x00left the field"


@dataclass(frozen=True, slots=True)
class Player:
    """One player's record before the final round.

    ``opponents`` lists previous opponents in round order; ``None`` stands for a bye,
    ``LEFT_THE_FIELD`` for an opponent no longer in the field.
    """

    id: str
    half_wins: int
    spread: int
    name: str | None = None
    rank: int | None = None
    opponents: tuple[str | None, ...] = ()

    @property
    def label(self) -> str:
        return self.name or self.id


def half_wins_of(wins: Fraction | float | int | str) -> int:
    """Convert a win count to half-wins; raises ValueError unless it is a multiple of 0.5."""
    if isinstance(wins, int | float) and not isinstance(wins, bool):
        twice = wins * 2  # exact for floats: multiples of 0.5 are binary fractions
        if twice == int(twice):
            return int(twice)
        raise ValueError(f"{wins} is not a multiple of 0.5")
    doubled = Fraction(wins) * 2
    if doubled.denominator != 1:
        raise ValueError(f"{wins} is not a multiple of 0.5")
    return int(doubled)


def format_half(half: int) -> str:
    """Write a number of half-games the way the seed does: 0, 0.5, 1, 1.5, ..."""
    whole, rest = divmod(half, 2)
    return f"{whole}.5" if rest else str(whole)


@dataclass(frozen=True)
class Standings:
    """Players in ranking order (index 0 is ranked #1), with lookups the pairing rules need."""

    ranked: tuple[Player, ...]
    _index: dict[str, int] = field(init=False, repr=False, compare=False)
    _met: dict[str, dict[str, int]] = field(init=False, repr=False, compare=False)
    _met_by: dict[str, set[str]] = field(init=False, repr=False, compare=False)
    _records_agree: bool = field(init=False, repr=False, compare=False)
    _ids: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {p.id: i for i, p in enumerate(self.ranked)})
        object.__setattr__(self, "_ids", tuple(p.id for p in self.ranked))
        # Meetings by player, then opponent, symmetric: the larger of the two players' own
        # records of the pair (both record the same games when complete; the larger view
        # covers a one-sided record). Each record is counted in one call, byes left out;
        # then each record raises the opponents' counts of its pairs to its own. When every
        # opponent has the player in their record too (checked in one pass, in C), only a
        # record with a repeat (a count above 1) can raise anything.
        met: dict[str, dict[str, int]] = {}
        repeated: list[str] = []
        for p in self.ranked:
            opponents = p.opponents
            counts: dict[str | None, int] = dict.fromkeys(opponents, 1)
            if len(counts) != len(opponents):
                counts = dict(Counter(opponents))
                repeated.append(p.id)
            counts.pop(None, None)
            counts.pop(LEFT_THE_FIELD, None)
            met[p.id] = cast(dict[str, int], counts)
        players = itertools.chain.from_iterable(map(itertools.repeat, met, map(len, met.values())))
        opponents_records = map(met.__getitem__, itertools.chain.from_iterable(met.values()))
        mutual = all(map(operator.contains, opponents_records, players))
        for pid in repeated if mutual else list(met):
            for opponent, count in met[pid].items():
                theirs = met[opponent]
                if count > theirs.get(pid, 0):
                    theirs[pid] = count
        object.__setattr__(self, "_met", met)
        object.__setattr__(self, "_met_by", {})  # met()'s sets, made when first asked for
        object.__setattr__(self, "_records_agree", mutual and not repeated)

    @classmethod
    def from_players(cls, players: Sequence[Player]) -> Standings:
        """Validate and rank players.

        With ranks given (for every player), they must be a permutation of 1..n that never
        puts a player above someone with more wins. Without ranks, players rank by wins,
        then spread, then input order.
        """
        if not players:
            raise InvalidStandings(("players",), "at least one player is needed")
        seen = _check_ids(players)
        _check_opponents(players, seen)
        return cls(tuple(players[i] for i in _rank_order(players)))

    def __len__(self) -> int:
        return len(self.ranked)

    def __contains__(self, player_id: object) -> bool:
        return player_id in self._index

    def player(self, player_id: str) -> Player:
        return self.ranked[self._index[player_id]]

    def rank(self, player_id: str) -> int:
        """1-based rank."""
        return self._index[player_id] + 1

    @property
    def positions(self) -> Mapping[str, int]:
        """Each player's 0-based rank (rank - 1), for code that ranks many at once."""
        return self._index

    def tag(self, player_id: str) -> str:
        """How explanations name a player: "#3 Cat"."""
        return f"#{self.rank(player_id)} {self.player(player_id).label}"

    def at_rank(self, rank: int) -> Player:
        return self.ranked[rank - 1]

    @property
    def ids(self) -> tuple[str, ...]:
        """Every player's id in rank order (kept: asked for thousands of times a round)."""
        return self._ids

    def games_behind(self, player_id: str) -> int:
        """Half-games behind the leader."""
        return self.ranked[0].half_wins - self.player(player_id).half_wins

    def configuration(self, width: int = 4) -> tuple[int, ...]:
        """Games behind (in half-games) of the top ``width`` players."""
        lead = self.ranked[0].half_wins
        return tuple(lead - p.half_wins for p in self.ranked[:width])

    def win_group(self, player_id: str) -> tuple[str, ...]:
        """Ids of the players with the same wins, in rank order."""
        wins = self.player(player_id).half_wins
        return tuple(p.id for p in self.ranked if p.half_wins == wins)

    def group_at(self, games_behind: int) -> tuple[str, ...]:
        lead = self.ranked[0].half_wins
        return tuple(p.id for p in self.ranked if lead - p.half_wins == games_behind)

    def meetings(self, a: str, b: str) -> int:
        """How many times a and b have played each other."""
        counts = self._met.get(a)
        return 0 if counts is None else counts.get(b, 0)

    def meeting_counts(self) -> Iterator[tuple[str, str, int]]:
        """Every pair that has met, in both orders, with ``meetings`` of it."""
        for player_id, counts in self._met.items():
            for opponent, count in counts.items():
                yield player_id, opponent, count

    def met(self, player_id: str) -> set[str]:
        """Everyone ``player_id`` has played (as either player's record says)."""
        met = self._met_by.get(player_id)
        if met is None:
            met = self._met_by[player_id] = set(self._met[player_id])
        return met

    def one_sided(self) -> list[tuple[str, str]]:
        """Pairs (a, b), in rank order of a, where a's own record lists b more often than
        b's lists a: read as meetings (the larger record), but often a typing slip."""
        if self._records_agree:  # every record listed by its opponents, none repeated
            return []
        own = {
            p.id: Counter(o for o in p.opponents if o is not None and o != LEFT_THE_FIELD)
            for p in self.ranked
        }
        return [
            (p.id, opponent)
            for p in self.ranked
            for opponent, count in own[p.id].items()
            if own[opponent][p.id] < count
        ]

    def last_opponent(self, player_id: str) -> str | None:
        opponents = self.player(player_id).opponents
        return opponents[-1] if opponents else None

    def byes(self, player_id: str) -> int:
        return self.player(player_id).opponents.count(None)

    def back_to_back(self, a: str, b: str) -> bool:
        """True when a and b met in the previous round."""
        return self.last_opponent(a) == b or self.last_opponent(b) == a


def configuration_text(configuration: Iterable[int]) -> str:
    return "/".join(format_half(h) for h in configuration)


def _check_ids(players: Sequence[Player]) -> dict[str, int]:
    """Each player's index by id; InvalidStandings naming a duplicate id."""
    seen: dict[str, int] = {}
    for i, player in enumerate(players):
        if player.id in seen:
            raise InvalidStandings(
                ("players", i, "id"),
                f"duplicate id {player.id!r} (also player {seen[player.id]})",
                rule=Rule.UNIQUE_IDS,
            )
        seen[player.id] = i
    return seen


def _check_opponents(players: Sequence[Player], seen: Mapping[str, int]) -> None:
    """InvalidStandings naming the first opponent who is not in the field, or a player
    listed as their own opponent."""
    known: set[str | None] = {None, LEFT_THE_FIELD, *seen}
    for i, player in enumerate(players):
        # One check in C for the usual record; the loop below names the first fault.
        if known.issuperset(player.opponents) and player.id not in player.opponents:
            continue
        for j, opponent in enumerate(player.opponents):
            if opponent is not None and opponent != LEFT_THE_FIELD and opponent not in seen:
                raise InvalidStandings(
                    ("players", i, "opponents", j),
                    f"unknown player id {opponent!r}",
                    rule=Rule.KNOWN_PLAYER,
                )
            if opponent == player.id:
                raise InvalidStandings(
                    ("players", i, "opponents", j),
                    "a player cannot have played themself",
                    rule=Rule.CONSISTENT_HISTORY,
                )


def _rank_order(players: Sequence[Player]) -> list[int]:
    """The players' indices in rank order: by the ranks given (checked), else by wins,
    then spread, then input order."""
    given = [p.rank is not None for p in players]
    if any(given) and not all(given):
        missing = given.index(False)
        raise InvalidStandings(
            ("players", missing, "rank"), "give a rank for every player or for none"
        )
    if not all(given):
        return sorted(
            range(len(players)),
            key=lambda i: (-players[i].half_wins, -players[i].spread, i),
        )
    ranks = [p.rank for p in players]
    if sorted(r for r in ranks if r is not None) != list(range(1, len(players) + 1)):
        raise InvalidStandings(
            ("players",), "ranks must be a permutation of 1..n", rule=Rule.RANKS_FOLLOW_WINS
        )
    order = sorted(range(len(players)), key=lambda i: players[i].rank or 0)
    for above, below in itertools.pairwise(order):
        if players[above].half_wins < players[below].half_wins:
            raise InvalidStandings(
                ("players", below, "rank"),
                f"rank {players[below].rank} has more wins than rank {players[above].rank}",
                rule=Rule.RANKS_FOLLOW_WINS,
            )
    return order
