"""A Meeple League organisation's state, folded from its log (``ledger.py`` decides and
folds, ``fold.py`` applies each action): its seasons and players, what it reads off them
(a league's table, who goes up and down, the lifetime standings, the players' names and
the drop-outs a sign-up is flagged for), and the checks of what may happen now (a season
opened, formed, a game reported)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ..errors import Conflict, NotFound, NotPermitted, refuse_repeats
from ..event_log import DIRECTOR, numbered
from .formation import Finish, Formation, NewPlayer, form_leagues
from .lifetime import Lifetime, SeasonLeague, lifetime
from .log_events import DEFAULT_SHORT_GAMES, ShortGames
from .rules import LeagueRules
from .schedule import schedule
from .season import HeldGame, HeldLeague, PlayerRecord, Season
from .table import InvalidLeague, Line, Result, game_places, league_table

ORGANISER = DIRECTOR  # the organiser holds the director token


class NotYourGame(NotPermitted):
    """A player's reporting token for a game that player is not in."""

    def __str__(self) -> str:
        return f"this reporting token may not report this game: {super().__str__()}"


class Organisation:
    """The state of a held league organisation, folded from its log."""

    def __init__(
        self, code: str, rules: LeagueRules, short_games: ShortGames = DEFAULT_SHORT_GAMES
    ) -> None:
        self.code = code
        self.rules = rules
        self.short_games = short_games  # the seasons' default
        self.seasons: list[Season] = []
        self.players: dict[str, PlayerRecord] = {}  # by first sign-up

    def points(self, season: Season) -> dict[int, tuple[Fraction, ...]]:
        """League points by the number of players in a game, in ``season``: the rules'
        scale, and a 3-player game's when the season records short games so."""
        scale = dict(self.rules.league_points)
        if season.short_games.mode == "three_player":
            scale[3] = season.short_games.points
        return scale

    def record(self, player: str) -> PlayerRecord:
        if player not in self.players:
            raise NotFound(f"the organisation has no player {player!r}")
        return self.players[player]

    def email_of(self, player: str) -> str | None:
        found = self.players.get(player)
        return found.email if found else None

    @property
    def latest(self) -> Season | None:
        return self.seasons[-1] if self.seasons else None

    def season(self, number: int) -> Season:
        return numbered(self.seasons, number, "season")

    def table(self, season: Season, league: HeldLeague) -> list[Line]:
        """The league's table now, with the full tiebreaker chain."""
        lines = league_table(
            league.reported(),
            self.points(season),
            season.order,
            league.players,
            recorded=True,
        )
        for line in lines:
            line.name = self.name_of(line.player, season.number)
        return lines

    def moves(self, season: Season) -> tuple[list[str], list[str]]:
        """Who a closed season promotes (each league's winner below Division 1) and
        relegates (each league's bottom ``relegated`` above the bottom division)."""
        bottom = max((lg.division for lg in season.leagues.values()), default=0)
        relegated = self.rules.relegated
        down = [
            f.player
            for f in season.finishes
            if f.division < bottom
            and f.place > (f.league_size or self.rules.league_size) - relegated
        ]
        up = [f.player for f in season.finishes if f.place == 1 and f.division > 1]
        return up, down

    def names(self) -> dict[str, str | None]:
        """Each player's name as their record now holds it (None for one who gave none):
        the history names players so (``names.Named``)."""
        current = len(self.seasons)  # seasons are numbered 1, 2, ... in order
        return {player: self.name_of(player, current) for player in self.players}

    def name_of(self, player: str, through: int) -> str | None:
        """The player's display name as last given at a sign-up to season ``through`` or
        an earlier one (a returner need not give it again), or by the organiser's edit of
        the record; or None."""
        found = self.players.get(player)
        return found.name_through(through) if found else None

    def games_dropped_out_of(self, player: str, before: int) -> list[str]:
        """The games of seasons before ``before`` that ``player`` dropped out of, by name.
        The seed: "Players who drop out of games will lose their ability to play in future
        Meeple League events". A GM "empowered to fix things using their best judgment"
        decides, so the service flags such a sign-up (``drop_out_flags``) and refuses none."""
        return [
            game.name
            for season in self.seasons[: max(before - 1, 0)]
            for league in season.leagues.values()
            for game in league.games.values()
            if game.results is not None
            and any(r.player == player and r.dropped_out for r in game.results)
        ]

    def drop_out_flags(self, number: int) -> list[str]:
        """Season ``number``'s sign-ups who dropped out of a game before, in words."""
        flags = []
        for player in self.season(number).signups:
            games = self.games_dropped_out_of(player, number)
            if games:
                listed = ", ".join(games[:3]) + (
                    f" and {len(games) - 3} more" if len(games) > 3 else ""
                )
                flags.append(
                    f"{player} dropped out of {listed}: the league's rule is that players who "
                    "drop out of games lose their place in future events (the GM decides)"
                )
        return flags

    def most_recent_finish(self, player: str, before: int) -> Finish | None:
        for season in reversed(self.seasons[: before - 1]):
            for finish in season.finishes:
                if finish.player == player:
                    return finish
        return None

    def lifetime(self) -> Lifetime:
        """Lifetime standings by division and season winners, over the closed seasons."""
        played = []
        for season in self.seasons:
            if season.status != "closed":
                continue
            by_league: dict[str, list[Finish]] = {}
            for finish in season.finishes:
                by_league.setdefault(finish.league, []).append(finish)
            for name, finishes in by_league.items():
                standings = tuple((f.player, f.league_points) for f in finishes)
                played.append(SeasonLeague(season.number, name, standings))
        result = lifetime(played)
        for line in result.standings:
            line.name = self.name_of(line.player, len(self.seasons))
        return result

    def player_of(self, token_hash: str) -> str | None:
        latest = self.latest
        if latest is None or latest.status != "running":
            return None
        return latest.reporters.get(token_hash)

    # --- deciding -----------------------------------------------------------------------

    def check_open(self) -> int:
        latest = self.latest
        if latest is not None and latest.status != "closed":
            raise Conflict(f"season {latest.number} is not closed yet")
        return (latest.number if latest else 0) + 1

    def signup_season(self, number: int) -> Season:
        season = self.season(number)
        if season.status != "signup":
            raise Conflict(
                f"season {number} is formed: sign-ups are closed (a late entrant signs up "
                "for the next season)"
            )
        return season

    def formation(
        self, number: int
    ) -> tuple[Formation, list[tuple[str, tuple[tuple[str, ...], ...]]]]:
        """The season's leagues by Steps 1-7 and each league's games (seats in order)."""
        season = self.signup_season(number)
        if len(season.signups) < 4:
            raise Conflict("a season needs at least four players signed up")
        previous = self.seasons[number - 2] if number > 1 else None
        last = list(previous.finishes) if previous else []
        last_ids = {f.player for f in last}
        returning: list[Finish] = []
        new: list[NewPlayer] = []
        for player, signup in season.signups.items():
            if player in last_ids:
                continue
            finish = self.most_recent_finish(player, number)
            if finish is not None:
                returning.append(finish)
            else:
                new.append(NewPlayer(player, signup.laurels))
        formed = form_leagues(
            list(season.signups),
            last,
            returning,
            new,
            league_size=self.rules.league_size,
            relegated=self.rules.relegated,
        )
        games = [
            (league.name, schedule(league.players, self.rules.seven_player_grid).games)
            for league in formed.leagues
        ]
        return formed, games

    def check_report(
        self, number: int, league: str, game: int, results: Sequence[Result], actor: str
    ) -> HeldGame:
        """The game, if ``actor`` may report these results for it now."""
        season = self.season(number)
        closed_fix = season.status == "closed" and actor == ORGANISER
        if season.status != "running" and not closed_fix:
            raise Conflict(f"season {number} is {season.status}: no games to report")
        held = season.league(league).game(game)
        if actor != ORGANISER and actor not in held.seats:
            raise NotYourGame(f"{actor} did not play {held.name}")
        refuse_repeats([r.player for r in results], ("results",), InvalidLeague, ("player",))
        for index, result in enumerate(results):
            if result.player not in held.seats:
                raise InvalidLeague(
                    ("results", index, "player"),
                    f"{result.player!r} did not play {held.name} ({', '.join(held.seats)})",
                )
        missing = [p for p in held.seats if p not in {r.player for r in results}]
        short = season.short_games.mode == "three_player" and len(missing) == 1
        if missing and not short:
            also = (
                " (a 3-player game leaves out one absentee, no more)"
                if season.short_games.mode == "three_player"
                else " (list a player who did not come too, marked dropped_out)"
            )
            raise InvalidLeague(
                ("results",), f"no result for {', '.join(missing)} in {held.name}{also}"
            )
        game_places(results, self.points(season), seats=held.seats)
        return held


def season_finishes(org: Organisation, season: Season) -> list[Finish]:
    """Every league's finishes of a season by the full tiebreaker chain (every game
    reported)."""
    finishes = []
    for league in season.leagues.values():
        table = org.table(season, league)
        finishes += [
            Finish(
                line.player,
                league.division,
                league.name,
                place,
                line.league_points,
                line.wins,
                len(league.players),
                line.seconds,
                line.thirds,
                line.winner_share,
                line.margin,
                line.total_score,
                None if line.previous_rank is None else line.previous_rank + 1,
            )
            for place, line in enumerate(table, start=1)
        ]
    return finishes
