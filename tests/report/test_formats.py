"""Each format module of ``promolint.report`` on hand-made diagnostics: the shapes its consumers
read (ruff's concise text, the JSON fields, GitHub's workflow commands, SARIF 2.1.0 validated by its
official schema, JUnit XML), in a notebook and with related places too.  The command line's use of
them is tests/report/test_reports.py's."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from promolint.core.diagnostics import Diagnostic, FixSummary, RelatedLocation
from promolint.report import FORMATS, github, junit, render, sarif, text
from promolint.report import json as json_report
from promolint.report.location import relative_path

SARIF_SCHEMA = Path(__file__).parents[1] / "data" / "sarif-schema-2.1.0.json"

OVERFLOW = Diagnostic("pkg/a.py", 2, 5, "PRM006", "1000 does not fit int8", 2, 33)
SAFE = Diagnostic("pkg/a.py", 3, 1, "PRM007", "float64 requested", 3, 12, fix=FixSummary("Write float32", True))
UNSAFE = Diagnostic("pkg/b.py", 4, 9, "PRM004", "strict refusal", 4, 20, fix=FixSummary("Cast", False))
WIDENS = RelatedLocation(7, 3, 7, 10, "it widens float32 data here")
LEAK = Diagnostic("pkg/b.py", 5, 1, "PRM001", "a 64-bit leak", 5, 8, related=(WIDENS,))
IN_CELL = Diagnostic("nb.ipynb", 2, 5, "PRM006", "1000 does not fit int8", 2, 9, cell=3, file_line=41,
                     related=(RelatedLocation(1, 1, 1, 4, "made here", cell=3, file_line=40),))  # fmt: skip


@pytest.fixture(autouse=True)
def _in_a_project(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # report paths are relative to the working directory


# --- text ------------------------------------------------------------------------------------
def test_text_is_one_ruff_line_per_finding_and_a_count() -> None:
    assert text.render([OVERFLOW]) == "pkg/a.py:2:5: PRM006 1000 does not fit int8\nFound 1 finding.\n"
    assert text.render([]) == "All checks passed!\n"


def test_text_marks_safe_fixes_and_counts_the_unsafe_ones_as_hidden() -> None:
    lines = text.render([SAFE, UNSAFE]).splitlines()
    assert lines == [
        "pkg/a.py:3:1: PRM007 [*] float64 requested",
        "pkg/b.py:4:9: PRM004 strict refusal",
        "Found 2 findings.",
        "[*] 1 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option).",
    ]


def test_text_with_unsafe_fixes_marks_every_fix_and_names_both_options() -> None:
    lines = text.render([SAFE, UNSAFE], unsafe_fixes=True).splitlines()
    assert lines[1] == "pkg/b.py:4:9: PRM004 [*] strict refusal"
    assert lines[-1] == "[*] 2 fixable with the `--fix --unsafe-fixes` option."


def test_text_with_only_hidden_fixes_says_none_is_available() -> None:
    assert text.render([UNSAFE, UNSAFE]).splitlines()[-1] == (
        "No fixes available (2 hidden fixes can be enabled with the `--unsafe-fixes` option).")


def test_text_counts_what_was_fixed_before_what_remains() -> None:
    assert text.render([OVERFLOW], fixed=2).splitlines()[-1] == "Found 3 findings (2 fixed, 1 remaining)."
    assert text.render([], fixed=1).splitlines() == ["Found 1 finding (1 fixed, 0 remaining)."]


def test_text_statistics_count_by_rule_then_by_file() -> None:
    lines = text.render([OVERFLOW, SAFE, UNSAFE], statistics=True).splitlines()
    assert lines[3:-2] == ["", "By rule:", "     1  PRM004", "     1  PRM006", "     1  PRM007", "By file:",
                           "     2  pkg/a.py", "     1  pkg/b.py"]  # fmt: skip


def test_text_places_a_notebook_finding_in_its_cell() -> None:
    assert text.render([IN_CELL]).splitlines()[0] == "nb.ipynb:cell 3:2:5: PRM006 1000 does not fit int8"


# --- json ------------------------------------------------------------------------------------
def test_json_gives_the_fields_of_a_finding_and_nothing_empty() -> None:
    (found,) = json.loads(json_report.render([OVERFLOW]))
    assert found == {"path": "pkg/a.py", "line": 2, "column": 5, "code": "PRM006",
                     "message": "1000 does not fit int8", "end_line": 2, "end_column": 33}  # fmt: skip
    assert json_report.render([]) == "[]\n"


def test_json_gives_a_fix_its_title_and_safety() -> None:
    (found,) = json.loads(json_report.render([UNSAFE]))
    assert found["fix"] == {"title": "Cast", "safe": False}


def test_json_lists_related_places_with_their_spans() -> None:
    (found,) = json.loads(json_report.render([LEAK]))
    assert found["related"] == [{"line": 7, "column": 3, "end_line": 7, "end_column": 10,
                                 "message": "it widens float32 data here"}]  # fmt: skip


def test_json_counts_a_notebook_findings_lines_within_its_cell() -> None:
    (found,) = json.loads(json_report.render([IN_CELL]))
    assert (found["cell"], found["line"], found["column"]) == (3, 2, 5) and "file_line" not in found
    assert found["related"] == [{"line": 1, "column": 1, "end_line": 1, "end_column": 4, "message": "made here",
                                 "cell": 3, "file_line": 40}]  # fmt: skip


# --- github ----------------------------------------------------------------------------------
def test_github_notes_each_related_place_beside_the_error() -> None:
    assert github.render([LEAK]) == (
        "::error file=pkg/b.py,line=5,col=1,endLine=5,endColumn=8,title=promolint (PRM001)::a 64-bit leak\n"
        "::notice file=pkg/b.py,line=7,col=3,endLine=7,endColumn=10,title=promolint (PRM001) related to line 5"
        "::it widens float32 data here\n"
    )


def test_github_points_a_notebook_finding_at_the_line_of_the_file_and_titles_it_with_the_cell() -> None:
    error, notice = github.render([IN_CELL]).splitlines()
    assert error == "::error file=nb.ipynb,line=41,title=promolint (PRM006) cell 3%3A2%3A5::1000 does not fit int8"
    assert notice == "::notice file=nb.ipynb,line=40,title=promolint (PRM006) related to line 2 cell 3%3A1::made here"


# --- sarif -----------------------------------------------------------------------------------
def _valid_sarif(diagnostics: list[Diagnostic]) -> dict:
    log = json.loads(sarif.render(diagnostics))
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.validators.validator_for(schema)(schema).validate(log)
    return log["runs"][0]


def test_sarif_names_each_rule_once_and_each_result_its_rule() -> None:
    run = _valid_sarif([SAFE, OVERFLOW, LEAK, OVERFLOW])
    ids = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    assert ids == ["PRM001", "PRM006", "PRM007"]
    assert [ids[result["ruleIndex"]] for result in run["results"]] == ["PRM007", "PRM006", "PRM001", "PRM006"]
    assert run["columnKind"] == "unicodeCodePoints"


def test_sarif_gives_related_places_as_related_locations() -> None:
    (result,) = _valid_sarif([LEAK])["results"]
    (related,) = result["relatedLocations"]
    assert related["id"] == 1 and related["message"] == {"text": "it widens float32 data here"}
    assert related["physicalLocation"]["region"] == {"startLine": 7, "startColumn": 3, "endLine": 7, "endColumn": 10}
    assert related["physicalLocation"]["artifactLocation"] == {"uri": "pkg/b.py", "uriBaseId": "%SRCROOT%"}


def test_sarif_places_a_notebook_finding_on_the_files_line_and_the_cell_in_properties() -> None:
    (result,) = _valid_sarif([IN_CELL])["results"]
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 41}
    assert result["properties"] == {"notebookCell": 3, "lineInCell": 2, "columnInCell": 5}
    assert result["relatedLocations"][0]["physicalLocation"]["region"] == {"startLine": 40}


def test_sarif_gives_a_file_outside_the_working_directory_its_absolute_uri(tmp_path) -> None:
    outside = tmp_path.parent / "elsewhere dir" / "c.py"
    (result,) = _valid_sarif([Diagnostic(str(outside), 1, 1, "PRM006", "m")])["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": outside.resolve().as_uri()}


# --- junit -----------------------------------------------------------------------------------
def test_junit_has_a_suite_per_file_in_path_order_and_a_failure_per_finding() -> None:
    root = ET.fromstring(junit.render([UNSAFE, OVERFLOW, SAFE]).encode())
    assert (root.get("tests"), root.get("failures")) == ("3", "3")
    suites = root.findall("testsuite")
    assert [(s.get("name"), s.get("tests"), s.get("failures")) for s in suites] == [
        ("pkg/a.py", "2", "2"), ("pkg/b.py", "1", "1")]  # fmt: skip
    case = suites[0].find("testcase")
    assert (case.get("name"), case.get("classname"), case.get("line"), case.get("column")) == (
        "org.promolint.PRM006", "pkg/a", "2", "5")  # fmt: skip
    assert case.find("failure").get("message") == "1000 does not fit int8"


def test_junit_failure_text_gives_the_cell_and_the_related_places() -> None:
    case = ET.fromstring(junit.render([IN_CELL]).encode()).find("testsuite/testcase")
    assert case.get("line") == "41"  # the file's line: dashboards open the file as text
    assert case.find("failure").text == ("cell 3, line 2, col 5, 1000 does not fit int8"
                                         "\n  related: line 1, col 1, made here")


def test_junit_without_findings_is_one_passing_case() -> None:
    out = junit.render([])
    assert out.startswith("<?xml version='1.0' encoding='utf-8'?>")
    (case,) = ET.fromstring(out.encode()).iter("testcase")
    assert case.get("name") == "No errors found" and case.find("failure") is None


# --- shared ----------------------------------------------------------------------------------
def test_paths_are_relative_to_the_working_directory_else_absolute(tmp_path) -> None:
    assert relative_path(str(tmp_path / "pkg dir" / "a.py")) == "pkg dir/a.py"
    assert relative_path("pkg/../b.py") == "b.py"
    outside = tmp_path.parent / "c.py"
    assert relative_path(str(outside)) == outside.resolve().as_posix()


@pytest.mark.parametrize("fmt", FORMATS)
def test_render_gives_each_format_its_modules_output(fmt) -> None:
    module = {"text": text, "json": json_report, "github": github, "sarif": sarif, "junit": junit}[fmt]
    assert render([OVERFLOW, LEAK], fmt) == module.render([OVERFLOW, LEAK])
