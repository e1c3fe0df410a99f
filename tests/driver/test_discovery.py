"""Which files a run reads (``promolint.driver.discovery``), walked as ruff walks them: Python files,
stubs and notebooks under the paths given, in a fixed order, minus the excluded ones; a file named
on the command line counts unless the excludes are forced; an entry that cannot be read is one
diagnostic.  The commands' handling of unreadable entries is tests/driver/test_unreadable_entries.py's."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from promolint.core.diagnostics import Diagnostic
from promolint.driver.config import Config
from promolint.driver.discovery import is_unreadable, iter_files


def _found(root: Path, *paths: Path, **settings) -> list[str]:
    config = Config(root=root, **settings)
    return [p.relative_to(root).as_posix() for p in iter_files(paths or (root,), config)]


def _touch(root: Path, *names: str) -> None:
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x = 1\n")


def test_python_files_stubs_and_notebooks_are_read_and_nothing_else(tmp_path) -> None:
    _touch(tmp_path, "a.py", "b.pyi", "c.ipynb", "d.txt", "e.pyc", "setup.cfg")
    assert _found(tmp_path) == ["a.py", "b.pyi", "c.ipynb"]


def test_a_folders_files_come_before_its_subfolders_each_by_name(tmp_path) -> None:
    _touch(tmp_path, "z.py", "a/y.py", "a/b/x.py", "m.py", "a/a.py")
    assert _found(tmp_path) == ["m.py", "z.py", "a/a.py", "a/y.py", "a/b/x.py"]


def test_the_default_excludes_skip_virtual_environments_and_caches(tmp_path) -> None:
    _touch(tmp_path, "pkg/a.py", ".venv/lib/b.py", "__pycache__/c.py", "build/d.py", ".git/e.py")
    assert _found(tmp_path) == ["pkg/a.py"]


def test_excludes_match_a_folder_or_file_name_at_any_depth_or_a_path(tmp_path) -> None:
    _touch(tmp_path, "pkg/vendored/a.py", "pkg/gen_b.py", "pkg/c.py", "other/vendored.py")
    assert _found(tmp_path, extend_exclude=("vendored", "gen_*.py")) == ["other/vendored.py", "pkg/c.py"]
    assert _found(tmp_path, extend_exclude=("pkg/vendored",)) == ["other/vendored.py", "pkg/c.py", "pkg/gen_b.py"]


def test_a_file_named_on_the_command_line_counts_unless_excludes_are_forced(tmp_path) -> None:
    _touch(tmp_path, "gen_a.py")
    named = tmp_path / "gen_a.py"
    assert _found(tmp_path, named, extend_exclude=("gen_*.py",)) == ["gen_a.py"]
    assert _found(tmp_path, named, extend_exclude=("gen_*.py",), force_exclude=True) == []


def test_a_symlinked_folder_is_not_followed_but_a_symlinked_file_is_read(tmp_path) -> None:
    _touch(tmp_path, "real/a.py")
    (tmp_path / "linked").symlink_to(tmp_path / "real", target_is_directory=True)
    (tmp_path / "b.py").symlink_to(tmp_path / "real" / "a.py")
    assert _found(tmp_path) == ["b.py", "real/a.py"]


def test_a_folder_named_like_a_module_is_walked_not_reported(tmp_path) -> None:
    _touch(tmp_path, "odd.py/inner.py")
    unreadable: list = []
    found = list(iter_files([tmp_path], Config(root=tmp_path), unreadable))
    assert [p.relative_to(tmp_path).as_posix() for p in found] == ["odd.py/inner.py"] and unreadable == []


def test_each_entry_that_cannot_be_read_is_one_diagnostic_and_the_walk_goes_on(tmp_path) -> None:
    _touch(tmp_path, "a.py", "z.py")
    (tmp_path / "loop.py").symlink_to("loop.py")
    (tmp_path / "dangling.py").symlink_to("missing.py")
    os.mkfifo(tmp_path / "pipe.py")
    unreadable: list = []
    found = [p.name for p in iter_files([tmp_path], Config(root=tmp_path), unreadable)]
    assert found == ["a.py", "z.py"]
    by_name = {Path(d.path).name: d for d in unreadable}
    assert sorted(by_name) == ["dangling.py", "loop.py", "pipe.py"]
    assert all(is_unreadable(d) and (d.line, d.column, d.code) == (1, 1, "PRM000") for d in unreadable)
    assert by_name["pipe.py"].message == "cannot read file: not a regular file (a FIFO)"
    assert by_name["dangling.py"].message == "cannot read file: No such file or directory"


@pytest.mark.parametrize("message", ["syntax error: invalid syntax", "cannot decode: bad byte"])
def test_a_file_that_was_read_but_does_not_parse_is_not_an_unreadable_entry(message) -> None:
    assert not is_unreadable(Diagnostic("a.py", 1, 1, "PRM000", message))
