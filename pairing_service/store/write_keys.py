"""Idempotency keys of writes to a held tournament, in the ``write_keys`` table (0006).

A write sent with an ``Idempotency-Key`` records the key's SHA-256, the digest of the
request and the log entry it appended, in the write's own transaction. Its retry (after an
answer lost on venue Wi-Fi) finds the entry and is answered with it, acting no second
time: a round is not started twice, a second undo takes nothing back. The same key with a
different request is refused. Keys are kept a day, as creates' are.

A token rotation records its key the same way, but its retry (which comes with the old
token: the answer carrying the new one was lost) is answered only for minutes after the
entry it appended (``ROTATION_RETRY_WINDOW``, ``director_tokens.py``), and only until the
new token is first used.
"""

from __future__ import annotations

import hmac
from datetime import datetime, timedelta

from sqlalchemy import Connection, delete, insert, select

from . import schema
from .tokens import hash_token

KEY_LIFETIME = timedelta(days=1)  # how long an idempotency key is answered
# How long a rotation's key, sent again with the token it replaced, answers the new token.
ROTATION_RETRY_WINDOW = timedelta(minutes=10)
TABLE = schema.write_keys


class IdempotencyKeyReused(Exception):
    """An idempotency key was sent before with a different request (a 422): nothing was
    done."""


def earlier_entry(
    conn: Connection, tournament_id: str, key: str, digest: str, at: datetime
) -> int | None:
    """The seq of the entry a write with this key appended, if one did within a day
    before ``at`` (IdempotencyKeyReused when it came with another request)."""
    row = conn.execute(
        select(TABLE.c.request_hash, TABLE.c.seq).where(
            TABLE.c.tournament_id == tournament_id,
            TABLE.c.key_hash == hash_token(key),
            TABLE.c.created_at >= at - KEY_LIFETIME,
        )
    ).one_or_none()
    if row is None:
        return None
    if not hmac.compare_digest(row.request_hash, digest):
        raise IdempotencyKeyReused(key)
    seq: int = row.seq
    return seq


def keep(
    conn: Connection, tournament_id: str, key: str, digest: str, seq: int, at: datetime
) -> None:
    """Record that the write with this key appended entry ``seq`` (forgetting this
    tournament's expired keys first: one may be used again)."""
    conn.execute(
        delete(TABLE).where(
            TABLE.c.tournament_id == tournament_id, TABLE.c.created_at < at - KEY_LIFETIME
        )
    )
    conn.execute(
        insert(TABLE).values(
            tournament_id=tournament_id,
            key_hash=hash_token(key),
            request_hash=digest,
            seq=seq,
            created_at=at,
        )
    )
