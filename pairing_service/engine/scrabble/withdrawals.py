"""Players who do not play the round: withdrawn (tsh's ``off``), resting finalists, no-shows.

A player who sits out with a **known result** (the spread each round left scores: tsh
scores a withdrawn player's later rounds as byes or forfeits of the ``off`` spread; a
finalist resting on byes gets the director's bye spread) has one final record, so
contention counts it exactly (``contention.fixed_final``). Then:

- out of reach of the victor places: not paired, and never displaces anyone;
- **certain of a victor place**: not paired, and the round is judged among those who play
  for the places left. This is exact: a player certain to finish in the top ``victors`` is
  above everyone else there or takes one of their places in every outcome, so the others'
  top ``victors - 1`` are the rest of the victors;
- a contender either way (a victor or not, depending on the others' results): not paired,
  and judged by the outcome engine at that one record in every outcome, as a unit with a
  fixed result (``Contention.sitting_out``; the bye is one too). The seed's table is left
  aside: its rows assume every contender plays.

A withdrawn player without a known result who can still become a victor is refused: tsh
would score their rounds, so the director gives that spread.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import Rule
from .contention import Contention, contention, fixed_final
from .errors import InvalidStandings
from .standings import Standings, format_half


@dataclass(frozen=True)
class RoundField:
    """Who plays for what: the contention among players who play (certain players sitting
    out taken out; contenders sitting out in ``contention.sitting_out``), the victor places
    left, and the notes to answer."""

    contention: Contention
    victors: int  # places left to the players who play (at least 1, see ``field_of``)
    resting_certain: tuple[str, ...]  # sit out certain of a place, in rank order
    warnings: tuple[str, ...]


def _refuse_unknown(
    standings: Standings, withdrawn: frozenset[str], known: Mapping[str, int]
) -> None:
    """InvalidStandings for a withdrawn player not in the standings, or a known result
    for a player who plays."""
    unknown = sorted(withdrawn - set(standings.ids))
    if unknown:
        raise InvalidStandings(("withdrawn",), f"not in the standings: {', '.join(unknown)}")
    playing = sorted(set(known) - withdrawn, key=standings.rank)
    if playing:
        raise InvalidStandings(
            ("withdrawn",),
            f"{standings.tag(playing[0])} has a known result but is not withdrawn",
            rule=Rule.WITHDRAWN_CONTENDER,
            player=playing[0],
        )


def _withdrawal_warnings(
    standings: Standings,
    withdrawn: frozenset[str],
    resting: tuple[str, ...],
    left: int,
    sitting: tuple[str, ...],
    known: Mapping[str, int],
    rounds_left: int,
) -> list[str]:
    """The notes on who is withdrawn, who sits out certain of a place (``left`` places
    for the others) and who sits out still in contention (``sitting``)."""
    warnings: list[str] = []
    if withdrawn:
        shown = ", ".join(standings.tag(p) for p in sorted(withdrawn, key=standings.rank))
        warnings.append(f"withdrawn, not paired: {shown}")
    if resting:
        names = ", ".join(standings.tag(p) for p in resting)
        warnings.append(
            f"{names} sit{'s' if len(resting) == 1 else ''} out certain of a victor place: "
            f"the round is judged for the other {left} place{'' if left == 1 else 's'} "
            "among those who play, without the seed's table (its rows assume every "
            "contender plays)"
        )
    rounds = max(rounds_left, 1)
    for player in sitting:
        record = standings.player(player)
        wins, spread = fixed_final(record.half_wins, record.spread, known[player], rounds)
        warnings.append(
            f"{standings.tag(player)} sits out ({known[player]:+d} a round): counted as "
            f"finishing at {format_half(wins)} wins, {spread:+d}"
        )
    if sitting:
        warnings.append(
            "a player sitting out may still finish either side of a victor line: every "
            "outcome is judged with their final record, without the seed's table (its rows "
            "assume every contender plays)"
        )
    return warnings


def field_of(
    standings: Standings,
    victors: int,
    cap: int | None,
    rounds_left: int,
    withdrawn: frozenset[str] = frozenset(),
    known: Mapping[str, int] | None = None,
) -> RoundField:
    """The round's field; ``known``: the spread each round left scores, for those of the
    ``withdrawn`` whose result is known. InvalidStandings for an unknown player, a known
    result for a player who plays, or a withdrawn player without a known result who can
    still become a victor."""
    known = known or {}
    _refuse_unknown(standings, withdrawn, known)
    whole = contention(standings, victors, cap, rounds_left, known)
    for player in whole.relevant:
        if player in withdrawn and player not in known:
            raise InvalidStandings(
                ("withdrawn",),
                f"{standings.tag(player)} withdrew but can still finish as a victor: give "
                "the spread their rounds score (tsh's off)",
                rule=Rule.WITHDRAWN_CONTENDER,
                player=player,
            )
    resting = tuple(p for p in whole.clinched if p in withdrawn)
    sitting = tuple(p for p in whole.contenders if p in withdrawn)
    left = victors - len(resting)
    warnings = _withdrawal_warnings(
        standings, withdrawn, resting, left, sitting, known, rounds_left
    )
    in_play = Contention(
        contenders=tuple(p for p in whole.contenders if p not in withdrawn),
        clinched=tuple(p for p in whole.clinched if p not in resting),
        sitting_out=tuple((p, known[p]) for p in sitting),
    )
    # With every place taken by players sitting out, nobody who plays can be a victor
    # (each has ``victors`` players surely above): no one is relevant, and one place
    # keeps the engine's arithmetic well defined without changing any verdict.
    return RoundField(in_play, max(left, 1), resting, tuple(warnings))
