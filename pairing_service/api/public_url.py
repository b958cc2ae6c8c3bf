"""The service's public address: the start of every absolute link that leaves the room (the
sheet's QR code and printed address, league letters, ``Link`` headers, creation answers).

``PUBLIC_URL`` (env ``PAIRING_PUBLIC_URL``), e.g. ``https://pairing.club.example`` or
``http://192.168.1.20:8000``: when set, every absolute link starts with it and a request's
``Host`` header never changes one (a client cannot steer a QR code or a letter). When it is
not set, links start with the address the request came in by (only ever a host the service
answers for, ``hosts.py``), and a link built from a loopback or private address is flagged
(:func:`link_warning`): printed from the laptop at ``127.0.0.1``, a QR code no phone can
open.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from flask import Flask, current_app, request

from .hosts import LOOPBACK, host_name

_EXTENSION = "pairing_public_url"
SETTING = "PAIRING_PUBLIC_URL"


def checked_public_url(value: object) -> str | None:
    """The setting as links start with it (no final ``/``), or None when unset; a value
    that is not an http(s) address with a host stops the service starting."""
    if value is None or value == "":
        return None
    text = str(value).strip()
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(
            f"{SETTING} must be an http or https address "
            f"(e.g. https://pairing.club.example); got {text!r}"
        )
    if parts.query or parts.fragment:
        raise ValueError(f"{SETTING} must not have a query or a fragment; got {text!r}")
    return text.rstrip("/")


def init_public_url(app: Flask) -> None:
    app.extensions[_EXTENSION] = checked_public_url(app.config.get("PUBLIC_URL"))


def configured_public_url() -> str | None:
    url: str | None = current_app.extensions.get(_EXTENSION)
    return url


def public_base() -> str:
    """Where absolute links start: the setting, else this request's own address."""
    return configured_public_url() or request.host_url.rstrip("/")


def absolute(path: str) -> str:
    """The absolute link to ``path`` (a path from the service's root, ``/events/…``)."""
    return public_base() + "/" + path.lstrip("/")


def is_unreachable_name(name: str) -> bool:
    """Whether a host name is one that only this machine or this network can open:
    loopback (``localhost``, ``127.0.0.1``, ``[::1]``), private, link-local or unspecified."""
    name = host_name(name)
    if name == LOOPBACK or name.endswith("." + LOOPBACK):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    return (
        address.is_loopback or address.is_private or address.is_link_local or address.is_unspecified
    )


def link_warning() -> str | None:
    """Words for the organiser when links are built from a loopback or private address and
    no public address is set; None when links will open elsewhere."""
    if configured_public_url() is not None:
        return None
    host = request.host
    if not is_unreachable_name(host):
        return None
    return (
        f"links and QR codes point at {request.host_url.rstrip('/')}, an address that "
        "phones outside this machine or network cannot open: set PAIRING_PUBLIC_URL to the "
        "address players use (for example http://192.168.1.20:8000 in the room, or the "
        "site's name) before printing or mailing anything"
    )
