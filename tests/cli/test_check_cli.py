"""`promolint check` as a user runs it: exit codes, bad input, configuration, workers, commands."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli_run import run
from promolint.cli.main import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
BAD = "import jax.numpy as jnp\nx = jnp.ones(3, jnp.int8) + 1000\n"


def test_clean_file_exits_zero(tmp_path, capsys) -> None:
    (tmp_path / "ok.py").write_text("import jax.numpy as jnp\nx = jnp.ones(3) + 1\n")
    assert run(capsys, "check", str(tmp_path))[0] == 0


def test_findings_exit_one_with_ruff_style_lines(tmp_path, capsys) -> None:
    (tmp_path / "bad.py").write_text(BAD)
    status, out, _ = run(capsys, "check", str(tmp_path / "bad.py"))
    assert status == 1
    assert out.startswith(f"{tmp_path / 'bad.py'}:2:5: PRM006 ")


def test_default_command_is_check(tmp_path, capsys) -> None:
    (tmp_path / "bad.py").write_text(BAD)
    assert run(capsys, str(tmp_path))[0] == 1


@pytest.mark.parametrize(
    ("content", "message", "position"),
    [
        (b"def f(:\n    pass\n", "syntax error", "1:7"),
        (b"x = 1\x00\n", "NUL bytes", "1:1"),
        (b"x = 1\ny = 2\nz = '\xc3\xa9\xff\xfe'\n", "cannot decode", "3:7"),  # at the byte, in characters
        (b"# coding: ascii\nx = '\xe9'\n", "cannot decode", "2:6"),
    ],
)
def test_unparsable_file_is_one_diagnostic_and_the_run_goes_on(tmp_path, capsys, content, message,
                                                                position) -> None:  # fmt: skip
    (tmp_path / "a_broken.py").write_bytes(content)
    (tmp_path / "b_bad.py").write_text(BAD)
    status, out, err = run(capsys, "check", str(tmp_path))
    lines = out.strip().splitlines()
    assert status == 1 and "Traceback" not in err
    assert f"a_broken.py:{position}: PRM000 " in lines[0] and message in lines[0]
    assert "b_bad.py:2:5: PRM006" in lines[1]


def test_select_and_ignore(tmp_path, capsys) -> None:
    (tmp_path / "bad.py").write_text(BAD)
    assert run(capsys, "check", str(tmp_path), "--ignore", "PRM006")[0] == 0
    assert run(capsys, "check", str(tmp_path), "--select", "PRM001")[0] == 0
    assert run(capsys, "check", str(tmp_path), "--select", "PRM00")[0] == 1


# NumPy's float64 widens a float32 JAX array where x64 is on (PRM001), and is truncated where off.
WIDENS_UNDER_X64 = "import jax.numpy as jnp\nimport numpy as np\ny = jnp.zeros(3, jnp.float32) * np.ones(3)\n"


def test_check_obeys_the_projects_pyproject_table(tmp_path, capsys) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.promolint]\nx64 = "on"\nper-file-ignores = {"gen_*.py" = ["PRM006"]}\n'
                                             'extend-exclude = ["vendored"]\nextend-select = ["PRM001"]\n')  # fmt: skip
    (tmp_path / "gen_a.py").write_text(BAD)
    (tmp_path / "vendored").mkdir()
    (tmp_path / "vendored" / "v.py").write_text(BAD)
    (tmp_path / "x.py").write_text(WIDENS_UNDER_X64)
    status, out, _ = run(capsys, "check", str(tmp_path))
    assert status == 1
    assert "x.py:3:33: PRM001" in out and "gen_a.py" not in out and "vendored" not in out


@pytest.mark.parametrize(
    ("toml", "needle"),
    [
        ('[tool.promolint]\ncolour = "red"\n', "unknown key 'colour'"),
        ('[tool.promolint]\nselect = ["PRM999"]\n', "unknown rule code 'PRM999'"),
        ('[tool.promolint]\nx64 = "sometimes"\n', "x64 = 'sometimes' is not one of on, off, auto"),
        ("[tool.promolint\n", "invalid TOML"),
    ],
)
def test_bad_configuration_exits_two_with_one_line(tmp_path, capsys, toml, needle) -> None:
    (tmp_path / "pyproject.toml").write_text(toml)
    (tmp_path / "a.py").write_text("x = 1\n")
    status, _, err = run(capsys, "check", str(tmp_path))
    assert status == 2 and needle in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_bad_flag_exits_two(capsys) -> None:
    assert run(capsys, "check", ".", "--select", "NOPE")[0] == 2
    with pytest.raises(SystemExit) as exited:
        main(["check", "--x64", "maybe"])
    assert exited.value.code == 2


def test_output_is_identical_for_any_worker_count(tmp_path, capsys) -> None:
    for name in ("a", "b", "c", "d", "e", "f"):
        shutil.copy(FIXTURES / "PRM006_literal_overflow.py", tmp_path / f"{name}.py")
    outputs = {run(capsys, "check", str(tmp_path), "--jobs", str(jobs), "--format", "json")[1] for jobs in (1, 2, 3)}
    assert len(outputs) == 1 and json.loads(outputs.pop())


def test_explain_and_rules(capsys) -> None:
    status, out, _ = run(capsys, "explain", "PRM002")
    assert status == 0 and "## Why is this bad?" in out
    assert run(capsys, "explain", "PRM404")[0] == 2
    status, out, _ = run(capsys, "rules")
    assert status == 0 and "PRM007  x64-truncation" in out and "PRM100  unused-noqa" in out
    assert "## What it does" in run(capsys, "explain", "prm100")[1]


def test_installed_console_script_runs(tmp_path) -> None:
    (tmp_path / "bad.py").write_text(BAD)
    result = subprocess.run(
        [sys.executable, "-m", "promolint", "check", str(tmp_path)], check=False, capture_output=True, text=True
    )
    assert result.returncode == 1 and "PRM006" in result.stdout


def test_run_subcommand_verifies_a_script_at_run_time(tmp_path) -> None:
    script = tmp_path / "script.py"
    script.write_text("import numpy as np\nx = np.ones(3, np.float32) + 1.0\nprint(x.dtype)\n")
    result = subprocess.run([sys.executable, "-m", "promolint", "run", str(script)], capture_output=True, text=True)
    assert result.returncode == 0 and "float32" in result.stdout
    assert " 0 disagree" in result.stderr + result.stdout


# --- robustness: promolint's own errors, and a reader that leaves early -------------------------
def test_an_internal_error_exits_two_and_keeps_the_other_files_findings(tmp_path, capsys, monkeypatch) -> None:
    import promolint.driver.lint

    real = promolint.driver.lint.lint_file

    def crash_on_crash_py(data, path, *args, **kwargs):
        if path.endswith("crash.py"):
            raise RecursionError("maximum recursion depth exceeded")
        return real(data, path, *args, **kwargs)

    monkeypatch.setattr(promolint.driver.lint, "lint_file", crash_on_crash_py)
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "crash.py").write_text(BAD)
    status, out, err = run(capsys, "check", str(tmp_path), "--jobs", "1", "--no-cache")
    assert status == 2 and "Traceback" not in err  # ruff's status for an internal error; findings alone give 1
    assert "bad.py:2:5: PRM006" in out and "crash.py:1:1: PRM000 promolint could not analyze this file" in out
    assert run(capsys, "check", str(tmp_path / "bad.py"), "--no-cache")[0] == 1


def test_reveal_piped_into_head_prints_no_traceback(tmp_path) -> None:
    for name in ("big.py", "more.py", "most.py"):  # a write per file: those after the reader left fail
        (tmp_path / name).write_text("import jax.numpy as jnp\n" + "x = jnp.ones(3) + 1\n" * 5000)
    process = subprocess.Popen([sys.executable, "-m", "promolint", "reveal", str(tmp_path)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    first = process.stdout.readline()
    process.stdout.close()  # what `| head -1` does once it has its line
    _, err = process.communicate(timeout=120)
    assert first.startswith(str(tmp_path / "big.py").encode()) and b"Traceback" not in err and err == b""
    assert process.returncode == 141


def test_reveal_reports_an_internal_error_in_one_line_with_status_two(tmp_path, capsys, monkeypatch) -> None:
    import promolint.driver.reveal

    def crash(*args):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(promolint.driver.reveal, "reveal_file", crash)
    (tmp_path / "a.py").write_text(BAD)
    status, out, err = run(capsys, "reveal", str(tmp_path / "a.py"))
    assert status == 2 and out == "" and "Traceback" not in err
    assert err.strip() == f"{tmp_path / 'a.py'}:1:1: promolint could not analyze this file: internal error " \
                          "RecursionError: maximum recursion depth exceeded (please report it)"


# --- one command line ------------------------------------------------------------------------------
def test_version_prints_the_installed_version(capsys) -> None:
    from promolint import __version__

    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0 and capsys.readouterr().out == f"promolint {__version__}\n"


@pytest.mark.parametrize(("typed", "meant"), [("chek", "check"), ("revael", "reveal"), ("explian", "explain"),
                                              ("tabel", "table")])  # fmt: skip
def test_a_mistyped_command_is_unknown_and_the_closest_is_named(tmp_path, capsys, monkeypatch, typed, meant) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, typed)
    assert status == 2 and out == ""
    assert err == f"promolint: error: unknown command {typed!r}, and no file or directory has that name; " \
                  f"did you mean `promolint {meant}`?\n"


def test_a_path_without_a_command_is_still_checked(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "bad.py").write_text(BAD)
    assert run(capsys, "src")[0] == 1  # a directory named like no command
    status, _, err = run(capsys, "missing.py")
    assert status == 2 and "no such file or directory: missing.py" in err


def test_a_clean_run_says_so_in_one_line(tmp_path, capsys) -> None:
    (tmp_path / "ok.py").write_text("import jax.numpy as jnp\nx = jnp.ones(3) + 1\n")
    assert run(capsys, "check", str(tmp_path))[1] == "All checks passed!\n"
    assert run(capsys, "check", str(tmp_path), "--format", "json")[1] == "[]\n"  # machine formats stay as they were


@pytest.mark.parametrize("spelling", ["prm006", "Prm006", "prm", "all"])
def test_select_and_ignore_accept_any_case_like_explain(tmp_path, capsys, spelling) -> None:
    (tmp_path / "bad.py").write_text(BAD)
    assert run(capsys, "check", str(tmp_path), "--select", spelling)[0] == 1
    assert run(capsys, "check", str(tmp_path), "--ignore", spelling)[0] == 0
    assert run(capsys, "explain", spelling)[0] == (0 if spelling.lower() == "prm006" else 2)


@pytest.mark.parametrize("value", ["", ",", " "])
def test_an_empty_select_is_refused_not_silently_every_rule_off(tmp_path, capsys, value) -> None:
    (tmp_path / "bad.py").write_text(BAD)
    status, out, err = run(capsys, "check", str(tmp_path), "--select", value)
    assert status == 2 and out == "" and "--select selects no rule" in err
    (tmp_path / "pyproject.toml").write_text("[tool.promolint]\nselect = []\n")
    status, _, err = run(capsys, "check", str(tmp_path))
    assert status == 2 and "select selects no rule" in err


@pytest.mark.parametrize("jobs", ["0", "-2", "two"])
def test_jobs_must_be_a_positive_number(tmp_path, capsys, jobs) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["check", str(tmp_path), "--jobs", jobs])
    assert exited.value.code == 2 and "--jobs" in capsys.readouterr().err


def test_readme_says_its_reveal_excerpt_is_part_of_the_output(capsys, monkeypatch) -> None:
    root = FIXTURES.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    (excerpt,) = re.findall(r"```text\n(fixtures/readme_example\.py:\d+:\d+: \w+: .*?)```", readme, re.DOTALL)
    said = re.search(r"Part of its output, the four assignments of lines (\d+) to (\d+) \(it prints (\d+) lines",
                     readme)  # fmt: skip
    monkeypatch.chdir(root)
    assert main(["reveal", "fixtures/readme_example.py", "--x64", "off"]) == 0
    output = capsys.readouterr().out.splitlines()
    first, last, total = map(int, said.groups())
    assignments = re.compile(rf":({'|'.join(map(str, range(first, last + 1)))}):1: ")
    assert excerpt.splitlines() == [line for line in output if assignments.search(line)]
    assert len(output) == total


def test_reveal_reads_the_configuration_check_reads_and_takes_directories(tmp_path, capsys) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "x.py").write_text(WIDENS_UNDER_X64)
    (tmp_path / "src" / "vendored.py").write_text("import jax.numpy as jnp\nz = jnp.ones(3)\n")
    (tmp_path / "pyproject.toml").write_text('[tool.promolint]\nx64 = "on"\nextend-exclude = ["vendored.py"]\n'
                                             'extend-select = ["PRM001"]\n')  # fmt: skip
    status, out, _ = run(capsys, "reveal", str(tmp_path / "src"))
    assert status == 0 and f"{tmp_path / 'src' / 'x.py'}:3:1: y: float64 [jax]" in out.splitlines()
    assert "vendored" not in out
    assert "PRM001 `np.ones(3)` is float64" in run(capsys, "check", str(tmp_path / "src"))[1]  # the same mode
    assert ":3:1: y: float32 [jax]" in run(capsys, "reveal", str(tmp_path / "src"), "--x64", "off")[1]
    (tmp_path / "pyproject.toml").write_text('[tool.promolint]\nx64 = "maybe"\n')
    status, out, err = run(capsys, "reveal", str(tmp_path / "src"))
    assert status == 2 and out == "" and "x64 = 'maybe' is not one of on, off, auto" in err
