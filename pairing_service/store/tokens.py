"""Tokens as the store keeps them: only their SHA-256; a token it must answer again (a
retried create or rotation) is derived from secrets the client holds and a stored salt."""

from __future__ import annotations

import base64
import hashlib
import hmac
from datetime import UTC, datetime


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def derived_token(secret: str, tournament_id: str, salt: str) -> str:
    """A token derived from a secret the client holds (an idempotency key) and a random
    salt, so that a retry with the same secret can be answered the same token while only
    hashes are stored (the salt alone, or the stored hashes, do not give it)."""
    key = secret.encode("utf-8")
    digest = hmac.new(key, f"{tournament_id}:{salt}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def rotated_token(old_token: str, key: str, tournament_id: str, salt: str) -> str:
    """The token a rotation issues: derived from both secrets its retry must send again,
    the token it replaces and the rotation's idempotency key, as sent (neither alone
    gives it). Never from their hashes: the store keeps those (``previous_token_hash``,
    the write key's hash) beside the salt, and a copy of the database would give the
    director's new token."""
    return derived_token(f"{old_token}\0{key}", tournament_id, salt)


def now() -> datetime:
    return datetime.now(UTC)


def utc(moment: datetime) -> datetime:
    """SQLite gives back a naive datetime for a timezone-aware column: it was UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
