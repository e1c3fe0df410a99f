"""`--baseline` and `--write-baseline`: a project adopts promolint with today's findings recorded,
and sees only new ones, however lines move; then the keys findings are recorded by, on their own."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from cli_run import run
from promolint.core.diagnostics import Diagnostic
from promolint.driver import baseline
from promolint.report import FORMATS

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
NEW_VIOLATION = "late = jnp.ones(3, jnp.int8) + 2000\n"


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """The rule fixtures and the README example as a project with many findings; its root is the
    working directory."""
    shutil.copytree(FIXTURES, tmp_path / "src")
    shutil.copy(Path(__file__).parents[1] / "data" / "notebooks" / "training.ipynb", tmp_path / "src")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_recorded_findings_stay_hidden_when_lines_move_and_a_new_one_shows(project, capsys) -> None:
    status, out, _ = run(capsys, "check", "src", "--no-cache")
    found = int(out.splitlines()[-2].split()[1]) if "fixable" in out.splitlines()[-1] else None
    assert status == 1 and found and found > 20
    status, out, err = run(capsys, "check", "src", "--write-baseline", "promolint-baseline.json")
    assert status == 0 and out == "" and err == f"Recorded {found} findings in promolint-baseline.json.\n"

    assert run(capsys, "check", "src", "--baseline", "promolint-baseline.json")[:2] == (
        0, f"All checks passed!\n{found} recorded in the baseline, not shown.\n")  # fmt: skip

    # Unrelated edits: lines inserted above every finding, a file's code moved down, a cell added.
    for path in (project / "src").glob("*.py"):
        path.write_text("import os\nimport sys\n\n\n" + path.read_text())
    nb = json.loads((project / "src" / "training.ipynb").read_text(encoding="utf-8"))
    nb["cells"].insert(1, {"cell_type": "markdown", "metadata": {}, "source": ["A new note."]})
    nb["cells"][3]["source"].insert(0, "# a comment above the float64\n")
    (project / "src" / "training.ipynb").write_text(json.dumps(nb, indent=1), encoding="utf-8")
    assert run(capsys, "check", "src", "--baseline", "promolint-baseline.json")[0] == 0

    example = project / "src" / "readme_example.py"
    example.write_text(example.read_text() + NEW_VIOLATION)
    status, out, _ = run(capsys, "check", "src", "--baseline", "promolint-baseline.json")
    assert status == 1 and out.splitlines()[0].startswith("src/readme_example.py:27:8: PRM006 2000 does not fit")
    assert out.splitlines()[1:] == ["Found 1 finding.", f"{found} recorded in the baseline, not shown."]


def test_a_second_copy_of_a_recorded_finding_is_new(project, capsys) -> None:
    target = project / "src" / "PRM006_literal_overflow.py"
    run(capsys, "check", str(target), "--write-baseline", "base.json")
    line = next(line for line in target.read_text().splitlines() if "# expect: PRM006" in line)
    target.write_text(target.read_text() + line + "\n")
    status, out, _ = run(capsys, "check", str(target), "--baseline", "base.json")
    assert status == 1 and out.count(": PRM006 ") == 1


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_reports_only_new_findings(project, capsys, fmt) -> None:
    (project / "pyproject.toml").write_text('[tool.promolint]\nbaseline = "promolint-baseline.json"\n')
    run(capsys, "check", "src", "--write-baseline", "promolint-baseline.json")
    clean = run(capsys, "check", "src", "--format", fmt)[1]
    example = project / "src" / "readme_example.py"
    example.write_text(example.read_text() + NEW_VIOLATION)
    status, out, _ = run(capsys, "check", "src", "--format", fmt)  # the baseline comes from the configuration
    assert status == 1 and "2000 does not fit int8" in out
    assert out.count("does not fit") == (2 if fmt == "junit" else 1)  # junit: in the attribute and the text
    assert "2000" not in clean


def test_pre_commit_style_runs_on_named_files_match_the_baseline(project, capsys, monkeypatch) -> None:
    (project / "pyproject.toml").write_text('[tool.promolint]\nbaseline = "promolint-baseline.json"\n')
    run(capsys, "check", ".", "--write-baseline", "promolint-baseline.json")
    monkeypatch.chdir(project / "src")  # keys are relative to the project root, not the working directory
    assert run(capsys, "check", "readme_example.py", "PRM001_implicit_x64.py", "--force-exclude")[0] == 0


@pytest.mark.parametrize(("content", "needle"), [(None, "cannot read the baseline"),
                                                 ("[1]", "not a promolint baseline"),
                                                 ("{", "not a promolint baseline")])  # fmt: skip
def test_a_bad_baseline_exits_two(project, capsys, content, needle) -> None:
    if content is not None:
        (project / "base.json").write_text(content)
    status, out, err = run(capsys, "check", "src", "--baseline", "base.json")
    assert status == 2 and out == "" and needle in err and len(err.splitlines()) == 1


def test_the_documented_configuration_is_accepted(project, capsys) -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "integrations.md").read_text(encoding="utf-8")
    (toml,) = re.findall(r"```toml\n(.*?)```", docs, re.DOTALL)
    (project / "pyproject.toml").write_text(toml)
    assert run(capsys, "check", "src", "--write-baseline", "promolint-baseline.json")[0] == 0
    assert run(capsys, "check", "src")[0] == 0


# --- the keys findings are recorded by (promolint.driver.baseline) -------------------------------
def _keys(files: dict[str, str], *diagnostics: Diagnostic, root: Path = Path("/project")) -> list[tuple]:
    return baseline.keys(diagnostics, root, lambda path: files[path].encode("utf-8"))


def test_a_key_is_the_path_from_the_root_the_code_and_the_flagged_text_with_whitespace_collapsed() -> None:
    source = "x = 1\ny = foo(a,\n        b)  + 2\n"
    found = Diagnostic("/project/pkg/m.py", 2, 5, "PRM006", "message", 3, 11)
    assert _keys({"/project/pkg/m.py": source}, found) == [("pkg/m.py", "PRM006", "foo(a, b)")]


def test_a_finding_without_an_end_is_keyed_by_its_whole_line() -> None:
    found = Diagnostic("/project/m.py", 1, 3, "PRM000", "syntax error")
    assert _keys({"/project/m.py": "def f(:\n"}, found) == [("m.py", "PRM000", "def f(:")]


def test_a_file_outside_the_root_is_keyed_by_its_absolute_path_and_an_unreadable_one_by_no_text() -> None:
    def unreadable(path: str) -> bytes:
        raise PermissionError(path)

    found = Diagnostic("/elsewhere/m.py", 1, 1, "PRM006", "message", 1, 5)
    assert baseline.keys([found], Path("/project"), unreadable) == [("/elsewhere/m.py", "PRM006", "")]


def test_a_notebook_finding_is_keyed_by_the_text_of_its_cell() -> None:
    document = {"cells": [{"cell_type": "markdown", "source": "# title"},
                          {"cell_type": "code", "source": "x = 1\ny = jnp.ones(3, jnp.int8) + 1000\n"}]}  # fmt: skip
    found = Diagnostic("/project/nb.ipynb", 2, 5, "PRM006", "message", 2, 33, cell=2)
    assert _keys({"/project/nb.ipynb": json.dumps(document)}, found) == [
        ("nb.ipynb", "PRM006", "jnp.ones(3, jnp.int8) + 1000")]  # fmt: skip


def test_a_recorded_key_hides_as_many_findings_as_it_counts() -> None:
    files = {"/project/m.py": "a = f(1)\nb = f(1)\nc = f(2)\n"}
    first, second, other = (Diagnostic("/project/m.py", line, 5, "PRM006", "m", line, 9) for line in (1, 2, 3))
    recorded = Counter({("m.py", "PRM006", "f(1)"): 1})
    reported = baseline.apply(recorded, [first, second, other], Path("/project"), lambda p: files[p].encode())
    assert reported == [second, other]
