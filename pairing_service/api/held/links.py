"""The links to a held event's pages, as every answer that hands them out writes them: its
public page (``/events/<format>/<id>``), the sheet to pin up (``…/sheet``) and the
director's desk (``…/desk``; the director's token goes in the link's fragment, by the
director's own hand, never in an answer's link). Absolute, from the public address
(``public_url.py``).

A created event's answer carries them in ``links`` (beside ``link_warning`` when they
would start with a loopback or private address) and in a ``Link`` header (RFC 8288):
``rel="alternate"; type="text/html"`` the page, the same with ``media="print"`` the sheet
(its printable version, as HTML marks one) and ``rel="edit"`` the desk (RFC 5023: where the
event is changed). Registered relation types only: RFC 8288 lets a bare name stand only
when IANA registered it, so "sheet" or "desk" would have to be URIs of our own; the body's
``links`` names each one plainly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flask import Flask, Response, current_app, request

from ..public_url import absolute

if TYPE_CHECKING:
    from ..formats import Format

_EXTENSION = "pairing_event_links"  # the app's held formats: HeldFormats
PAGES = (("page", ""), ("sheet", "/sheet"), ("desk", "/desk"))
RELATIONS = {
    "page": 'rel="alternate"; type="text/html"',
    "sheet": 'rel="alternate"; type="text/html"; media="print"',
    "desk": 'rel="edit"; type="text/html"',
}


@dataclass(frozen=True)
class HeldFormats:
    """The app's held formats (``init_event_links``, from the formats ``create_app`` serves),
    as the pages look them up while they answer: by their pages' path, by their name and by
    their blueprint's name."""

    by_path: Mapping[str, Format]
    by_name: Mapping[str, Format]
    by_blueprint: Mapping[str, Format]

    @classmethod
    def of(cls, formats: Sequence[Format]) -> HeldFormats:
        held = [fmt for fmt in formats if fmt.held is not None]
        return cls(
            {page_path(fmt.name): fmt for fmt in held},
            {fmt.name: fmt for fmt in held},
            {fmt.held.blueprint.name: fmt for fmt in held if fmt.held is not None},
        )


def held_formats() -> HeldFormats:
    """The held formats of the app answering this request (none before it knows them)."""
    found: HeldFormats = current_app.extensions.get(_EXTENSION) or HeldFormats.of(())
    return found


def scorekeeper_link(format_name: str, tournament_id: str, token: str) -> str | None:
    """A scorekeeper's phone page with their token in the fragment (for the director to
    hand over), or None for a format without a desk (``Format.desk``), whose page it is."""
    fmt = held_formats().by_name.get(format_name)
    if fmt is None or fmt.desk is None:
        return None
    path = page_path(format_name)
    return absolute(f"/events/{path}/{tournament_id}/scorekeeper") + f"#token={token}"


def page_path(format_name: str) -> str:
    """A format's part of its pages' addresses: ``puffing_billy`` -> ``puffing-billy``."""
    return format_name.replace("_", "-")


def event_links(format_name: str, tournament_id: str) -> dict[str, str]:
    """The absolute links to an event's page, sheet and desk."""
    base = f"/events/{page_path(format_name)}/{tournament_id}"
    return {kind: absolute(base + suffix) for kind, suffix in PAGES}


def links_of_request(tournament_id: str) -> dict[str, str] | None:
    """The links of an event made by this request's format (its blueprint's), or None
    outside a held format's routes."""
    fmt = held_formats().by_blueprint.get(request.blueprint or "")
    return None if fmt is None else event_links(fmt.name, tournament_id)


def init_event_links(app: Flask, formats: Sequence[Format]) -> None:
    """Keep the app's held formats (:func:`held_formats`: the pages find a format there by
    its path, the ``Link`` header by its blueprint), and add the ``Link`` header to the
    answer of every request that creates a held event (a 201 to a POST naming no event: a
    create, an import)."""
    app.extensions[_EXTENSION] = HeldFormats.of(formats)

    @app.after_request
    def link_created_event(response: Response) -> Response:
        if (
            response.status_code != 201
            or request.method != "POST"
            or "tournament_id" in (request.view_args or {})
            or not response.is_json
        ):
            return response
        made = response.get_json(silent=True)
        if not isinstance(made, dict) or not isinstance(made.get("id"), str):
            return response
        links = links_of_request(made["id"])
        if links is not None:
            response.headers.add(
                "Link", ", ".join(f"<{links[kind]}>; {RELATIONS[kind]}" for kind, _ in PAGES)
            )
        return response
