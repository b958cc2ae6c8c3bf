"""The package stays readable by the next maintainer: no module over 600 lines, no
function over a cyclomatic complexity of 25, and no module with a maintainability index
under 20 unless a comment in it says why (``# maintainability: ...``). Measured with radon,
the ecosystem's usual tool for both figures, on every module of ``pairing_service``."""

from __future__ import annotations

from pathlib import Path

import pytest
from radon.complexity import cc_visit
from radon.metrics import mi_visit

PACKAGE = Path(__file__).resolve().parent.parent / "pairing_service"
LONGEST_MODULE = 600
MOST_COMPLEX_FUNCTION = 25
LEAST_MAINTAINABLE = 20.0
EXPLAINED = "# maintainability:"
MODULES = sorted(p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts)


def _name(path: Path) -> str:
    return str(path.relative_to(PACKAGE.parent))


def test_the_package_has_modules_to_measure():
    assert len(MODULES) > 100, "the measures below would pass on an empty package"


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_module_fits_its_limits(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    lines = source.count("\n")
    assert lines <= LONGEST_MODULE, f"{_name(path)} has {lines} lines: split it by job"
    complex_ = [
        f"{block.fullname} ({block.complexity})"
        for block in cc_visit(source)
        if block.complexity > MOST_COMPLEX_FUNCTION
    ]
    assert not complex_, f"{_name(path)}: over {MOST_COMPLEX_FUNCTION}: {', '.join(complex_)}"
    index = mi_visit(source, multi=True)
    explained = any(line.lstrip().startswith(EXPLAINED) for line in source.splitlines())
    assert index >= LEAST_MAINTAINABLE or explained, (
        f"{_name(path)} has a maintainability index of {index:.1f}: split it, or say why "
        f"it stays in a comment starting {EXPLAINED!r}"
    )
