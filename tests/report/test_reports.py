"""`promolint check --format ...`: each report format, checked against what its consumers read."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from promolint.core.diagnostics import Diagnostic
from promolint.rules import rule_by_code
from promolint.cli.main import main
from promolint.report import FORMATS, render

SARIF_SCHEMA = Path(__file__).parents[1] / "data" / "sarif-schema-2.1.0.json"
BAD = "import jax.numpy as jnp\nx = jnp.ones(3, jnp.int8) + 1000\n"


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A project with findings in two files, one in a subfolder; the working directory is its root."""
    (tmp_path / "pkg dir").mkdir()
    (tmp_path / "pkg dir" / "bad.py").write_text(BAD)
    (tmp_path / "broken.py").write_text("def f(:\n    pass\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def check(capsys, *argv: str) -> tuple[int, str]:
    status = main(["check", *argv])
    return status, capsys.readouterr().out


def test_text_is_ruff_concise(project, capsys) -> None:
    status, out = check(capsys, ".")
    assert status == 1
    lines = out.splitlines()
    assert lines[0] == "broken.py:1:7: PRM000 syntax error: invalid syntax"
    assert lines[1].startswith("pkg dir/bad.py:2:5: PRM006 1000 does not fit int8")
    assert lines[2:] == ["Found 2 findings."]


def test_json_lists_every_field(project, capsys) -> None:
    status, out = check(capsys, ".", "--format", "json")
    findings = json.loads(out)
    assert status == 1 and [f["code"] for f in findings] == ["PRM000", "PRM006"]
    message = findings[1].pop("message")
    assert message.startswith("1000 does not fit int8")
    assert findings[1] == {"path": "pkg dir/bad.py", "line": 2, "column": 5, "code": "PRM006", "end_line": 2,
                           "end_column": 33}  # fmt: skip


def test_github_workflow_commands_exactly() -> None:
    diagnostics = [Diagnostic("a/b.py", 2, 5, "PRM006", "100% sure: a, b\r\nnext", 3, 9),
                   Diagnostic("c,d:e.py", 1, 1, "PRM000", "syntax error")]  # fmt: skip
    assert render(diagnostics, "github") == (
        "::error file=a/b.py,line=2,col=5,endLine=3,endColumn=9,title=promolint (PRM006)::100%25 sure: a, b%0D%0Anext\n"
        "::error file=c%2Cd%3Ae.py,line=1,col=1,title=promolint (PRM000)::syntax error\n"
    )


def test_github_paths_are_relative_to_the_working_directory(project, capsys) -> None:
    status, out = check(capsys, str(project / "pkg dir"), "--format", "github")
    assert status == 1
    assert out.startswith("::error file=pkg dir/bad.py,line=2,col=5,endLine=2,endColumn=33,title=promolint (PRM006)::")


def test_sarif_is_valid_against_the_official_schema(project, capsys) -> None:
    status, out = check(capsys, ".", "--format", "sarif")
    log = json.loads(out)
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.validators.validator_for(schema)(schema).validate(log)
    assert status == 1 and log["version"] == "2.1.0" and len(log["runs"]) == 1
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "promolint" and driver["version"]
    assert [rule["id"] for rule in driver["rules"]] == ["PRM000", "PRM006"]
    overflow = driver["rules"][1]
    assert overflow["name"] == "literal-overflow" and overflow["help"]["markdown"] == rule_by_code("PRM006").doc()
    assert overflow["fullDescription"]["text"] == rule_by_code("PRM006").summary
    result = run["results"][1]
    assert result["ruleId"] == "PRM006" and driver["rules"][result["ruleIndex"]]["id"] == "PRM006"
    assert result["level"] == "error" and "1000 does not fit int8" in result["message"]["text"]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "pkg%20dir/bad.py"
    assert location["region"] == {"startLine": 2, "startColumn": 5, "endLine": 2, "endColumn": 33}


def test_sarif_without_findings_is_valid(project, capsys) -> None:
    (project / "ok.py").write_text("x = 1\n")
    status, out = check(capsys, "ok.py", "--format", "sarif")
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.validators.validator_for(schema)(schema).validate(json.loads(out))
    assert status == 0 and json.loads(out)["runs"][0]["results"] == []


def test_junit_has_a_suite_per_file_and_a_failure_per_finding(project, capsys) -> None:
    (project / "pkg dir" / "bad.py").write_text(BAD + "y = jnp.ones(3, jnp.int8) + 999\n")
    status, out = check(capsys, ".", "--format", "junit")
    root = ET.fromstring(out.encode())
    assert status == 1 and root.tag == "testsuites" and root.get("tests") == root.get("failures") == "3"
    suites = {suite.get("name"): suite for suite in root.iter("testsuite")}
    assert set(suites) == {"broken.py", "pkg dir/bad.py"} and suites["pkg dir/bad.py"].get("failures") == "2"
    cases = suites["pkg dir/bad.py"].findall("testcase")
    assert [(c.get("name"), c.get("classname"), c.get("line"), c.get("column")) for c in cases] == [
        ("org.promolint.PRM006", "pkg dir/bad", "2", "5"),
        ("org.promolint.PRM006", "pkg dir/bad", "3", "5"),
    ]
    failure = cases[0].find("failure")
    assert failure.text.startswith("line 2, col 5, 1000 does not fit int8") and failure.get("message") in failure.text


def test_junit_without_findings_has_one_passing_case(project, capsys) -> None:
    (project / "ok.py").write_text("x = 1\n")
    status, out = check(capsys, "ok.py", "--format", "junit")
    root = ET.fromstring(out.encode())
    (case,) = root.iter("testcase")
    assert status == 0 and case.get("name") == "No errors found" and case.find("failure") is None


@pytest.mark.parametrize("fmt", FORMATS)
def test_output_file_gets_the_report_and_stdout_stays_empty(project, capsys, fmt) -> None:
    status, out = check(capsys, ".", "--format", fmt, "--output-file", "reports/promolint.out")
    written = (project / "reports" / "promolint.out").read_text(encoding="utf-8")
    assert status == 1 and out == "" and written == check(capsys, ".", "--format", fmt)[1]


def test_exit_zero_reports_but_passes(project, capsys) -> None:
    status, out = check(capsys, ".", "--exit-zero")
    assert status == 0 and "PRM006" in out


def test_statistics_count_by_rule_and_by_file(project, capsys) -> None:
    status, out = check(capsys, ".", "--statistics")
    assert status == 1
    tail = out[out.index("By rule:") :].splitlines()
    assert tail == ["By rule:", "     1  PRM000", "     1  PRM006", "By file:", "     1  broken.py",
                    "     1  pkg dir/bad.py", "Found 2 findings.",
                    "2 files: 2 analyzed, 0 unchanged (from the cache), 0 skipped (no NumPy/JAX names; syntax "
                    "checked only)"]  # fmt: skip


def test_statistics_is_for_text_output_only(project, capsys) -> None:
    assert main(["check", ".", "--statistics", "--format", "json"]) == 2
    assert "--statistics goes with --format text" in capsys.readouterr().err
