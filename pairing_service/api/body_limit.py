"""The body limit for chunked requests.

A body sent with ``Content-Length`` over ``MAX_CONTENT_LENGTH`` is refused 413 by Werkzeug
before it is read. A chunked body has no length: Werkzeug then reads at most the limit and
stops there without a word, so the JSON parser saw a truncated document and answered 400
"invalid JSON". Reading one byte past the limit here tells the two apart, and the body read
is handed on as if it had come with its length.
"""

from __future__ import annotations

import io

from flask import Flask, current_app, request
from werkzeug.exceptions import RequestEntityTooLarge


def _bounded_chunked_body() -> None:
    environ = request.environ
    if environ.get("CONTENT_LENGTH") or not environ.get("wsgi.input_terminated"):
        return
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit is None:
        return
    body = environ["wsgi.input"].read(limit + 1)
    if len(body) > limit:
        raise RequestEntityTooLarge(f"the request body is over {limit} bytes")
    environ["wsgi.input"] = io.BytesIO(body)
    environ["CONTENT_LENGTH"] = str(len(body))


def init_body_limit(app: Flask) -> None:
    app.before_request(_bounded_chunked_body)
