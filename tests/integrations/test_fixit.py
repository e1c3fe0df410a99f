"""promolint inside Fixit and libcst: Fixit's own test generator on every rule's VALID/INVALID
examples, Fixit's runner (`fixit lint`, `fixit fix`) in a subprocess, the libcst API, and the
strict-casts codemod through `python -m libcst.tool codemod`."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
import unittest
from pathlib import Path

import libcst as cst
import pytest
from fixit import Invalid, Valid
from fixit.testing import generate_lint_rule_test_cases

from promolint.driver.config import Config
from promolint.cst import findings, smallest_change
from promolint.fixit import RULES
from promolint.engine.walker.analysis import Settings
from promolint.driver.lint import fix_source, lint_source
from promolint.rules import rule_by_code

ROOT = Path(__file__).resolve().parents[2]
README_EXAMPLE = (ROOT / "fixtures" / "readme_example.py").read_text()


def _project(directory: Path, table: str = "") -> Path:
    (directory / "pyproject.toml").write_text(
        f'[tool.fixit]\nenable = ["promolint.fixit"]\ndisable = ["fixit.rules"]\n\n[tool.promolint]\n{table}\n')
    return directory


def _run_fixit_generated_tests(rules: list) -> unittest.TestResult:
    """Fixit's test generator (the tests `add_lint_rule_tests_to_module` adds) on ``rules``."""
    loader = unittest.defaultTestLoader
    suite = unittest.TestSuite(loader.loadTestsFromTestCase(case) for case in generate_lint_rule_test_cases(rules))
    result = unittest.TestResult()
    suite.run(result)
    return result


def _assert_passed(result: unittest.TestResult, expected: int) -> None:
    problems = "\n".join(text for _, text in result.failures + result.errors)
    assert result.wasSuccessful(), problems
    assert result.testsRun == expected


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.__name__)
def test_fixit_generated_tests_pass_on_each_rules_examples(rule, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(_project(tmp_path))  # Fixit's harness lints <cwd>/valid.py: the default settings
    _assert_passed(_run_fixit_generated_tests([rule()]), len(rule.VALID) + len(rule.INVALID))
    assert rule.VALID, f"{rule.__name__} has no example Fixit can run under the default settings"


def _modes_table(x64: str, promotion: str, code: str, opt_in: bool) -> str:
    return f'x64 = "{x64}"\npromotion = "{promotion}"\n' + (f'extend-select = ["{code}"]\n' if opt_in else "")


def _example_groups():
    """The examples that need modes or an opt-in, grouped by the [tool.promolint] they need."""
    for rule in RULES:
        promolint_rule = rule_by_code(rule.CODE)
        groups: dict[tuple[str, str], tuple[list, list]] = {}
        for kind, examples in (("valid", promolint_rule.valid), ("invalid", promolint_rule.invalid)):
            for example in examples:
                default = (example.x64, example.promotion) == ("auto", "auto") and not (
                    kind == "invalid" and promolint_rule.opt_in)  # fmt: skip
                if not default:
                    code = textwrap.dedent(example.code)
                    cases = groups.setdefault((example.x64, example.promotion), ([], []))
                    cases[kind == "invalid"].append(Valid(code) if kind == "valid" else Invalid(code))
        for (x64, promotion), (valid, invalid) in groups.items():
            yield rule, x64, promotion, valid, invalid


@pytest.mark.parametrize(("rule", "x64", "promotion", "valid", "invalid"), list(_example_groups()),
                         ids=lambda v: v.__name__ if isinstance(v, type) else v if isinstance(v, str) else None)  # fmt: skip
def test_fixit_generated_tests_pass_on_examples_under_their_modes(rule, x64, promotion, valid, invalid, tmp_path,
                                                                  monkeypatch) -> None:  # fmt: skip
    monkeypatch.chdir(_project(tmp_path, _modes_table(x64, promotion, rule.CODE, rule_by_code(rule.CODE).opt_in)))
    variant = type(rule.__name__, (rule,), {"VALID": valid, "INVALID": invalid})
    _assert_passed(_run_fixit_generated_tests([variant()]), len(valid) + len(invalid))


def _documented_fixes():
    for rule in RULES:
        for example in rule_by_code(rule.CODE).invalid:
            if example.expected_replacement:
                yield rule, example


@pytest.mark.parametrize(("rule", "example"), list(_documented_fixes()),
                         ids=lambda v: v.__name__ if isinstance(v, type) else None)  # fmt: skip
def test_fixit_autofix_is_what_check_fix_writes(rule, example, tmp_path, monkeypatch) -> None:
    """The documented replacement, when `promolint check --fix` (safe fixes only) writes it;
    otherwise (an unsafe fix) Fixit offers no autofix and its message names the fix."""
    monkeypatch.chdir(_project(tmp_path, _modes_table(example.x64, example.promotion, rule.CODE,
                                                      rule_by_code(rule.CODE).opt_in)))  # fmt: skip
    code, expected = textwrap.dedent(example.code), textwrap.dedent(example.expected_replacement)
    fixed, _, _ = fix_source(code.encode(), "invalid.py", Settings(example.x64, example.promotion),
                             frozenset({rule.CODE}))  # fmt: skip
    if fixed.decode() == expected:
        variant = type(rule.__name__, (rule,), {"VALID": [], "INVALID": [Invalid(code, expected_replacement=expected)]})
        _assert_passed(_run_fixit_generated_tests([variant()]), 1)
    else:
        (finding,) = [f for f in findings(cst.parse_module(code), tmp_path / "invalid.py") if f.code == rule.CODE]
        assert finding.fix is not None and not finding.fix.safe and finding.replacement is None
        from fixit.engine import LintRunner
        from fixit.ftypes import Config

        runner = LintRunner(tmp_path / "invalid.py", code.encode())
        (violation,) = runner.collect_violations([rule()], Config(path=tmp_path / "invalid.py"))
        assert violation.replacement is None and "unsafe fix" in violation.message


def _fixit(project: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fixit", *args], cwd=project, capture_output=True, text=True)


def test_fixit_lint_reports_what_check_reports(tmp_path) -> None:
    project = _project(tmp_path)
    (project / "example.py").write_text(README_EXAMPLE)
    run = _fixit(project, "lint", "example.py")
    assert run.returncode == 1, run.stderr
    reported = sorted(line.split(": ", 1)[1].split(" ", 1)[0] for line in run.stdout.splitlines() if "@" in line)
    expected = sorted(d.code for d in lint_source(README_EXAMPLE.encode(), "example.py", Settings(),
                                                   frozenset(f"PRM00{i}" for i in range(10))))  # fmt: skip
    assert reported == expected
    assert "example.py@16:10 LiteralOverflow: PRM006 1000 does not fit int8" in run.stdout


def test_fixit_fix_writes_what_check_fix_writes(tmp_path) -> None:
    project = _project(tmp_path, 'promotion = "strict"')
    (project / "by_fixit.py").write_text(README_EXAMPLE)
    (project / "by_check.py").write_text(README_EXAMPLE)
    _fixit(project, "fix", "--automatic", "by_fixit.py")
    subprocess.run([sys.executable, "-m", "promolint", "check", "--fix", "--no-cache", "by_check.py"], cwd=project,
                   capture_output=True)  # fmt: skip
    fixed = (project / "by_check.py").read_text()
    assert fixed != README_EXAMPLE
    assert (project / "by_fixit.py").read_text() == fixed


def test_fixit_and_promolint_suppressions_both_hold(tmp_path) -> None:
    project = _project(tmp_path)
    code = textwrap.dedent("""
        import jax.numpy as jnp
        tokens = jnp.zeros(3, dtype=jnp.int8)
        a = tokens + 1000  # lint-ignore: LiteralOverflow
        b = tokens + 1000  # noqa: PRM006
        c = tokens + 1000
    """)
    (project / "example.py").write_text(code)
    run = _fixit(project, "lint", "example.py")
    assert [line.split("@")[1].split(" ")[0] for line in run.stdout.splitlines() if "@" in line] == ["6:4"]


def test_findings_sit_at_the_reported_libcst_nodes() -> None:
    module = cst.parse_module(README_EXAMPLE)
    found = findings(module, config=Config(x64="off"), fixes="all")  # PRM007 needs x64 off for sure
    settings = Settings(x64="off")
    diagnostics = lint_source(README_EXAMPLE.encode(), "<module>", settings, frozenset(f"PRM00{i}" for i in range(10)))
    assert [(f.code, f.range.start.line, f.range.start.column + 1) for f in found] == [
        (d.code, d.line, d.column) for d in diagnostics]
    lines = README_EXAMPLE.splitlines()
    for finding in found:
        start, end = finding.range.start, finding.range.end
        assert module.code_for_node(finding.node).strip() == lines[start.line - 1][start.column : end.column]
    # Each fix, as a node replacement, is the edit `check --fix` makes of that finding alone.
    for finding in (f for f in found if f.replacement is not None):
        original, replacement = finding.replacement
        rewritten = module.deep_replace(original, replacement).code
        expected, _, _ = fix_source(README_EXAMPLE.encode(), "<module>", settings, frozenset({finding.code}), unsafe=True)
        assert rewritten == expected.decode(), finding.code
    assert {f.code for f in found if f.replacement is not None} == {"PRM002", "PRM004", "PRM007"}


def test_smallest_change_descends_to_the_edited_node() -> None:
    before = cst.parse_module("x = f(a, b)\ny = 1\n")
    node, new = smallest_change(before, cst.parse_module("x = f(a, c)\ny = 1\n"))
    assert isinstance(node, cst.Name) and node.value == "b" and new.value == "c"
    node, new = smallest_change(before, cst.parse_module("import math\nx = f(a, b)\ny = 1\n"))
    assert node is before  # a statement added: only the module can take it


def test_strict_casts_codemod_writes_the_strict_fixes(tmp_path) -> None:
    project = _project(tmp_path, 'x64 = "off"')
    text = README_EXAMPLE + "steps = jnp.ones(3, jnp.int8) + 1.0\n"  # its cast changes the weak flag: unsafe
    for name in ("by_codemod.py", "by_check.py", "unsafe_by_codemod.py", "unsafe_by_check.py"):
        (project / name).write_text(text)
    tool = [sys.executable, "-m", "libcst.tool", "codemod", "-x", "promolint.cst.StrictCasts", "--no-format"]
    check = [sys.executable, "-m", "promolint", "check", "--promotion", "strict", "--select", "PRM004", "--fix",
             "--no-cache"]  # fmt: skip
    for extra, prefix in (([], ""), (["--unsafe"], "unsafe_")):
        run = subprocess.run([*tool, *extra, f"{prefix}by_codemod.py"], cwd=project, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        subprocess.run([*check, *(["--unsafe-fixes"] if extra else []), f"{prefix}by_check.py"], cwd=project,
                       capture_output=True)  # fmt: skip
        assert (project / f"{prefix}by_codemod.py").read_text() == (project / f"{prefix}by_check.py").read_text()
    safe, unsafe = (project / "by_codemod.py").read_text(), (project / "unsafe_by_codemod.py").read_text()
    assert "jnp.asarray(jnp.finfo(jnp.float16).eps, dtype=jnp.float32)" in safe
    assert "steps = jnp.ones(3, jnp.int8) + 1.0" in safe
    assert "steps = jnp.ones(3, jnp.int8).astype(float) + 1.0" in unsafe


def test_editors_md_names_every_fixit_rule() -> None:
    listed = re.findall(r"`(\w+)` \((PRM\d{3})\)", (ROOT / "docs" / "editors.md").read_text())
    assert listed == [(rule.__name__, rule.CODE) for rule in RULES]
