"""The driver's jobs, one per file: check (its diagnostics), fix (``--fix`` and ``--diff``) and
reveal (every expression's dtype).  What the workers of ``promolint.driver.runner`` run for every
command, and what the editors and plugins (the language server, flake8, libcst and Fixit) call
in-process for one buffer.

Kept free of the engine and the rules, which load only when a job has a file to analyze, so a
run served from the cache starts and ends fast.  One file's internal error never ends a run: it
comes back as a diagnostic marked ``internal``, which the command's exit status counts."""

from __future__ import annotations

import difflib
import gc
import io
import json
import tokenize
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from promolint.core.diagnostics import Diagnostic
from promolint.driver.config import PARSE_ERROR, UNUSED_NOQA
from promolint.driver.discovery import NOTEBOOK_SUFFIX
from promolint.driver.prefilter import may_have_findings, parses

if TYPE_CHECKING:
    from promolint.engine.flow.modes import Settings
    from promolint.engine.walker.analysis import Analysis
    from promolint.engine.walker.source import ParseFailure, Source
    from promolint.rules.base import Fix


@dataclass(frozen=True)
class LintJob:
    """One file's work: its bytes and what to do with them."""

    path: str
    data: bytes
    settings: Settings  # with what the other files of the run decide for this one (its facts)
    codes: frozenset[str] = frozenset()
    external: tuple[str, ...] = ()  # other tools' codes a `# noqa` may name
    unsafe: bool = False  # fix: apply the unsafe fixes too
    keep_fixes: bool = False  # check, in-process: each diagnostic's fix, and the parsed file they edit
    describe_unsafe_fixes: bool = False  # check: an unsafe fix's title says what it changes (Fixit shows it)


@dataclass
class Checked:
    """A check job's result: the file's diagnostics, sorted; whether it was skipped as
    finding-free (only its syntax checked); with ``keep_fixes``, its parsed text, each
    diagnostic's fix and the file's analysis."""

    diagnostics: list[Diagnostic]
    skipped: bool = False
    source: Source | ParseFailure | None = None
    fixes: dict[Diagnostic, Fix | None] = field(default_factory=dict)
    analysis: Analysis | None = None  # with ``keep_fixes``, where the file was analyzed


@dataclass
class Fixed:
    """A fix job's result: the diagnostics left, the fixes applied, a unified diff and the fixed
    bytes (written by the caller, so that an interrupted run never leaves a worker's write half
    done)."""

    diagnostics: list[Diagnostic]
    count: int = 0
    diff: str = ""
    data: bytes = b""


_INTERNAL_ERROR = "promolint could not analyze this file: internal error"


def internal_error(path: str, error: Exception) -> Diagnostic:
    """A bug of promolint's, not a finding: the run exits with status 2, as ruff's does."""
    return Diagnostic(path, 1, 1, PARSE_ERROR, f"{_INTERNAL_ERROR} {type(error).__name__}: {error} (please report it)",
                      internal=True)  # fmt: skip


def internal_errors(diagnostics: list[Diagnostic]) -> int:
    return sum(d.internal for d in diagnostics)


def finding_free(job: LintJob) -> bool:
    """Whether the file provably has nothing to report but a syntax error, and parses: the
    prefilter (``promolint.driver.prefilter``) says so from its bytes, without analyzing it."""
    data = job.data
    return (not may_have_findings(data) and (UNUSED_NOQA not in job.codes or b"noqa" not in data)
            and not job.path.endswith(NOTEBOOK_SUFFIX) and parses(data, job.settings.python))  # fmt: skip


def check_job(job: LintJob) -> Checked:
    """The diagnostics of one file (a notebook by its suffix; a Python buffer with ``keep_fixes``)."""
    if finding_free(job):
        return Checked([], skipped=True, source=_parsed(job) if job.keep_fixes else None)
    from promolint.driver import lint  # here: a run served from the cache loads no engine

    try:
        with _young_garbage_collected_after():
            if job.keep_fixes:
                source, fixes, analysis = lint.lint_with_fixes(job.data, job.path, job.settings, job.codes,
                                                               job.describe_unsafe_fixes)  # fmt: skip
                return Checked(sorted(fixes), source=source, fixes=fixes, analysis=analysis)
            return Checked(lint.lint_file(job.data, job.path, job.settings, job.codes, job.external))
    except Exception as error:  # one file's internal error must not end the run
        found = [internal_error(job.path, error)]
        return Checked(found, fixes=dict.fromkeys(found) if job.keep_fixes else {})


def _parsed(job: LintJob) -> Source | ParseFailure:
    from promolint.engine.walker.source import parse_bytes

    return parse_bytes(job.data, job.settings.python)


def fix_job(job: LintJob) -> Fixed:
    """One file with its fixes applied (the unsafe ones too with ``unsafe``): what is left of its
    diagnostics, the fixes applied, its diff and its fixed bytes."""
    if finding_free(job):
        return Fixed([], data=job.data)
    from promolint.driver.lint import fix_file

    try:
        with _young_garbage_collected_after():
            fixed, count, diagnostics = fix_file(job.data, job.path, job.settings, job.codes, job.unsafe, job.external)
    except Exception as error:  # one file's internal error must not end the run
        return Fixed([internal_error(job.path, error)], data=job.data)
    if fixed == job.data:
        return Fixed(diagnostics, data=job.data)
    return Fixed(diagnostics, count, _unified_diff(job.data, fixed, job.path), fixed)


def reveal_job(job: LintJob) -> list[dict] | str | Diagnostic:
    """What ``reveal`` shows of one file: its records; ``line:column: message`` where it does
    not parse; an internal error as a diagnostic."""
    from promolint.driver import reveal

    try:
        with _young_garbage_collected_after():
            return reveal.reveal_file(job.data, job.path, job.settings)
    except Exception as error:  # one file's internal error must not end the run
        return internal_error(job.path, error)


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


def _unified_diff(before: bytes, after: bytes, path: str) -> str:
    if path.endswith(NOTEBOOK_SUFFIX):
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
