"""Every environment variable the service, its gunicorn configuration and its tests read is
in the README's settings table, and the table names nothing that is not read."""

from __future__ import annotations

import re

from pairing_service import UNPREFIXED_SETTINGS
from tests.support import ROOT

# os.environ["X"], os.environ.get("X" ...), os.environ.get('X' ...)
ENVIRON = re.compile(r"""os\.environ(?:\.get\(|\[)\s*["']([A-Z][A-Z0-9_]*)["']""")
# app.config["X"], config.get("X" ...): a setting, read from PAIRING_X (create_app)
CONFIG = re.compile(r"""config(?:\.get\(|\[)\s*["']([A-Z][A-Z0-9_]*)["']""")
# Config keys that are flask-smorest's document settings, not an operator's.
NOT_SETTINGS = {"API_TITLE"}


def _sources() -> list[str]:
    files = [*ROOT.glob("pairing_service/**/*.py"), *ROOT.glob("tests/**/*.py")]
    files = [path for path in files if path != ROOT / "tests" / "test_settings_documented.py"]
    files += [ROOT / "gunicorn.conf.py"]
    return [path.read_text(encoding="utf-8") for path in files]


def _read_by_code() -> set[str]:
    sources = _sources()
    environ = {name for text in sources for name in ENVIRON.findall(text)}
    environ |= set(UNPREFIXED_SETTINGS)
    config = {
        name
        for text in sources
        for name in CONFIG.findall(text)
        if name not in NOT_SETTINGS and name not in environ
    }
    return environ | {f"PAIRING_{name}" for name in config}


def _documented() -> set[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Settings", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_]*)`", row.split("|")[1])}


def test_every_variable_read_is_in_the_readme_table():
    missing = _read_by_code() - _documented()
    assert not missing, f"read but not in the README's settings table: {sorted(missing)}"


def test_the_readme_table_names_only_variables_that_are_read():
    stale = _documented() - _read_by_code()
    # DATABASE_URL and SMTP_URL are read under both names (create_app, from_prefixed_env).
    stale -= {"PAIRING_DATABASE_URL", "PAIRING_SMTP_URL"}
    assert not stale, f"in the README's settings table but read nowhere: {sorted(stale)}"
