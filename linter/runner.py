"""Running `promolint check` over many files: cache, prefilter, workers.

Kept free of the engine and the rules, which load only in a worker that has a file to analyze, so
a run served from the cache starts and ends fast.
"""

from __future__ import annotations

import gc
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import astuple, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from promolint.cache import ResultCache, content_key
from promolint.config import PARSE_ERROR, UNUSED_NOQA, Config
from promolint.diagnostics import Diagnostic, FixSummary, RelatedLocation
from promolint.prefilter import may_have_findings, may_switch_x64, parses

if TYPE_CHECKING:
    from promolint.project_facts import ProjectFacts

_PARALLEL_THRESHOLD = 4  # below this many files a process pool costs more than it saves
_BATCHES_PER_WORKER = 16  # enough that the last ones are short; few enough that sending them costs little


NOTEBOOK_SUFFIX = ".ipynb"  # promolint.notebook reads them; not imported here, where a cached run needs no parser
LINTED_SUFFIXES = (".py", ".pyi", NOTEBOOK_SUFFIX)  # what a directory contributes, notebooks included as ruff does


def iter_files(paths: Iterable[Path], config: Config, notes: list[str] | None = None) -> Iterator[Path]:
    """Python files and notebooks under ``paths``, minus excluded ones; files named explicitly count
    unless ``force_exclude`` (pre-commit names every file, and the project's excludes must still
    hold).  Only regular files are read: a FIFO, socket or device (which could block a read
    forever) is skipped with a note in ``notes``."""
    for path in paths:
        if path.is_dir():
            yield from _walk(path, config, notes)
        elif _is_regular(path, notes):
            if not (config.force_exclude and config.excluded(path)):
                yield path


def _walk(directory: Path, config: Config, notes: list[str] | None) -> Iterator[Path]:
    try:
        entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
    except OSError as error:
        if notes is not None:
            notes.append(f"skipped {directory}: cannot list it ({error.strerror})")
        return
    subdirectories = []
    for entry in entries:
        if _entry_is_dir(entry):
            subdirectories.append(entry.name)
        elif entry.name.endswith(LINTED_SUFFIXES):
            candidate = directory / entry.name
            # is_file: no system call where the directory listing gives the type
            if not config.excluded(candidate) and (entry.is_file() or _is_regular(candidate, notes)):
                yield candidate
    for name in subdirectories:  # files first, then subdirectories: os.walk's order
        subdirectory = directory / name
        if not config.excluded(subdirectory):
            yield from _walk(subdirectory, config, notes)


def _entry_is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)  # like os.walk: symlinked directories are not followed
    except OSError:
        return False


def _is_regular(path: Path, notes: list[str] | None) -> bool:
    try:
        mode = path.stat().st_mode
    except OSError as error:
        if notes is not None:
            notes.append(f"skipped {path}: {error.strerror}")
        return False
    if stat.S_ISREG(mode):
        return True
    if notes is not None:
        kind = next((name for test, name in _SPECIAL_FILES if test(mode)), "not a regular file")
        notes.append(f"skipped {path}: not a regular file ({kind})")
    return False


_SPECIAL_FILES = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                  (stat.S_ISBLK, "a block device"))  # fmt: skip


@dataclass
class CheckRun:
    """One `promolint check` over many files: the findings and how the files were handled."""

    diagnostics: list[Diagnostic]
    files: int = 0
    skipped: int = 0  # provably finding-free: only checked for syntax errors, not analyzed
    cached: int = 0
    notes: list[str] = field(default_factory=list)  # files not read, and why

    @property
    def internal_errors(self) -> int:
        return sum(is_internal_error(d) for d in self.diagnostics)


_INTERNAL_ERROR = "promolint could not analyze this file: internal error"


def is_internal_error(diagnostic: Diagnostic) -> bool:
    """A bug of promolint's, not a finding: the run exits with status 2, as ruff's does."""
    return diagnostic.code == PARSE_ERROR and diagnostic.message.startswith(_INTERNAL_ERROR)


def internal_error(path: str, error: Exception) -> Diagnostic:
    return Diagnostic(path, 1, 1, PARSE_ERROR, f"{_INTERNAL_ERROR} {type(error).__name__}: {error} (please report it)")


@dataclass(frozen=True)
class LintJob:
    """One file's work: its bytes and what to lint them for."""

    path: str
    data: bytes
    settings: tuple[str, str]  # x64, promotion
    codes: frozenset[str]
    external: tuple[str, ...] = ()
    facts: ProjectFacts | None = None  # what the other files of the run decide for this one


def lint_job(job: LintJob) -> tuple[list[Diagnostic], bool]:
    """Lint one file's bytes; True when it was skipped as finding-free."""
    data, codes = job.data, job.codes
    if (not may_have_findings(data) and (UNUSED_NOQA not in codes or b"noqa" not in data)
            and not job.path.endswith(NOTEBOOK_SUFFIX) and parses(data)):  # fmt: skip
        return [], True
    from promolint.lint import lint_file
    from promolint.frontend.analysis import Settings

    try:
        with _young_garbage_collected_after():
            settings = Settings(*job.settings) if job.facts is None else Settings(*job.settings, facts=job.facts)
            return lint_file(data, job.path, settings, codes, job.external), False
    except Exception as error:  # one file's internal error must not end the run
        return [internal_error(job.path, error)], False


@contextmanager
def _young_garbage_collected_after() -> Iterator[None]:
    """Collect cyclic garbage once, after the file, instead of while it is analyzed.

    A syntax tree is hundreds of thousands of objects that live until the file is done: the
    collector, triggered by their allocations, would traverse them again and again (a quarter of
    the run).  Everything made meanwhile is still in the youngest generation, so collecting that
    one frees the file's cycles without traversing older objects."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
            gc.collect(0)


def _cache_row(d: Diagnostic) -> list:
    fix = [d.fix.title, d.fix.safe] if d.fix else []
    related = [astuple(r) for r in d.related]
    position = [d.cell, d.file_line] if d.cell else []
    return [d.line, d.column, d.code, d.message, d.end_line, d.end_column, fix, related, *position]


def _from_cache_row(path: str, row: list) -> Diagnostic:
    line, column, code, message, end_line, end_column, fix, related, *position = row
    cell, file_line = position or (0, 0)
    return Diagnostic(path, line, column, code, message, end_line, end_column, FixSummary(*fix) if fix else None,
                      cell=cell, file_line=file_line, related=tuple(RelatedLocation(*r) for r in related))  # fmt: skip


def open_cache(config: Config) -> ResultCache:
    return ResultCache(config.root / config.cache_dir, "|".join((config.x64, config.promotion, *config.external)))


def cache_key(data: bytes, codes: frozenset[str], facts: ProjectFacts | None = None) -> str:
    return content_key(data + b"\0" + ",".join(sorted(codes)).encode() + (b"\0" + facts.key().encode() if facts else b""))


def from_cache(store: ResultCache | None, path: str, key: str) -> list[Diagnostic] | None:
    rows = store.get(key) if store else None
    return None if rows is None else [_from_cache_row(path, row) for row in rows]


def to_cache(store: ResultCache | None, key: str, diagnostics: list[Diagnostic]) -> None:
    rows = cache_rows(diagnostics)
    if store and rows is not None:
        store.put(key, rows)


def cache_rows(diagnostics: list[Diagnostic]) -> list | None:
    """A file's diagnostics as the cache stores them; None when an internal error (which a
    fixed version may not have) means they must not be cached."""
    return None if any(is_internal_error(d) for d in diagnostics) else [_cache_row(d) for d in diagnostics]


def run_check(paths: list[Path], config: Config, jobs: int | None = None, cache: bool = True,
              stdin: tuple[str, bytes] | None = None) -> CheckRun:  # fmt: skip
    """Lint ``paths`` (or, with ``stdin``, one file's name and bytes read from standard input);
    unchanged files come from the content-hash cache unless ``cache`` is off."""
    settings = (config.x64, config.promotion)
    store = open_cache(config) if cache else None
    run = CheckRun([])
    work, keys = [], {}
    files = [(Path(stdin[0]), stdin[1])] if stdin else list(_read(iter_files(paths, config, run.notes), run))
    facts = _project_facts(files) if config.x64 == "auto" else {}
    for path, data in files:
        run.files += 1
        codes = config.enabled_codes(path)
        found = facts.get(str(path))
        key, path = cache_key(data, codes, found), str(path)
        cached = from_cache(store, path, key)
        if cached is not None:
            run.cached += 1
            run.diagnostics += cached
            continue
        keys[path] = key
        work.append(LintJob(path, data, settings, codes, config.external, found))
    for job, (diagnostics, skipped) in zip(work, parallel_map(lint_job, work, jobs, cost=_file_size)):
        run.skipped += skipped
        run.diagnostics += diagnostics
        to_cache(store, keys[job.path], diagnostics)
    if store:
        store.save()
    run.diagnostics.sort()
    return run


def _project_facts(files: list[tuple[Path, bytes]]) -> dict[str, ProjectFacts]:
    if not any(may_switch_x64(data) for _, data in files):
        return {}  # the common case, decided without loading the pre-scan (a cached run loads no engine)
    from promolint.project import project_facts

    return project_facts(files)


def _read(paths: Iterable[Path], run: CheckRun) -> Iterator[tuple[Path, bytes]]:
    for path in paths:
        try:
            yield path, path.read_bytes()
        except OSError as error:
            run.files += 1
            run.diagnostics.append(Diagnostic(str(path), 1, 1, PARSE_ERROR, f"cannot read file: {error.strerror}"))


def _file_size(job: LintJob) -> int:
    return len(job.data)


def parallel_map(function: Callable, work: list, jobs: int | None, cost: Callable | None = None) -> Iterable:
    """``map(function, work)`` over worker processes, results in ``work``'s order.

    With ``cost`` (an estimate per item), the costliest items are sent first and the rest in
    batches of similar cost, so that no worker is left finishing a large file alone."""
    workers = jobs or os.cpu_count() or 1
    if workers == 1 or len(work) < _PARALLEL_THRESHOLD:
        return map(function, work)
    import multiprocessing  # here: a run served from the cache, or of one file, starts no pool
    from concurrent.futures import ProcessPoolExecutor

    batches = _batches([cost(item) for item in work] if cost else [1] * len(work), workers * _BATCHES_PER_WORKER)
    # Workers start from a clean server process, never a fork of the caller: forking a process
    # that has imported JAX (the pytest plugin, the runtime shim) can deadlock.
    context = multiprocessing.get_context("forkserver" if "forkserver" in multiprocessing.get_all_start_methods()
                                          else "spawn")  # fmt: skip
    results = [None] * len(work)
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        done = pool.map(_apply, [(function, [work[i] for i in batch]) for batch in batches])
        for batch, outputs in zip(batches, done):
            for index, output in zip(batch, outputs):
                results[index] = output
    return results


def _apply(batch: tuple[Callable, list]) -> list:
    function, items = batch
    return [function(item) for item in items]


def _batches(costs: list[float], count: int) -> list[list[int]]:
    """Indices of the items in about ``count`` batches of similar total cost, costliest first:
    an item that alone exceeds a batch's share is a batch of its own, small ones are grouped."""
    share = sum(costs) / count or 1  # all free (empty files): one batch
    batches, current, filled = [], [], 0.0
    for index in sorted(range(len(costs)), key=costs.__getitem__, reverse=True):  # stable: ties keep their order
        current.append(index)
        filled += costs[index]
        if filled >= share:
            batches.append(current)
            current, filled = [], 0.0
    return batches + [current] if current else batches
