"""``promolint check``: find files, analyze each once, run every rule over its operations."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from linter.config import Config
from linter.frontend.cst import Analysis, Settings
from linter.frontend.source import ParseFailure, parse_bytes, positions
from linter.rules import ALL_RULES

PARSE_ERROR = "PRM000"
_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*))?", re.IGNORECASE)
_PARALLEL_THRESHOLD = 4  # below this many files a process pool costs more than it saves


@dataclass(frozen=True, order=True)
class Diagnostic:
    path: str
    line: int
    column: int
    code: str
    message: str
    end_line: int = 0
    end_column: int = 0


def lint_source(data: bytes, path: str, settings: Settings, codes: frozenset[str]) -> list[Diagnostic]:
    module = parse_bytes(data)
    if isinstance(module, ParseFailure):
        if PARSE_ERROR not in codes:
            return []
        return [Diagnostic(path, module.line, module.column, PARSE_ERROR, module.message)]
    analysis = Analysis(module, settings).run()
    rules = [rule for rule in ALL_RULES if rule.code in codes]
    findings = [finding for op in analysis.operations.values() for rule in rules for finding in rule.check(op)]
    if not findings:
        return []
    spans = positions(module, [f.node for f in findings])
    lines = data.decode("utf-8", errors="replace").splitlines()
    diagnostics = []
    for finding in findings:
        span = spans[id(finding.node)]
        if _suppressed(lines[span.line - 1] if span.line <= len(lines) else "", finding.code):
            continue
        diagnostics.append(Diagnostic(path, span.line, span.column, finding.code, finding.message,
                                      span.end_line, span.end_column))  # fmt: skip
    return sorted(set(diagnostics))


def _suppressed(line: str, code: str) -> bool:
    for match in _NOQA.finditer(line):
        codes = match.group("codes")
        if codes is None or code in {c.strip().upper() for c in codes.split(",")}:
            return True
    return False


def iter_files(paths: Iterable[Path], config: Config) -> Iterator[Path]:
    """Python files under ``paths``, minus excluded ones; files named explicitly always count."""
    for path in paths:
        if path.is_file():
            yield path
            continue
        for root, dirs, files in os.walk(path):
            root_path = Path(root)
            dirs[:] = sorted(d for d in dirs if not config.excluded(root_path / d))
            for name in sorted(files):
                candidate = root_path / name
                if name.endswith((".py", ".pyi")) and not config.excluded(candidate):
                    yield candidate


def _lint_path(job: tuple[str, Settings, frozenset[str]]) -> list[Diagnostic]:
    path, settings, codes = job
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        return [Diagnostic(path, 1, 1, PARSE_ERROR, f"cannot read file: {error.strerror}")]
    return lint_source(data, path, settings, codes)


def check_paths(paths: list[Path], config: Config, jobs: int | None = None) -> list[Diagnostic]:
    settings = Settings(x64=config.x64, promotion=config.promotion)
    work = [(str(p), settings, config.enabled_codes(p)) for p in iter_files(paths, config)]
    workers = jobs or os.cpu_count() or 1
    if workers == 1 or len(work) < _PARALLEL_THRESHOLD:
        results = map(_lint_path, work)
        return sorted(d for result in results for d in result)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = pool.map(_lint_path, work, chunksize=max(1, len(work) // (workers * 8)))
        return sorted(d for result in results for d in result)
