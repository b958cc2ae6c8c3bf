"""How an import decides a league organisation's log again (:func:`replayer`), and the
request that would have made each entry (:func:`request_of`): the format's part of the
backup and import routes (``api/held/backup.py``)."""

from __future__ import annotations

from typing import Any

from ...engine.event_codec import LogEvent
from ...engine.event_log import Action, Ledger
from ...engine.league.ledger import LeagueLedger
from ...engine.league.log_events import Created as OrganisationCreated
from ...engine.league.log_events import (
    GameReported,
    PlayerEdited,
    ReportingTokenReissued,
    SeasonClosed,
    SeasonFormed,
    SeasonOpened,
    SeasonSettingsChanged,
    ShortGames,
    SignedUp,
)
from ...engine.league.organisation import Organisation
from ...engine.league.season import SignUp
from ...store.backup import Replayer
from ..held.backup import FormatBackup, Request, named, named_in, unsupported
from .schemas import (
    GameReportIn,
    OrganisationIn,
    PlayerEditIn,
    SeasonIn,
    SeasonSettingsIn,
    SignUpsIn,
)


def replayer(ledger: Ledger[Any]) -> Replayer:
    assert isinstance(ledger, LeagueLedger)

    def decide(org: Organisation | None, event: LogEvent, actor: str) -> Action | None:
        match event:
            case OrganisationCreated(settings=settings):
                return ledger.created(settings.code, settings.short_games)
        assert org is not None
        match event:
            case SeasonOpened(short_games=short):
                return ledger.open_season(org, short)
            case SeasonSettingsChanged(season=number, short_games=short):
                return ledger.set_short_games(org, number, short)
            case PlayerEdited(player=player, name=name, email=email):
                return ledger.edit_player(org, player, name, email)
            case SignedUp(season=number, players=players):
                signups = [SignUp(p.id, p.name, p.laurels, p.email) for p in players]
                return ledger.sign_up(org, number, signups)
            case SeasonFormed(season=number, reporters=reporters, salt=salt):
                # The players' reporting tokens are kept (their hashes): they still work.
                tokens = {player: digest for digest, player in reporters.items()}
                return ledger.form(org, number, tokens, salt)
            case ReportingTokenReissued(season=n, player=player, token_hash=digest, salt=salt):
                return ledger.reissue_token(org, n, player, digest, salt)
            case GameReported(season=number, league=league, game=game, results=results):
                reported = [r.result() for r in results]  # or corrected
                return ledger.report(org, number, league, game, reported, actor)
            case SeasonClosed(season=number):
                return ledger.close_season(org, number)
        return unsupported(event)

    return Replayer(decide, frozenset({GameReported.logged_as}))


def _short_games_in(short: ShortGames) -> dict[str, Any]:
    """A league's ``short_games`` setting as a request sends it."""
    return {"mode": short.mode, "points": [float(p) for p in short.points]}


def request_of(event: LogEvent, name: str | None) -> Request | None:
    match event:
        case SignedUp(players=players):
            signups = [
                {**named(p.id, p.name), "laurels": float(p.laurels)}
                | ({} if p.email is None else {"email": p.email})
                for p in players
            ]
            return SignUpsIn, {"players": signups}
        case OrganisationCreated(settings=settings) if settings.short_games is not None:
            return OrganisationIn, {
                **named_in(name),
                "code": settings.code,
                "short_games": _short_games_in(settings.short_games),
            }
        case SeasonOpened(short_games=short) if short is not None:
            return SeasonIn, {"short_games": _short_games_in(short)}
        case SeasonSettingsChanged(short_games=short):
            return SeasonSettingsIn, {"short_games": _short_games_in(short)}
        case PlayerEdited(name=edited, email=email):
            return PlayerEditIn, {"name": edited, "email": email}
        case OrganisationCreated(settings=settings):
            return OrganisationIn, {**named_in(name), "code": settings.code}
        case GameReported(results=results):
            reported = [
                {"player": r.player, "score": r.score, "position": r.position}
                | ({"dropped_out": True} if r.dropped_out else {})
                for r in results
            ]
            return GameReportIn, {"results": reported}
    return None


BACKUP = FormatBackup(replayer, request_of)
