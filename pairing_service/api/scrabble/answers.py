"""The final round's answer and an audit's, typed: built once from the engine's ``Advice``
(or ``Audit``) and the request's options, then dumped by ``answer_schemas`` (JSON) or
written by ``printable`` (``Accept: text/plain``). A field of the answer is added here, in
its schema, and in the text if the text shows it; ``tests/api/scrabble`` hold each
dataclass and its schema to the same fields.

The engine's objects are answered as they are where they hold the answer: the rule used
(``RuleUsed``), the seed's note on a principle (``SeedNote``), the place race's reach
(``Reach``, with the place held now beside it). The rest names ranks, names and
descriptions that the standings hold, not the engine's ``Game``, ``Outcome`` or ``Need``
(flask-smorest dumps the view's answer after the view returns, outside any context the
view could open for the schemas); a verdict and a need answer the seed's note on them,
which belongs to the advice's own pairing only (its alternatives and an audit answer
none); the whole answer joins the advice with the request's options.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum

from ...engine.scrabble import Advice, Game, Need, Outcome, SeedNote, Standings, Verdict
from ...engine.scrabble.plans import RuleUsed
from ...engine.scrabble.prize_places import place_labels


class NotAsked(Enum):
    """A part of the answer the request did not ask for: left out of the answer (where
    asking may still answer null, as too many outcomes do)."""

    NOT_ASKED = "not asked"


NOT_ASKED = NotAsked.NOT_ASKED


@dataclass(frozen=True, slots=True)
class PairingAnswer:
    """A game (or the bye) as answered; the audit takes these back as they are."""

    players: tuple[str, ...]
    names: tuple[str | None, ...]
    bye: bool
    ranks: tuple[int, ...]
    repeats: int
    reason: str


@dataclass(frozen=True, slots=True)
class ResultAnswer:
    player: str
    rank: int
    result: str  # win, draw, loss, or bye


@dataclass(frozen=True, slots=True)
class OutcomeAnswer:
    text: str
    complete: bool
    results: tuple[ResultAnswer, ...]


@dataclass(frozen=True, slots=True)
class ListedOutcomeAnswer(OutcomeAnswer):
    victors: tuple[str, ...]  # certain victors
    decided_by_spread: tuple[str, ...]  # victors for some margins only


@dataclass(frozen=True, slots=True)
class PrincipleAnswer:
    id: str
    status: str
    reason: str
    outcome: OutcomeAnswer | None  # the outcome that proves the principle broken
    seed: SeedNote | None  # the seed's row on this principle (the advice's own pairing)


@dataclass(frozen=True, slots=True)
class NeedAnswer:
    player: str
    rank: int
    text: str
    ways: tuple[str, ...]
    seed: str | None  # the seed row's own words (the advice's own pairing)


@dataclass(frozen=True, slots=True)
class AlternativeAnswer:
    source: str
    tradeoff: str
    pairings: tuple[PairingAnswer, ...]
    principles: tuple[PrincipleAnswer, ...]
    needs: tuple[NeedAnswer, ...]


@dataclass(frozen=True, slots=True)
class PlaceAnswer:
    player: str
    rank: int
    best: int
    worst: int | None
    text: str
    holds: str | None  # the place held now, with its prize


@dataclass(frozen=True, slots=True)
class FinalRoundAnswer:
    headline: str
    configuration: str
    rule: RuleUsed
    pairings: tuple[PairingAnswer, ...]
    gibsonized: tuple[str, ...]
    contenders: tuple[str, ...]
    principles: tuple[PrincipleAnswer, ...]
    needs: tuple[NeedAnswer, ...]
    alternatives: tuple[AlternativeAnswer, ...]
    preferred: str
    warnings: tuple[str, ...]
    clinching: str
    max_spread_per_game: int | None
    victors: int
    prizes: tuple[Decimal | None, ...] | None  # as asked for
    prize_model: str
    places: tuple[PlaceAnswer, ...]
    rounds_left: int
    repeats_allowed: int
    round: int | None
    tsh_commands: tuple[str, ...] | NotAsked = NOT_ASKED
    outcomes: tuple[ListedOutcomeAnswer, ...] | NotAsked | None = NOT_ASKED


@dataclass(frozen=True, slots=True)
class AuditAnswer:
    principles: tuple[PrincipleAnswer, ...]
    needs: tuple[NeedAnswer, ...]
    pairings: tuple[PairingAnswer, ...]
    recommendation: FinalRoundAnswer
    differences: tuple[str, ...]
    matches_recommendation: bool
    outcomes: tuple[ListedOutcomeAnswer, ...] | NotAsked | None = NOT_ASKED


@dataclass(frozen=True, slots=True)
class Asked:
    """What the request asked, as the final round's answer repeats it."""

    max_spread_per_game: int | None
    victors: int
    prizes: tuple[Decimal | None, ...] | None
    repeats_allowed: int
    round: int | None


def pairing_answer(standings: Standings, game: Game) -> PairingAnswer:
    return PairingAnswer(
        players=game.players,
        names=tuple(standings.player(p).name for p in game.players),
        bye=game.bye,
        ranks=tuple(standings.rank(p) for p in game.players),
        repeats=game.repeats,
        reason=game.reason,
    )


def _results(standings: Standings, outcome: Outcome) -> tuple[ResultAnswer, ...]:
    """The outcome's results in rank order."""
    return tuple(
        ResultAnswer(pid, standings.rank(pid), "bye" if result is None else result.value)
        for pid, result in sorted(outcome.results.items(), key=lambda i: standings.rank(i[0]))
    )


def outcome_answer(standings: Standings, outcome: Outcome | None) -> OutcomeAnswer | None:
    if outcome is None:
        return None
    return OutcomeAnswer(
        outcome.describe(standings), outcome.complete, _results(standings, outcome)
    )


def listed_outcome_answer(
    standings: Standings, outcome: Outcome, certain: Sequence[str], spread: Sequence[str]
) -> ListedOutcomeAnswer:
    """One outcome of a listing, with its certain victors and those spread decides."""
    return ListedOutcomeAnswer(
        outcome.describe(standings),
        outcome.complete,
        _results(standings, outcome),
        tuple(certain),
        tuple(spread),
    )


def principle_answers(
    standings: Standings, verdicts: Sequence[Verdict], notes: Mapping[str, SeedNote]
) -> tuple[PrincipleAnswer, ...]:
    return tuple(
        PrincipleAnswer(
            v.id, v.status, v.reason, outcome_answer(standings, v.outcome), notes.get(v.id)
        )
        for v in verdicts
    )


def need_answers(
    standings: Standings, needs: Sequence[Need], seed_needs: Sequence[Need]
) -> tuple[NeedAnswer, ...]:
    seed = {n.player: n.text for n in seed_needs}
    return tuple(
        NeedAnswer(n.player, standings.rank(n.player), n.text, n.ways, seed.get(n.player))
        for n in needs
    )


def _places(
    standings: Standings, advice: Advice, prizes: Sequence[Decimal | None]
) -> tuple[PlaceAnswer, ...]:
    holds = place_labels(prizes, [(p.half_wins, p.spread) for p in standings.ranked], unpaid=True)
    return tuple(
        PlaceAnswer(
            reach.player,
            standings.rank(reach.player),
            reach.best,
            reach.worst,
            reach.text(),
            holds[standings.rank(reach.player) - 1],
        )
        for reach in advice.places
    )


def final_round_answer(
    standings: Standings,
    advice: Advice,
    asked: Asked,
    tsh_commands: tuple[str, ...] | NotAsked = NOT_ASKED,
    outcomes: tuple[ListedOutcomeAnswer, ...] | NotAsked | None = NOT_ASKED,
) -> FinalRoundAnswer:
    """The advice joined with what the request asked."""
    notes = {n.id: n for n in advice.seed_notes}
    return FinalRoundAnswer(
        headline=advice.headline,
        configuration=advice.configuration,
        rule=advice.rule,
        pairings=tuple(pairing_answer(standings, g) for g in advice.games),
        gibsonized=advice.gibsonized,
        contenders=advice.contenders,
        principles=principle_answers(standings, advice.principles, notes),
        needs=need_answers(standings, advice.needs, advice.seed_needs),
        alternatives=tuple(
            AlternativeAnswer(
                alt.source,
                alt.tradeoff,
                tuple(pairing_answer(standings, g) for g in alt.games),
                principle_answers(standings, alt.principles, {}),
                need_answers(standings, alt.needs, ()),
            )
            for alt in advice.alternatives
        ),
        preferred=advice.preferred,
        warnings=advice.warnings,
        clinching=advice.clinching,
        max_spread_per_game=asked.max_spread_per_game,
        victors=asked.victors,
        prizes=asked.prizes,
        prize_model=advice.prize_model,
        places=_places(standings, advice, asked.prizes or ()),
        rounds_left=advice.rounds_left,
        repeats_allowed=asked.repeats_allowed,
        round=asked.round,
        tsh_commands=tsh_commands,
        outcomes=outcomes,
    )
