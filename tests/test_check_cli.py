"""`promolint check` as a user runs it: exit codes, bad input, suppression, configuration."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from promolint.lint import lint_source
from promolint.rules import rule_by_code
from promolint.cli import main
from promolint.frontend.analysis import Settings

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
BAD = "import jax.numpy as jnp\nx = jnp.ones(3, jnp.int8) + 1000\n"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


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
    ("content", "message"),
    [
        (b"def f(:\n    pass\n", "syntax error"),
        (b"x = 1\x00\n", "NUL bytes"),
        (b"x = '\xff\xfe'\n", "cannot decode"),
    ],
)
def test_unparsable_file_is_one_diagnostic_and_the_run_goes_on(tmp_path, capsys, content, message) -> None:
    (tmp_path / "a_broken.py").write_bytes(content)
    (tmp_path / "b_bad.py").write_text(BAD)
    status, out, err = run(capsys, "check", str(tmp_path))
    lines = out.strip().splitlines()
    assert status == 1 and "Traceback" not in err
    assert "a_broken.py:" in lines[0] and "PRM000" in lines[0] and message in lines[0]
    assert "b_bad.py:2:5: PRM006" in lines[1]


def test_noqa_suppresses(tmp_path, capsys) -> None:
    source = BAD.replace("1000\n", "1000  # noqa: PRM006\n") + "y = jnp.ones(3, jnp.int8) + 999  # noqa\n"
    source += "z = jnp.ones(3, jnp.int8) + 998  # noqa: PRM001\n"
    (tmp_path / "s.py").write_text(source)
    status, out, _ = run(capsys, "check", str(tmp_path))
    assert status == 1 and out.count("PRM006") == 1 and ":4:5:" in out


def test_noqa_inside_a_string_is_not_a_directive(tmp_path, capsys) -> None:
    (tmp_path / "s.py").write_text(BAD.replace("1000\n", '1000; s = "# noqa"\n'))
    assert ":2:5: PRM006" in run(capsys, "check", str(tmp_path))[1]


def test_file_level_disable_comment(tmp_path, capsys) -> None:
    lines = BAD.splitlines()
    (tmp_path / "off.py").write_text("\n".join([lines[0], "# promolint: disable=PRM001, PRM006", lines[1]]) + "\n")
    (tmp_path / "other.py").write_text("\n".join([lines[0], "# promolint: disable=PRM001", lines[1]]) + "\n")
    (tmp_path / "trailing.py").write_text(BAD.replace("1000\n", "1000  # promolint: disable=PRM006\n"))
    status, out, _ = run(capsys, "check", str(tmp_path))
    assert status == 1 and "off.py" not in out  # disabled for the whole file
    assert "other.py:3:5: PRM006" in out  # other codes stay on
    assert "trailing.py:2:5: PRM006" in out  # only a comment line disables a file


def test_unused_noqa_is_reported_by_kind(tmp_path, capsys) -> None:
    (tmp_path / "u.py").write_text(
        "import jax.numpy as jnp\n"
        "a = jnp.ones(3, jnp.int8) + 1000  # noqa: PRM006\n"  # used
        "b = jnp.ones(3, jnp.float32) + 1  # noqa: PRM006\n"  # enabled, silent here: unused
        "c = jnp.ones(3, jnp.float32) + 1  # noqa: PRM002, XYZ123\n"  # PRM002 ignored below; XYZ123 unknown
        "d = jnp.ones(3, jnp.float32) + 1  # noqa\n"  # blanket, suppresses nothing
        "e = jnp.ones(3, jnp.int8) + 1000  # noqa\n"  # blanket, used
        "f = jnp.ones(3, jnp.int8) + 1000  # noqa: PRM006, PRM001\n"  # partly used
    )
    assert run(capsys, "check", str(tmp_path))[0] == 0  # off by default, like ruff's RUF100
    status, out, _ = run(capsys, "check", str(tmp_path), "--report-unused-noqa", "--ignore", "PRM002")
    assert status == 1
    assert [line.split(": ", 1)[1] for line in out.splitlines()[:-1]] == [
        "PRM100 unused `noqa` directive (unused: `PRM006`)",
        "PRM100 unused `noqa` directive (non-enabled: `PRM002`; unknown: `XYZ123`)",
        "PRM100 unused blanket `noqa` directive",
        "PRM100 unused `noqa` directive (unused: `PRM001`)",
    ]
    assert out.startswith(f"{tmp_path / 'u.py'}:3:35: PRM100")  # at the directive


def test_noqa_for_a_rule_disabled_in_the_file_is_non_enabled_not_unused(tmp_path, capsys) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.promolint]\nper-file-ignores = {"gen.py" = ["PRM006"]}\n')
    line = "x = jnp.ones(3, jnp.int8) + 1000  # noqa: PRM006\n"
    (tmp_path / "gen.py").write_text("import jax.numpy as jnp\n" + line)
    (tmp_path / "off.py").write_text("import jax.numpy as jnp\n# promolint: disable=PRM006\n" + line)
    (tmp_path / "on.py").write_text("import jax.numpy as jnp\n" + line)
    status, out, _ = run(capsys, "check", str(tmp_path), "--report-unused-noqa")
    assert status == 1 and "on.py" not in out
    assert out.count("(non-enabled: `PRM006`)") == 2 and "unused:" not in out


def test_unused_noqa_can_itself_be_disabled(tmp_path, capsys) -> None:
    (tmp_path / "u.py").write_text("# promolint: disable=PRM100\nx = 1  # noqa\n")
    assert run(capsys, "check", str(tmp_path), "--report-unused-noqa")[0] == 0


@pytest.mark.parametrize("code", ["PRM000", "PRM100"])
def test_checker_codes_are_documented_and_their_examples_hold(code) -> None:
    rule = rule_by_code(code)
    codes = frozenset({"PRM000", "PRM006", "PRM100"})
    for kind, fires in (("invalid", True), ("valid", False)):
        for example in getattr(rule, kind):
            found = lint_source(textwrap.dedent(example.code).encode(), "example.py", Settings(), codes)
            assert (code in {d.code for d in found}) is fires, f"{code} {kind} example:\n{example.code}"


def test_select_and_ignore(tmp_path, capsys) -> None:
    (tmp_path / "bad.py").write_text(BAD)
    assert run(capsys, "check", str(tmp_path), "--ignore", "PRM006")[0] == 0
    assert run(capsys, "check", str(tmp_path), "--select", "PRM001")[0] == 0
    assert run(capsys, "check", str(tmp_path), "--select", "PRM00")[0] == 1


def test_pyproject_configuration(tmp_path, capsys) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.promolint]\nx64 = "on"\nper-file-ignores = {"gen_*.py" = ["PRM006"]}\n'
                                             'extend-exclude = ["vendored"]\n')  # fmt: skip
    (tmp_path / "gen_a.py").write_text(BAD)
    (tmp_path / "vendored").mkdir()
    (tmp_path / "vendored" / "v.py").write_text(BAD)
    (tmp_path / "x.py").write_text("import jax.numpy as jnp\ny = jnp.zeros([], jnp.int32) + 1.0\n")
    status, out, _ = run(capsys, "check", str(tmp_path))
    assert status == 1
    assert "x.py:2:5: PRM001" in out and "gen_a.py" not in out and "vendored" not in out


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
