"""Meeple League: league points, tiebreakers, formation, schedules, lifetime (seed 001)."""

from .formation import Finish, Formation, League, Movement, NewPlayer, form_leagues, league_sizes
from .lifetime import Lifetime, SeasonLeague, lifetime
from .rules import LeagueRules
from .schedule import Schedule, check_schedule, meeting_bound, schedule
from .table import TIEBREAKERS, Game, InvalidLeague, Line, Result, league_table

__all__ = [
    "TIEBREAKERS",
    "Finish",
    "Formation",
    "Game",
    "InvalidLeague",
    "League",
    "LeagueRules",
    "Lifetime",
    "Line",
    "Movement",
    "NewPlayer",
    "Result",
    "Schedule",
    "SeasonLeague",
    "check_schedule",
    "form_leagues",
    "league_sizes",
    "league_table",
    "lifetime",
    "meeting_bound",
    "schedule",
]
