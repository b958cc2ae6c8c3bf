"""The thin Flask layer: schemas, one resource module per format, one errors module."""

from __future__ import annotations

from flask import Flask

from . import health, held_listing, scrabble, widget
from .converters import CONVERTERS
from .cors import init_cors
from .diagonal import events as diagonal_events
from .diagonal import tools as diagonal
from .errors import ProblemApi, register_error_handlers
from .league import organisations as league_organisations
from .league import tools as league
from .observe import init_observe
from .puffing_billy import events as puffing_billy_events
from .puffing_billy import tools as puffing_billy
from .ratelimit import init_rate_limit
from .strikes import tools as strikes
from .strikes import tournaments
from .swagger import register_swagger_assets


def init_api(app: Flask) -> ProblemApi:
    for name, (converter, _) in CONVERTERS.items():
        app.url_map.converters[name] = converter
    api = ProblemApi(app)
    for converter, schema in CONVERTERS.values():
        api.register_converter(converter, schema)
    api.spec.components.security_scheme("BearerAuth", {"type": "http", "scheme": "bearer"})
    api.register_blueprint(health.blp)
    api.register_blueprint(scrabble.blp)
    api.register_blueprint(strikes.blp)
    api.register_blueprint(tournaments.blp)
    api.register_blueprint(puffing_billy.blp)
    api.register_blueprint(diagonal.blp)
    api.register_blueprint(diagonal_events.blp)
    api.register_blueprint(puffing_billy_events.blp)
    api.register_blueprint(league.blp)
    api.register_blueprint(league_organisations.blp)
    api.register_blueprint(held_listing.listing)
    app.register_blueprint(widget.bp)
    register_error_handlers(app, api)
    init_observe(app)
    init_cors(app)
    init_rate_limit(app)
    register_swagger_assets(app)
    return api
