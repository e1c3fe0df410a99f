"""The rule registry: one table of codes, names and switches, read without loading the engine."""

from __future__ import annotations

import subprocess
import sys

from promolint.cli.main import main
from promolint.driver.config import RULE_CODES
from promolint.rules import RULES, rule_by_code
from promolint.rules.registry import REGISTRY
from promolint_mypy import errorcodes


def test_every_row_is_one_rule_module_and_every_rule_has_a_row() -> None:
    assert [rule.code for rule in RULES] == [info.code for info in REGISTRY]
    assert len({info.module for info in REGISTRY}) == len(REGISTRY)
    assert all(type(rule).__module__ == f"promolint.rules.{rule.info.module}" for rule in RULES)


def test_configuration_and_mypy_codes_come_from_the_registry() -> None:
    assert RULE_CODES == {info.code: info.opt_in for info in REGISTRY if info.reported_by != "checker"}
    assert {code: c.code for code, c in errorcodes.BY_RULE_CODE.items()} == {
        info.code: f"promolint-{info.name}" for info in REGISTRY if info.reported_by != "checker"}


def test_reading_the_registry_loads_no_rule_and_no_engine() -> None:
    script = ("import sys, promolint.driver.config, promolint_mypy.errorcodes; "
              "print(sorted(m for m in sys.modules if m.startswith(('promolint.engine', 'promolint.rules.'))))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out == "['promolint.rules.registry']\n"


def test_rules_are_found_by_code_in_any_case_or_by_name(capsys) -> None:
    assert rule_by_code("prm001") is rule_by_code("PRM001") is rule_by_code("implicit-x64")
    assert rule_by_code("PRM999") is None
    assert main(["explain", "implicit-x64"]) == 0
    out = capsys.readouterr().out
    assert "# implicit-x64 (PRM001)" in out
    assert "- opt-in: enabled by its code or `ALL`" in out and "primer precision is below 90%" in out


def test_rules_command_says_which_are_opt_in_and_fixable(capsys) -> None:
    assert main(["rules"]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    assert set(lines) == {info.code for info in REGISTRY}
    assert "opt-in" in lines["PRM010"] and "default, fixable" in lines["PRM004"]
    assert "opt-in, fixable" in lines["PRM001"]
