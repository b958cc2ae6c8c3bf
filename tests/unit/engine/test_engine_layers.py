"""The engine's layers, read from its imports: pure (no web, database or I/O layer), and
within the Scrabble engine, packages that never import each other in a loop (``words`` under
``judge`` under ``explain`` under ``pairing`` under ``held``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import ROOT

ENGINE = ROOT / "pairing_service" / "engine"
OUTSIDE_THE_ENGINE = ("flask", "sqlalchemy", "pairing_service.api", "pairing_service.store")


def _module_name(path: Path) -> list[str]:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def imported_modules(path: Path) -> Iterator[str]:
    """Every module ``path`` imports, as an absolute dotted name."""
    package = _module_name(path)
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            yield ".".join([*base, *(node.module or "").split(".")]).strip(".")


def _package_loops(root: Path) -> list[tuple[str, str]]:
    """Pairs of sub-packages of ``root`` that reach each other through imports."""
    prefix = ".".join(_module_name(root / "__init__.py")) + "."
    packages = {path.name for path in root.iterdir() if (path / "__init__.py").exists()}
    edges: dict[str, set[str]] = {package: set() for package in packages}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            for name in imported_modules(path):
                target = name.removeprefix(prefix).split(".")[0] if name.startswith(prefix) else ""
                if target in packages and target != package:
                    edges[package].add(target)

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            here = todo.pop()
            if here == goal:
                return True
            if here not in seen:
                seen.add(here)
                todo.extend(edges[here])
        return False

    return sorted((a, b) for a in packages for b in edges[a] if reaches(b, a))


def test_the_engine_imports_no_web_or_database_layer() -> None:
    offending = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in ENGINE.rglob("*.py")
        for name in imported_modules(path)
        if name.startswith(OUTSIDE_THE_ENGINE)
    ]
    assert offending == []


def test_the_scrabble_engine_packages_import_each_other_without_a_loop() -> None:
    assert _package_loops(ENGINE / "scrabble") == []


def test_a_loop_between_packages_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The check itself: two packages importing each other are reported.
    root = tmp_path / "pairing_service" / "engine" / "toy"
    for package, other in (("judge", "explain"), ("explain", "judge")):
        (root / package).mkdir(parents=True)
        (root / package / "__init__.py").write_text("")
        (root / package / "words.py").write_text(f"from ..{other} import words\n")
    (root / "__init__.py").write_text("")
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    assert _package_loops(root) == [("explain", "judge"), ("judge", "explain")]
