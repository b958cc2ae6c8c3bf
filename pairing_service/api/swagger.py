"""Serve Swagger UI's files from the installed swagger-ui-bundle, so /docs works offline."""

from __future__ import annotations

from flask import Flask, send_from_directory
from werkzeug.wrappers import Response

ASSETS_URL = "/docs/assets/"


def register_swagger_assets(app: Flask) -> None:
    import swagger_ui_bundle

    folder = swagger_ui_bundle.swagger_ui_path

    @app.get(ASSETS_URL + "<path:filename>")
    def swagger_asset(filename: str) -> Response:
        return send_from_directory(folder, filename, max_age=3600)
