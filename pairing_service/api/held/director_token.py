"""The director token: every write to a held tournament sends ``Authorization: Bearer
<token>``, the token its create answered once (401 without one; the store answers 403 for
another tournament's token)."""

from __future__ import annotations

from typing import Any

from flask import request

from ..errors import MissingToken

MAX_TOKEN_LENGTH = 200
AUTH_DOC: dict[str, Any] = {"security": [{"BearerAuth": []}]}


def director_token() -> str:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise MissingToken
    return token[: MAX_TOKEN_LENGTH + 1]
