"""The committed OpenAPI document is the one the service generates, and it is valid."""

from __future__ import annotations

import yaml
from openapi_spec_validator import validate

from pairing_service.openapi import generate
from tests.support import ROOT


def test_committed_openapi_is_up_to_date():
    committed = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    assert committed == generate(), "run: python -m pairing_service.openapi"


def test_openapi_is_valid():
    validate(yaml.safe_load(generate()))
