"""`flake8 --select PRM`: real flake8, in a subprocess, finds promolint through its entry point and
reports what `promolint check` reports, with flake8's conventions and [tool.promolint]'s settings."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from promolint.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"


def flake8(*argv: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flake8", "--select", "PRM", *argv], cwd=cwd, capture_output=True,
                          text=True, timeout=300, check=False)  # fmt: skip


def check(capsys, *argv: str) -> set[tuple[str, int, int, str]]:
    """What `promolint check` finds: (path, line, column, "CODE message"), as flake8 prints them."""
    main(["check", *argv, "--format", "json", "--no-cache"])
    found = json.loads(capsys.readouterr().out)
    return {(d["path"], d["line"], d["column"], f"{d['code']} {d['message']}") for d in found}


def reported(result: subprocess.CompletedProcess) -> set[tuple[str, int, int, str]]:
    found = set()
    for line in result.stdout.splitlines():
        path, row, column, text = line.split(":", 3)
        found.add((path, int(row), int(column), text.strip()))
    return found


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    shutil.copytree(FIXTURES, tmp_path / "fixtures", ignore=shutil.ignore_patterns(".promolint_cache"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_flake8_reports_the_readme_example_as_promolint_does(project, capsys) -> None:
    result = flake8("fixtures/readme_example.py", cwd=project)
    assert result.returncode == 1 and result.stderr == ""
    assert reported(result) == check(capsys, "fixtures/readme_example.py")
    assert "fixtures/readme_example.py:16:11: PRM006 1000 does not fit int8" in result.stdout  # 1-based, as ruff's


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_flake8_reports_every_fixture_as_promolint_does(project, capsys, jobs) -> None:
    result = flake8("fixtures", "-j", jobs, cwd=project)
    assert result.returncode == 1 and reported(result) == check(capsys, "fixtures")


def test_tool_promolint_settings_apply_and_flake8_selects_among_the_codes(project, capsys) -> None:
    (project / "pyproject.toml").write_text('[tool.promolint]\nx64 = "on"\nextend-select = ["PRM001"]\n'
                                            'per-file-ignores = {"*readme_example.py" = ["PRM008"]}\n')  # fmt: skip
    result = flake8("fixtures/readme_example.py", cwd=project)
    assert reported(result) == check(capsys, "fixtures/readme_example.py")
    assert ":15:19: PRM001 " in result.stdout and "PRM008" not in result.stdout  # x64 on; per-file-ignores
    narrowed = flake8("fixtures/readme_example.py", "--extend-ignore", "PRM001,PRM002", cwd=project)
    assert " PRM001 " not in narrowed.stdout and " PRM006 " in narrowed.stdout


def test_flake8_and_promolint_share_the_result_cache(project, capsys) -> None:
    target = project / "fixtures" / "PRM006_literal_overflow.py"
    assert main(["check", str(target)]) == 1  # fills the project's .promolint_cache with this file's findings
    capsys.readouterr()
    (cache,) = (project / ".promolint_cache").glob("*.json")
    cache.write_text(cache.read_text().replace("does not fit", "(from the cache) does not fit"))
    result = flake8(str(target), cwd=project)
    assert "(from the cache) does not fit" in result.stdout  # a hit: not analyzed again

    fresh = project / "fixtures" / "PRM007_x64_truncation.py"
    flake8(str(fresh), cwd=project)  # analyzed by flake8, which writes its results back at exit
    main(["check", str(fresh), "--statistics"])
    assert "1 file: 0 analyzed, 1 unchanged (from the cache)" in capsys.readouterr().out

    shutil.rmtree(project / ".promolint_cache")
    flake8("fixtures", "-j", "2", cwd=project)  # two worker processes, each adding its files at exit
    main(["check", "fixtures", "--statistics"])
    assert " 0 analyzed, " in capsys.readouterr().out


def test_the_linted_code_is_never_imported(project) -> None:
    imported = project / "imported"
    (project / "boom.py").write_text(f"import numpy as np\nopen({str(imported)!r}, 'w')\nraise SystemExit(3)\n"
                                     "x = np.ones(3, np.int8) + 1000\n")  # fmt: skip
    result = flake8("boom.py", cwd=project)
    assert result.returncode == 1 and "boom.py:4:5: PRM006 " in result.stdout and not imported.exists()


def test_the_documented_flake8_configuration_enables_the_plugin(project) -> None:
    (ini,) = re.findall(r"```ini\n(.*?)```", (ROOT / "docs" / "integrations.md").read_text(encoding="utf-8"), re.DOTALL)
    (project / ".flake8").write_text(ini)
    result = subprocess.run([sys.executable, "-m", "flake8", "fixtures/readme_example.py"], cwd=project,
                            capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert result.returncode == 1 and "readme_example.py:16:11: PRM006 " in result.stdout
