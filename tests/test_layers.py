"""The architecture contracts of pyproject.toml ([tool.importlinter]): the layers (dtypes and
lattice, systems, engine, rules, front ends, checker, command line) import only downwards, rules
read the engine only through its model, and no import circle exists in ``linter/`` or
``mypy_plugin/``.  Run by import-linter itself, so a new upward import or cycle fails the suite
with import-linter's own report."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from importlinter import cli as importlinter_cli

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
# What rules may import of the engine: the model, and the values and modes below it.
RULES_READ = {"promolint.engine.model", "promolint.engine.values", "promolint.engine.context"}


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


def _rules_contract() -> dict:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c.get("source_modules") == ["promolint.rules"])


def test_rules_are_forbidden_every_engine_module_but_the_model_values_and_context() -> None:
    engine = ROOT / "linter" / "engine"
    modules = {f"promolint.engine.{path.stem}" for path in engine.glob("*.py") if path.stem != "__init__"}
    modules |= {f"promolint.engine.{path.parent.name}" for path in engine.glob("*/__init__.py")}
    contract = _rules_contract()
    assert contract["type"] == "forbidden" and contract["allow_indirect_imports"] is True
    assert set(contract["forbidden_modules"]) == modules - RULES_READ


def test_the_rules_contract_breaks_when_a_rule_imports_the_flow(tmp_path: Path) -> None:
    """import-linter, given only the rules' contract, on a copy of the package where one rule
    imports the interpreter's flow: the contract is broken, at that import."""
    shutil.copytree(ROOT / "linter", tmp_path / "promolint", ignore=shutil.ignore_patterns("__pycache__"))
    rule = tmp_path / "promolint" / "rules" / "inplace_cast.py"
    rule.write_text(rule.read_text() + "\nfrom promolint.engine.flow import control  # noqa: E402\n")
    fields = "\n".join(f"{key} = {json.dumps(value)}" for key, value in _rules_contract().items())
    (tmp_path / "pyproject.toml").write_text(
        f'[tool.importlinter]\nroot_packages = ["promolint"]\n\n[[tool.importlinter.contracts]]\n{fields}\n')
    script = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(no_cache=True))"
    run = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(tmp_path)}, timeout=300)  # fmt: skip
    assert run.returncode != 0, run.stdout + run.stderr
    assert "1 broken" in run.stdout
    assert "promolint.rules.inplace_cast -> promolint.engine.flow" in run.stdout, run.stdout
