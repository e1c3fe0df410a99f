"""Running `promolint check` over many files: cache, prefilter, workers.

Kept free of the engine and the rules, which load only in a worker that has a file to analyze, so
a run served from the cache starts and ends fast.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from promolint.cache import ResultCache, content_key
from promolint.config import PARSE_ERROR, UNUSED_NOQA, Config
from promolint.diagnostics import Diagnostic, FixSummary
from promolint.prefilter import may_have_findings, parses

_PARALLEL_THRESHOLD = 4  # below this many files a process pool costs more than it saves
_BATCHES_PER_WORKER = 16  # enough that the last ones are short; few enough that sending them costs little


def iter_files(paths: Iterable[Path], config: Config) -> Iterator[Path]:
    """Python files under ``paths``, minus excluded ones; files named explicitly count unless
    ``force_exclude`` (pre-commit names every file, and the project's excludes must still hold)."""
    for path in paths:
        if path.is_file():
            if not (config.force_exclude and config.excluded(path)):
                yield path
            continue
        for root, dirs, files in os.walk(path):
            root_path = Path(root)
            dirs[:] = sorted(d for d in dirs if not config.excluded(root_path / d))
            for name in sorted(files):
                candidate = root_path / name
                if name.endswith((".py", ".pyi")) and not config.excluded(candidate):
                    yield candidate


@dataclass
class CheckRun:
    """One `promolint check` over many files: the findings and how the files were handled."""

    diagnostics: list[Diagnostic]
    files: int = 0
    skipped: int = 0  # provably finding-free: only checked for syntax errors, not analyzed
    cached: int = 0


def _lint_job(job: tuple[str, bytes, tuple[str, str], frozenset[str]]) -> tuple[list[Diagnostic], bool]:
    """Lint one file's bytes; True when it was skipped as finding-free."""
    path, data, (x64, promotion), codes = job
    if not may_have_findings(data) and (UNUSED_NOQA not in codes or b"noqa" not in data) and parses(data):
        return [], True
    from promolint.lint import lint_source
    from promolint.frontend.analysis import Settings

    try:
        with _young_garbage_collected_after():
            return lint_source(data, path, Settings(x64, promotion), codes), False
    except Exception as error:  # one file's internal error must not end the run
        return [Diagnostic(path, 1, 1, PARSE_ERROR, f"promolint could not analyze this file: internal error "
                           f"{type(error).__name__}: {error} (please report it)")], False  # fmt: skip


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
    return [d.line, d.column, d.code, d.message, d.end_line, d.end_column, *fix]


def _from_cache_row(path: str, row: list) -> Diagnostic:
    line, column, code, message, end_line, end_column, *fix = row
    return Diagnostic(path, line, column, code, message, end_line, end_column, FixSummary(*fix) if fix else None)


def run_check(paths: list[Path], config: Config, jobs: int | None = None, cache: bool = True) -> CheckRun:
    """Lint ``paths``; unchanged files come from the content-hash cache unless ``cache`` is off."""
    settings = (config.x64, config.promotion)
    store = ResultCache(config.root / config.cache_dir, "|".join(settings)) if cache else None
    run = CheckRun([])
    work, keys = [], {}
    for path in iter_files(paths, config):
        run.files += 1
        try:
            data = path.read_bytes()
        except OSError as error:
            run.diagnostics.append(Diagnostic(str(path), 1, 1, PARSE_ERROR, f"cannot read file: {error.strerror}"))
            continue
        codes = config.enabled_codes(path)
        key = content_key(data + b"\0" + ",".join(sorted(codes)).encode())
        rows = store.get(key) if store else None
        if rows is not None:
            run.cached += 1
            run.diagnostics += [_from_cache_row(str(path), row) for row in rows]
            continue
        keys[str(path)] = key
        work.append((str(path), data, settings, codes))
    for (path, *_), (diagnostics, skipped) in zip(work, parallel_map(_lint_job, work, jobs, cost=_file_size)):
        run.skipped += skipped
        run.diagnostics += diagnostics
        internal_error = any(d.message.startswith("promolint could not analyze") for d in diagnostics)
        if store and not internal_error:
            store.put(keys[path], [_cache_row(d) for d in diagnostics])
    if store:
        store.save()
    run.diagnostics.sort()
    return run


def _file_size(job: tuple[str, bytes, tuple[str, str], frozenset[str]]) -> int:
    return len(job[1])


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
