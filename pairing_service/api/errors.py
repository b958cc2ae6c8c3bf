"""RFC 9457 problem details for every error the service returns.

Validation errors carry ``errors: [{pointer, detail}]`` with JSON Pointers into the request
body (RFC 6901); a 422 that breaks one of the rules JSON Schema cannot state names it as
``rule`` (docs/validation.md). Anything unexpected becomes a 500 problem without
internals; a client must never cause one.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from http import HTTPStatus
from typing import Any

from flask import Flask, Response, current_app, json, render_template, request
from flask_smorest import Api
from flask_smorest.spec import prepare_response
from marshmallow import Schema, fields, validate
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug import exceptions as http
from werkzeug import routing
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.routing.converters import NumberConverter

from ..engine.errors import (
    Conflict,
    EngineError,
    FieldError,
    Location,
    NotFound,
    NotPermitted,
    Rule,
)
from ..store import (
    IdempotencyKeyReused,
    ResultStands,
    StaleRevision,
    TournamentNotFound,
    WrongToken,
)
from .common import RequiresPlugin, validator_properties
from .converters import LeagueNameConverter, PlayerIdConverter, TournamentIdConverter
from .costly import BUSY_RETRY_SECONDS, Busy
from .csv_upload import FileRead
from .held.conditions import HeaderParametersPlugin, etag
from .observe import request_id

PROBLEM_JSON = "application/problem+json"
log = logging.getLogger(__name__)


class FieldErrorSchema(Schema):
    pointer = fields.String(
        required=True, metadata={"description": "JSON Pointer into the request body"}
    )
    detail = fields.String(required=True)
    line = fields.Integer(
        metadata={
            "description": "A text/csv body: the line of the file the player is on (the "
            "pointer counts players, from 0; this counts the file's lines, from 1)."
        }
    )


class ProblemSchema(Schema):
    """RFC 9457 problem details."""

    type = fields.String(required=True, metadata={"example": "/problems/validation"})
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    instance = fields.String(
        metadata={"description": "This request: urn:pairing-advisor:request:<X-Request-ID>."}
    )
    errors = fields.List(fields.Nested(FieldErrorSchema))
    revision = fields.Integer(
        metadata={
            "description": "A 409 or 412 of a held tournament's write: its current revision "
            "(also the answer's ETag), to send as If-Match."
        }
    )
    stands = fields.Raw(
        metadata={
            "description": "A 409 for a result entered over a different one: the result "
            "that stands, as the history records it."
        }
    )
    rule = fields.String(
        validate=validate.OneOf([rule.value for rule in Rule]),
        metadata={
            "description": "A 422 only: the named rule the request breaks, when it is one that "
            "JSON Schema cannot state (docs/validation.md); every other constraint is in this "
            "document."
        },
    )


# Each type resolves to a page saying what it means and how to fix it (front_door.py).
PROBLEM_PAGE = "/problems/"
PROBLEM_TYPES = {
    400: PROBLEM_PAGE + "malformed-request",
    401: PROBLEM_PAGE + "token-required",
    403: PROBLEM_PAGE + "wrong-token",
    404: PROBLEM_PAGE + "not-found",
    409: PROBLEM_PAGE + "conflict",
    412: PROBLEM_PAGE + "stale-revision",
    429: PROBLEM_PAGE + "too-many-requests",
    413: PROBLEM_PAGE + "body-too-large",
    415: PROBLEM_PAGE + "unsupported-media-type",
    422: PROBLEM_PAGE + "validation",
    503: PROBLEM_PAGE + "unavailable",
}
# Types answered beside their status's own: a browser's origin refused (cors.py).
CORS_REFUSED = PROBLEM_PAGE + "cors-origin-refused"
BUSY = PROBLEM_PAGE + "busy"  # every slot for costly computations is taken (costly.py)
# A method the route does not take (405, with Allow); the page is the front door's to hold.
METHOD_NOT_ALLOWED = PROBLEM_PAGE + "method-not-allowed"
RETRY_AFTER_SECONDS = 5  # a database outage: when to try again
DATABASE_DOWN = (OperationalError, InterfaceError, PoolTimeout)  # not reached, or lost


class MissingToken(Exception):
    """A write without ``Authorization: Bearer <token>`` (a 401)."""


def pointer(*parts: object) -> str:
    """A JSON Pointer from path parts, escaping '~' and '/' as RFC 6901 says."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def flatten(messages: Any, path: tuple[object, ...] = ()) -> Iterator[dict[str, str]]:
    """webargs/marshmallow nested messages -> [{pointer, detail}]."""
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            here = path if key == "_schema" else (*path, key)
            yield from flatten(value, here)
    elif isinstance(messages, list | tuple):
        for item in messages:
            yield from flatten(item, path)
    else:
        yield {"pointer": pointer(*path), "detail": str(messages)}


def problem(
    status: int,
    detail: str,
    *,
    title: str | None = None,
    errors: list[dict[str, str]] | None = None,
    headers: Mapping[str, str] | None = None,
    rule: Rule | None = None,
    kind: str | None = None,
    extra: Mapping[str, Any] | None = None,
    file_lines: Sequence[int] = (),
) -> Response:
    """A problem+json answer; ``kind`` a type other than the status's own; ``file_lines``
    the file line of each player of a CSV body, for the errors to name."""
    body: dict[str, Any] = {
        "type": kind or PROBLEM_TYPES.get(status, "about:blank"),
        "title": title or HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
    }
    rid = request_id()
    if rid is not None:
        body["instance"] = f"urn:pairing-advisor:request:{rid}"
    if file_lines:
        errors, body["detail"] = _with_file_lines(errors or [], detail, file_lines)
    if errors:
        body["errors"] = errors
    if rule is not None:
        body["rule"] = rule.value
    body.update(extra or {})
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_JSON)
    if status == 404 and request.path.startswith(PAGES):
        response = _page_not_found(response, body["detail"])
    for name, value in (headers or {}).items():
        if name.lower() != "content-type":
            response.headers[name] = value
    return response


PAGES = "/events/"  # the players' and the director's pages, read in a browser


def _page_not_found(response: Response, detail: str) -> Response:
    """A browser asking for a page under ``/events/`` that is not there (an event, a round's
    slips, a season) gets a page saying so; an API client, asking for JSON or anything,
    still gets the problem+json. Made here, before the answer's headers are added, so the
    page gets a page's (its Content-Security-Policy)."""
    response.vary.add("Accept")  # a cache keeps the page and the problem apart
    offered = [PROBLEM_JSON, "application/json", "text/html"]
    if request.accept_mimetypes.best_match(offered) != "text/html":
        return response
    page = Response(render_template("not_found.html", detail=detail), 404)
    page.vary.add("Accept")
    return page


_PLAYER_AT = re.compile(r"/players/(\d+)(?:/[^\s:;]*)?")  # a pointer at a player, or in one


def _with_file_lines(
    errors: list[dict[str, Any]], detail: str, lines: Sequence[int]
) -> tuple[list[dict[str, Any]], str]:
    """A CSV body's problem: each player it points at named by their line in the file."""

    def line_of(found: re.Match[str] | None) -> int | None:
        index = int(found.group(1)) if found else -1
        return lines[index] if 0 <= index < len(lines) else None

    marked = []
    for error in errors:
        line = line_of(_PLAYER_AT.match(error.get("pointer", "")))
        marked.append(error if line is None else {**error, "line": line})

    def named(found: re.Match[str]) -> str:
        line = line_of(found)
        return found.group(0) if line is None else f"{found.group(0)} (CSV line {line})"

    return marked, _PLAYER_AT.sub(named, detail)


def field_problem(
    at: Location,
    message: str,
    status: int = 422,
    rule: Rule | None = None,
    file_lines: Sequence[int] = (),
) -> Response:
    """A problem about one field of the request, at ``at`` (``("players", 3, "id")``: the
    engine's input mirrors the request, so its locations are the request's); a CSV body's
    player named by their line in the file (``file_lines``)."""
    path = pointer(*at)
    return problem(
        status,
        f"{path or '/'}: {message}",
        errors=[{"pointer": path, "detail": message}],
        rule=rule,
        file_lines=file_lines,
    )


def at_revision(status: int, title: str, detail: str, revision: int, **extra: Any) -> Response:
    """A problem of a held tournament's write that names its current revision (``revision``
    and the ``ETag`` header), for the client to send as ``If-Match``."""
    return problem(
        status,
        detail,
        title=title,
        headers={"ETag": etag(revision)},
        extra={"revision": revision, **extra},
    )


def unavailable() -> Response:
    """503: the database cannot be reached now; nothing was written."""
    return problem(
        503,
        "the database cannot be reached now; nothing was written. Try again shortly",
        title="Database unavailable",
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )


class ProblemApi(Api):  # type: ignore[misc]
    """flask-smorest Api whose errors are problem+json, in the responses and in the spec."""

    ERROR_SCHEMA = ProblemSchema

    # The OpenAPI document is written on first use (``/openapi.json``, ``/docs``,
    # ``python -m pairing_service.openapi``), not at every start: describing every route
    # took about a third of ``create_app`` (0.9 s of 3 s on a loaded machine), which every
    # start and every restart waited for. Routes are served from registration on.
    @property
    def spec(self) -> Any:
        pending = self.__dict__.get("_undocumented") or []
        while pending:
            blueprint, name, parameters = pending.pop(0)
            blueprint.register_views_in_doc(
                self, self._app, self._spec, name=name, parameters=parameters
            )
            self._spec.tag({"name": name, "description": blueprint.description})
        return self._spec

    @spec.setter
    def spec(self, value: Any) -> None:
        self._spec = value

    def register_blueprint(self, blp: Any, *, parameters: Any = None, **options: Any) -> None:
        """flask-smorest's, with the blueprint's routes described in the document when it
        is first read."""
        name = options.get("name", blp.name)
        self._app.extensions["flask-smorest"]["blp_name_to_api"][name] = self
        self._app.register_blueprint(blp, **options)
        self.__dict__.setdefault("_undocumented", []).append((blp, name, parameters))

    def _init_spec(self, *, extra_plugins: Any = None, **kwargs: Any) -> None:
        """The spec with what this service's schemas state beyond marshmallow's own
        validators: whole-object constraints (:class:`RequiresPlugin`), ``multipleOf`` and
        ``uniqueItems`` (``validator_properties``)."""
        super()._init_spec(
            extra_plugins=[*(extra_plugins or ()), RequiresPlugin(), HeaderParametersPlugin()],
            **kwargs,
        )
        self.ma_plugin.converter.add_attribute_function(validator_properties)

    def _register_responses(self) -> None:
        """flask-smorest's default responses, with every error one as problem+json."""
        for status in HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if status >= 400:
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_JSON)
            self.spec.components.response(status.name, response, lazy=True)
        default = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(default, self.spec, PROBLEM_JSON)
        self.spec.components.response("DEFAULT_ERROR", default, lazy=True)

    def handle_http_exception(self, error: HTTPException) -> Response:
        data = getattr(error, "data", None) or {}
        status = error.code or 500
        headers = dict(error.get_headers()) if status == 405 else {}
        headers.update(data.get("headers") or {})
        messages = data.get("messages") or data.get("errors")
        if status == 400 and messages:
            return problem(400, _first_message(messages), headers=headers)
        if messages:
            # webargs wraps body errors under the location name ("json").
            body_messages = (
                messages.get("json", messages) if isinstance(messages, Mapping) else messages
            )
            file: FileRead = data.get("file") or FileRead()  # a file body's (parsing.py)
            errors = with_hints(list(flatten(body_messages)), file.hints)
            detail = "; ".join(f"{e['pointer'] or '/'}: {e['detail']}" for e in errors[:5])
            return problem(status, detail, errors=errors, headers=headers, file_lines=file.lines)
        if status == 405:
            return _method_not_allowed(headers)
        if status == 404 and not data and error.description == http.NotFound.description:
            return problem(404, _nothing_here())
        detail = data.get("message") or error.description or ""
        return problem(status, str(detail), headers=headers)


def _method_not_allowed(headers: dict[str, str]) -> Response:
    """405: the methods the route takes, in the detail and the ``Allow`` header."""
    allowed = [m.strip() for m in headers.get("Allow", "").split(",") if m.strip()]
    named = sorted(m for m in allowed if m not in ("HEAD", "OPTIONS")) or allowed
    return problem(
        405,
        f"{request.method} is not a method of {request.path}: it takes {' or '.join(named)}",
        headers=headers,
        kind=METHOD_NOT_ALLOWED,
    )


def _nothing_here() -> str:
    """A 404 of no route, or of a path whose id is malformed: which part, and what it
    must be."""
    if request.url_rule is not None:  # a route's own 404 (a page of no such thing)
        return f"there is nothing at {request.path}: check the URL"
    faults = [_wrong_parts(rule, request.path) for rule in current_app.url_map.iter_rules()]
    near = min((f for f in faults if f), key=len, default=None)
    if near:
        return f"no route {request.method} {request.path}: " + "; ".join(near)
    return (
        f"no route {request.method} {request.path}: the API reference (/docs, "
        "/openapi.json) lists every route, and the front door (/) what else is served"
    )


_VARIABLE = re.compile(r"<(?:[^:<>]+:)?([^:<>]+)>")


def _wrong_parts(rule: routing.Rule, path: str) -> list[str]:
    """What is wrong with the path's variable parts when its other parts are the rule's
    (none when the rule is not the one meant, or nothing is wrong)."""
    wanted, given = rule.rule.strip("/").split("/"), path.strip("/").split("/")
    if len(wanted) != len(given):
        return []
    wrong = []
    converters: Mapping[str, routing.BaseConverter] = getattr(rule, "_converters", {})
    for part, value in zip(wanted, given, strict=True):
        variable = _VARIABLE.fullmatch(part)
        if variable is None:
            if part != value:
                return []
            continue
        converter = converters.get(variable.group(1))
        if converter is None or _fits(converter, value):
            continue
        wrong.append(f"{value!r} is not {_what_it_is(variable.group(1), converter)}")
    return wrong


def _fits(converter: routing.BaseConverter, value: str) -> bool:
    if not re.fullmatch(converter.regex, value):
        return False
    try:
        converter.to_python(value)
    except routing.ValidationError:
        return False
    return True


def _what_it_is(name: str, converter: routing.BaseConverter) -> str:
    """A path variable's form, as a director would be told it."""
    if isinstance(converter, TournamentIdConverter):
        return "a tournament id: 32 lowercase hex digits, as its create answered"
    if isinstance(converter, LeagueNameConverter):
        return "a league's name: its division and letters, as 2-A"
    if isinstance(converter, PlayerIdConverter):
        return "a player id: 1-64 characters, no slash"
    if isinstance(converter, NumberConverter):
        low, high = converter.min, converter.max
        bounds = (
            f" from {low} to {high}"
            if low is not None and high is not None
            else f" from {low}"
            if low is not None
            else ""
        )
        return f"a whole number{bounds}"
    return f"a {name.replace('_', ' ')}"


def with_hints(errors: list[dict[str, str]], hints: Mapping[str, str]) -> list[dict[str, str]]:
    """Errors at a cell the body's reader has a hint for (a CSV's ``7,5``: write 7.5) with
    the hint after what is wrong."""
    return [
        {**error, "detail": f"{error['detail'].rstrip('.')}: {hints[error['pointer']]}"}
        if error["pointer"] in hints
        else error
        for error in errors
    ]


def _first_message(messages: Any) -> str:
    for item in flatten(messages):
        return item["detail"]
    return "malformed request"


# What each kind of the engine's refusals answers (a FieldError: a 422 at its field).
ENGINE_STATUSES: tuple[tuple[type[EngineError], int], ...] = (
    (Conflict, 409),
    (NotPermitted, 403),
    (NotFound, 404),
)


def register_error_handlers(app: Flask, api: ProblemApi) -> None:
    @app.errorhandler(MissingToken)
    def no_token(_: MissingToken) -> Response:
        return problem(
            401,
            "send the tournament's director token as 'Authorization: Bearer <token>'",
            headers={"WWW-Authenticate": 'Bearer realm="pairing-advisor"'},
        )

    @app.errorhandler(WrongToken)
    def wrong_token(_: WrongToken) -> Response:
        return problem(403, "this token does not belong to this tournament")

    @app.errorhandler(StaleRevision)
    def stale(error: StaleRevision) -> Response:
        return at_revision(
            412,
            "Stale revision",
            f"the tournament is at revision {error.revision} (ETag {etag(error.revision)}), "
            "not the one sent as If-Match: nothing was written; read it again and decide",
            error.revision,
        )

    @app.errorhandler(ResultStands)
    def result_stands(error: ResultStands) -> Response:
        return at_revision(
            409,
            "A different result stands",
            f"a different result stands; nothing was written. Entering this one would be: "
            f"{error.correction}. To correct it, send it again with If-Match: "
            f"{etag(error.revision)}",
            error.revision,
            stands=error.stands,
        )

    @app.errorhandler(IdempotencyKeyReused)
    def key_reused(_: IdempotencyKeyReused) -> Response:
        return problem(
            422,
            "Idempotency-Key: this key was sent before with a different request; nothing "
            "was made. A new request needs a new key",
        )

    @app.errorhandler(Busy)
    def busy(error: Busy) -> Response:
        return problem(
            503,
            f"the service is already running {error.slots} costly computation(s), its limit; "
            "try again shortly",
            title="Busy",
            kind=BUSY,
            headers={"Retry-After": str(BUSY_RETRY_SECONDS)},
        )

    @app.errorhandler(TournamentNotFound)
    def no_tournament(_: TournamentNotFound) -> Response:
        return problem(404, "there is no tournament with this id")

    @app.errorhandler(EngineError)
    def engine_refused(error: EngineError) -> Response:
        if isinstance(error, FieldError):
            return field_problem(error.at, error.message, rule=error.rule)
        for kind, status in ENGINE_STATUSES:
            if isinstance(error, kind):
                return problem(status, str(error))
        return unexpected(error)  # raised on purpose, but not a refusal: the service's fault

    def database_down(error: Exception) -> Response:
        log.warning("the database cannot be reached: %s", type(error).__name__)
        return unavailable()

    for outage in DATABASE_DOWN:
        app.register_error_handler(outage, database_down)

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Response:
        if isinstance(error, HTTPException):
            return api.handle_http_exception(error)
        log.exception("unhandled error")
        return api.handle_http_exception(InternalServerError("internal error; it has been logged"))
