"""Every claim a board's reason makes is true of the answer's own pairing and standings.

On the real divisions whose final round is on file (``bench/real_divisions.py``'s
``FINALS``; a division whose file is absent is skipped with the catalogue's message), cut
before each of their last three rounds with their prize places (``bench/real_prize_races``:
the known places, 1-3 where unknown; every place paying differently), the advice's reasons,
repeat warnings and need lines, and a held event's round ``rule`` on the same cut, are read
back claim by claim and checked against the facts: the pairing answered (who plays whom,
the bye), the meetings in the standings (how many, the last round's), the places each
player races for (``place_race``), and who is settled. A claim that names a rival "left
free" while the rival plays elsewhere, or a meeting "last round" that was not, fails here.

Each reason of a game with a player in a prize race, or settled in the money, must be one
of the forms checked below: no reason of theirs goes unread.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

import pytest

from bench.real_divisions import FINALS, real_text
from bench.real_prize_races import AdvisedRound, advised_round
from pairing_service.engine.scrabble import Standings
from pairing_service.engine.scrabble.held.gibsonization import Places
from pairing_service.engine.scrabble.held.methods import FinalRound, pair_round
from pairing_service.engine.scrabble.prize_places import PlaceRace, place_race
from pairing_service.engine.scrabble.standings import format_half
from pairing_service.engine.scrabble.tsh import read_division

LAST_ROUNDS = 3
ORD = r"(\d+)(?:st|nd|rd|th)"
ALLOWANCE = 2  # the advice's default repeat allowance
PAST = r"past the allowance of (\d+)"

RACE = re.compile(r"#(\d+) and #(\d+) race for (.+)")
KEPT = re.compile(
    rf"#(\d+) and #(\d+) meet (again straight after their last game|a {ORD} time, "
    r"(back to back and )?past the allowance of (\d+)): the race for (.+) kept head to head"
)
ONLY_RIVAL = re.compile(r"#(\d+)'s only rival #(\d+)( met them last round and)? (.+)")
RIVALS = re.compile(
    r"#(\d+)'s rivals (.+?) (all|both) play elsewhere(?: \(#(\d+) met them last round\))?"
)
NO_RIVAL = re.compile(r"#(\d+) races for (.+): no rival of theirs plays this round")
SETTLED = re.compile(r"#(\d+) is certain of (.+?): (takes the bye|plays #(\d+), (.+))")
BOTH_SETTLED = re.compile(
    r"#(\d+) and #(\d+) are certain of (.+) and (.+): settled, they play each other"
)
SWISS_GROUP = re.compile(r"rest Swiss: the ([\d.]+)-win group, top half v bottom half")
SWISS_FLOAT = re.compile(r"rest Swiss: #(\d+) floats down from the ([\d.]+)-win group")
SWISS_OFF = re.compile(r"rest Swiss, off the Swiss order: #(\d+)'s Swiss opponent (.+)")
REPEATS = re.compile(r"repeats: (\d+) games? between players who have met \((.+)\)")
MEETING = re.compile(r"#(\d+) and #(\d+): (.+)")
PRIZE_FORMS = (RACE, KEPT, ONLY_RIVAL, RIVALS, NO_RIVAL, SETTLED, BOTH_SETTLED)


def place_of(word: str) -> int:
    found = re.fullmatch(ORD, word)
    assert found, word
    return int(found.group(1))


class Facts:
    """One cut's facts, read from the standings and the pairing, never from the words."""

    def __init__(
        self, standings: Standings, race: PlaceRace, games: Sequence[Sequence[str]]
    ) -> None:
        self.standings = standings
        self.race = race
        self.opponent: dict[str, str | None] = {}
        for game in games:
            if len(game) == 1:
                self.opponent[game[0]] = None
            else:
                a, b = game
                self.opponent[a], self.opponent[b] = b, a
        self.reach = {r.player: r for r in race.reach}

    def at(self, rank: str | int) -> str:
        return self.standings.at_rank(int(rank)).id

    def races(self, player: str) -> frozenset[int]:
        return self.race.races.get(player, frozenset())

    def rivals(self, player: str) -> list[str]:
        """Everyone who plays this round and can finish either side of a boundary
        ``player`` can too, in rank order."""
        return [
            p
            for p in self.standings.ids
            if p in self.opponent and p != player and self.races(p) & self.races(player)
        ]

    def places(self, words: str) -> frozenset[int]:
        """ "3rd, 4th and the money line" -> {3, 4, paid}."""
        found: set[int] = set()
        for item in re.split(r", | and ", words):
            if item == "the money line":
                found.add(self.race.paid)
            elif " to " in item:
                first, last = (place_of(w) for w in item.split(" to "))
                found |= set(range(first, last + 1))
            else:
                found.add(place_of(item))
        return frozenset(found)

    def span(self, words: str) -> tuple[int, int]:
        """ "3rd" -> (3, 3); "1st or 2nd", "2nd to 4th" -> (best, worst)."""
        parts = re.split(r" or | to ", words)
        return place_of(parts[0]), place_of(parts[-1])

    def settled_span(self, player: str) -> tuple[int, int]:
        assert player in self.race.settled, player
        reach = self.reach[player]
        assert reach.worst is not None
        return reach.best, reach.worst

    def plays(self, player: str, words: str) -> None:
        """ "plays #4" or "has the bye" of ``player``."""
        if words == "has the bye":
            assert self.opponent[player] is None, player
        else:
            found = re.fullmatch(r"plays #(\d+)", words)
            assert found, words
            assert self.opponent[player] == self.at(found.group(1)), (player, words)

    def about(self, player: str, words: str) -> None:
        """A claim about another player ``h`` beside ``player``'s game: "#5 met them last
        round", "#5 would be a 3rd meeting", "#5 met them 4 rounds ago", "#5 plays #6"."""
        standings = self.standings
        found = re.fullmatch(r"#(\d+) (.+)", words)
        assert found, words
        other, said = self.at(found.group(1)), found.group(2)
        met = standings.meetings(player, other)
        if said == "met them last round":
            assert standings.back_to_back(player, other), (player, words)
        elif meeting := re.fullmatch(
            rf"would be a {ORD} meeting(, past the allowance of (\d+))?", said
        ):
            assert met + 1 == int(meeting.group(1)), (player, words)
            if meeting.group(2):
                assert met > int(meeting.group(3)), (player, words)
        elif ago := re.fullmatch(r"met them (\d+) rounds ago", said):
            assert rounds_since(standings, player, other) == int(ago.group(1)), (player, words)
        else:
            self.plays(other, said)

    def meeting_cost(self, a: str, b: str, words: str) -> None:
        """ "back-to-back rematch", "4th meeting, past the allowance of 2", "4th meeting
        and back to back, past the allowance of 2"."""
        met = self.standings.meetings(a, b)
        if words == "back-to-back rematch":
            assert self.standings.back_to_back(a, b), words
            return
        found = re.fullmatch(
            rf"{ORD} meeting( and back to back)?, past the allowance of (\d+)", words
        )
        assert found, words
        assert met + 1 == int(found.group(1)) and met > int(found.group(3)), words
        assert self.standings.back_to_back(a, b) == bool(found.group(2)), words

    def prize_reason(self, game: Sequence[str], reason: str) -> None:
        """A reason of a game with a racer or a settled player: one of the forms, each
        claim true."""
        standings = self.standings
        if found := KEPT.fullmatch(reason):
            a, b = self.at(found.group(1)), self.at(found.group(2))
            assert {a, b} == set(game), reason
            met = standings.meetings(a, b)
            if found.group(3).startswith("again"):
                assert standings.back_to_back(a, b) and met <= ALLOWANCE, reason
            else:
                assert met + 1 == int(found.group(4)) and met > int(found.group(6)), reason
                assert standings.back_to_back(a, b) == bool(found.group(5)), reason
            assert self.places(found.group(7)) == self.races(a) & self.races(b), reason
        elif found := RACE.fullmatch(reason):
            a, b = self.at(found.group(1)), self.at(found.group(2))
            assert {a, b} == set(game), reason
            assert self.places(found.group(3)) == self.races(a) & self.races(b), reason
        elif found := ONLY_RIVAL.fullmatch(reason):
            racer, rival = self.at(found.group(1)), self.at(found.group(2))
            assert racer in game and self.rivals(racer) == [rival], reason
            assert rival not in game, reason
            if found.group(3):
                assert standings.back_to_back(racer, rival), reason
            self.plays(rival, found.group(4))
        elif found := RIVALS.fullmatch(reason):
            racer = self.at(found.group(1))
            rivals = self.rivals(racer)
            assert racer in game and len(rivals) >= 2, reason
            named = re.findall(r"#(\d+)", found.group(2))
            assert [self.at(r) for r in named] == rivals[: len(named)], reason
            more = re.search(r"and (\d+) more", found.group(2))
            assert len(named) + (int(more.group(1)) if more else 0) == len(rivals), reason
            assert (found.group(3) == "both") == (len(rivals) == 2), reason
            assert not set(rivals) & set(game), reason
            if found.group(4):
                assert standings.back_to_back(racer, self.at(found.group(4))), reason
        elif found := NO_RIVAL.fullmatch(reason):
            racer = self.at(found.group(1))
            assert self.rivals(racer) == [], reason
            assert self.places(found.group(2)) == self.races(racer), reason
        elif found := BOTH_SETTLED.fullmatch(reason):
            a, b = self.at(found.group(1)), self.at(found.group(2))
            assert {a, b} == set(game), reason
            assert self.span(found.group(3)) == self.settled_span(a), reason
            assert self.span(found.group(4)) == self.settled_span(b), reason
        elif found := SETTLED.fullmatch(reason):
            player = self.at(found.group(1))
            assert player in game, reason
            assert self.span(found.group(2)) == self.settled_span(player), reason
            if found.group(3) == "takes the bye":
                assert tuple(game) == (player,), reason
                return
            other = self.at(found.group(4))
            assert self.opponent[player] == other, reason
            self.whom(player, other, found.group(5))
        else:
            pytest.fail(f"a reason of a game in the prize races, in no form read here: {reason}")

    def whom(self, settled: str, other: str, words: str) -> None:
        """Whom a settled player plays: "the highest-ranked player in no race", "in no
        race (#7 plays #6)", "who races for 4th"."""
        rank = self.standings.rank
        in_no_race = [
            p
            for p in self.standings.ids[: rank(other) - 1]
            if p != settled
            and p in self.opponent
            and not self.races(p)
            and p not in self.race.settled
        ]
        if words == "the highest-ranked player in no race":
            assert not self.races(other) and not in_no_race, (settled, words)
        elif found := re.fullmatch(r"in no race \((.+)\)", words):
            assert not self.races(other) and in_no_race, (settled, words)
            self.about(settled, found.group(1))
        else:
            found = re.fullmatch(r"who races for (.+)", words)
            assert found, words
            assert self.places(found.group(1)) == self.races(other), words

    def swiss_reason(self, game: Sequence[str], reason: str) -> None:
        wins = {format_half(self.standings.player(p).half_wins) for p in game}
        if found := SWISS_GROUP.fullmatch(reason):
            assert wins == {found.group(1)}, (game, reason)
        elif found := SWISS_FLOAT.fullmatch(reason):
            higher = self.at(found.group(1))
            assert higher in game and len(wins) == 2, (game, reason)
            assert format_half(self.standings.player(higher).half_wins) == found.group(2)
        elif found := SWISS_OFF.fullmatch(reason):
            player = self.at(found.group(1))
            assert player in game, (game, reason)
            self.about(player, found.group(2))


def rounds_since(standings: Standings, a: str, b: str) -> int:
    """Rounds since ``a`` and ``b`` last met, by either's record (1: the last round)."""
    found = [
        back
        for x, y in ((a, b), (b, a))
        for back, other in enumerate(reversed(standings.player(x).opponents), start=1)
        if other == y
    ]
    return min(found)


def cuts(name: str, table) -> Iterator[tuple[AdvisedRound, Facts]]:
    """A division's last rounds, each advised from the standings before it, with its facts."""
    text = real_text(name)
    final = read_division(text).rounds
    for number in range(final - LAST_ROUNDS + 1, final + 1):
        advice = advised_round(text, name, number, table, final)
        known = {} if advice.problem else advice.known
        race = place_race(advice.among, advice.prizes, advice.cap, advice.rounds_left, known)
        yield advice, Facts(advice.among, race, [g.players for g in advice.advice.games])


@pytest.fixture(scope="module")
def table():
    from pairing_service.rules import load_rules

    return load_rules().scrabble


@pytest.mark.parametrize("name", sorted(FINALS))
def test_every_board_reason_is_true_of_the_pairing_answered(table, name: str):
    checked = 0
    for advice, facts in cuts(name, table):
        for game in advice.advice.games:
            players, reason = game.players, game.reason
            in_race = any(facts.races(p) or p in facts.race.settled for p in players)
            if reason.startswith("rest Swiss"):
                facts.swiss_reason(players, reason)
            elif in_race:
                facts.prize_reason(players, reason)
            checked += 1
    assert checked


@pytest.mark.parametrize("name", sorted(FINALS))
def test_repeat_lines_and_needs_are_true_of_the_pairing_answered(table, name: str):
    for advice, facts in cuts(name, table):
        standings = facts.standings
        pairs = [g.players for g in advice.advice.games if not g.bye]
        met = [standings.meetings(*pair) for pair in pairs]
        for warning in advice.advice.warnings:
            if found := REPEATS.fullmatch(warning):
                assert int(found.group(1)) == sum(1 for m in met if m), warning
                for nth, count in re.findall(rf"{ORD}(?: meetings)?: (\d+)", found.group(2)):
                    assert sum(1 for m in met if m + 1 == int(nth)) == int(count), warning
            elif found := MEETING.fullmatch(warning):
                a, b = facts.at(found.group(1)), facts.at(found.group(2))
                assert (a, b) in pairs or (b, a) in pairs, warning
                facts.meeting_cost(a, b, found.group(3))
        for need in advice.advice.needs:
            reach = facts.reach[need.player]
            if need.text.startswith("certain of "):
                assert facts.span(need.text.removeprefix("certain of ")) == facts.settled_span(
                    need.player
                ), need
            else:
                found = re.fullmatch(r"races for (.+?); (.+)", need.text)
                assert found, need
                worst = reach.worst if reach.worst is not None else facts.race.paid
                assert facts.span(found.group(1)) == (reach.best, worst), need
                # The money as the victors model says it of this pairing (``ways``): a
                # player certain of a paid place whatever the pairing is certain with it.
                money, (first, *_) = found.group(2), need.ways
                if reach.worst is not None:
                    assert money == "certain of the money", need
                if first == "is a victor whatever happens":
                    assert money == "certain of the money", need
                elif first == "cannot become a victor with this pairing":
                    assert money == "cannot reach the money with this pairing", need
                else:
                    assert money.startswith("for the money, needs to "), need


@pytest.mark.parametrize("name", sorted(FINALS))
def test_a_held_rounds_rule_says_only_what_its_posted_games_hold(table, name: str):
    # The same cut paired as a held event pairs its advisor round: the rule's facts are
    # said of the games posted, after any swap away from a back-to-back rematch.
    for advice, _ in cuts(name, table):
        if advice.known or advice.problem:
            continue  # players sitting out: a held event leaves them out of the standings
        standings = advice.standings
        amounts = advice.prizes.amounts
        final = FinalRound(
            table, advice.prizes.paid, advice.cap, advice.rounds_left, standings, amounts
        )
        places = Places(advice.prizes.paid, amounts, advice.cap, advice.rounds_left)
        byes = {p: standings.byes(p) for p in standings.ids}
        pairing = pair_round(
            "advisor", standings, standings.ids, byes, ALLOWANCE, {}, final=final, places=places
        )
        posted = [*pairing.games, *(((pairing.bye,),) if pairing.bye else ())]
        race = place_race(standings, advice.prizes, advice.cap, advice.rounds_left)
        facts = Facts(standings, race, posted)
        said = (pairing.rule or "").split("; ")
        assert said[0] == "prize places: place races head to head"
        for fact in said[1:]:
            if fact.startswith("partners swapped"):
                continue
            # Every form names first a player of its own game.
            first = re.match(r"#(\d+)", fact)
            assert first, fact
            player = facts.at(first.group(1))
            other = facts.opponent[player]
            facts.prize_reason((player,) if other is None else (player, other), fact)


VICTOR_CERTAIN = re.compile(r"#(\d+) is certain of a victor place: plays #(\d+), (.+)")
VICTORS_TOGETHER = re.compile(
    r"#(\d+) and #(\d+) are certain of victor places: they play each other(?: \((.+)\))?"
)
VICTOR_RACE = re.compile(r"#(\d+) and #(\d+) race for a victor place")
VICTOR_KEPT = re.compile(
    rf"#(\d+) and #(\d+) meet (again straight after their last game|a {ORD} time, "
    rf"(back to back and )?{PAST}): their race for a victor place kept head to head"
)
SENT_OUTSIDE = re.compile(r"#(\d+) plays #(\d+), (.+): sent outside the race by .+")


def out_of_contention(
    facts: Facts, relevant: set[str], player: str, other: str, words: str
) -> None:
    """Whom ``player`` plays, out of contention: the highest-ranked such player who plays
    (or the highest still free, a higher one playing elsewhere), or another and why."""
    standings = facts.standings
    higher = [
        p
        for p in standings.ids[: standings.rank(other) - 1]
        if p != player and p in facts.opponent and p not in relevant
    ]
    assert other not in relevant, words
    if words == "the highest-ranked player who cannot become a victor":
        assert not higher, words
    elif words == "the highest-ranked player still free who cannot become a victor":
        assert higher, words
    else:
        why = re.fullmatch(r"who cannot become a victor(?: \((.+)\))?", words)
        assert why, words
        if why.group(1):
            facts.about(player, why.group(1))


@pytest.mark.parametrize("name", sorted(FINALS))
def test_with_equal_victor_places_every_claim_is_true_of_the_pairing(table, name: str):
    # The same cuts with two equal victors (a tsh file's default): who is certain of a
    # victor place, who races for one, whom a Gibsonized player or a contender sent
    # outside the race plays, and why not the highest-ranked player out of contention.
    from pairing_service.engine.scrabble import advise
    from pairing_service.engine.scrabble.contention import contention

    for cut, _ in cuts(name, table):
        if cut.problem:
            continue
        standings, known = cut.standings, cut.known
        advice = advise(
            standings,
            table,
            victors=2,
            max_spread_per_game=cut.cap,
            rounds_left=cut.rounds_left,
            withdrawn=frozenset(known),
            known_results=known,
        )
        found = contention(standings, 2, cut.cap, cut.rounds_left, known)
        facts = Facts(
            standings,
            place_race(standings, cut.prizes, cut.cap, 1),
            [g.players for g in advice.games],
        )
        relevant = set(found.relevant)

        for game in advice.games:
            reason = game.reason
            if match := VICTOR_CERTAIN.fullmatch(reason):
                player, other = facts.at(match.group(1)), facts.at(match.group(2))
                assert player in found.clinched and facts.opponent[player] == other, reason
                out_of_contention(facts, relevant, player, other, match.group(3))
            elif match := VICTORS_TOGETHER.fullmatch(reason):
                a, b = facts.at(match.group(1)), facts.at(match.group(2))
                assert {a, b} == set(game.players) and {a, b} <= set(found.clinched), reason
                if match.group(3):
                    facts.meeting_cost(a, b, match.group(3))
            elif match := VICTOR_RACE.fullmatch(reason) or VICTOR_KEPT.fullmatch(reason):
                a, b = facts.at(match.group(1)), facts.at(match.group(2))
                assert {a, b} == set(game.players) and {a, b} <= set(found.contenders), reason
            elif match := SENT_OUTSIDE.fullmatch(reason):
                player, other = facts.at(match.group(1)), facts.at(match.group(2))
                assert player in found.contenders and facts.opponent[player] == other, reason
                out_of_contention(facts, relevant, player, other, match.group(3))
            elif reason.startswith("rest Swiss"):
                facts.swiss_reason(game.players, reason)
