"""The installed import names: `promolint` from linter/ and `promolint_mypy` from mypy_plugin/."""

from __future__ import annotations

import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[1]


def _folders_to_packages() -> set[str]:
    """Every folder with an __init__.py under linter/ and mypy_plugin/, as its installed name."""
    names = set()
    for top, name in (("linter", "promolint"), ("mypy_plugin", "promolint_mypy")):
        for init in (REPO / top).rglob("__init__.py"):
            relative = init.parent.relative_to(REPO / top).parts
            names.add(".".join((name, *relative)))
    return names


def test_every_source_package_is_installed():
    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert set(setuptools["packages"]) == _folders_to_packages()
    assert setuptools["package-dir"] == {"promolint": "linter", "promolint_mypy": "mypy_plugin"}


def test_import_names_are_the_distributions_own():
    import promolint
    import promolint_mypy

    assert Path(promolint.__file__).parent == REPO / "linter"
    assert Path(promolint_mypy.__file__).parent == REPO / "mypy_plugin"
    assert "linter" not in sys.modules and "mypy_plugin" not in sys.modules
