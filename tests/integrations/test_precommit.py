"""The pre-commit hooks as users run them: the real `pre-commit` installs this checkout into a
virtualenv of its own with pip (the dependencies come from PyPI); `promolint` fails on a finding
and passes once the code is fixed by hand, `promolint-fix` fails while it rewrites a file and
passes on the next run. The config is the one docs/ci.md tells users to copy."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from pre_commit.clientlib import load_manifest

REPO = Path(__file__).resolve().parents[2]
DOCS_URL, DOCS_REV = "https://github.com/OWNER/promolint", "v0.1.0"  # the placeholders in docs/ci.md
# Git variables set by a hook that runs these tests would point the commands below at the wrong repository.
ENV = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}


def git(cwd: Path, *args: str) -> str:
    identity = (
        "-c",
        "user.name=promolint tests",
        "-c",
        "user.email=tests@example.invalid",
        "-c",
        "commit.gpgsign=false",
    )
    return subprocess.run(["git", *identity, *args], cwd=cwd, env=ENV, check=True, capture_output=True,
                          text=True).stdout  # fmt: skip


def snapshot(destination: Path) -> str:
    """This checkout's working tree, new and changed files included, committed to a fresh repository;
    its commit. (`pre-commit try-repo` on the checkout itself would carry only changes to tracked
    files, and would build a new environment for each run.)"""
    for name in git(REPO, "ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0"):
        if name and (REPO / name).is_file():  # a tracked file deleted in the working tree is listed too
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, destination / name)
    git(destination, "init", "-q")
    git(destination, "add", "-A")
    git(destination, "commit", "-q", "-m", "snapshot")
    return git(destination, "rev-parse", "HEAD").strip()


def users_config(repo: Path, rev: str) -> str:
    (config,) = [block for block in re.findall(r"```yaml\n(.*?)```", (REPO / "docs" / "ci.md").read_text(), re.DOTALL)
                 if block.startswith("repos:")]  # fmt: skip
    assert DOCS_URL in config and DOCS_REV in config
    return config.replace(DOCS_URL, str(repo)).replace(DOCS_REV, rev)


def pre_commit(project: Path, home: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"], check=False,
                          cwd=project, env={**ENV, "PRE_COMMIT_HOME": str(home)}, capture_output=True, text=True,
                          timeout=540)  # fmt: skip


def test_manifest_declares_the_hooks() -> None:
    hooks = {hook["id"]: hook for hook in load_manifest(str(REPO / ".pre-commit-hooks.yaml"))}  # pre-commit's schema
    assert (
        hooks["promolint"]["entry"].split()[:2] == ["promolint", "check"] and hooks["promolint"]["language"] == "python"
    )
    assert hooks["promolint-fix"]["entry"].split()[:3] == ["promolint", "check", "--fix"]
    assert all(set(hook["types_or"]) == {"python", "pyi", "jupyter"} for hook in hooks.values())


def test_hooks_fail_on_a_finding_and_pass_once_fixed(tmp_path) -> None:
    hooks_repo, project = tmp_path / "promolint", tmp_path / "project"
    hooks_repo.mkdir()
    project.mkdir()
    rev = snapshot(hooks_repo)
    git(project, "init", "-q")
    (project / ".pre-commit-config.yaml").write_text(users_config(hooks_repo, rev))
    (project / "model.py").write_text("import jax.numpy as jnp\nx = jnp.ones(3, jnp.int8) + 1000\n")
    shutil.copy(REPO / "tests" / "data" / "notebooks" / "training.ipynb", project)
    git(project, "add", "-A")

    failed = pre_commit(project, tmp_path / "pre-commit-home")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert re.search(r"^promolint\.+Failed$", failed.stdout, re.MULTILINE) and "model.py:2:5: PRM006" in failed.stdout
    assert "training.ipynb:cell 3:5:14: PRM006" in failed.stdout  # notebooks are staged files too
    (project / "training.ipynb").unlink()

    (project / "model.py").write_text("import jax.numpy as jnp\nx = jnp.ones(3, jnp.int8).astype(jnp.int32) + 1000\n")
    git(project, "add", "-A")
    passed = pre_commit(project, tmp_path / "pre-commit-home")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert re.search(r"^promolint\.+Passed$", passed.stdout, re.MULTILINE)

    # The fixing hook, from the environment installed above: pre-commit fails the run in which
    # the hook rewrites a file, and the next run passes.
    config = users_config(hooks_repo, rev).replace("- id: promolint\n", "- id: promolint-fix\n")
    (project / ".pre-commit-config.yaml").write_text(config)
    (project / "model.py").write_text("import jax.numpy as jnp\nz = jnp.zeros(3, dtype=jnp.float64)\n")
    (project / "pyproject.toml").write_text('[tool.promolint]\nx64 = "off"\n')  # PRM007 needs x64 off said
    git(project, "add", "-A")
    fixing = pre_commit(project, tmp_path / "pre-commit-home")
    assert fixing.returncode == 1, fixing.stdout + fixing.stderr
    assert re.search(r"^promolint \(fix\)\.+Failed$", fixing.stdout, re.MULTILINE)
    assert "files were modified by this hook" in fixing.stdout
    assert (project / "model.py").read_text().startswith("import jax.numpy as jnp\nz = jnp.zeros(3, dtype=jnp.float32)")
    git(project, "add", "-A")
    fixed = pre_commit(project, tmp_path / "pre-commit-home")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert re.search(r"^promolint \(fix\)\.+Passed$", fixed.stdout, re.MULTILINE)
