"""The result cache and the prefilter change how much work a run does, never what it reports."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from promolint.driver import runner
from promolint.cli.main import main
from promolint.driver.workers import _batches

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


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


@pytest.mark.parametrize("marker", [".git", "setup.cfg", "pyproject.toml"])
def test_without_a_promolint_table_the_cache_goes_to_the_project_root(tmp_path, capsys, monkeypatch, marker) -> None:
    # pre-commit runs `promolint check src/a/x.py src/b/y.py` from the root, as it does ruff
    (tmp_path / marker).mkdir() if marker == ".git" else (tmp_path / marker).write_text("[tool.black]\n")
    for folder in ("a", "b"):
        (tmp_path / "src" / folder).mkdir(parents=True)
        (tmp_path / "src" / folder / "x.py").write_text("import numpy as np\nx = np.ones(3)\n")
    monkeypatch.chdir(tmp_path / "src")  # the root is found from the files, not from where the run starts
    check(capsys, "a/x.py", "b/x.py")
    assert any((tmp_path / ".promolint_cache").glob("*.json"))
    assert not list(tmp_path.rglob("src/**/.promolint_cache"))


def test_without_a_project_root_the_cache_goes_to_the_working_folder(tmp_path, capsys, monkeypatch) -> None:
    markers = (".git", "setup.cfg", "pyproject.toml")
    if any((folder / marker).exists() for folder in tmp_path.parents for marker in markers):
        pytest.skip("the temporary folder lies in a project")
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.py").write_text("import numpy as np\nx = np.ones(3)\n")
    monkeypatch.chdir(tmp_path)
    check(capsys, "a/x.py")
    assert any((tmp_path / ".promolint_cache").glob("*.json")) and not (tmp_path / "a" / ".promolint_cache").exists()


def test_run_served_from_the_cache_loads_neither_libcst_nor_the_engine(tmp_path) -> None:
    make_project(tmp_path)
    script = f"""
import sys
from pathlib import Path
from promolint.driver.config import Config
from promolint.driver.runner import run_check
run = run_check([Path({str(tmp_path)!r})], Config(root=Path({str(tmp_path)!r})), jobs=1)
loaded = (m for m in sys.modules if m.startswith(("libcst", "promolint.engine", "promolint.frontend", "promolint.rules.")))
data = ("promolint.rules.registry", "promolint.engine", "promolint.engine.project_facts")  # the registry, the facts' record
print(run.cached == run.files, sorted(m for m in loaded if m not in data))
"""
    lint = [sys.executable, "-c", script]
    assert subprocess.run(lint, capture_output=True, text=True, check=True).stdout.startswith("False")
    assert subprocess.run(lint, capture_output=True, text=True, check=True).stdout == "True []\n"


def test_workers_get_every_file_once_in_runs_of_neighbours() -> None:
    # Neighbours (one package's files) share the modules they read, which a worker keeps parsed.
    batches = _batches([5, 1, 9, 1, 1, 1, 2], 4)
    assert batches == [[0], [1, 2], [3, 4, 5, 6]]  # a share is 5: a large file ends its batch
    assert _batches([0, 0, 0], 2) == [[0, 1, 2]]


def _age(root: Path, seconds: float = 60) -> None:
    """Give every file under ``root`` a modification time in the past: files modified just
    before a run are not indexed (they may change again within one tick of the clock)."""
    past = time.time() - seconds
    for path in root.rglob("*.py"):
        os.utime(path, (past, past))


def _modified_just_now(path: Path) -> None:
    """Give ``path`` a modification time no run of the test can start two seconds after (the
    window in which a file is not indexed), however loaded the machine: a time in the future."""
    future = time.time() + 3600
    os.utime(path, (future, future))


def _reads(monkeypatch) -> list[str]:
    """The files runs read from now on."""
    read: list[str] = []
    original = runner._read

    def recording(paths, unreadable):
        for path, data in original(paths, unreadable):
            read.append(Path(path).name)
            yield path, data

    monkeypatch.setattr(runner, "_read", recording)
    return read


def test_a_run_with_nothing_changed_reads_no_file_and_a_touched_one_only_it(tmp_path, capsys, monkeypatch) -> None:
    make_project(tmp_path)  # PRM007's fixture switches x64: the project's facts are at stake too
    _age(tmp_path)
    cache = ["--cache-dir", str(tmp_path / "cache"), "--format", "json"]
    _, fresh = check(capsys, str(tmp_path), "--no-cache", "--format", "json")
    assert check(capsys, str(tmp_path), *cache)[1] == fresh
    read = _reads(monkeypatch)
    assert check(capsys, str(tmp_path), *cache)[1] == fresh and read == []
    touched = tmp_path / "PRM006_literal_overflow.py"
    touched.write_text(touched.read_text() + "y = jnp.ones(3, jnp.int8) + 999\n")  # the same imports
    _modified_just_now(touched)
    _, now = check(capsys, str(tmp_path), "--no-cache", "--format", "json")
    del read[:]
    assert now != fresh and check(capsys, str(tmp_path), *cache)[1] == now and read == [touched.name]
    # Modified just now, it was not indexed (it may change again within the same clock tick).
    del read[:]
    assert check(capsys, str(tmp_path), *cache)[1] == now and read == [touched.name]
    # Once its time is past the window, the next run reads it (its status changed) and indexes it.
    past = time.time() - 60
    os.utime(touched, (past, past))
    del read[:]
    assert check(capsys, str(tmp_path), *cache)[1] == now and read == [touched.name]
    del read[:]
    assert check(capsys, str(tmp_path), *cache)[1] == now and read == []
    # New imports may change the project's facts on every file: all are read again.
    touched.write_text("import jax\n" + touched.read_text())
    _, now = check(capsys, str(tmp_path), "--no-cache", "--format", "json")
    del read[:]
    assert check(capsys, str(tmp_path), *cache)[1] == now and len(read) == len(list(tmp_path.glob("*.py")))


def test_a_project_that_never_switches_x64_reads_only_changed_files(tmp_path, capsys, monkeypatch) -> None:
    make_project(tmp_path)
    (tmp_path / "PRM007_x64_truncation.py").unlink()
    _age(tmp_path)
    cache = ["--cache-dir", str(tmp_path / "cache"), "--format", "json"]
    check(capsys, str(tmp_path), *cache)
    read = _reads(monkeypatch)
    touched = tmp_path / "plain.py"
    touched.write_text("import jax.numpy as jnp\nx = jnp.ones(3, jnp.int8) + 999\n")
    _, fresh = check(capsys, str(tmp_path), "--no-cache", "--format", "json")
    del read[:]
    assert check(capsys, str(tmp_path), *cache)[1] == fresh and read == [touched.name]
    # A new file that switches x64: every file is read, their facts may have changed.
    (tmp_path / "switch.py").write_text("import jax\njax.config.update('jax_enable_x64', True)\n")
    _, fresh = check(capsys, str(tmp_path), "--no-cache", "--format", "json")
    del read[:]
    assert check(capsys, str(tmp_path), *cache)[1] == fresh and len(read) == len(list(tmp_path.glob("*.py")))


def test_a_file_that_switches_x64_makes_the_packages_around_the_files_count(tmp_path, capsys, monkeypatch) -> None:
    write = {"pkg/a/__init__.py": "", "pkg/a/precision.py": "import jax\njax.config.update('jax_enable_x64', False)\n",
             "pkg/b/__init__.py": "", "pkg/b/m.py": "from pkg.a import precision\nimport jax.numpy as jnp\n"
                                                    "z = jnp.zeros(3, dtype=jnp.float64)\n"}  # fmt: skip
    for name, text in write.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    _age(tmp_path)
    paths = [str(tmp_path / "pkg" / "a"), str(tmp_path / "pkg" / "b")]
    cache = ["--cache-dir", str(tmp_path / "cache")]
    # Without pkg/__init__.py, `pkg.a.precision` is not the module that sets x64 off.
    assert "PRM007" not in check(capsys, *paths, *cache)[1]
    read = _reads(monkeypatch)
    assert "PRM007" not in check(capsys, *paths, *cache)[1] and read == []
    (tmp_path / "pkg" / "__init__.py").write_text("")  # outside the run, it makes `pkg.a` a module
    assert "PRM007" in check(capsys, *paths, *cache)[1] and len(read) == 4
    (tmp_path / "pkg" / "a" / "precision.py").write_text("import jax\n")
    assert "PRM007" not in check(capsys, *paths, *cache)[1]
