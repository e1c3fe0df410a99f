"""``promolint check`` over paths: every file linted (``promolint.lint``) in workers, from the cache
where unchanged (``promolint.runner``); and ``--fix``/``--diff`` over paths."""

from __future__ import annotations

import difflib
import io
import tokenize
from dataclasses import dataclass
from pathlib import Path

from promolint.config import PARSE_ERROR, Config
from promolint.diagnostics import Diagnostic
from promolint.frontend.analysis import Settings
from promolint.lint import fix_source
from promolint.runner import iter_files, parallel_map, run_check


def check_paths(paths: list[Path], config: Config, jobs: int | None = None) -> list[Diagnostic]:
    return run_check(paths, config, jobs, cache=False).diagnostics


@dataclass
class FixReport:
    """What `promolint check --fix` (or `--diff`) did: the diagnostics left, the number of fixes
    applied, and a unified diff per changed file."""

    diagnostics: list[Diagnostic]
    fixed: int
    diffs: list[str]


def _fix_path(job: tuple[str, Settings, frozenset[str], bool, bool]) -> tuple[list[Diagnostic], int, str]:
    path, settings, codes, unsafe, write = job
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        return [Diagnostic(path, 1, 1, PARSE_ERROR, f"cannot read file: {error.strerror}")], 0, ""
    fixed, count, diagnostics = fix_source(data, path, settings, codes, unsafe)
    if fixed == data:
        return diagnostics, 0, ""
    if write:
        Path(path).write_bytes(fixed)
    return diagnostics, count, _unified_diff(data, fixed, path)


def fix_paths(paths: list[Path], config: Config, unsafe: bool = False, write: bool = True,
              jobs: int | None = None) -> FixReport:  # fmt: skip
    """Apply the fixes to the files under ``paths`` (with ``write``), else only say what they would change."""
    settings = Settings(x64=config.x64, promotion=config.promotion)
    work = [(str(p), settings, config.enabled_codes(p), unsafe, write) for p in iter_files(paths, config)]
    results = list(parallel_map(_fix_path, work, jobs))
    return FixReport(sorted(d for diagnostics, _, _ in results for d in diagnostics), sum(n for _, n, _ in results),
                     [diff for _, _, diff in results if diff])  # fmt: skip


def _unified_diff(before: bytes, after: bytes, path: str) -> str:
    encoding = tokenize.detect_encoding(io.BytesIO(before).readline)[0]
    lines = difflib.unified_diff(before.decode(encoding).splitlines(keepends=True),
                                 after.decode(encoding).splitlines(keepends=True), path, path)  # fmt: skip
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)
