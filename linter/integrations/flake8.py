"""promolint as a flake8 plugin: ``flake8 --select PRM`` reports promolint's findings with its
codes, beside the other plugins a project runs.

flake8 finds it by the ``flake8.extension`` entry point ``PRM``.  Settings come from
``[tool.promolint]`` (found upward from each file, as `promolint check` finds them): the x64 and
promotion modes, ``per-file-ignores``, ``external``, the opt-in rules; flake8's own ``--select``
and ``--ignore`` then choose among the codes.  The code is read, never imported or run.

Results are shared with `promolint check` through its cache: a file unchanged since either tool
last linted it is not analyzed again.  Each flake8 worker process loads the cache once, and when
it ends reads it again and adds what it found (flake8 gives plugins no end-of-run hook; workers
ending at once may still lose an entry, which only costs a re-lint, as in `promolint check`).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import io
import tokenize
from collections.abc import Iterator
from multiprocessing import util
from pathlib import Path

from promolint import __version__
from promolint.driver import jobs
from promolint.driver.cache import ResultCache
from promolint.driver.config import Config, ConfigError, load_config
from promolint.driver.runner import cache_directory, cache_key, cache_rows, from_cache

_STDIN_NAMES = ("stdin", "-")


class Plugin:
    """A flake8 tree plugin: flake8 passes the parameters it names (``tree`` makes it one)."""

    name = "promolint"
    version = __version__

    def __init__(self, tree: ast.AST, filename: str, lines: list[str]):
        self.filename = filename
        self.lines = lines

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        path = Path(self.filename)
        try:
            config_directory = path.resolve().parent if self.filename not in _STDIN_NAMES else Path.cwd()
            config = _config(config_directory)
        except ConfigError as error:
            yield 1, 0, f"PRM000 promolint cannot read its configuration: {error}", type(self)
            return
        if self.filename.endswith(".ipynb"):
            return  # flake8 does not read notebooks as such: `promolint check` does
        data = _source_bytes("".join(self.lines))
        codes = config.enabled_codes(path)
        store, added = _cache(cache_directory(config), _results_key(config_directory))
        key = cache_key(data, codes)
        diagnostics = from_cache(store, self.filename, key)
        if diagnostics is None:  # the job `promolint check` runs in its workers
            diagnostics = jobs.check_job(jobs.LintJob(self.filename, data, config.settings(), codes,
                                                      config.external)).diagnostics  # fmt: skip
            if (rows := cache_rows(diagnostics)) is not None:
                added[key] = rows
        for d in diagnostics:  # flake8 counts columns from 0 and adds 1 when it prints them
            yield d.line, d.column - 1, f"{d.code} {d.message}", type(self)


def _source_bytes(text: str) -> bytes:
    """The file's bytes again from flake8's decoded lines: in the encoding its coding comment
    declares (so that promolint decodes them as flake8 did), UTF-8 without one."""
    data = text.encode("utf-8")
    try:
        declared = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
    except SyntaxError:
        return data
    if declared in ("utf-8", "utf-8-sig"):
        return data
    try:
        return text.encode(declared)
    except (LookupError, UnicodeEncodeError):
        return data


@functools.lru_cache(maxsize=64)
def _config(directory: Path) -> Config:
    return load_config(directory)


@functools.lru_cache(maxsize=64)
def _results_key(directory: Path) -> str:
    return _config(directory).results_key()  # reads the facts' versions: once per folder


@functools.lru_cache(maxsize=8)
def _cache(directory: Path, results_key: str) -> tuple[ResultCache, dict]:
    """The cache for one location and settings (``Config.results_key``, as `promolint check`
    keys it), and the entries this process adds, merged into the cache file as it is when the
    process ends."""
    added: dict[str, list] = {}
    util.Finalize(None, _merge, args=(directory, results_key, added), exitpriority=0)  # run at the exit of the process
    return ResultCache(directory, results_key), added


def _merge(directory: Path, results_key: str, added: dict[str, list]) -> None:
    """Add ``added`` to the cache file as other processes have left it meanwhile; workers that end
    together take turns (a lock file, where the system has ``fcntl``)."""
    if not added:
        return
    with contextlib.ExitStack() as held:
        try:
            import fcntl

            directory.mkdir(parents=True, exist_ok=True)
            lock = held.enter_context(open(directory / "flake8.lock", "w"))
            fcntl.flock(lock, fcntl.LOCK_EX)
        except (ImportError, OSError):
            pass  # no lock (Windows, a read-only tree): at worst an entry is lost
        current = ResultCache(directory, results_key)
        for key, rows in added.items():
            current.put(key, rows)
        current.save()
