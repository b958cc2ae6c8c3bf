"""The thin Flask layer: schemas, one resource module per format, one errors module."""

from __future__ import annotations

from flask import Flask

from . import health, scrabble, strikes
from .errors import ProblemApi, register_error_handlers
from .swagger import register_swagger_assets


def init_api(app: Flask) -> ProblemApi:
    api = ProblemApi(app)
    api.register_blueprint(health.blp)
    api.register_blueprint(scrabble.blp)
    api.register_blueprint(strikes.blp)
    register_error_handlers(app, api)
    register_swagger_assets(app)
    return api
