"""How a Meeple League organisation is folded from its log: each action applied to the
state (``organisation.py``), and the copy the store moves on without changing the one it
keeps."""

from __future__ import annotations

from dataclasses import replace

from ..event_codec import LogEvent
from .log_events import (
    GameCorrected,
    GameReported,
    PlayerEdited,
    ReportingTokenReissued,
    SeasonClosed,
    SeasonFormed,
    SeasonOpened,
    SeasonSettingsChanged,
    SignedUp,
)
from .organisation import Organisation
from .season import HeldGame, HeldLeague, PlayerRecord, Season, SignUp


def apply_league_event(org: Organisation, event: LogEvent, actor: str) -> None:
    """Move ``org`` on by ``event``, taken by ``actor`` (in place)."""
    match event:
        case SeasonOpened(season=number, short_games=short):
            org.seasons.append(Season(number, short_games=short or org.short_games))
        case SeasonSettingsChanged(season=number, short_games=short):
            org.season(number).short_games = short
        case PlayerEdited(player=player, name=name, email=email):
            record = org.record(player)
            record.names = [(0, name)] if name else []
            record.email = email
        case SignedUp(season=number, players=players):
            season = org.season(number)
            for p in players:
                season.signups[p.id] = SignUp(p.id, p.name, p.laurels, p.email)
                record = org.players.setdefault(p.id, PlayerRecord(p.id))
                if p.name:
                    record.names.append((number, p.name))
                if p.email:
                    record.email = p.email
        case SeasonFormed(season=number):
            _form(org, org.season(number), event)
        case GameReported(season=number, league=name, game=game, results=results):
            season = org.season(number)  # a report, or its correction
            league = season.league(name)
            league.games[game] = replace(
                league.game(game),
                results=tuple(r.result() for r in results),
                reported_by=actor,
            )
            if isinstance(event, GameCorrected) and event.finishes is not None:
                season.finishes = event.finishes  # a closed season's game, corrected
        case ReportingTokenReissued(season=number, player=player, token_hash=digest, salt=salt):
            season = org.season(number)
            season.reporters = {d: p for d, p in season.reporters.items() if p != player} | {
                digest: player
            }
            season.salts[player] = salt
        case SeasonClosed(season=number, finishes=finishes, winner=winner):
            season = org.season(number)
            season.status = "closed"
            season.winner = winner
            season.finishes = finishes
        case _:
            raise ValueError(f"a league log has no action {event.logged_as!r}")


def clone_organisation(org: Organisation) -> Organisation:
    """A copy of ``org`` that applying an action to leaves ``org`` as it was."""
    # apply() adds seasons, fills a season's sign-ups, leagues and finishes, and
    # replaces games (each immutable) in a league's games.
    copy = Organisation(org.code, org.rules, org.short_games)
    copy.players = {
        pid: replace(record, names=list(record.names)) for pid, record in org.players.items()
    }
    for season in org.seasons:
        leagues = {name: replace(lg, games=dict(lg.games)) for name, lg in season.leagues.items()}
        copy.seasons.append(
            replace(
                season,
                signups=dict(season.signups),
                leagues=leagues,
                reporters=dict(season.reporters),
                salts=dict(season.salts),
            )
        )
    return copy


def _form(org: Organisation, season: Season, formed: SeasonFormed) -> None:
    """Fold a season's formation: its leagues, each game named and seated."""
    season.status = "running"
    season.order = formed.order
    for league in formed.leagues:
        prefix = f"{org.code} S{season.number} L{league.name}"
        games = {
            k: HeldGame(league.name, k, f"{prefix} G{k}", seats)
            for k, seats in enumerate(league.games, start=1)
        }
        season.leagues[league.name] = HeldLeague(
            league.name, league.division, league.players, games
        )
    season.movements = formed.movements
    season.holes = formed.holes
    season.reporters = dict(formed.reporters)
    if formed.salt is not None:
        season.salts = dict.fromkeys(formed.reporters.values(), formed.salt)
