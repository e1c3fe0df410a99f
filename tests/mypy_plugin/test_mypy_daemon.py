"""The plugin under ``dmypy``, as editors run it: diagnostics follow edits, across modules too."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mypy_harness as harness

HELPERS = "import jax.numpy as jnp\n\nWEIGHTS = jnp.ones(3, jnp.{dtype})\n"
USER = "from helpers import WEIGHTS\n\nfits = WEIGHTS + 100\nresult = WEIGHTS + {literal}\n"


def _write(path: Path, text: str) -> None:
    path.write_text(text)
    # dmypy notices changes by modification time: make every edit a visible one.
    stamp = time.time() + getattr(_write, "bump", 0)
    _write.bump = getattr(_write, "bump", 0) + 2  # type: ignore[attr-defined]
    os.utime(path, (stamp, stamp))


def test_daemon_follows_edits(tmp_path: Path) -> None:
    root = harness.prepare(tmp_path / "project")
    status = tmp_path / "dmypy.json"
    _write(root / "helpers.py", HELPERS.format(dtype="int8"))
    _write(root / "user.py", USER.format(literal=100))
    env = harness._environment()

    def dmypy(*arguments: str, timeout: float = 60) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(status), *arguments]
        return subprocess.run(command, check=False, cwd=root, capture_output=True, text=True, env=env, timeout=timeout)

    def check() -> set[tuple[str, int, str | None]]:
        result = dmypy("run", "--timeout", "300", "--", *harness.MYPY_OPTIONS, "--use-fine-grained-cache",
                       "helpers.py", "user.py")  # fmt: skip
        assert "INTERNAL ERROR" not in result.stdout + result.stderr, result.stdout + result.stderr
        assert result.returncode in (0, 1), result.stdout + result.stderr
        return {(m.path, m.line, m.rule_code) for m in harness.parse(result.stdout) if m.rule_code}

    started = time.monotonic()
    try:
        assert check() == set()
        _write(root / "user.py", USER.format(literal=1000))  # the edited file gains a finding
        assert check() == {("user.py", 4, "PRM006")}
        _write(root / "helpers.py", HELPERS.format(dtype="int32"))  # another module's edit removes it
        assert check() == set()
        _write(root / "helpers.py", HELPERS.format(dtype="int8"))  # ... and brings it back
        assert check() == {("user.py", 4, "PRM006")}
        _write(root / "user.py", USER.format(literal=100))
        assert check() == set()
    finally:
        stopped = dmypy("stop", timeout=30)
        if stopped.returncode != 0 and status.exists():  # pragma: no cover - a daemon that hangs
            dmypy("kill", timeout=30)
            pytest.fail(f"dmypy stop failed: {stopped.stdout}{stopped.stderr}")
    assert time.monotonic() - started < 60
