"""The letter each player gets at the start of a season (seed 001: "an e-mail will be sent
to each player at the beginning of the season clearly specifying what games they are in,
who those games are with, and what they need to do next").

Plain text, for the organiser to mail-merge or for the service to send. It carries the
link to the player's report page (the league's public page where they enter a game's
scores): the page's address, their league, and their reporting token in the link's
fragment (``#token=…``), which a browser never sends to a server. The token is a
placeholder unless given: the service keeps only its hash, so only the formation itself
(which answers the tokens once) can fill it in.
"""

from __future__ import annotations

from urllib.parse import quote

from .history import short_words
from .organisation import Organisation

TOKEN_PLACEHOLDER = "<your reporting token>"


def letter(
    org: Organisation,
    season_number: int,
    player: str,
    report_page: str,
    token: str = TOKEN_PLACEHOLDER,
) -> str:
    """``report_page``: the address of the season's report page (``…/report``)."""
    season = org.season(season_number)
    league = season.league_of(player)
    if league is None:  # every signed-up player is in a league once the season is formed
        raise ValueError(f"{player!r} is in no league of season {season_number}")

    def who(pid: str) -> str:
        name = org.name_of(pid, season_number)
        return f"{name} ({pid})" if name else pid

    others = [who(p) for p in league.players if p != player]
    lines = [
        f"Dear {org.name_of(player, season_number) or player},",
        "",
        f"Season {season_number} of the {org.code} Meeple League is about to start. You play in "
        f"league {league.name} (Division {league.division}) with {', '.join(others)}.",
        "",
        "Your games (seat 1 starts):",
    ]
    mine = [g for _, g in sorted(league.games.items()) if player in g.seats]
    for game in mine:
        seat = game.seats.index(player) + 1
        opponents = ", ".join(who(p) for p in game.seats if p != player)
        lines.append(f"  {game.name}  seat {seat}  with {opponents}")
    lines += [
        "",
        "What to do next: set up (or join) each game online with the players listed, in "
        "the seat order given. When a game ends, its winner reports every player's score "
        "on their report page (the positions follow from the scores):",
        "",
        f"  {report_page}?league={quote(league.name)}#token={token}&player={quote(player)}",
        "",
        "The link carries your reporting token: it lets you report the games you play in, "
        "so keep it to yourself. A game is reported once; if a report is wrong, write to "
        "the organiser, who corrects it.",
        "",
        f"In this season, {short_words(season.short_games)}.",
        "",
        "Good games!",
    ]
    return "\n".join(lines) + "\n"
