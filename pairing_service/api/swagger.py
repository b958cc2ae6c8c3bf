"""The API reference page: Swagger UI from the installed swagger-ui-bundle, served offline.

flask-smorest's own Swagger UI page starts the UI with an inline script, which the
service's Content-Security-Policy (``script-src 'self'``) blocks: the page stays blank.
Rather than weaken the policy, the page here loads its start-up code from a file the
service serves (``/docs/swagger-init.js``), so every script on it comes from 'self'.
"""

from __future__ import annotations

from flask import Flask, Response, send_from_directory, url_for

ASSETS_URL = "/docs/assets/"
PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}: API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{assets}swagger-ui.css">
</head>
<body>
<div id="swagger-ui" data-spec="{spec}"></div>
<script src="{assets}swagger-ui-bundle.js"></script>
<script src="{assets}swagger-ui-standalone-preset.js"></script>
<script src="/docs/swagger-init.js"></script>
</body>
</html>
"""
INIT = """// Starts Swagger UI on /docs (a file, not an inline script: the page's CSP allows only
// scripts from the service itself).
window.addEventListener("load", () => {
  const element = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: element.dataset.spec,
    domNode: element,
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: "BaseLayout",
  });
});
"""


def register_swagger_assets(app: Flask) -> None:
    import swagger_ui_bundle

    folder = swagger_ui_bundle.swagger_ui_path

    @app.get(ASSETS_URL + "<path:filename>")
    def swagger_asset(filename: str) -> Response:
        return send_from_directory(folder, filename, max_age=3600)

    @app.get("/docs")
    def swagger_page() -> Response:
        page = PAGE.format(
            title=app.config["API_TITLE"],
            assets=ASSETS_URL,
            spec=url_for("api-docs.openapi_json"),
        )
        return Response(page, mimetype="text/html")

    @app.get("/docs/swagger-init.js")
    def swagger_init() -> Response:
        return Response(INIT, mimetype="text/javascript", headers={"Cache-Control": "no-cache"})
