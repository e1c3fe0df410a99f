"""A long run shows ``files done/total`` on an interactive standard error, redrawn in place and
cleared at the end; piped output and CI logs get none of it."""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from promolint.driver.progress import Progress

FILES = 6
_CLEAR = b"\r\x1b[K"
_WAIT = 120  # seconds: a backstop for a run that hangs, never reached by a working one


def _tree(root: Path) -> Path:
    tree = root / "tree"
    tree.mkdir()
    for i in range(FILES):
        (tree / f"m{i}.py").write_text(f"import jax.numpy as jnp\nx = jnp.zeros(3, dtype=jnp.float64) + {i}\n")
    return tree


def _environment(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    return env | extra


def _on_terminal(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, bytes, bytes]:
    """Run promolint with standard error on a pseudo-terminal (stdout piped); its status, stdout
    and what the terminal showed."""
    terminal, stderr = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "promolint", *argv], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=stderr)  # fmt: skip
    os.close(stderr)
    shown = bytearray()
    deadline = time.monotonic() + _WAIT
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([terminal], [], [], 0.5)
            if not ready:
                if process.poll() is not None:
                    break  # ended, and nothing more to read
                continue
            try:
                chunk = os.read(terminal, 4096)
            except OSError:  # EIO: every writer closed the terminal
                break
            if not chunk:
                break
            shown += chunk
        out = process.communicate(timeout=_WAIT)[0]
    finally:
        os.close(terminal)
        if process.poll() is None:
            process.kill()
    return process.returncode, out, bytes(shown)


@pytest.mark.parametrize("argv", [["check", "--no-cache"], ["check", "--fix"], ["check", "--diff"], ["reveal"]])
def test_a_terminal_shows_the_files_done_and_the_line_is_cleared_at_the_end(tmp_path, argv) -> None:
    tree = _tree(tmp_path)
    status, out, shown = _on_terminal([*argv, "--x64", "off", "--jobs", "2", str(tree)], tmp_path, _environment())
    assert b"Traceback" not in shown and status == (0 if argv[-1] in ("--fix", "reveal") else 1)
    assert f"0/{FILES} files".encode() in shown and f"{FILES}/{FILES} files".encode() in shown
    progress = shown[: shown.rindex(_CLEAR) + len(_CLEAR)]
    assert progress.endswith(_CLEAR) and b"\x1b" not in out  # the progress line is erased, stdout untouched
    if argv == ["reveal"]:
        assert out.count(b"x: float32") == FILES  # every file's records, none lost to the redrawn line


@pytest.mark.parametrize("argv", [["check", "--no-cache"], ["check", "--fix"], ["reveal"]])
def test_piped_output_and_ci_get_no_progress(tmp_path, argv) -> None:
    tree = _tree(tmp_path)
    command = [*argv, "--x64", "off", "--jobs", "2", str(tree)]
    piped = subprocess.run([sys.executable, "-m", "promolint", *command], cwd=tmp_path, env=_environment(),
                           capture_output=True, timeout=_WAIT, check=False)  # fmt: skip
    assert b"files" not in piped.stderr.replace(b"No Python files", b"") and b"\x1b" not in piped.stderr
    _, _, shown = _on_terminal(command, tmp_path, _environment(CI="true"))
    assert b" files" not in shown and b"\x1b" not in shown


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_count_is_drawn_at_the_start_and_the_end_and_erased(monkeypatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    stream = _Terminal()
    with Progress(3, stream) as progress:
        for _ in range(3):
            progress.advance()
    shown = stream.getvalue()
    assert shown.startswith("\r\x1b[K0/3 files") and shown.endswith("\r\x1b[K3/3 files\r\x1b[K")
    piped = io.StringIO()
    with Progress(3, piped) as progress:
        progress.advance(3)
    assert piped.getvalue() == ""
