"""Entries of a checked tree that cannot be read (a symlink to itself or to nothing, a folder or a
file the user may not read, a FIFO) are one diagnostic each, in every command, and the run goes
on: the other files are reported, and no traceback is printed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from permissions import bound_by_permissions

BAD = "import jax.numpy as jnp\nx = jnp.ones(3, jnp.int8) + 1000\n"  # PRM006
FIXABLE = "import jax.numpy as jnp\nx = jnp.zeros(3, dtype=jnp.float64)\n"  # PRM007, fixable with --x64 off

COMMANDS = {
    "check": ["check", "--no-cache", "--x64", "off"],
    "check with the cache": ["check", "--x64", "off"],
    "check --fix": ["check", "--fix", "--x64", "off"],
    "check --diff": ["check", "--diff", "--x64", "off"],
    "reveal": ["reveal"],
}


def promolint(*argv: str, cwd: Path) -> subprocess.CompletedProcess:
    """``promolint ARGV`` run in ``cwd``, bound by file permissions (as root too)."""
    return subprocess.run(bound_by_permissions([sys.executable, "-m", "promolint", *argv]), cwd=cwd,
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip


def _tree(root: Path) -> list[str]:
    """A tree with readable files around entries that cannot be read; the latter's names."""
    (root / "a_bad.py").write_text(BAD)
    (root / "b_loop.py").symlink_to("b_loop.py")
    (root / "c_broken.py").symlink_to("missing.py")
    os.mkfifo(root / "d_pipe.py")
    (root / "sub").mkdir()
    (root / "sub" / "e_loop.ipynb").symlink_to("e_loop.ipynb")
    (root / "sub" / "f_fixable.py").write_text(FIXABLE)
    return ["b_loop.py", "c_broken.py", "d_pipe.py", "sub/e_loop.ipynb"]


@pytest.mark.parametrize("command", COMMANDS)
def test_each_unreadable_entry_is_one_diagnostic_and_the_run_goes_on(tmp_path, command) -> None:
    unreadable = _tree(tmp_path)
    result = promolint(*COMMANDS[command], ".", cwd=tmp_path)
    assert "Traceback" not in result.stderr
    # reveal and --diff print the files' records or diffs on stdout, and what they could not read on stderr
    reported = result.stderr if command in ("reveal", "check --diff") else result.stdout
    for name in unreadable:
        lines = [line for line in reported.splitlines() if line.startswith(name + ":") or f" {name}:" in line]
        assert len(lines) == 1 and "cannot read file: " in lines[0], (name, reported)
    assert "No such file or directory" in reported and "Too many levels of symbolic links" in reported
    assert "not a regular file (a FIFO)" in reported
    if command == "reveal":
        assert result.returncode == 1 and "a_bad.py:2:" in result.stdout and "sub/f_fixable.py:2:" in result.stdout
    elif command == "check --diff":
        assert result.returncode == 1 and "+++ sub/f_fixable.py" in result.stdout
    elif command == "check --fix":
        assert result.returncode == 1 and "a_bad.py:2:5: PRM006" in result.stdout
        assert "float32" in (tmp_path / "sub" / "f_fixable.py").read_text()
    else:
        assert result.returncode == 1 and "a_bad.py:2:5: PRM006" in result.stdout
        assert "sub/f_fixable.py:2:" in result.stdout


def test_unreadable_entries_alone_are_findings_not_an_empty_tree(tmp_path) -> None:
    (tmp_path / "loop.py").symlink_to("loop.py")
    result = promolint("check", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 1 and "loop.py:1:1: PRM000 cannot read file: Too many levels" in result.stdout


@pytest.mark.parametrize("command", COMMANDS)
def test_a_folder_and_a_file_the_user_may_not_read_are_one_diagnostic_each(tmp_path, command) -> None:
    (tmp_path / "a_bad.py").write_text(BAD)
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "inside.py").write_text(BAD)
    (tmp_path / "secret.py").write_text(BAD)
    (tmp_path / "z_fixable.py").write_text(FIXABLE)
    os.chmod(tmp_path / "locked", 0)
    os.chmod(tmp_path / "secret.py", 0)
    try:
        result = promolint(*COMMANDS[command], ".", cwd=tmp_path)
    finally:
        os.chmod(tmp_path / "locked", 0o755)
        os.chmod(tmp_path / "secret.py", 0o644)
    reported = result.stderr if command in ("reveal", "check --diff") else result.stdout
    assert "Traceback" not in result.stderr and "inside.py" not in reported
    denied = sorted(line for line in reported.splitlines() if "Permission denied" in line)
    assert len(denied) == 2 and "locked" in denied[0] and "cannot read directory" in denied[0]
    assert "secret.py" in denied[1] and "cannot read file" in denied[1]
    assert result.returncode == 1
    assert ("a_bad.py:2:" in result.stdout) or command == "check --diff"


@pytest.mark.parametrize("command", ["check", "reveal"])
def test_a_fifo_named_like_python_is_one_diagnostic_and_never_read(tmp_path, command) -> None:
    (tmp_path / "bad.py").write_text(BAD)
    os.mkfifo(tmp_path / "pipe.py")  # opened for reading, it would block until a writer came
    (tmp_path / "sub").mkdir()
    os.mkfifo(tmp_path / "sub" / "notebook.ipynb")
    walked = promolint(command, str(tmp_path), "--no-cache" if command == "check" else "--x64=off", cwd=tmp_path)
    named = promolint(command, str(tmp_path / "pipe.py"), cwd=tmp_path)
    assert walked.returncode == named.returncode == 1 and "bad.py:2:" in walked.stdout
    report = "stdout" if command == "check" else "stderr"  # reveal's stdout holds the records only
    for result in (walked, named):
        assert "pipe.py" + (":1:1: PRM000" if command == "check" else ":") + " cannot read file: not a regular " \
            "file (a FIFO)" in getattr(result, report)
        assert "Traceback" not in result.stderr
    assert "notebook.ipynb" in getattr(walked, report) and getattr(walked, report).count("a FIFO") == 2
