"""Commit subjects say what changed in at most 72 characters (git's own convention: a
subject that fits a terminal line in `git log --oneline` and in a shortlog).

The history before this check stays as it was written (125 subjects were longer); every
commit after ``CHECKED_FROM`` is held to the rule, merges included."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKED_FROM = "714f7dd0"  # the last commit before the check; its history stays as written
LONGEST_SUBJECT = 72


def _git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False
    )


def test_new_commit_subjects_fit_in_72_characters():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        if os.environ.get("CI") == "true":
            pytest.fail("CI runs on a clone: git and its history are needed for this check")
        pytest.skip("not a git checkout: no commit subjects to check")
    base = _git("rev-parse", "--verify", "--quiet", f"{CHECKED_FROM}^{{commit}}")
    if base.returncode != 0:
        # A shallow clone without the base: its newest commit is surely new.
        listed = _git("log", "-1", "--format=%h %s")
    else:
        listed = _git("log", "--format=%h %s", f"{CHECKED_FROM}..HEAD")
    assert listed.returncode == 0, listed.stderr
    long = [
        f"{line[:12]}… ({len(line.split(' ', 1)[1])} characters)"
        for line in listed.stdout.splitlines()
        if len(line.split(" ", 1)[1]) > LONGEST_SUBJECT
    ]
    assert not long, (
        f"commit subjects over {LONGEST_SUBJECT} characters (reword them, `git rebase -i`; "
        f"figures and reasons go in the body): {', '.join(long)}"
    )
