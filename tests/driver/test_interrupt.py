"""Ctrl-C during a run stops it quietly with exit status 130, as ruff and pytest do: no traceback
from the worker pool, and the cache stays valid.

The run is interrupted while it is demonstrably under way: one file's analysis (the tree's last)
waits until it is interrupted, and says when it has started by creating a file, so the signal
never comes too early or after the end, however loaded the machine."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

# Loaded by every Python the run starts (the command, its fork server, its workers): the file
# zz_blocks.py is analysed until the run is interrupted.
_HOOK = textwrap.dedent("""
    import os
    import time

    _started = os.environ.get("PROMOLINT_TEST_STARTED")
    if _started:
        import promolint.driver.jobs

        _check_job = promolint.driver.jobs.check_job

        def _blocking_check_job(job):
            if job.path.endswith("zz_blocks.py"):
                open(_started, "w").close()
                while True:
                    time.sleep(0.05)
            return _check_job(job)

        promolint.driver.jobs.check_job = _blocking_check_job
""")
_WAIT = 120  # seconds: a backstop for a broken run, never reached by a working one


def _tree(root: Path) -> None:
    for i in range(12):
        (root / f"a_{i:02}.py").write_text(f"import jax.numpy as jnp\nx = jnp.ones(3, jnp.int8) + {1000 + i}\n")
    (root / "zz_blocks.py").write_text("import jax.numpy as jnp\ny = jnp.ones(3, jnp.int8) + 999\n")


def _command(root: Path, jobs: str, cache: bool = True) -> list[str]:
    where = ["--cache-dir", str(root / "cache")] if cache else ["--no-cache"]
    return [sys.executable, "-m", "promolint", "check", "--jobs", jobs, *where, str(root / "tree")]


def _as_a_terminal_starts_it() -> None:
    """SIGINT delivered and handled by default in the run, whatever the test process inherited: a
    worker of the test runner may ignore it or hold it blocked, and a child inherits both."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupted(command: list[str], hook: Path, started: Path) -> subprocess.CompletedProcess:
    """``command`` run in its own process group, which gets SIGINT, as a terminal sends it on
    Ctrl-C to every process of the run, once the blocking file's analysis has started."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(hook), os.environ.get("PYTHONPATH")])),
               PROMOLINT_TEST_STARTED=str(started))  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                               start_new_session=True, preexec_fn=_as_a_terminal_starts_it)  # fmt: skip
    try:
        deadline = time.monotonic() + _WAIT
        while not started.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)  # polling for the file the run writes, not a guess at how long it takes
        assert started.exists(), "the run never reached the blocking file"
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=_WAIT)
    finally:
        if process.poll() is None:  # a run that did not stop: end it and its workers
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    return subprocess.CompletedProcess(command, process.returncode, out, err)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_exits_130_quietly_and_leaves_the_cache_valid(tmp_path, jobs) -> None:
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(_HOOK)
    (tmp_path / "tree").mkdir()
    _tree(tmp_path / "tree")
    before = subprocess.run(_command(tmp_path, jobs), capture_output=True, text=True, timeout=_WAIT, check=False)
    assert before.returncode == 1 and before.stdout.count("PRM006") == 13
    for path in (tmp_path / "tree").iterdir():  # changed: the interrupted run analyses them again
        path.write_text(path.read_text() + "z = jnp.ones(2, jnp.uint8) + 300\n")

    result = _interrupted(_command(tmp_path, jobs), hook, tmp_path / "started")
    assert result.returncode == 130
    assert "Traceback" not in result.stderr and "KeyboardInterrupt" not in result.stderr
    assert len(result.stderr.splitlines()) <= 1 and result.stdout == ""

    cache = tmp_path / "cache"
    assert [path.name for path in cache.iterdir() if path.suffix == ".tmp" or path.name.startswith(".") and
            path.name != ".gitignore"] == []  # fmt: skip
    assert all(isinstance(json.loads(path.read_text()), dict) for path in cache.glob("*.json"))
    fresh = subprocess.run(_command(tmp_path, jobs, cache=False), capture_output=True, text=True, timeout=_WAIT,
                           check=False)  # fmt: skip
    after = subprocess.run(_command(tmp_path, jobs), capture_output=True, text=True, timeout=_WAIT, check=False)
    assert after.returncode == fresh.returncode == 1 and after.stdout == fresh.stdout
    assert fresh.stdout.count("PRM006") == 26
