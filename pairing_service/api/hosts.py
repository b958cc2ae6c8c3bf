"""The hosts the service answers for: a request whose ``Host`` is another is refused (400
problem+json, type ``/problems/host-not-allowed``) before anything else runs but its
request id.

Why: a page on a name its author controls can make that name resolve to the machine the
service runs on (DNS rebinding); the browser then sends the page's requests, with
``Origin`` and ``Host`` both that name, to the service, which must not take them for its
own page's (``cors.py``), nor write absolute links with a name a client chose (the event
pages' QR code and links).

``ALLOWED_HOSTS`` (env ``PAIRING_ALLOWED_HOSTS``, a list or a comma-separated string):
the names the service is reached by besides those always answered, loopback names
(``localhost``, ``*.localhost``) and IP address literals (``127.0.0.1``, ``[::1]``,
``192.168.1.20``: what a venue's phones type, and what health checks use; an address
cannot be rebound). An entry is a name (``pairing.club.example``), ``*.`` and a name for
every name under it (``*.club.example``), or ``*`` for every host (for a proxy that
checks hosts itself; a foreign host is then answered but still never taken as the
service's own origin). Ports are not compared: a name is allowed on every port.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request

from .errors import PROBLEM_PAGE, problem

HOST_REFUSED = PROBLEM_PAGE + "host-not-allowed"
LOOPBACK = "localhost"
EVERY_HOST = "*"
_EXTENSION = "pairing_allowed_hosts"


def host_name(host: str) -> str:
    """The name of a ``Host`` value, without its port, in lower case and without a final
    dot; an IPv6 literal without its brackets."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else ""
    if host.count(":") == 1:
        host = host.partition(":")[0]
    return host.rstrip(".")


def is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class AllowedHosts:
    names: frozenset[str]
    suffixes: tuple[str, ...]  # "*.club.example" as ".club.example"
    every: bool

    @classmethod
    def from_setting(cls, setting: str | Iterable[str] | None) -> AllowedHosts:
        items = setting.split(",") if isinstance(setting, str) else (setting or ())
        names, suffixes, every = set(), [], False
        for item in (str(item).strip() for item in items):
            if "://" in item:  # a URL given for its host
                item = urlsplit(item).netloc
            if item == EVERY_HOST:
                every = True
            elif item.startswith("*."):
                suffixes.append("." + host_name(item[2:]))
            elif item:
                names.add(host_name(item))
        return cls(frozenset(names), tuple(suffixes), every)

    def named(self, host: str) -> bool:
        """Whether ``host`` is one the service is reached by: a loopback name, an IP
        address, or a name listed (not merely let through by ``*``)."""
        name = host_name(host)
        return bool(name) and (
            name == LOOPBACK
            or name.endswith("." + LOOPBACK)
            or is_address(name)
            or name in self.names
            or name.endswith(self.suffixes)
        )

    def allows(self, host: str) -> bool:
        return self.every or self.named(host)


def allowed_hosts() -> AllowedHosts:
    """The app's allowed hosts (``init_hosts``); loopback names and addresses only before."""
    hosts: AllowedHosts | None = current_app.extensions.get(_EXTENSION)
    return hosts or AllowedHosts(frozenset(), (), False)


def own_origin() -> str | None:
    """The service's own origin for this request (``scheme://host[:port]``), or None when
    its ``Host`` is not one the service is reached by: a foreign name never is."""
    return request.host_url.rstrip("/") if allowed_hosts().named(request.host) else None


def init_hosts(app: Flask) -> None:
    app.extensions[_EXTENSION] = AllowedHosts.from_setting(app.config.get("ALLOWED_HOSTS"))

    @app.before_request
    def refuse_other_hosts() -> Response | None:
        if allowed_hosts().allows(request.host):
            return None
        shown = host_name(request.host)[:100] or "(none)"
        return problem(
            400,
            f"this service does not answer for the host {shown!r}: its operator adds the "
            "name it is reached by to PAIRING_ALLOWED_HOSTS (loopback names and IP "
            "addresses are always answered)",
            title="Host not allowed",
            kind=HOST_REFUSED,
        )
