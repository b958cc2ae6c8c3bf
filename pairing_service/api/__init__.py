"""The thin Flask layer: a folder per format (``formats.py`` registers them: every route and
page of a format comes from its entry there), what the held formats share (``held/``: the
director token, their blueprint, schemas, printable tables, the log and backup routes, the
director's list, the event pages and desk), one errors module."""

from __future__ import annotations

from collections.abc import Sequence

from flask import Flask

from . import front_door, health, widget
from .body_limit import init_body_limit
from .converters import CONVERTERS
from .cors import init_cors
from .costly import init_costly
from .errors import ProblemApi, register_error_handlers
from .formats import FORMATS, Format, register_formats
from .health import init_health
from .held import desk
from .held import pages as event_pages
from .held.conditions import init_conditions
from .held.links import init_event_links
from .hosts import init_hosts
from .observe import init_observe
from .parsing import init_query_values
from .public_reads import init_public_reads
from .public_url import init_public_url
from .ratelimit import init_rate_limit
from .swagger import register_swagger_assets


def init_api(app: Flask, formats: Sequence[Format] = FORMATS) -> ProblemApi:
    for name, (converter, _) in CONVERTERS.items():
        app.url_map.converters[name] = converter
    api = ProblemApi(app)
    for converter, schema in CONVERTERS.values():
        api.register_converter(converter, schema)
    api.spec.components.security_scheme("BearerAuth", {"type": "http", "scheme": "bearer"})
    api.register_blueprint(health.blp)
    register_formats(api, formats)
    init_event_links(app, formats)
    app.register_blueprint(widget.bp)
    app.register_blueprint(front_door.bp)
    app.register_blueprint(event_pages.bp)
    app.register_blueprint(desk.bp)
    for fmt in formats:
        for pages in fmt.own_pages:
            app.register_blueprint(pages)
    register_error_handlers(app, api)
    init_conditions(app)
    init_costly(app)
    init_observe(app)
    init_public_url(app)
    init_hosts(app)  # after the request id, before anything else looks at the request
    init_cors(app)
    init_rate_limit(app)
    init_body_limit(app)  # after the request id, the CORS check and the limit
    init_query_values(app)
    register_swagger_assets(app)
    init_health(app)
    init_public_reads(app)  # after every route: it wraps the reads of held tournaments
    return api
