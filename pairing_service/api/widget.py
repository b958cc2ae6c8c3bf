"""The embeddable widget: a versioned ES module, and a demo page that embeds it."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory

WIDGET_DIR = Path(__file__).resolve().parent.parent / "widget"
CACHE = "public, max-age=3600"
FILES = {
    "v1/pairing-advisor.js": ("pairing-advisor.js", "text/javascript"),
    "demo.js": ("demo.js", "text/javascript"),
    "demo.css": ("demo.css", "text/css"),
    "demo": ("demo.html", "text/html"),
}

bp = Blueprint("widget", __name__, url_prefix="/widget")


def _serve(name: str) -> Response:
    filename, mimetype = FILES[name]
    response = send_from_directory(WIDGET_DIR, filename, mimetype=mimetype)
    response.headers["Cache-Control"] = CACHE
    return response


@bp.get("/v1/pairing-advisor.js")
def script() -> Response:
    return _serve("v1/pairing-advisor.js")


@bp.get("/demo")
def demo() -> Response:
    return _serve("demo")


@bp.get("/demo.js")
def demo_script() -> Response:
    return _serve("demo.js")


@bp.get("/demo.css")
def demo_style() -> Response:
    return _serve("demo.css")
