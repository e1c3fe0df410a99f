"""`promolint check --stdin-filename PATH -`: what editors and formatters pipe, as ruff reads it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BAD = b"import jax.numpy as jnp\nx = jnp.ones(3, jnp.int8) + 1000\nz = jnp.zeros(3, dtype=jnp.float64)\n"
FIXED_LINE = (b"z = jnp.zeros(3, dtype=jnp.float32)  # promolint: was float64, which JAX truncates to float32 "
              b"with x64 off\n")


def promolint(*argv: str, cwd: Path, stdin: bytes = BAD) -> subprocess.CompletedProcess:
    # x64 off said (PRM007 needs it): an editor's buffer has no project around it to tell.
    return subprocess.run([sys.executable, "-m", "promolint", "check", "--x64", "off", *argv], cwd=cwd, input=stdin,
                          capture_output=True, timeout=120, check=False)  # fmt: skip


def test_the_source_comes_from_stdin_under_the_given_name(tmp_path) -> None:
    result = promolint("--stdin-filename", "src/model.py", "-", cwd=tmp_path)
    assert result.returncode == 1 and not (tmp_path / "src").exists()
    assert result.stdout.decode().splitlines()[:2] == [
        "src/model.py:2:5: PRM006 1000 does not fit int8 [-128, 127]; JAX converts it anyway: it wraps silently to "
        "-24. Cast the array to a wider dtype first.",
        "src/model.py:3:5: PRM007 [*] float64 requested while x64 is off: JAX truncates it to float32 (with a "
        "UserWarning). Write float32, or enable jax_enable_x64 if 64 bits are needed.",
    ]
    assert promolint("--stdin-filename", "src/model.py", cwd=tmp_path).stdout == result.stdout  # `-` implied
    clean = promolint("-", cwd=tmp_path, stdin=b"x = 1\n")
    assert clean.returncode == 0 and clean.stdout == b"All checks passed!\n"


def test_configuration_applies_by_the_given_name(tmp_path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.promolint]\nper-file-ignores = {"tests/*" = ["PRM006"]}\n'
                                             'extend-exclude = ["vendored"]\n')  # fmt: skip
    (tmp_path / "tests").mkdir()
    ignored = promolint("--stdin-filename", "tests/test_model.py", "-", "--format", "json", cwd=tmp_path)
    assert [d["code"] for d in json.loads(ignored.stdout)] == ["PRM007"]
    # Excludes hold for a named file (stdin's name too) with --force-exclude, as in ruff and pre-commit.
    assert promolint("--stdin-filename", "vendored/lib.py", "-", cwd=tmp_path).returncode == 1
    excluded = promolint("--stdin-filename", "vendored/lib.py", "-", "--force-exclude", cwd=tmp_path)
    assert excluded.returncode == 0 and excluded.stdout == b""
    fixed = promolint("--stdin-filename", "vendored/lib.py", "-", "--force-exclude", "--fix", cwd=tmp_path)
    assert fixed.stdout == BAD  # an editor replaces its buffer with the output: it gets it back unchanged


def test_fix_writes_the_fixed_source_to_stdout_and_the_report_to_stderr(tmp_path) -> None:
    result = promolint("--stdin-filename", "model.py", "-", "--fix", cwd=tmp_path)
    assert result.returncode == 1  # a finding without a fix is left
    assert result.stdout == BAD.replace(b"z = jnp.zeros(3, dtype=jnp.float64)\n", FIXED_LINE)
    assert b"model.py:2:5: PRM006" in result.stderr and b"Found 2 findings (1 fixed, 1 remaining)." in result.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written beside it
    clean = promolint("--stdin-filename", "model.py", "-", "--fix", cwd=tmp_path, stdin=b"x = 1\n")
    assert clean.returncode == 0 and clean.stdout == b"x = 1\n"


def test_diff_from_stdin(tmp_path) -> None:
    result = promolint("--stdin-filename", "model.py", "-", "--diff", cwd=tmp_path)
    assert result.returncode == 1 and result.stdout.startswith(b"--- model.py\n+++ model.py\n")
    assert b"+" + FIXED_LINE in result.stdout


def test_stdin_goes_alone(tmp_path) -> None:
    result = promolint("-", ".", cwd=tmp_path)
    assert result.returncode == 2 and b"cannot be checked together with other paths" in result.stderr
