"""Forming next season's leagues: the seed's Steps 1-7, exactly, with the readings written.

- Step 2: leagues = players // 7, and the N = players mod 7 lowest-ranked leagues get an
  8th player. Reading where the seed cannot apply (fewer than 7 N players, i.e. fewer than
  42 with a remainder larger than the number of leagues): one more league, and every
  league as equal as possible, the larger ones on top (13 players: 7 and 6).
- Divisions: Division 1 has one league, each next division twice as many (the last one
  takes what is left). Leagues are named "<division>-<letter>": 1-A, 2-A, 2-B, 3-A, ...
- Step 3: last season's players in one list by finish: division, then place, then the
  same tiebreaker chain as within a season (league points, wins, 2nd places, 3rd places,
  share of the winner's score, margin, total score, the ranking coming into that season;
  head-to-head is level, as players on the same place of different leagues never met),
  the order given only when all of those are level (or not given), except that each
  league's bottom two (6th-7th of 7, 7th-8th of 8) go below the next division's other
  finishers, just after them (the seed's "below the 5th place finishers from the next
  division down"); the bottom division's bottom two stay at the end.
- Step 4: returning players (who sat out last season) by their most recent finish, by the
  same order.
- Step 5: drop-outs leave holes, filled top down: a hole takes the best remaining returner
  if that returner's most recent finish is as good as or better than the finish that made
  the hole (a 4th in Division 2 fills a 2nd in Division 3); otherwise the list closes up.
- Step 6: returners who filled no hole go to the bottom, then new players by laurels (most
  first), then sign-up order.
- Step 7: Division 1 from the top of the list, then the 1st slot of each Division 2 league,
  the 2nd slot of each, and so on, division by division.
Promotion (league winners) and relegation (bottom two) follow from the list; each player's
movement is reported against their last division.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from string import ascii_uppercase

from ..errors import Rule, refuse_repeats
from ..ranking import ordinal
from .table import InvalidLeague, seeding_key


@dataclass(frozen=True)
class Finish:
    """A player's finish in a season: division, league, place, and the values of the
    tiebreaker chain that season (``table.Tiebreaks``), which order equal finishes."""

    player: str
    division: int
    league: str
    place: int
    league_points: Fraction = Fraction(0)
    wins: int = 0
    league_size: int | None = None  # default: counted from last season, else 7
    seconds: int = 0
    thirds: int = 0
    winner_share: Fraction = Fraction(0)
    margin: int = 0
    total_score: int = 0
    previous_rank: int | None = None  # coming into that season, 1 = top; None: not listed


@dataclass(frozen=True)
class NewPlayer:
    player: str
    laurels: Fraction = Fraction(0)


@dataclass(frozen=True)
class League:
    name: str
    division: int
    players: tuple[str, ...]


@dataclass(frozen=True)
class Movement:
    player: str
    division: int
    league: str
    previous_division: int | None
    kind: str  # promoted, relegated, stayed, returning, new


@dataclass(frozen=True)
class Formation:
    leagues: tuple[League, ...]
    order: tuple[str, ...]  # the final sorted list (Step 6)
    movements: tuple[Movement, ...]
    holes: tuple[str, ...]  # how each hole was handled, in words


def league_sizes(players: int, base: int = 7) -> list[int]:
    """Step 2: sizes of the leagues, top league first."""
    if players < 4:
        raise InvalidLeague(("signups",), "a league needs at least 4 players")
    count, extra = divmod(players, base)
    if count and extra <= count:
        return [base] * (count - extra) + [base + 1] * extra
    count += 1
    size, rest = divmod(players, count)
    return [size + 1] * rest + [size] * (count - rest)


def league_names(sizes: Sequence[int]) -> list[tuple[int, str]]:
    """(division, name) for each league in order: 1-A, 2-A, 2-B, 3-A..3-D, ..."""
    named: list[tuple[int, str]] = []
    division, width = 1, 1
    while len(named) < len(sizes):
        for i in range(min(width, len(sizes) - len(named))):
            named.append((division, f"{division}-{_letters(i)}"))
        division, width = division + 1, width * 2
    return named


def _letters(index: int) -> str:
    text = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        text = ascii_uppercase[rest] + text
    return text


def _league_counts(finishes: Sequence[Finish]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for finish in finishes:
        counts[finish.league] = counts.get(finish.league, 0) + 1
    return counts


def finish_key(finish: Finish, league_size: int, relegated: int) -> tuple[int, int, int]:
    """Step 3's order: the bottom two of a league sit just below the next division."""
    if finish.place > (finish.league_size or league_size) - relegated:
        return (finish.division + 1, 1, finish.place)
    return (finish.division, 0, finish.place)


def sort_finishes(
    finishes: Sequence[Finish], relegated: int, league_size: int, counted: bool = False
) -> list[Finish]:
    """By finish; a league's size is counted from ``finishes`` when they are a whole season."""
    sizes = _league_counts(finishes) if counted else {}
    order = {f.player: i for i, f in enumerate(finishes)}
    return sorted(
        finishes,
        key=lambda f: (
            finish_key(f, sizes.get(f.league, league_size), relegated),
            seeding_key(f),
            order[f.player],
        ),
    )


def form_leagues(
    signups: Sequence[str],
    last_season: Sequence[Finish],
    returning: Sequence[Finish],
    new_players: Sequence[NewPlayer],
    *,
    league_size: int = 7,
    relegated: int = 2,
) -> Formation:
    _refuse_inconsistent_records(signups, last_season, returning, new_players)
    signed = set(signups)
    # Step 3 (everyone from last season, even those not playing), Step 4 (returners).
    ranked_last = sort_finishes(last_season, relegated, league_size, counted=True)
    returners = [f for f in sort_finishes(returning, relegated, league_size) if f.player in signed]
    # Step 5: holes from drop-outs, filled top down or closed.
    listed, notes = _close_or_fill_holes(
        ranked_last, returners, signed, _league_counts(last_season), league_size, relegated
    )
    # Step 6: returners left, then new players by laurels, then sign-up order.
    listed.extend(f.player for f in returners)
    listed.extend(_newcomers(signups, last_season, returning, new_players))
    # Steps 2 and 7.
    sizes = league_sizes(len(listed), league_size)
    leagues = _deal(listed, sizes, league_names(sizes))
    movements = _movements(leagues, last_season, returning)
    return Formation(tuple(leagues), tuple(listed), tuple(movements), tuple(notes))


def _refuse_inconsistent_records(
    signups: Sequence[str],
    last_season: Sequence[Finish],
    returning: Sequence[Finish],
    new_players: Sequence[NewPlayer],
) -> None:
    """No one listed twice in a record, no returner who played last season, and a finish
    or a new-player entry for everyone who signed up."""
    for name, items in (
        ("signups", list(signups)),
        ("last_season", [f.player for f in last_season]),
        ("returning", [f.player for f in returning]),
        ("new_players", [p.player for p in new_players]),
    ):
        refuse_repeats(items, (name,), InvalidLeague)
    last_ids = {f.player for f in last_season}
    for index, finish in enumerate(returning):
        if finish.player in last_ids:
            raise InvalidLeague(
                ("returning", index),
                f"{finish.player!r} played last season: not a returner",
                rule=Rule.FORMATION_RECORDS,
            )
    known = last_ids | {f.player for f in returning} | {p.player for p in new_players}
    unknown = [p for p in signups if p not in known]
    if unknown:
        raise InvalidLeague(
            ("signups",),
            "no finish or new-player entry for " + ", ".join(unknown[:10]),
            rule=Rule.FORMATION_RECORDS,
        )


def _close_or_fill_holes(
    ranked_last: Sequence[Finish],
    returners: list[Finish],
    signed: set[str],
    sizes_last: dict[str, int],
    league_size: int,
    relegated: int,
) -> tuple[list[str], list[str]]:
    """Step 5: last season's players in order; a drop-out's place goes to the best
    returner who finished at least as well, else the list closes up (``returners`` loses
    those placed). The list so far, and a note per drop-out."""
    listed: list[str] = []
    notes: list[str] = []
    for finish in ranked_last:
        if finish.player in signed:
            listed.append(finish.player)
            continue
        hole = finish_key(finish, sizes_last.get(finish.league, league_size), relegated)
        if returners and (finish_key(returners[0], league_size, relegated) <= hole):
            filler = returners.pop(0)
            listed.append(filler.player)
            notes.append(
                f"{finish.player} ({_finish_text(finish)}) dropped out: {filler.player} "
                f"({_finish_text(filler)}) fills the place"
            )
        else:
            notes.append(
                f"{finish.player} ({_finish_text(finish)}) dropped out: the list closes up"
            )
    return listed, notes


def _newcomers(
    signups: Sequence[str],
    last_season: Sequence[Finish],
    returning: Sequence[Finish],
    new_players: Sequence[NewPlayer],
) -> list[str]:
    """Step 6's new players who signed up, by laurels, then sign-up order."""
    signup_order = {p: i for i, p in enumerate(signups)}
    known = {f.player for f in [*last_season, *returning]}
    newcomers = sorted(
        (p for p in new_players if p.player in signup_order and p.player not in known),
        key=lambda p: (-p.laurels, signup_order[p.player]),
    )
    return [p.player for p in newcomers]


def _movements(
    leagues: Sequence[League], last_season: Sequence[Finish], returning: Sequence[Finish]
) -> list[Movement]:
    """Where each player went from the division they last played in."""
    previous = {f.player: f.division for f in [*last_season, *returning]}
    returning_ids = {f.player for f in returning}
    movements = []
    for league in leagues:
        for player in league.players:
            before = previous.get(player)
            if player in returning_ids:
                kind = "returning"
            elif before is None:
                kind = "new"
            else:
                kind = (
                    "promoted"
                    if league.division < before
                    else "relegated"
                    if league.division > before
                    else "stayed"
                )
            movements.append(Movement(player, league.division, league.name, before, kind))
    return movements


def _deal(listed: list[str], sizes: list[int], names: list[tuple[int, str]]) -> list[League]:
    """Step 7: fill Division 1, then deal slot by slot across each division's leagues."""
    seats: list[list[str]] = [[] for _ in sizes]
    position = 0
    divisions = sorted({d for d, _ in names})
    for division in divisions:
        members = [i for i, (d, _) in enumerate(names) if d == division]
        for slot in range(max(sizes[i] for i in members)):
            for i in members:
                if slot < sizes[i] and position < len(listed):
                    seats[i].append(listed[position])
                    position += 1
    return [
        League(name, division, tuple(players))
        for (division, name), players in zip(names, seats, strict=True)
    ]


def _finish_text(finish: Finish) -> str:
    return f"{ordinal(finish.place)} in Division {finish.division}"
