"""The service's front door: ``/`` (HTML, or JSON for ``Accept: application/json``) linking
what a newcomer looks for, ``/docs/`` sent to ``/docs``, and a page for every problem
``type`` the service answers (RFC 9457 asks that a type resolve to its explanation).

Plain Flask with Jinja templates (``templates/``), no script: the pages work with the
service's Content-Security-Policy and on a phone."""

from __future__ import annotations

from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version

from flask import Blueprint, Response, abort, redirect, render_template, request

from .errors import BUSY, CORS_REFUSED, METHOD_NOT_ALLOWED, PROBLEM_PAGE, PROBLEM_TYPES
from .hosts import HOST_REFUSED

bp = Blueprint("front_door", __name__, template_folder="templates")


@dataclass(frozen=True)
class Link:
    href: str
    title: str
    what: str


LINKS = (
    Link("/docs", "API reference", "every endpoint, its fields and examples; try them live"),
    Link("/openapi.json", "OpenAPI document", "the same reference as JSON, for client tools"),
    Link(
        "/widget/demo",
        "Widgets",
        "standings and pairings to embed in a tournament site, shown working",
    ),
    Link("/problems/", "Problems", "what each error answer means and how to fix it"),
    Link("/healthz", "Health", "whether the service is up"),
    Link("/readyz", "Readiness", "whether it can reach its database"),
)


@dataclass(frozen=True)
class ProblemPage:
    """What a problem type means, when the service answers it, and how to fix the request."""

    name: str
    status: int
    title: str
    meaning: str
    fix: str


PROBLEMS = (
    ProblemPage(
        "malformed-request",
        400,
        "Malformed request",
        "The body could not be read: not valid JSON, or a query string the route cannot parse.",
        "Send valid JSON with Content-Type: application/json (or the CSV or tsh text the "
        "route documents); the detail names what could not be read.",
    ),
    ProblemPage(
        "method-not-allowed",
        405,
        "Method not allowed",
        "The route exists but does not take this method (a GET of a route that only takes POST).",
        "Send one of the methods the detail names (the Allow header lists them too); the API "
        "reference gives each route's methods.",
    ),
    ProblemPage(
        "host-not-allowed",
        400,
        "Host not allowed",
        "The request named a host (its Host header: the name in the address typed or "
        "linked) that the service does not answer for. It answers loopback names and IP "
        "addresses, and the names its operator lists; a page that makes its own name "
        "point at the service (DNS rebinding) is refused this way, before anything runs.",
        "Use an address the service answers for (its IP address works, e.g. "
        "http://192.168.1.20:8000), or have the operator add the name to "
        "PAIRING_ALLOWED_HOSTS (comma-separated; *.club.example for every name under it) "
        "and restart the service.",
    ),
    ProblemPage(
        "token-required",
        401,
        "Token required",
        "A write to a held tournament came without its director token.",
        "Send the token the tournament's create answered, as Authorization: Bearer <token>.",
    ),
    ProblemPage(
        "wrong-token",
        403,
        "Wrong token",
        "The token sent is not this tournament's (or not a director's where one is needed).",
        "Use the token this tournament's create answered. A lost token cannot be read back; "
        "docs/events.md says how a director recovers.",
    ),
    ProblemPage(
        "cors-origin-refused",
        403,
        "Origin not allowed",
        "A browser page on another site called the service, and that site is not among the "
        "origins the service allows. The service refuses before doing anything.",
        "The service's operator adds the page's origin (scheme, host and port, e.g. "
        "https://club.example) to PAIRING_CORS_ORIGINS, a comma-separated list, and "
        "restarts the service.",
    ),
    ProblemPage(
        "not-found",
        404,
        "Not found",
        "No such route, tournament, round or player.",
        "Check the id in the URL: a tournament's id is the one its create answered; the "
        "detail names what is missing.",
    ),
    ProblemPage(
        "conflict",
        409,
        "Conflict",
        "The request is well formed but the tournament's state does not allow it now: a "
        "round already open or closed, a result already entered differently, a late "
        "correction that would change who goes out.",
        "Read the tournament (GET) to see its state; the detail says what is in the way and, "
        "for corrections, whom it would affect. Undo the action in the way, or correct it.",
    ),
    ProblemPage(
        "stale-revision",
        412,
        "Stale revision",
        "The write sent If-Match with a revision that is no longer the tournament's: someone "
        "wrote in between (another scorekeeper, the director). Nothing was written.",
        "Read the tournament again (its ETag is the current revision), check that your change "
        "still makes sense, and send it with the new If-Match (docs/events.md, Conflicting "
        "writes).",
    ),
    ProblemPage(
        "unavailable",
        503,
        "Service unavailable",
        "The service cannot reach its database just now (a restart, a network fault). Nothing "
        "was written; what was acknowledged before is kept.",
        "Send the same request again after the seconds Retry-After gives; /readyz says when "
        "the service is back (docs/operations.md).",
    ),
    ProblemPage(
        "busy",
        503,
        "Busy",
        "A costly computation (a simulation of whole events, or a stateless plan: seating, "
        "a round's pairing, a league schedule, a final round's advice or audit) was asked for "
        "while the service was already running as many as it allows at once, so that results "
        "and reads stay answered; a plan waits up to 2 seconds for one to finish first. "
        "Nothing was computed.",
        "Send the same request again after the seconds Retry-After gives, or ask for fewer "
        "simulated events. The operator sets the limit with PAIRING_COSTLY_CONCURRENCY.",
    ),
    ProblemPage(
        "body-too-large",
        413,
        "Body too large",
        "The request body is larger than the service accepts.",
        "Send less at once; the limit is PAIRING_MAX_CONTENT_LENGTH (1 MiB by default).",
    ),
    ProblemPage(
        "unsupported-media-type",
        415,
        "Unsupported media type",
        "The body's Content-Type is not one this route reads.",
        "Send application/json, or text/csv or text/plain where the route documents them "
        "(the API reference lists each route's media types).",
    ),
    ProblemPage(
        "validation",
        422,
        "Invalid field",
        "A field is missing, of the wrong type, out of range, or contradicts another.",
        "Each entry of errors has a JSON Pointer (pointer, e.g. /players/3/wins) to the "
        "field at fault and what is wrong with it; fix those fields and send again.",
    ),
    ProblemPage(
        "too-many-requests",
        429,
        "Too many requests",
        "More writes than the service's limit allows in its window.",
        "Wait the seconds Retry-After gives, then send again; the limit is "
        "PAIRING_WRITE_RATE_LIMIT.",
    ),
)
_BY_NAME = {page.name: page for page in PROBLEMS}


def _version() -> str:
    try:
        return version("pairing-service")
    except PackageNotFoundError:  # run from a source tree without installing
        return "unknown"


@bp.app_context_processor
def _service_version() -> dict[str, str]:
    return {"version": _version()}


def _wants_json() -> bool:
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


@bp.get("/")
def front_door() -> Response | dict[str, object]:
    if _wants_json():
        return {
            "service": "Pairing Advisor",
            "version": _version(),
            "links": [
                {"href": link.href, "title": link.title, "what": link.what} for link in LINKS
            ],
        }
    return Response(render_template("front_door.html", links=LINKS))


@bp.get("/docs/")
def docs_slash() -> Response:
    return redirect("/docs", 308)  # type: ignore[return-value]


@bp.get(PROBLEM_PAGE)
def problem_index() -> Response:
    return Response(render_template("problems.html", problems=PROBLEMS))


@bp.get(PROBLEM_PAGE + "<name>")
def problem_page(name: str) -> Response:
    page = _BY_NAME.get(name)
    if page is None:
        abort(404)
    return Response(render_template("problem.html", problem=page))


def problem_names() -> set[str]:
    """Every problem type the service answers, by name (the tests hold each to a page)."""
    answered = [*PROBLEM_TYPES.values(), CORS_REFUSED, BUSY, HOST_REFUSED, METHOD_NOT_ALLOWED]
    return {path.removeprefix(PROBLEM_PAGE) for path in answered}
