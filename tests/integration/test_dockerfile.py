"""The image's Dockerfile (hadolint lints it in scripts/test; no Docker engine runs here)."""

from __future__ import annotations

from tests.support import ROOT


def test_the_docker_image_runs_as_a_non_root_user():
    lines = (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines()
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
