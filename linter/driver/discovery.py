"""Which files a run reads: the Python files and notebooks under the paths given, minus the
excluded ones, and a diagnostic for each entry that cannot be read, so that the run goes on.

Kept apart from the engine, as ``promolint.driver.runner`` is: a run served from the cache walks the
tree and reads no file.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from promolint.driver.config import PARSE_ERROR, Config
from promolint.core.diagnostics import Diagnostic

NOTEBOOK_SUFFIX = ".ipynb"  # promolint.driver.notebook reads them; not imported here, where a cached run needs no parser
LINTED_SUFFIXES = (".py", ".pyi", NOTEBOOK_SUFFIX)  # what a directory contributes, notebooks included as ruff does


def iter_files(paths: Iterable[Path], config: Config, unreadable: list[Diagnostic] | None = None) -> Iterator[Path]:
    """Python files and notebooks under ``paths``, minus excluded ones; files named explicitly count
    unless ``force_exclude`` (pre-commit names every file, and the project's excludes must still
    hold).  Only regular files are read: an entry that cannot be (a symlink to itself or to
    nothing, a folder that cannot be listed, a FIFO, socket or device, which could block a read
    forever) is one diagnostic in ``unreadable``, and the walk goes on."""
    return map(Path, file_names(paths, config, unreadable))


def file_names(paths: Iterable[Path], config: Config, unreadable: list[Diagnostic] | None) -> Iterator[str]:
    """``iter_files`` as the names ``str(path)`` gives (pathlib costs more than the walk)."""
    for path in paths:
        if path.is_dir():
            yield from _walk(str(path), config, unreadable)
        elif _is_regular(str(path), unreadable):
            if not (config.force_exclude and config.excluded(path)):
                yield str(path)


def _walk(directory: str, config: Config, unreadable: list[Diagnostic] | None,
          relative: str | None = None) -> Iterator[str]:  # fmt: skip
    """The files under ``directory``; ``relative``: its path as the excludes read it."""
    try:
        entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
    except OSError as error:
        _report(unreadable, directory, f"cannot read directory: {error.strerror}")
        return
    if relative is None:
        relative = config.relative(Path(directory))
    prefix = "" if relative == "." else relative + "/"  # what Config.relative gives each entry
    folder = "" if directory == "." else os.path.join(directory, "")  # as Path(directory) / name is written
    subdirectories = []
    for entry in entries:
        if _entry_is_dir(entry):
            subdirectories.append(entry.name)
        elif entry.name.endswith(LINTED_SUFFIXES) and not config.excluded_relative(prefix + entry.name):
            if _is_plain_file(entry) or _is_regular(folder + entry.name, unreadable):
                yield folder + entry.name
    for name in subdirectories:  # files first, then subdirectories: os.walk's order
        if not config.excluded_relative(prefix + name):
            yield from _walk(folder + name, config, unreadable, prefix + name)


def _entry_is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)  # like os.walk: symlinked directories are not followed
    except OSError:
        return False


def _is_plain_file(entry: os.DirEntry) -> bool:
    """A regular file by the listing's type, without a system call; a symlink, which may point
    anywhere (to itself, to nothing), is left to ``_is_regular``."""
    try:
        return entry.is_file(follow_symlinks=False)
    except OSError:
        return False


def _is_regular(path: str, unreadable: list[Diagnostic] | None) -> bool:
    """Whether ``path`` is a regular file, or a symlink to one; else why it cannot be read goes
    to ``unreadable`` (a directory named like a module is not linted, and not an error)."""
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        _report(unreadable, path, f"cannot read file: {error.strerror}")
        return False
    if stat.S_ISREG(mode):
        return True
    if not stat.S_ISDIR(mode):
        kind = next((name for test, name in _SPECIAL_FILES if test(mode)), "of an unknown kind")
        _report(unreadable, path, f"cannot read file: not a regular file ({kind})")
    return False


_SPECIAL_FILES = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                  (stat.S_ISBLK, "a block device"))  # fmt: skip


def unreadable_entry(path: str, message: str) -> Diagnostic:
    """A file or folder of the run that cannot be read: a finding at its first line, as ruff's
    E902, so that the run goes on and its exit status says something was not checked."""
    return Diagnostic(path, 1, 1, PARSE_ERROR, message)


def is_unreadable(diagnostic: Diagnostic) -> bool:
    return diagnostic.code == PARSE_ERROR and diagnostic.message.startswith(_UNREADABLE)


_UNREADABLE = ("cannot read file: ", "cannot read directory: ")


def _report(unreadable: list[Diagnostic] | None, path: str, message: str) -> None:
    if unreadable is not None:
        unreadable.append(unreadable_entry(path, message))
