"""Prize places: the places that pay, in order, and who can still move between them.

The seed pays ``victors`` places of equal value. Real events pay several places of
different value (1st > 2nd > ...): a player certain of a top-5 place still races for 3rd
money, and Gibsonizing them (the victors model's "certain of a victor place") takes that
race away. ``PrizePlaces`` holds the amounts in place order; neighbouring places that pay
the same amount form one tier (where the seed's principles apply), and the seed's
``victors`` are the one-tier case.

Contention per place is the seed's contention with ``victors = b`` for each place b: who
can still finish in the top b, and who is certain to (with the director's spread
assumption). Then, as tsh's ChewPair computes flights per prize and COP simulates:

- a player **races** when they can still cross a boundary between two paying tiers (finish
  in the top b or not, for b below the last paid place);
- a player races for **the money line** only when the last paid place is all they can
  still gain or lose;
- a player in the money whose tier no result can change is **settled**: Gibsonized;
- everyone else cannot reach a paid place.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import pairwise

from .contention import Contention, contention_by_place
from .standings import Standings


@dataclass(frozen=True)
class PrizePlaces:
    """The paid places in order, each with its amount (None: paid, amount not given;
    such a place is worth more than the next, as places are). Amounts are exact: two
    places pay alike when their amounts are equal as written."""

    amounts: tuple[Decimal | None, ...]

    def __post_init__(self) -> None:
        if not self.amounts:
            raise ValueError("at least one place must pay")
        given = [a for a in self.amounts if a is not None]
        if any(a < 0 for a in given):
            raise ValueError("a prize amount is not negative")
        if any(later > earlier for earlier, later in pairwise(given)):
            raise ValueError("prize amounts go down from 1st place")

    @property
    def paid(self) -> int:
        return len(self.amounts)

    @property
    def boundaries(self) -> tuple[int, ...]:
        """The last place of each tier: where finishing one place lower pays less."""
        amounts = self.amounts
        return tuple(
            place
            for place in range(1, self.paid + 1)
            if place == self.paid
            or amounts[place - 1] is None
            or amounts[place] != amounts[place - 1]
        )

    @property
    def graded(self) -> bool:
        """More than one tier: the places do not all pay alike."""
        return len(self.boundaries) > 1

    def describe(self) -> str:
        """The places in words: "5 prize places, each paying differently"."""
        tiers = len(self.boundaries)
        if tiers == 1:
            return f"{self.paid} equal prize place{'s' if self.paid > 1 else ''}"
        if tiers == self.paid:
            return f"{self.paid} prize places, each paying differently"
        return f"{self.paid} prize places in {tiers} tiers"


def ordinal(place: int) -> str:
    if 10 <= place % 100 <= 20:
        return f"{place}th"
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th') }"


def _written(amount: Decimal) -> str:
    """An amount as people write it: whole when it is ("500", "12.5"), in at most six
    figures, as the service has always printed amounts (it read them as floats, and an
    amount read from a JSON number is the float's own digits, so the float prints it)."""
    return f"{float(amount):g}"


def amount_text(amount: Decimal | None) -> str:
    """A prize as people write it: its amount (whole when it is), or "paid"."""
    return "paid" if amount is None else _written(amount)


def prize_label(place: int, amount: Decimal | None) -> str:
    """A paid place with its prize: "1st · 500" (the place alone without an amount)."""
    return ordinal(place) if amount is None else f"{ordinal(place)} · {_written(amount)}"


def place_labels(
    amounts: Sequence[Decimal | None], records: Sequence[Hashable], unpaid: bool = False
) -> list[str | None]:
    """The place beside each player (``records``: each player's wins and spread, in place
    order) with its prize: "1st · 300"; players level on wins and spread share their
    places and are shown tied, "1st–2nd (tied: 300 + 200 split)", as many events split
    the money of tied places (their order, by rating or as listed, decides nothing).
    Beyond the paid places None, or with ``unpaid`` the place alone ("7th", "7th–8th
    (tied)")."""
    labels: list[str | None] = []
    start = 0
    while start < len(records):
        end = start
        while end + 1 < len(records) and records[end + 1] == records[start]:
            end += 1
        first, last = start + 1, end + 1  # places
        shared = amounts[first - 1 : last]
        label: str | None
        if first > len(amounts) and not unpaid:
            label = None
        elif first == last:
            label = prize_label(first, shared[0]) if shared else ordinal(first)
        else:
            split = (
                ": " + " + ".join(amount_text(a) for a in shared) + " split"
                if shared and all(a is not None for a in shared)
                else ""
            )
            label = f"{ordinal(first)}–{ordinal(last)} (tied{split})"
        labels += [label] * (last - first + 1)
        start = end + 1
    return labels


def span_text(best: int, worst: int) -> str:
    """Places from ``best`` to ``worst`` in words: "1st", "1st or 2nd", "2nd to 4th"."""
    if worst <= best:
        return ordinal(best)
    joint = " or " if worst == best + 1 else " to "
    return f"{ordinal(best)}{joint}{ordinal(worst)}"


@dataclass(frozen=True, slots=True)
class Reach:
    """The places still open to a player: the best they can reach and the worst they are
    certain of (None: they may finish out of the money)."""

    player: str
    best: int
    worst: int | None

    def text(self) -> str:
        best = ordinal(self.best)
        if self.worst == self.best:
            return f"certain of {best}"
        if self.worst is None:
            return f"can finish as high as {best}, or out of the money"
        return f"will finish between {best} and {ordinal(self.worst)}"


@dataclass(frozen=True)
class PlaceRace:
    """Who races for what, each in rank order."""

    racing: tuple[str, ...]  # can still cross a boundary between paying tiers
    line: tuple[str, ...]  # race only for the last paid place (the money line)
    settled: tuple[str, ...]  # in the money, tier fixed whatever the results
    reach: tuple[Reach, ...]  # everyone who can still finish in the money
    money: Contention  # the paid places as one group (the seed's victors = paid)
    # Per player in contention: the tier boundaries they can still finish either side of.
    races: Mapping[str, frozenset[int]]
    boundaries: tuple[int, ...] = ()  # the last place of each paying tier (``PrizePlaces``)

    @property
    def paid(self) -> int:
        return self.boundaries[-1] if self.boundaries else 0

    def rivals(self, player: str, among: Iterable[str]) -> list[str]:
        """The players of ``among`` (in their order) who race ``player`` for a place: they
        can finish either side of a boundary ``player`` can too."""
        mine = self.races.get(player, frozenset())
        return [p for p in among if p != player and mine & self.races.get(p, frozenset())]

    def in_no_race(self, player: str) -> bool:
        """Settled, or out of reach of the money: no result of theirs changes a place's
        money for them."""
        return not self.races.get(player)


def place_race(
    standings: Standings,
    prizes: PrizePlaces,
    cap: int | None,
    rounds_left: int = 1,
    fixed: Mapping[str, int] | None = None,
) -> PlaceRace:
    """Contention per place (``contention`` for each b from 1 to the last paid place).

    With ``fixed`` as in ``contention``: players sitting out with a known result."""
    by_place = contention_by_place(standings, range(1, prizes.paid + 1), cap, rounds_left, fixed)
    inner = prizes.boundaries[:-1]
    racing = {p for b in inner for p in by_place[b].contenders}
    races: dict[str, set[int]] = {}
    for boundary in prizes.boundaries:
        for player in by_place[boundary].contenders:
            races.setdefault(player, set()).add(boundary)
    money = by_place[prizes.paid]
    places = range(1, prizes.paid + 1)
    relevant = {b: set(by_place[b].relevant) for b in places}
    clinched = {b: set(by_place[b].clinched) for b in places}
    reach = []
    for player in money.relevant:
        best = next(b for b in places if player in relevant[b])
        worst = next((b for b in places if player in clinched[b]), None)
        reach.append(Reach(player, best, worst))
    rank = standings.rank
    return PlaceRace(
        racing=tuple(sorted(racing, key=rank)),
        line=tuple(p for p in money.contenders if p not in racing),
        settled=tuple(p for p in money.clinched if p not in racing),
        reach=tuple(sorted(reach, key=lambda r: rank(r.player))),
        money=money,
        races={player: frozenset(found) for player, found in races.items()},
        boundaries=prizes.boundaries,
    )


def graded_places_warning(
    standings: Standings,
    victors: int,
    cap: int | None,
    rounds_left: int,
    gibsonized: Sequence[str],
    fixed: Mapping[str, int] | None = None,
) -> str | None:
    """With ``victors`` only (the places taken as equal): a warning when more than two
    players can still finish in different places among the victors, as an event paying
    its places differently would race them. Two-victor events are the seed's own
    format (two equal victors), so the warning is for three victors or more."""
    if victors < 3:
        return None
    race = place_race(standings, PrizePlaces((None,) * victors), cap, rounds_left, fixed)
    if len(race.racing) <= 2:
        return None
    tags = ", ".join(standings.tag(p) for p in race.racing)
    warning = (
        f"victors={victors} treats the top {victors} places as equal, but {tags} can still "
        f"finish in different places among them; if the places pay differently, give "
        "`prizes` (each place's race is then paired head to head)"
    )
    racing_gibsonized = [p for p in gibsonized if p in set(race.racing)]
    if racing_gibsonized:
        shown = ", ".join(standings.tag(p) for p in racing_gibsonized)
        warning += f"; Gibsonized here though still racing for a better place: {shown}"
    return warning
