"""The README's tour runs as written: every shell example of its "Try it" section, in
order, in one bash process against a live gunicorn, each command failing the test when it
fails (``set -euo pipefail``, ``curl -f``); what each event ends with is checked."""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.support import ROOT


def section(title: str) -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def code_blocks(text: str) -> list[str]:
    """A section's indented code blocks (what a reader pastes into a shell)."""
    blocks: list[list[str]] = []
    in_block = False
    for line in text.splitlines():
        code = line.startswith("    ")
        if code and not in_block:
            blocks.append([])
        if code:
            blocks[-1].append(line[4:])
        in_block = code
    return ["\n".join(block) for block in blocks]


def tour() -> str:
    """The "Try it" section's code blocks, as one script: all of it shell, to paste top to
    bottom (the widget's HTML is in its own section, marked as HTML)."""
    return "\n".join(code_blocks(section("Try it")))


def test_the_set_up_installs_once_and_starts_offline_with_its_own_line():
    install, start, test = code_blocks(section("Set-up"))
    start_line = ".venv/bin/gunicorn --config gunicorn.conf.py 'pairing_service:create_app()'"
    assert install == f"python3 -m venv .venv && .venv/bin/pip install -e . && {start_line}"
    assert start == start_line  # no install: it starts without the package index
    assert test == "bash scripts/test"


def test_the_embed_snippet_is_html_and_names_the_origin_setting():
    embed = section("Embed in a tournament site")
    html = embed.split("```html\n", 1)[1].split("```", 1)[0]
    assert html.startswith('<script type="module"') and "<pairing-advisor " in html
    assert not code_blocks(embed)  # nothing there to paste into a shell
    assert "shows nothing until the service allows that origin" in embed
    assert "`PAIRING_CORS_ORIGINS`" in embed


def test_the_tour_is_shell_with_one_event_of_each_format():
    script = tour()
    for route in (
        "/v1/scrabble/final-round",
        "/v1/strikes/tournaments",
        "/v1/diagonal/events",
        "/v1/puffing-billy/events",
        "/v1/league/organisations",
    ):
        assert route in script
    assert "<script" not in script


@pytest.mark.slow
def test_every_readme_example_runs_in_order_against_a_live_server(gunicorn_server, tmp_path):
    base, _ = gunicorn_server
    script = re.sub(r"^BASE=.*$", f"BASE={base}", tour(), count=1, flags=re.M)
    ran = subprocess.run(
        ["bash", "-c", "set -euo pipefail\n" + script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = ran.stdout
    (ROOT / "test-output").mkdir(exist_ok=True)
    (ROOT / "test-output" / "readme-tour.txt").write_text(out + ran.stderr)  # to read it
    assert ran.returncode == 0, f"{ran.stderr[-3000:]}\n--- output ---\n{out[-3000:]}"
    assert "pair 1 " in out or "pair 2 " in out  # the tsh commands
    assert re.search(r"\['(Ann|Bob|Cat|Dan|Eve)'\]", out)  # the strikes night's winner
    assert "['ann']" in out  # the Diagonal Race's winner, the top-rated who won every game
    assert "['Damien']" in out  # won the final
    assert (tmp_path / "club-night.html").read_text().count("Club night") >= 1
