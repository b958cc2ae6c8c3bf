"""A Meeple League season's letters: each player's league, games, seats and report link
(``engine/league/letters.py`` writes them), mailed at the formation when the service has
a mail server, else (and for every letter not sent) answered for the organiser to send."""

from __future__ import annotations

import logging
import smtplib

from flask import current_app, url_for

from ...engine.league.letters import TOKEN_PLACEHOLDER, letter
from ...engine.league.organisation import Organisation
from ...engine.league.season import Season
from ...mail import Mail, NotSent, send
from ...store import Held
from ..held.director_token import director_token
from ..public_url import absolute
from .reporting_tokens import shown_tokens
from .views import Letter, LetterNotSent

log = logging.getLogger(__name__)


def report_page_url(held: Held[Organisation], number: int) -> str:
    """The public page where a player reports a game of the season (``pages.py``); the
    letter adds the player's league and, in the URL's fragment, their token."""
    return absolute(url_for("league_pages.report_page", tournament_id=held.id, number=number))


NO_SMTP = (
    "the service has no mail server (SMTP_URL): send this player the letter beside this "
    "(their reporting token filled in)"
)


def send_letters(
    held: Held[Organisation], season: Season, tokens: dict[str, str]
) -> tuple[int, list[LetterNotSent]]:
    """Mail each player with an e-mail address their letter, token filled in (SMTP_URL);
    how many the server took, and every player not mailed, in sign-up order, with why."""
    url = current_app.config["SMTP_URL"]
    org = held.state
    why: dict[str, NotSent] = {}
    addressed = []
    for signup in season.signups.values():
        if signup.player not in tokens:  # a retried formation after a token change
            tokens[signup.player] = TOKEN_PLACEHOLDER
        if not org.email_of(signup.player):
            why[signup.player] = NotSent(
                "no_address", "no e-mail address was given, at this sign-up or before"
            )
        elif not url:
            why[signup.player] = NotSent("smtp_not_configured", NO_SMTP)
        else:
            addressed.append(signup)
    outcomes: list[NotSent | None] = []
    if addressed:
        report_url = report_page_url(held, season.number)
        mails = [
            Mail(
                org.email_of(s.player) or "",
                f"{org.code} Meeple League, season {season.number}: your games",
                letter(org, season.number, s.player, report_url, tokens[s.player]),
                org.name_of(s.player, season.number),
            )
            for s in addressed
        ]
        sender = current_app.config["MAIL_FROM"]
        try:
            outcomes = send(url, sender, mails, sender_name=f"{org.code} Meeple League")
        except (OSError, smtplib.SMTPException) as error:
            log.warning("league letters not sent: %s", type(error).__name__)
            detail = f"the mail server could not be reached ({type(error).__name__})"
            outcomes = [NotSent("unreachable", detail)] * len(addressed)
    why.update({s.player: o for s, o in zip(addressed, outcomes, strict=True) if o})
    # The organiser sends these by hand: each with its token filled in, as the mail would
    # have been (the tokens are answered this once; GET …/letters can only hold a
    # placeholder).
    report_url = report_page_url(held, season.number)
    not_sent = [
        LetterNotSent(
            player,
            why[player].reason,
            why[player].detail,
            letter(org, season.number, player, report_url, tokens[player]),
        )
        for player in season.signups
        if player in why
    ]
    return outcomes.count(None), not_sent


def letters_of(held: Held[Organisation], number: int, director: bool) -> list[Letter]:
    """The season's letters; each player's e-mail address (their record's) and reporting
    token (where it can be derived again: ``reporting_tokens.py``) only for the
    ``director``: the organiser mails them by hand without SMTP, or again after a bounce."""
    org = held.state
    season = org.season(number)
    if season.status == "signup":
        return []
    url = report_page_url(held, number)
    tokens = shown_tokens(org, held.id, number, director_token()) if director else {}
    return [
        Letter(
            s.player,
            org.email_of(s.player) if director else None,
            letter(org, number, s.player, url, tokens.get(s.player, TOKEN_PLACEHOLDER)),
            s.player in tokens,
        )
        for s in season.signups.values()
    ]
