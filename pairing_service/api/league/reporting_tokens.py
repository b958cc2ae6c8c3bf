"""Players' reporting tokens: each derived from the organiser's (director) token, the
player, the season and a random salt kept in the log, so that the organiser, and only the
organiser, can be shown them again (their letters, ``GET …/letters``) while the store
keeps nothing but hashes and salts. A copy of the database does not give a token: the
organiser's token is never stored. After the organiser's token is replaced, the old
derivation no longer matches and the letters fall back to the placeholder until the
player's token is reissued (``POST …/seasons/<n>/players/<id>/token``)."""

from __future__ import annotations

import hmac
import secrets

from ...engine.league.organisation import Organisation
from ...store.tokens import derived_token, hash_token

REISSUE_NEEDS_A_KEY = (
    "Idempotency-Key: a player's new reporting token is issued only to a request with a "
    'key (a random UUID: -H "Idempotency-Key: $(uuidgen)"), so that a lost answer can be '
    "asked for again: the same request with the same key answers the same token. Nothing "
    "was replaced; the player's current token still works"
)


def new_salt() -> str:
    return secrets.token_hex(16)


def reporting_token(
    director_token: str, tournament_id: str, number: int, player: str, salt: str
) -> str:
    """The reporting token of ``player`` in season ``number`` (``derived_token``: keyed
    by the organiser's token, which only the organiser holds)."""
    return derived_token(director_token, tournament_id, f"{salt}:{number}:{player}")


def shown_tokens(
    org: Organisation, tournament_id: str, number: int, director_token: str
) -> dict[str, str]:
    """Each player's reporting token for the organiser, where it still works and was
    derived from the organiser's token as sent (a player whose token came before the
    organiser's token was replaced, or from an older formation, is not in it)."""
    season = org.season(number)
    if season.status != "running":
        return {}  # no token works before the formation or after the close
    working = {player: digest for digest, player in season.reporters.items()}
    tokens = {}
    for player, salt in season.salts.items():
        token = reporting_token(director_token, tournament_id, number, player, salt)
        if player in working and hmac.compare_digest(hash_token(token), working[player]):
            tokens[player] = token
    return tokens
