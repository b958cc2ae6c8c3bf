"""Write the OpenAPI document generated from the schemas: ``python -m pairing_service.openapi``."""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from . import create_app


def generate() -> str:
    # An in-memory database, never migrated: the document needs no storage.
    app = create_app({"TESTING": True, "DATABASE_URL": "sqlite://", "DATABASE_MIGRATE": False})
    with app.app_context():
        spec = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    return yaml.safe_dump(spec, sort_keys=False, allow_unicode=True)


if __name__ == "__main__":
    target = (
        Path(sys.argv[1])
        if len(sys.argv) > 1
        else Path(__file__).resolve().parent.parent / "openapi.yaml"
    )
    target.write_text(generate(), encoding="utf-8")
    print(f"wrote {target}")
