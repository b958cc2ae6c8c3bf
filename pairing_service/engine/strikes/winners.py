"""Who won: the seed's endings, applied after each round.

After a round the survivors are the round's players (byes included) below the threshold.
Three or more survivors: the event goes on. One: they win. None (possible only through ties
for first): the fewest strikes among the round's players win, co-winners when tied. Two:

- one-table round (3-5 players at one table, no bye): the survivor with fewer strikes wins
  if they won the final game; if they came 2nd, both survivors are dual winners; if 3rd or
  worse, the winner of the final game wins. Tied strikes: whoever won the final game.
  Reading where the seed is silent: "the winner of the final game" is the survivor placed
  higher in it (the game's winner always survives unless they shared first place), and if
  the survivors also tied there they are dual winners;
- a round of two or more tables, or one table and a bye: fewer strikes wins; tied strikes:
  the larger margin of victory (own score minus the best other score at the table, so
  1st minus 2nd for a table winner, negative otherwise); tied or unknown margins (places
  entered without scores): dual winners.

Two dual or co-winners may play one 2-player tiebreak game when the game allows it; its
winner wins the event whatever the strikes.

Drops between rounds can leave players who cannot be seated (:func:`decide_after_drops`):
one player left wins; two who cannot play a 2-player game end it as two survivors would,
except that the final game's places are only a tiebreak (the drops, not that game, ended
the event): fewer strikes wins; tied, the seed's tiebreak for the last round's kind; tied
again, dual winners.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..ranking import ordinal
from .scoring import Scored


@dataclass(frozen=True)
class Ending:
    finished: bool
    winners: tuple[str, ...]
    # "continues", "last-survivor", "one-table", "several-tables", "all-eliminated",
    # "after-drops", "tiebreak-game"
    rule: str
    reason: str
    tiebreak_game: bool  # two winners and 2-player games allowed: a tiebreak game may decide


def survivors(
    round_players: Sequence[str], strikes: Mapping[str, Fraction], threshold: int
) -> list[str]:
    return [p for p in round_players if strikes[p] < threshold]


def decide(
    tables: Sequence[Sequence[Scored]],
    byes: Sequence[str],
    strikes: Mapping[str, Fraction],
    threshold: int,
    *,
    two_player_games: bool = False,
) -> Ending:
    """The ending after a round: ``tables`` hold its results, ``strikes`` the totals after it."""
    played = [s.player for table in tables for s in table]
    everyone = played + list(byes)
    alive = survivors(everyone, strikes, threshold)
    if len(alive) >= 3:
        return Ending(False, (), "continues", f"{len(alive)} players remain", False)
    if len(alive) == 1:
        return Ending(True, (alive[0],), "last-survivor", "the only player left", False)
    if not alive:
        fewest = min(strikes[p] for p in everyone)
        winners = tuple(p for p in everyone if strikes[p] == fewest)
        return _ending(
            winners,
            "all-eliminated",
            f"everyone reached {threshold}; fewest strikes in the final round ({_num(fewest)})",
            two_player_games,
        )
    first, second = sorted(alive, key=lambda p: strikes[p])
    if len(tables) == 1 and not byes:
        return _one_table(tables[0], first, second, strikes, two_player_games)
    return _several_tables(tables, byes, first, second, strikes, two_player_games)


def decide_after_drops(
    remaining: Sequence[str],
    tables: Sequence[Sequence[Scored]],
    byes: Sequence[str],
    strikes: Mapping[str, Fraction],
) -> Ending:
    """The ending when drops leave ``remaining`` (one player, or two who cannot play a
    2-player game) with no table to play at. ``tables`` and ``byes`` are the last closed
    round's (none before the first round), ``strikes`` the totals after it."""
    if len(remaining) == 1:
        reason = "the only player left: the others dropped or were eliminated"
        return Ending(True, (remaining[0],), "last-survivor", reason, False)
    if len(remaining) != 2:
        raise ValueError(f"{len(remaining)} players left can still play on")
    rule, why = "after-drops", "the last two cannot play a 2-player game"
    fewer, other = sorted(remaining, key=lambda p: strikes[p])
    if strikes[fewer] != strikes[other]:
        counts = f"{_num(strikes[fewer])} to {_num(strikes[other])}"
        return _ending((fewer,), rule, f"{why}; fewer strikes ({counts})", False)
    if not tables:  # dropped before the first round
        return _ending((fewer, other), rule, f"{why} and no game was played: dual winners", False)
    if len(tables) == 1 and not byes:
        tied = _one_table(tables[0], fewer, other, strikes, False)
    else:
        tied = _several_tables(tables, byes, fewer, other, strikes, False)
    return _ending(tied.winners, rule, f"{why}; {tied.reason}", False)


def _one_table(
    table: Sequence[Scored],
    fewer: str,
    other: str,
    strikes: Mapping[str, Fraction],
    two_player_games: bool,
) -> Ending:
    place = {s.player: s.place for s in table}
    rule = "one-table"
    if strikes[fewer] == strikes[other]:
        if place[fewer] == place[other]:
            return _ending(
                (fewer, other), rule, "tied on strikes and in the final game", two_player_games
            )
        better = min((fewer, other), key=lambda p: place[p])
        return _ending(
            (better,), rule, "tied on strikes; placed higher in the final game", two_player_games
        )
    if place[fewer] == 1:
        return _ending((fewer,), rule, "fewer strikes and won the final game", two_player_games)
    if place[fewer] == 2:
        return _ending(
            (fewer, other),
            rule,
            "fewer strikes but 2nd in the final game: dual winners",
            two_player_games,
        )
    if place[other] < place[fewer]:
        return _ending(
            (other,),
            rule,
            f"the player with fewer strikes came {ordinal(place[fewer])}; "
            "the final game's winner wins",
            two_player_games,
        )
    return _ending(
        (fewer,), rule, "fewer strikes and placed higher in the final game", two_player_games
    )


def _several_tables(
    tables: Sequence[Sequence[Scored]],
    byes: Sequence[str],
    fewer: str,
    other: str,
    strikes: Mapping[str, Fraction],
    two_player_games: bool,
) -> Ending:
    rule = "several-tables"
    if strikes[fewer] != strikes[other]:
        return _ending((fewer,), rule, "fewer strikes", two_player_games)
    margins = margins_of_victory(tables)
    first, second = margins.get(fewer), margins.get(other)
    if first is None or second is None:
        missing = " and ".join(
            _why_no_margin(p, byes)
            for p, margin in ((fewer, first), (other, second))
            if margin is None
        )
        return _ending(
            (fewer, other),
            rule,
            f"tied on strikes; no margin of victory to compare ({missing}): dual winners",
            two_player_games,
        )
    if first == second:
        return _ending(
            (fewer, other),
            rule,
            f"tied on strikes and on margin of victory ({first}): dual winners",
            two_player_games,
        )
    better = fewer if first > second else other
    return _ending(
        (better,),
        rule,
        f"tied on strikes; larger margin of victory ({max(first, second)} to {min(first, second)})",
        two_player_games,
    )


def margins_of_victory(tables: Sequence[Sequence[Scored]]) -> dict[str, int]:
    """Own score minus the best other score at the table, where scores were entered."""
    margins: dict[str, int] = {}
    for table in tables:
        for entry in table:
            others = [s.score for s in table if s.player != entry.player]
            if entry.score is not None and others and all(o is not None for o in others):
                margins[entry.player] = entry.score - max(o for o in others if o is not None)
    return margins


def _why_no_margin(player: str, byes: Sequence[str]) -> str:
    if player in byes:
        return f"{player} had a bye in the final round"
    return f"{player}'s table was entered by places, without scores"


def _ending(winners: tuple[str, ...], rule: str, reason: str, two_player_games: bool) -> Ending:
    return Ending(True, winners, rule, reason, two_player_games and len(winners) == 2)


def _num(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(value)


def decide_tiebreak(table: Sequence[Scored], previous: Ending) -> Ending:
    """The 2-player tiebreak game between two dual winners: its winner wins outright."""
    winners = tuple(s.player for s in table if s.place == 1)
    if len(winners) == 1:
        return Ending(True, winners, "tiebreak-game", "won the 2-player tiebreak game", False)
    return Ending(
        True, previous.winners, "tiebreak-game", "the tiebreak game was tied: co-winners", False
    )
