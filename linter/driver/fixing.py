"""``promolint check --fix`` and ``--diff`` over paths or standard input: the one run of
``promolint.driver.runner`` (each file read once, the project's facts, workers) with the fix job
(``promolint.driver.jobs.fix_job``); a file whose cached findings have nothing to fix is not
analyzed."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from promolint.core.diagnostics import Diagnostic
from promolint.core.files import write_atomically
from promolint.driver import jobs as per_file
from promolint.driver.config import Config
from promolint.driver.discovery import is_unreadable
from promolint.driver.jobs import Fixed, LintJob
from promolint.driver.progress import Progress
from promolint.driver.runner import (cache_key, file_size, found_files, from_cache, open_cache, read_run,
                                     to_cache)  # fmt: skip
from promolint.driver.workers import parallel_map


@dataclass
class FixReport:
    """What `promolint check --fix` (or `--diff`) did: the diagnostics left, the number of fixes
    applied, a unified diff per changed file, for standard input the fixed bytes, and with
    `--diff`, which reports no diagnostics, the entries that could not be read as notes."""

    diagnostics: list[Diagnostic]
    fixed: int
    diffs: list[str]
    notes: list[str] = field(default_factory=list)
    output: bytes | None = None


def fix_paths(paths: list[Path], config: Config, unsafe: bool = False, write: bool = True, jobs: int | None = None,
              stdin: tuple[str, bytes] | None = None, cache: bool = False) -> FixReport:  # fmt: skip
    """Apply the fixes to the files under ``paths`` (with ``write``), else only say what they
    would change; with ``stdin`` (a name and the bytes read), fix those bytes instead and keep the
    result in the report's ``output``.  With ``cache``, a file whose findings the cache holds,
    none of them with a fix to apply, is answered from it."""
    store = open_cache(config) if cache else None
    unreadable: list[Diagnostic] = []
    found = [] if stdin else found_files(paths, config, unreadable)
    with Progress(0 if stdin else len(found)) as progress:
        run = read_run(found, config, progress, stdin)
        unreadable += run.unreadable
        results: dict[str, Fixed] = {}
        work, keys = [], {}
        for path, data in run.files:
            codes = config.enabled_codes(Path(path))
            key = cache_key(data, codes, run.facts.get(path))
            cached = from_cache(store, path, key)
            if cached is not None and not _has_fix_to_apply(cached, unsafe):
                results[path] = Fixed(cached, data=data)
                progress.advance()
                continue
            keys[path] = key
            work.append(run.job(path, data, config, codes, unsafe=unsafe))
        for job, fixed in zip(work, parallel_map(per_file.fix_job, work, jobs, cost=file_size)):
            if not fixed.count and not _has_fix_to_apply(fixed.diagnostics, unsafe):
                to_cache(store, keys[job.path], fixed.diagnostics)  # what `check` finds in it
            if write and not stdin and fixed.count:
                unwritten = _write_fixes(job, fixed.data)
                if unwritten is not None:
                    fixed = Fixed(unwritten, data=fixed.data)
            results[job.path] = fixed
            progress.advance()
        if store:
            store.save()
    ordered = [results[path] for path, _ in run.files]
    diagnostics = sorted([*unreadable, *(d for fixed in ordered for d in fixed.diagnostics)])
    notes = [] if write else [f"{d.path}: {d.message}" for d in diagnostics if is_unreadable(d)]
    diffs = [fixed.diff for fixed in ordered if fixed.diff]
    return FixReport(diagnostics, sum(fixed.count for fixed in ordered), diffs, notes,
                     ordered[0].data if stdin and ordered else None)  # fmt: skip


def _has_fix_to_apply(diagnostics: list[Diagnostic], unsafe: bool) -> bool:
    return any(d.fix is not None and (d.fix.safe or unsafe) for d in diagnostics)


def _write_fixes(job: LintJob, fixed: bytes) -> list[Diagnostic] | None:
    """Write a file's fixes; where they cannot be, the file stays as it was: why, and its findings."""
    try:
        write_atomically(job.path, fixed)
    except OSError as error:
        unwritten = Diagnostic(job.path, 1, 1, "PRM000", f"cannot write the fixes: {error.strerror}")
        try:
            return [unwritten, *per_file.check_job(replace(job, data=Path(job.path).read_bytes())).diagnostics]
        except OSError:
            return [unwritten]
    return None
