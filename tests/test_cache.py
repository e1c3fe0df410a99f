"""The result cache and the prefilter change how much work a run does, never what it reports."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from promolint.cli import main
from promolint.runner import _batches

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def check(capsys, *argv: str) -> tuple[int, str]:
    status = main(["check", *argv])
    return status, capsys.readouterr().out


def make_project(root: Path) -> None:
    for fixture in sorted(FIXTURES.glob("PRM00*.py")):
        shutil.copy(fixture, root / fixture.name)
    (root / "plain.py").write_text("def add(a, b):\n    return a + b + 1000\n")


def test_cached_run_reports_exactly_what_a_fresh_run_does(tmp_path, capsys) -> None:
    make_project(tmp_path)
    cache = tmp_path / "cache"
    _, fresh = check(capsys, str(tmp_path), "--no-cache", "--format", "json")
    status, first = check(capsys, str(tmp_path), "--cache-dir", str(cache), "--format", "json")
    _, second = check(capsys, str(tmp_path), "--cache-dir", str(cache), "--format", "json")
    assert status == 1 and fresh == first == second
    for jobs in ("1", "3"):
        assert check(capsys, str(tmp_path), "--cache-dir", str(cache), "--format", "json", "--jobs", jobs)[1] == fresh


def test_statistics_say_what_was_cached_and_skipped(tmp_path, capsys) -> None:
    make_project(tmp_path)
    files = len(list(tmp_path.glob("*.py")))
    cache = ["--cache-dir", str(tmp_path / "cache"), "--statistics"]
    first = check(capsys, str(tmp_path), *cache)[1]
    assert f"{files} files: {files - 1} analyzed, 0 unchanged (from the cache), 1 skipped" in first
    second = check(capsys, str(tmp_path), *cache)[1]
    assert f"{files} files: 0 analyzed, {files} unchanged (from the cache), 0 skipped" in second
    (tmp_path / "PRM006_literal_overflow.py").write_text("import jax.numpy as jnp\nx = jnp.ones(3, jnp.int8) + 999\n")
    touched = check(capsys, str(tmp_path), *cache)[1]
    assert f"{files} files: 1 analyzed, {files - 1} unchanged" in touched and "PRM006" in touched


def test_configuration_change_invalidates_the_cache(tmp_path, capsys) -> None:
    make_project(tmp_path)
    cache = ["--cache-dir", str(tmp_path / "cache")]
    default = check(capsys, str(tmp_path), *cache)[1]
    x64 = check(capsys, str(tmp_path), *cache, "--x64", "on")[1]
    ignored = check(capsys, str(tmp_path), *cache, "--ignore", "PRM006")[1]
    assert default != x64 and "PRM006" in default and "PRM006" not in ignored


def test_skipped_file_with_a_syntax_error_is_still_reported(tmp_path, capsys) -> None:
    (tmp_path / "broken.py").write_text("def f(:\n    pass\n")
    status, out = check(capsys, str(tmp_path), "--no-cache")
    assert status == 1 and "PRM000" in out


def test_default_cache_lives_in_the_project_root(tmp_path, capsys, monkeypatch) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.promolint]\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("import numpy as np\nx = np.ones(3)\n")
    check(capsys, str(tmp_path / "src"))
    assert any((tmp_path / ".promolint_cache").glob("*.json"))
    assert (tmp_path / ".promolint_cache" / ".gitignore").read_text().strip().endswith("*")


def test_run_served_from_the_cache_loads_neither_libcst_nor_the_engine(tmp_path) -> None:
    make_project(tmp_path)
    script = f"""
import sys
from pathlib import Path
from promolint.config import Config
from promolint.runner import run_check
run = run_check([Path({str(tmp_path)!r})], Config(root=Path({str(tmp_path)!r})), jobs=1)
loaded = (m for m in sys.modules if m.startswith(("libcst", "promolint.engine", "promolint.frontend", "promolint.rules.")))
print(run.cached == run.files, sorted(m for m in loaded if m != "promolint.rules.registry"))  # the registry is data
"""
    lint = [sys.executable, "-c", script]
    assert subprocess.run(lint, capture_output=True, text=True, check=True).stdout.startswith("False")
    assert subprocess.run(lint, capture_output=True, text=True, check=True).stdout == "True []\n"


def test_workers_get_every_file_once_the_largest_first() -> None:
    batches = _batches([5, 1, 9, 1, 1, 1, 2], 4)
    assert sorted(index for batch in batches for index in batch) == list(range(7))
    assert batches[:2] == [[2], [0]]
    assert _batches([0, 0, 0], 2) == [[0, 1, 2]]
