"""A proposed pairing (tsh's, COP's, a director's) judged against GP1-GP4 beside the
advisor's own recommendation; its outcomes listed; a pairing as the API gives it read."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..errors import Rule
from .contention import Contention
from .cost import DEFAULT_REPEATS_ALLOWED, RepeatPolicy
from .errors import InvalidStandings
from .explain.needs import needs
from .game import pairs_of
from .judge.comparison import Judge
from .judge.principles import Need, Verdict
from .judge.proof import Outcome, RoundUnderTest
from .pairing.advisor import Advice, advise
from .prize_places import PrizePlaces, place_race
from .rule_table import RuleTable
from .standings import Standings
from .withdrawals import field_of
from .words.games import pair_set_text


@dataclass(frozen=True)
class Audit:
    """A proposed pairing judged by the engine, beside the advisor's own recommendation."""

    principles: tuple[Verdict, ...]
    needs: tuple[Need, ...]
    recommendation: Advice
    differences: tuple[str, ...]
    matches_recommendation: bool


def audit(
    standings: Standings,
    table: RuleTable,
    pairs: Sequence[tuple[str, str]],
    bye: str | None,
    victors: int = 2,
    max_spread_per_game: int | None = None,
    rounds_left: int = 1,
    prefer: str = "table",
    withdrawn: frozenset[str] = frozenset(),
    repeats_allowed: int = DEFAULT_REPEATS_ALLOWED,
    known_results: Mapping[str, int] | None = None,
    prizes: PrizePlaces | None = None,
) -> Audit:
    """Judge any complete pairing of the field (e.g. tsh's or COP's) against GP1-GP4;
    players who sit the round out (``withdrawn``, with ``known_results``) as the advice
    takes them (``withdrawals.py``); ``prizes`` as the advice takes them, the principles
    judged with the paid places as victors."""
    if prizes is not None:
        victors = prizes.paid
    recommendation = advise(
        standings,
        table,
        victors,
        max_spread_per_game,
        rounds_left,
        prefer,
        withdrawn,
        repeats_allowed,
        known_results,
        prizes,
    )
    field = field_of(standings, victors, max_spread_per_game, rounds_left, withdrawn, known_results)
    in_contention = field.contention
    graded = prizes is not None and prizes.graded
    race = (
        place_race(standings, prizes, max_spread_per_game, rounds_left, known_results)
        if prizes is not None and graded
        else None
    )
    judge = Judge(
        standings,
        in_contention,
        bye,
        field.victors,
        max_spread_per_game,
        rounds_left,
        prize_races=None if race is None else race.races,
    )
    principles = judge.judge(pairs)
    judged = set(in_contention.judged)  # those sitting out have needs too
    ranked_relevant = [p for p in standings.ids if p in judged]
    player_needs = needs(judge.evaluate(pairs), ranked_relevant)
    proposed = _pair_set(pairs, bye)
    recommended_pairs = pairs_of(recommendation.games)
    recommended_bye = next((g.players[0] for g in recommendation.games if g.bye), None)
    recommended = _pair_set(recommended_pairs, recommended_bye)
    differences: list[str] = []
    if proposed != recommended:
        mine = pair_set_text(standings, proposed - recommended)
        theirs = pair_set_text(standings, recommended - proposed)
        differences.append(f"the recommendation pairs {theirs} where the proposal pairs {mine}")
    same_verdicts = True
    for ours, theirs_verdict in zip(recommendation.principles, principles, strict=True):
        if ours.status != theirs_verdict.status:
            same_verdicts = False
            differences.append(
                f"{ours.id}: {theirs_verdict.status} in the proposal ({theirs_verdict.reason}); "
                f"{ours.status} in the recommendation"
            )
    # Certain of the money but racing for a better place is not Gibsonized.
    settled = in_contention.clinched if race is None else race.settled
    differences += gibson_mistakes(standings, settled, in_contention, pairs)
    if proposed != recommended and same_verdicts:
        differences.append(_policy_difference(standings, pairs, recommended_pairs))
    return Audit(
        principles=tuple(principles),
        needs=tuple(player_needs),
        recommendation=recommendation,
        differences=tuple(differences),
        matches_recommendation=proposed == recommended,
    )


def gibson_mistakes(
    standings: Standings,
    certain: Sequence[str],
    contention: Contention,
    pairs: Sequence[tuple[str, str]],
) -> list[str]:
    """Each player certain of a victor place paired with a contender while someone who
    cannot become a victor was free to play them: the classic Gibson mistake (the
    contender's result is then handed to a player with nothing to play for)."""
    relevant = set(contention.relevant)
    outsiders_paired = [p for pair in pairs for p in pair if p not in relevant]
    if not outsiders_paired:
        return []
    tag = standings.tag
    return [
        f"{tag(a)} is certain of a victor place but plays {tag(b)}, who is still in "
        "contention, while players out of contention were available (a Gibson mistake)"
        for pair in pairs
        for a, b in (pair, pair[::-1])
        if a in certain and b in contention.contenders
    ]


def _policy_difference(
    standings: Standings,
    proposed: Sequence[tuple[str, str]],
    recommended: Sequence[tuple[str, str]],
) -> str:
    """Why the recommendation differs when the principles judge both alike: the pairing
    policy's counts, side by side."""

    policy = RepeatPolicy()  # its meeting levels do not depend on the allowance

    def counts(pairs: Sequence[tuple[str, str]]) -> tuple[int, int, int]:
        costs = [policy.pair_cost(standings, a, b) for a, b in pairs]
        rematches = sum(back for back, _, _ in costs)
        repeats = sum(1 for _, _, met in costs if met)
        top = sorted(pairs, key=lambda pair: min(map(standings.rank, pair)))[:10]
        gap = sum(abs(standings.rank(a) - standings.rank(b)) for a, b in top)
        return rematches, repeats, gap

    mine, theirs = counts(proposed), counts(recommended)
    return (
        "the principles judge both pairings alike; the recommendation follows the pairing "
        f"policy: back-to-back rematches {theirs[0]} (proposal {mine[0]}), games between "
        f"players who have met {theirs[1]} (proposal {mine[1]}), total rank gap on the top "
        f"10 boards {theirs[2]} (proposal {mine[2]})"
    )


def read_pairing(
    standings: Standings,
    games: Sequence[Sequence[str]],
    withdrawn: frozenset[str] = frozenset(),
) -> tuple[list[tuple[str, str]], str | None]:
    """A proposed pairing as (pairs, bye), when it pairs every player of the field but the
    withdrawn exactly once (one id is the bye, in an odd field only); else InvalidStandings
    naming the entry."""
    seen: set[str] = set()
    pairs: list[tuple[str, str]] = []
    bye: str | None = None
    for index, players in enumerate(games):
        for position, pid in enumerate(players):
            where = ("pairings", index, "players", position)
            if pid not in standings:
                raise InvalidStandings(
                    where, f"{pid!r} is not in the standings", rule=Rule.KNOWN_PLAYER
                )
            if pid in withdrawn:
                raise InvalidStandings(
                    where, f"{pid!r} has withdrawn", rule=Rule.PAIRING_COVERS_FIELD
                )
            if pid in seen:
                raise InvalidStandings(
                    where, f"{pid!r} is paired twice", rule=Rule.PAIRING_COVERS_FIELD
                )
            seen.add(pid)
        if len(players) == 1:
            if bye is not None or (len(standings) - len(withdrawn)) % 2 == 0:
                raise InvalidStandings(
                    ("pairings", index, "players"),
                    "only an odd field has a bye, and only one",
                    rule=Rule.PAIRING_COVERS_FIELD,
                )
            bye = players[0]
        elif len(players) == 2:
            pairs.append((players[0], players[1]))
        else:
            raise InvalidStandings(("pairings", index, "players"), "a game has two players")
    missing = [pid for pid in standings.ids if pid not in seen and pid not in withdrawn]
    if missing:
        raise InvalidStandings(
            ("pairings",), "not paired: " + ", ".join(missing[:10]), rule=Rule.PAIRING_COVERS_FIELD
        )
    return pairs, bye


def list_outcomes(
    standings: Standings,
    pairs: Sequence[tuple[str, str]],
    bye: str | None,
    victors: int = 2,
    max_spread_per_game: int | None = None,
    rounds_left: int = 1,
    limit: int = 729,
    withdrawn: frozenset[str] = frozenset(),
    known_results: Mapping[str, int] | None = None,
) -> list[tuple[Outcome, list[str], list[str]]] | None:
    """Every outcome of the contenders' games with its certain victors (of the places
    left to those who play) and the players it leaves to spread; None when there are more
    than ``limit`` outcomes."""
    field = field_of(standings, victors, max_spread_per_game, rounds_left, withdrawn, known_results)
    test = RoundUnderTest(
        standings,
        field.contention.relevant,
        pairs,
        bye,
        field.victors,
        max_spread_per_game,
        rounds_left,
        sitting_out=field.contention.fixed,
    )
    return test.listing(limit)


def _pair_set(pairs: Sequence[tuple[str, str]], bye: str | None) -> frozenset[frozenset[str]]:
    found = {frozenset(pair) for pair in pairs}
    if bye is not None:
        found.add(frozenset((bye,)))
    return frozenset(found)
