"""A Meeple League organisation's history: what each action shows (token hashes and salts
to nobody, the players' e-mail addresses to the organiser only) and its words; and how a
season records a game with a seat empty, in words."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..event_codec import JSON, LogEvent
from ..event_log import Action, changed
from ..ranking import decimal_text
from ..wording import counted
from .log_events import (
    Created,
    GameCorrected,
    GameReported,
    PlayerEdited,
    Reported,
    ReportingTokenReissued,
    SeasonClosed,
    SeasonFormed,
    SeasonOpened,
    SeasonSettingsChanged,
    ShortGames,
    SignedUp,
)


def for_the_organiser(action: Action) -> Mapping[str, JSON]:
    """The action's data as the organiser sees it."""
    # Token hashes and salts are nobody's business.
    if action.kind == SeasonFormed.logged_as:
        return {k: v for k, v in action.data.items() if k not in ("reporters", "salt")}
    if action.kind == ReportingTokenReissued.logged_as:
        return {k: v for k, v in action.data.items() if k not in ("token_hash", "salt")}
    return action.data


def for_the_public(action: Action) -> Mapping[str, JSON]:
    """As the director sees it, less the players' e-mail addresses (sign-ups)."""
    data = for_the_organiser(action)
    if action.kind == PlayerEdited.logged_as:
        return {k: v for k, v in data.items() if k != "email"}
    players = data.get("players")
    if action.kind != SignedUp.logged_as or not isinstance(players, list):
        return data
    return dict(
        data,
        players=[
            {k: v for k, v in p.items() if k != "email"} if isinstance(p, dict) else p
            for p in players
        ],
    )


def league_words(event: LogEvent, names: Mapping[str, str]) -> str:
    """The action in the history's words, each player by the label ``names`` gives them
    (by id where it gives none)."""

    def who(player: str) -> str:
        return names.get(player, player)

    match event:
        case Created(settings=settings):
            return f"Created the {settings.code} organisation"
        case SeasonOpened(season=number, short_games=short):
            how = "" if short is None else f" ({short_words(short)})"
            return f"Season {number}: sign-ups open{how}"
        case SeasonSettingsChanged(season=number, short_games=short):
            return f"Season {number}: {short_words(short)}"
        case PlayerEdited(player=player, name=name):
            return f"Edited player {who(player)}'s record (name: {name or 'none'})"
        case SignedUp(season=number, players=players):
            ids = [who(p.id) for p in players]
            more = f" and {len(ids) - 8} more" if len(ids) > 8 else ""
            return f"Season {number}: signed up {', '.join(ids[:8])}{more}"
        case SeasonFormed(season=number, leagues=leagues, order=order):
            formed = counted(len(leagues), "league")
            return f"Season {number} formed: {formed}, {len(order)} players"
        case GameCorrected(season=number, league=league, game=game, results=results):
            return (
                f"Season {number}, league {league}, game {game} corrected: "
                f"{_places(results, who)} (was {_places(event.was, who)})"
                f"{changed(event.changes)}"
            )
        case GameReported(season=number, league=league, game=game, results=results):
            return f"Season {number}, league {league}, game {game}: {_places(results, who)}"
        case ReportingTokenReissued(season=number, player=player):
            return f"Season {number}: {who(player)}'s reporting token reissued"
        case SeasonClosed(season=number, winner=winner):
            return f"Season {number} closed: {who(winner)} won Division 1"
    raise ValueError(f"a league log has no action {event.logged_as!r}")


def _places(rows: Sequence[Reported], who: Callable[[str], str]) -> str:
    ordered = sorted(rows, key=lambda r: r.position)
    return ", ".join(
        f"{r.position}. {who(r.player)} {r.score}" + (" (dropped out)" if r.dropped_out else "")
        for r in ordered
    )


def short_words(short: ShortGames) -> str:
    """How a game with a seat empty is recorded, in words (the public page says it)."""
    if short.mode == "dropped_out":
        return (
            "a player who does not come to a game is reported as having dropped out of it: "
            "placed last, with no points; the three who played score their places on the "
            "4-player scale (10, 6, 3)"
        )
    scale = ", ".join(decimal_text(p) for p in short.points)
    return (
        "a game a player does not come to is a 3-player game: the absentee is left out of "
        f"it, and the three who played take {scale}"
    )
