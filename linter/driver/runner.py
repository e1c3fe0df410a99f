"""The one run over paths, for every command: the files found (``promolint.driver.discovery``),
each read once, the project's facts on each (``promolint.driver.project``), the cache and its
index, and workers (``promolint.driver.workers``) running a job per file
(``promolint.driver.jobs``): check for `promolint check`, fix for ``--fix``/``--diff``
(``promolint.driver.fixing``), reveal for `promolint reveal`.

Kept free of the engine and the rules, which load only in a worker that has a file to analyze, so
a run served from the cache starts and ends fast.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import astuple, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from promolint.core.diagnostics import Diagnostic, FixSummary, RelatedLocation
from promolint.driver import jobs as per_file
from promolint.driver.cache import ResultCache, content_key
from promolint.driver.config import Config, project_root
from promolint.driver.discovery import file_names, unreadable_entry
from promolint.driver.index import RunIndex
from promolint.driver.jobs import LintJob
from promolint.driver.progress import Progress
from promolint.driver.workers import parallel_map

if TYPE_CHECKING:
    from promolint.engine.project_facts import ProjectFacts


@dataclass
class CheckRun:
    """One `promolint check` over many files: the findings and how the files were handled."""

    diagnostics: list[Diagnostic]
    files: int = 0
    skipped: int = 0  # provably finding-free: only checked for syntax errors, not analyzed
    cached: int = 0


@dataclass
class RunFiles:
    """The files of one run, each read once, and the project's facts on them (by path); the
    entries that could not be read; with the cache's index, the unchanged files it answers for
    without reading them, with their entries' keys."""

    files: list[tuple[str, bytes]]
    facts: dict[str, ProjectFacts]
    unreadable: list[Diagnostic] = field(default_factory=list)
    unchanged: list[tuple[str, str]] = field(default_factory=list)
    index: RunIndex | None = None

    def job(self, path: str, data: bytes, config: Config, codes: frozenset[str] | None = None,
            **task: object) -> LintJob:  # fmt: skip
        """The job of one of the run's files: its settings, with its facts, and its codes (as
        ``config`` enables them for it, unless given)."""
        codes = config.enabled_codes(Path(path)) if codes is None else codes
        return LintJob(path, data, config.settings(self.facts.get(path)), codes, config.external, **task)


def found_files(paths: list[Path], config: Config, unreadable: list[Diagnostic]) -> list[str]:
    """The files under ``paths`` a run reads, in the order of the walk; the entries that cannot
    be read go to ``unreadable``."""
    return list(file_names(paths, config, unreadable))


def read_run(found: list[str], config: Config, progress: Progress, stdin: tuple[str, bytes] | None = None,
             index: RunIndex | None = None) -> RunFiles:  # fmt: skip
    """The run's files (or, with ``stdin``, one file's name and bytes read from standard input)
    read, and the project's facts on them; with ``index``, only the files it does not answer for."""
    run = RunFiles([], {}, index=index)
    facts = None
    if stdin:
        files = [(str(Path(stdin[0])), stdin[1])]
    else:
        read = dict(_read(index.changed if index else found, run.unreadable))
        if index:
            facts = index.facts(read)
            # None: they may have changed, and with them the unchanged files' keys
            read.update(_read(index.take_unchanged() if facts is None else index.take_stale(), run.unreadable))
        progress.advance(len(found) - len(read))  # from the index, or not readable
        files = [(str(Path(path)), read[path]) for path in found if path in read]
    if facts is None:
        from promolint.driver.project import project_pass  # here: a run answered by the index scans nothing

        facts, graph = project_pass([(Path(path), data) for path, data in files], config.x64 == "auto")
        if index:
            index.graph = graph
    run.files, run.facts = files, facts
    run.unchanged = index.unchanged() if index else []
    return run


def _read(paths: Iterable[str], unreadable: list[Diagnostic]) -> Iterator[tuple[str, bytes]]:
    for path in paths:
        try:
            with open(path, "rb") as file:
                data = file.read()
        except OSError as error:
            unreadable.append(unreadable_entry(path, f"cannot read file: {error.strerror}"))
            continue
        yield path, data


def run_check(paths: list[Path], config: Config, jobs: int | None = None, cache: bool = True,
              stdin: tuple[str, bytes] | None = None) -> CheckRun:  # fmt: skip
    """Lint ``paths`` (or, with ``stdin``, one file's name and bytes read from standard input);
    unchanged files come from the content-hash cache unless ``cache`` is off, and files the
    cache's index finds as they were are not even read.  On a terminal, the files done show."""
    store = open_cache(config) if cache else None
    outcome = CheckRun([])
    found = [] if stdin else found_files(paths, config, outcome.diagnostics)
    with Progress(len(found)) as progress:
        index = RunIndex(store, found, config) if store and not stdin else None
        run = read_run(found, config, progress, stdin, index)
        outcome.diagnostics += run.unreadable
        outcome.files += len(outcome.diagnostics)
        _check(outcome, run, config, store, jobs, progress)
    outcome.diagnostics.sort()
    return outcome


def _check(outcome: CheckRun, run: RunFiles, config: Config, store: ResultCache | None, jobs: int | None,
           progress: Progress) -> None:  # fmt: skip
    """The check job over the files of ``run``, each from the cache where it is there."""
    index = run.index
    work, keys = [], {}
    for path, key in run.unchanged:
        outcome.files += 1
        outcome.cached += 1
        outcome.diagnostics += from_cache(store, path, key)
    for path, data in run.files:
        outcome.files += 1
        found_facts = run.facts.get(path)
        codes = config.enabled_codes(Path(path))
        key = cache_key(data, codes, found_facts)
        if index:
            index.record(path, key, data, found_facts)
        cached = from_cache(store, path, key)
        if cached is not None:
            outcome.cached += 1
            outcome.diagnostics += cached
            progress.advance()
            continue
        keys[path] = key
        work.append(run.job(path, data, config, codes))
    for job, checked in zip(work, parallel_map(per_file.check_job, work, jobs, cost=file_size)):
        outcome.skipped += checked.skipped
        outcome.diagnostics += checked.diagnostics
        to_cache(store, keys[job.path], checked.diagnostics)
        progress.advance()
    if store:
        if index:
            index.save()
        store.save()


def revealed(run: RunFiles, config: Config, jobs: int | None = None,
             ) -> Iterator[tuple[str, list[dict] | str | Diagnostic]]:  # fmt: skip
    """The reveal job over the files of ``run``, in their order, each as soon as its batch is
    done: its records, ``line:column: message`` where it does not parse, or an internal error."""
    work = [run.job(path, data, config) for path, data in run.files]
    for job, records in zip(work, parallel_map(per_file.reveal_job, work, jobs, cost=file_size)):
        yield job.path, records


def file_size(job: LintJob) -> int:
    """A job's cost, as ``parallel_map`` batches them."""
    return len(job.data)


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


def cache_directory(config: Config) -> Path:
    """The cache's folder: ``cache_dir`` in the project root, which is the [tool.promolint]
    table's folder, else as ruff finds it (``promolint.driver.config.project_root``): pre-commit's
    `promolint check src/a/x.py src/b/y.py` must not leave a cache in src/a."""
    return (config.root if config.source is not None else project_root(config.root)) / config.cache_dir


def open_cache(config: Config) -> ResultCache:
    return ResultCache(cache_directory(config), config.results_key())


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
    return None if any(d.internal for d in diagnostics) else [_cache_row(d) for d in diagnostics]
