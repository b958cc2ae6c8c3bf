"""A Diagonal Race event's history in words: each action of its own (a round started,
a game's result or its correction, a late entrant, a round paired again, the settings);
the kinds every format played round by round shares are worded in ``round_ledger.py``."""

from __future__ import annotations

from collections.abc import Mapping

from ..event_codec import LogEvent
from ..names import called
from ..round_ledger import correction_words, result_words
from ..wording import counted
from .log_events import (
    Created,
    PlayerEntered,
    ResultCorrected,
    ResultEntered,
    RoundReseated,
    RoundStarted,
    SettingsChanged,
)


def _won(winner: str, pieces_left: int, names: Mapping[str, str]) -> str:
    return f"{names.get(winner, winner)} won, {pieces_left} pieces left"


def race_words(event: LogEvent, names: Mapping[str, str]) -> str | None:
    """A Diagonal action in the history's words, each player by the label ``names`` gives
    them; None for a kind every round-by-round format words alike."""
    match event:
        case Created(players=players):
            rated = "by rating" if players[0].rating is not None else "in the order listed"
            return f"Created with {len(players)} players, ranked {rated}"
        case RoundStarted(round=number, playoff=playoff, games=games, rematches=rematches):
            kind = "playoff" if playoff else f"{event.opponents} opponents each"
            again = f", {counted(rematches, 'rematch')}" if rematches else ""
            return f"Round {number} started ({kind}): {counted(len(games), 'game')}{again}"
        case ResultCorrected(round=number, game=game, winner=winner, was=was):
            now = _won(winner, event.pieces_left, names)
            before = _won(was.winner, was.pieces_left, names)
            return correction_words(number, f"game {game}", now, before, event.changes)
        case ResultEntered(round=number, game=game, winner=winner):
            return result_words(number, f"game {game}", _won(winner, event.pieces_left, names))
        case PlayerEntered(player=player, rating=rating, before_round=before_round):
            rated = f", rated {rating:g}" if rating is not None else ""
            return (
                f"{names.get(player, player)} entered late{rated}, "
                f"before round {before_round}, "
                f"starting with {counted(event.losses, 'loss')}"
            )
        case RoundReseated(round=number, no_shows=no_shows, games=games):
            return (
                f"Round {number} paired again without {called(names, no_shows)} "
                f"(no-show, dropped): {counted(len(games), 'game')}"
            )
        case SettingsChanged(settings=settings):
            return (
                f"Settings changed: a late entrant starts with the {settings.late_entry} "
                "losses of the players still in"
            )
    return None
