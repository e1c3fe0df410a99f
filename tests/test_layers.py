"""The architecture contracts of pyproject.toml ([tool.importlinter]): the layers (dtypes and
lattice, systems, engine, rules, front ends, checker, command line) import only downwards, and
no import circle exists in ``linter/`` or ``mypy_plugin/``.  Run by import-linter itself, so a
new upward import or cycle fails the suite with import-linter's own report."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from importlinter import cli as importlinter_cli
ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_are_kept(capsys: pytest.CaptureFixture[str]) -> None:
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        status = importlinter_cli.lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True)
    finally:
        os.chdir(here)
    report = capsys.readouterr().out
    assert status == 0, report
    assert "0 broken" in report
