"""Conditional writes: every read or write of a held tournament answers its revision as an
``ETag`` (``"14"``), and a write may send it back as ``If-Match``. The store refuses a
write made on a revision that is no longer the tournament's (412), and a result entered
over a different one that stands unless the write names the revision it corrects (409,
saying what stands): two scorekeepers on one table are told, never silently replaced
(``docs/events.md``, "Conflicting writes")."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from apispec import BasePlugin
from flask import Flask, Response, g, has_request_context, request

from ...store import Conditions
from ...store.write_keys import ROTATION_RETRY_WINDOW

MAX_REVISION_DIGITS = 9  # a revision is an int in the database; longer is no revision of ours

IF_MATCH: dict[str, Any] = {
    "in": "header",
    "name": "If-Match",
    "required": False,
    "schema": {"type": "string"},
    "description": "The tournament's ETag (its revision, from any read or write of it): "
    "the write is made only at that revision (else 412, nothing written, the current "
    "ETag in the answer); `*`: at any. Needed to correct a result, game or board that "
    "has a different one (else 409, saying what stands).",
}


HEADERS = "x-header-parameters"  # a view's headers, as its doc names them for the plugin


class HeaderParametersPlugin(BasePlugin):
    """Adds the header parameters a view's doc names (``HEADERS``) to its operation's
    parameters: flask-smorest replaces, rather than extends, the parameters its
    ``arguments`` document when a doc names parameters of its own."""

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **_: Any
    ) -> None:
        for operation in (operations or {}).values():
            headers = operation.pop(HEADERS, [])
            operation.setdefault("parameters", []).extend(headers)


IDEMPOTENCY_KEY: dict[str, Any] = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "minLength": 16, "maxLength": 200, "pattern": "^[!-~]+$"},
    "description": "A key of the client's (a random UUID) that makes the create safe to "
    "retry for a day: the same key with the same request answers the same 201 (the same "
    "tournament and token) without making a second; with another request, 422. Whoever "
    "sends the key and the request gets the token: keep it as secret as the token.",
}
WRITE_IDEMPOTENCY_KEY: dict[str, Any] = {
    **IDEMPOTENCY_KEY,
    "description": "A key of the client's (a random UUID) that makes the write safe to "
    "retry for a day: the same key with the same request acts once, and its retry is "
    "answered with what the first did (the round it started, the entry it undid) without "
    "acting again; with another request, 422.",
}
ROTATION_IDEMPOTENCY_KEY: dict[str, Any] = {
    **IDEMPOTENCY_KEY,
    "required": True,
    "description": "A key of the client's (a random UUID), required: when the answer is "
    "lost, the same request with the same key and the old token, within "
    f"{ROTATION_RETRY_WINDOW.seconds // 60} minutes and until the new token is first "
    "used, answers the same new token without replacing it again. The old token alone is "
    "refused (403) from the rotation on. Without a key, 400.",
}
KEY_FORM = re.compile(r"[!-~]{16,200}")  # visible ASCII, as IDEMPOTENCY_KEY states it


def idempotency_key_problem() -> str | None:
    """What is wrong with the request's Idempotency-Key, if it sends a wrong one."""
    key = request.headers.get("Idempotency-Key")
    if key is None or KEY_FORM.fullmatch(key):
        return None
    return "Idempotency-Key: 16 to 200 visible ASCII characters (a random UUID, say)"


def etag(revision: int) -> str:
    return f'"{revision}"'


def request_conditions() -> Conditions:
    """The current request's conditions on a write (none outside a request)."""
    if not has_request_context():
        return Conditions()
    key = request.headers.get("Idempotency-Key")  # its form checked before the view ran
    idempotency: dict[str, Any] = {}
    if key is not None:
        idempotency = {"idempotency_key": key, "request_digest": request_digest()}
    if "If-Match" not in request.headers:
        return Conditions(**idempotency)
    tags = request.if_match
    if tags.star_tag:  # any revision: whatever stands is meant to be corrected
        return Conditions(names=True, **idempotency)
    revisions = frozenset(
        int(tag)
        for tag in tags.as_set()
        if tag and tag.isascii() and tag.isdigit() and len(tag) <= MAX_REVISION_DIGITS
    )
    return Conditions(names=True, revisions=revisions, **idempotency)


def request_digest() -> str:
    """The request as a retry repeats it: method, path and query, content type, body."""
    digest = hashlib.sha256()
    for part in (request.method, request.full_path, request.mimetype):
        digest.update(part.encode("utf-8") + b"\n")
    digest.update(request.get_data(cache=True))
    return digest.hexdigest()


def observe(tournament_id: str, revision: int) -> None:
    """The store read or wrote this tournament at this revision (the latest one counts)."""
    if has_request_context():
        g.held_revision = (tournament_id, revision)


def add_etag(response: Response) -> Response:
    """A successful answer about a held tournament carries its revision as its ETag. A read
    is never served stale from a cache: a public one is revalidated (``no-cache``, against
    the ETag: standings change as results come in), a director's is kept by nobody
    (``private, no-store``: it may hold players' e-mail addresses)."""
    seen = g.get("held_revision")
    if seen is None or response.status_code >= 300:
        return response
    tournament_id, revision = seen
    if (request.view_args or {}).get("tournament_id") == tournament_id:
        response.headers["ETag"] = etag(revision)
        if request.method == "GET":
            private = "Authorization" in request.headers
            response.headers["Cache-Control"] = "private, no-store" if private else "no-cache"
    return response


def init_conditions(app: Flask) -> None:
    """Answers carry the ETag ``observe`` saw. The store asks :func:`request_conditions`
    and tells :func:`observe`: the app gives both to it where it builds it
    (``pairing_service.open_store``)."""
    app.after_request(add_etag)
