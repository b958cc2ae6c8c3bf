"""The README's tour runs as written: every shell example of its "Try it" section, in
order, in one bash process against a live gunicorn, each command failing the test when it
fails (``set -euo pipefail``, ``curl -f``); what each event ends with is checked."""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.support import ROOT


def tour() -> str:
    """The "Try it" section's indented code blocks, as one script (widget markup left out:
    it is HTML, not shell)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Try it", 1)[1].split("\n## ", 1)[0]
    blocks: list[list[str]] = []
    in_block = False
    for line in section.splitlines():
        code = line.startswith("    ")
        if code and not in_block:
            blocks.append([])
        if code:
            blocks[-1].append(line[4:])
        in_block = code
    shell = [block for block in blocks if not block[0].lstrip().startswith("<")]
    return "\n".join("\n".join(block) for block in shell)


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
