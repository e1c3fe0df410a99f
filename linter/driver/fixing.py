"""``promolint check`` over paths: every file linted (``promolint.driver.lint``) in workers, from the cache
where unchanged (``promolint.driver.runner``); and ``--fix``/``--diff`` over paths or standard input."""

from __future__ import annotations

import difflib
import io
import json
import tokenize
from dataclasses import dataclass, field, replace
from pathlib import Path

from promolint.driver.config import Config
from promolint.core.diagnostics import Diagnostic
from promolint.driver.discovery import is_unreadable, iter_files, unreadable_entry
from promolint.core.files import write_atomically
from promolint.engine.project_facts import ProjectFacts
from promolint.engine.walker.analysis import Settings
from promolint.driver.lint import fix_file, lint_file
from promolint.driver.notebook import is_notebook
from promolint.driver.project import project_facts
from promolint.driver.progress import Progress
from promolint.driver.runner import internal_error, parallel_map, run_check


def check_paths(paths: list[Path], config: Config, jobs: int | None = None) -> list[Diagnostic]:
    return run_check(paths, config, jobs, cache=False).diagnostics


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


@dataclass(frozen=True)
class _FixJob:
    path: str
    settings: Settings
    codes: frozenset[str]
    unsafe: bool
    external: tuple[str, ...]
    data: bytes | None = None  # standard input's bytes; None: read the file


def _fix_path(job: _FixJob) -> tuple[list[Diagnostic], int, str, bytes]:
    """One file's diagnostics left, fixes applied, diff and fixed bytes (written by the caller, so
    that an interrupted run never leaves a worker's write half done)."""
    data = job.data
    if data is None:
        try:
            data = Path(job.path).read_bytes()
        except OSError as error:
            return [unreadable_entry(job.path, f"cannot read file: {error.strerror}")], 0, "", b""
    try:
        fixed, count, diagnostics = fix_file(data, job.path, job.settings, job.codes, job.unsafe, job.external)
    except Exception as error:  # one file's internal error must not end the run
        return [internal_error(job.path, error)], 0, "", data
    if fixed == data:
        return diagnostics, 0, "", data
    return diagnostics, count, _unified_diff(data, fixed, job.path), fixed


def _write_fixes(job: _FixJob, fixed: bytes) -> list[Diagnostic] | None:
    """Write a file's fixes; where they cannot be, the file stays as it was: why, and its findings."""
    try:
        write_atomically(job.path, fixed)
    except OSError as error:
        unwritten = Diagnostic(job.path, 1, 1, "PRM000", f"cannot write the fixes: {error.strerror}")
        try:
            return [unwritten, *lint_file(Path(job.path).read_bytes(), job.path, job.settings, job.codes,
                                          job.external)]  # fmt: skip
        except OSError:
            return [unwritten]
    return None


def fix_paths(paths: list[Path], config: Config, unsafe: bool = False, write: bool = True,
              jobs: int | None = None, stdin: tuple[str, bytes] | None = None) -> FixReport:  # fmt: skip
    """Apply the fixes to the files under ``paths`` (with ``write``), else only say what they
    would change; with ``stdin`` (a name and the bytes read), fix those bytes instead and keep the
    result in the report's ``output``."""
    settings = config.settings()
    unreadable: list[Diagnostic] = []
    if stdin:
        named = [(stdin[0], stdin[1])]
    else:
        named = [(str(p), None) for p in iter_files(paths, config, unreadable)]
    results = []
    with Progress(0 if stdin else len(named)) as progress:
        facts = _project_facts(named, config.x64 == "auto")
        work = [_FixJob(path, replace(settings, facts=facts.get(path, ProjectFacts())),
                        config.enabled_codes(Path(path)), unsafe, config.external, data)
                for path, data in named]  # fmt: skip
        for job, result in zip(work, parallel_map(_fix_path, work, jobs)):
            unwritten = _write_fixes(job, result[3]) if write and job.data is None and result[1] else None
            results.append(result if unwritten is None else (unwritten, 0, "", result[3]))
            progress.advance()
    diagnostics = sorted([*unreadable, *(d for found, *_ in results for d in found)])
    notes = [] if write else [f"{d.path}: {d.message}" for d in diagnostics if is_unreadable(d)]
    return FixReport(diagnostics, sum(r[1] for r in results), [diff for _, _, diff, _ in results if diff], notes,
                     results[0][3] if stdin and results else None)  # fmt: skip


def _project_facts(named: list[tuple[str, bytes | None]], x64: bool) -> dict[str, ProjectFacts]:
    """The project pre-scan over the files to fix (read here too: the jobs read them again)."""
    files = []
    for path, data in named:
        try:
            files.append((Path(path), data if data is not None else Path(path).read_bytes()))
        except OSError:
            continue  # its job reports it
    return project_facts(files, x64)


def _unified_diff(before: bytes, after: bytes, path: str) -> str:
    if is_notebook(path):
        return _notebook_diff(before, after, path)
    encoding = tokenize.detect_encoding(io.BytesIO(before).readline)[0]
    return _diff(before.decode(encoding), after.decode(encoding), path, path)


def _notebook_diff(before: bytes, after: bytes, path: str) -> str:
    """A diff per changed cell, named ``nb.ipynb:cell 3`` (as ruff shows notebook fixes): the
    notebook's JSON around the code is left as it was."""
    def sources(data: bytes) -> list[str]:
        cells = json.loads(data.decode("utf-8-sig"))["cells"]
        return ["".join(c.get("source", "")) if isinstance(c.get("source"), list) else c.get("source", "")
                for c in cells]  # fmt: skip

    cells = enumerate(zip(sources(before), sources(after)), 1)
    return "".join(_diff(old, new, f"{path}:cell {n}", f"{path}:cell {n}") for n, (old, new) in cells if old != new)


def _diff(before: str, after: str, old_name: str, new_name: str) -> str:
    lines = difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True), old_name, new_name)
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)
