"""``promolint check``: find files, analyze each once, run every rule over its operations."""

from __future__ import annotations

import difflib
import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from promolint.config import PARSE_ERROR, UNUSED_NOQA, X64_PORTABILITY, Config, known_codes
from promolint.diagnostics import Diagnostic, FixSummary
from promolint.frontend.analysis import Analysis, Settings
from promolint.frontend.source import ParseFailure, Source, parse_bytes
from promolint.frontend.syntax import attach_syntax
from promolint.rules import ALL_RULES, Example, Rule
from promolint.rules.base import Fix
from promolint.runner import iter_files, parallel_map

_CODE = r"[A-Z]+[0-9]+"
_NOQA = re.compile(rf"#\s*noqa(?::\s*(?P<codes>{_CODE}(?:[\s,]+{_CODE})*))?", re.IGNORECASE)
_FILE_DISABLE = re.compile(rf"#\s*promolint:\s*disable=(?P<codes>{_CODE}(?:\s*,\s*{_CODE})*)", re.IGNORECASE)
_DIRECTIVE_HINT = re.compile(rb"noqa|promolint\s*:", re.IGNORECASE)  # most files have neither: skip tokenizing
_MAX_FIX_PASSES = 5  # a fix can expose another (a cast makes the next operator of a chain refuse)


class ParseError(Rule):
    code = PARSE_ERROR
    name = "unparsable-file"
    summary = (
        "Reports a file that promolint cannot read, decode or parse: a syntax error, NUL bytes, an "
        "encoding that does not decode. Nothing else in such a file is checked."
    )
    why = """
        A file that does not parse is not analyzed at all, so its promotion problems would go
        unreported. The run says so instead of skipping the file silently.
    """
    invalid = (Example("def f(:\n    pass"),)
    valid = (Example("def f():\n    pass"),)


class UnusedNoqa(Rule):
    code = UNUSED_NOQA
    name = "unused-noqa"
    summary = (
        "With `--report-unused-noqa` (or `report-unused-noqa = true`), flags `# noqa` directives that "
        "suppress nothing on their line. The message lists the codes: unused (the rule is enabled and "
        "did not fire there), non-enabled (the rule is not enabled for the file) and unknown."
    )
    why = """
        A `# noqa` outlives the finding it was written for: once the code is fixed, the stale
        directive silently hides the next real finding on that line. A `# noqa` for a rule that is
        not enabled cannot be judged by this run; it is reported as non-enabled, not as unused.
    """
    fix_safety = """
        Remove the codes the message lists, or the whole directive when it lists them all.
    """
    invalid = (
        Example("""
            import jax.numpy as jnp
            x = jnp.ones(3, jnp.float32) + 1  # noqa: PRM006
        """),
    )
    valid = (
        Example("""
            import jax.numpy as jnp
            x = jnp.ones(3, jnp.int8) + 1000  # noqa: PRM006
        """),
    )


RULES: tuple[Rule, ...] = tuple(sorted((*ALL_RULES, ParseError(), UnusedNoqa()), key=lambda rule: rule.code))
"""Every code `promolint check` reports: the rules, and the checker's own PRM000 and PRM100."""


def rule_by_code(code: str) -> Rule | None:
    return next((rule for rule in RULES if rule.code == code), None)


@dataclass
class _Noqa:
    line: int
    column: int
    end_column: int
    codes: tuple[str, ...] | None  # None: a blanket noqa, which suppresses every code on its line
    used: set[str] = field(default_factory=set)

    def covers(self, code: str) -> bool:
        return self.codes is None or code in self.codes

    def unused_message(self, enabled: frozenset[str]) -> str | None:
        """What this directive suppresses in vain, judged like ruff's RUF100; None when it is all used.

        Only an enabled rule can be judged unused: a rule that did not run might have fired."""
        if self.codes is None:
            return None if self.used else "unused blanket `noqa` directive"
        known = set(known_codes())
        groups = {
            "unused": [c for c in self.codes if c in enabled and c not in self.used],
            "non-enabled": [c for c in self.codes if c in known and c not in enabled],
            "unknown": [c for c in self.codes if c not in known],
        }
        listed = "; ".join(f"{kind}: {', '.join(f'`{c}`' for c in codes)}" for kind, codes in groups.items() if codes)
        return f"unused `noqa` directive ({listed})" if listed else None


def _directives(data: bytes) -> tuple[dict[int, list[_Noqa]], frozenset[str]]:
    """The `# noqa` directives by line, and the codes `# promolint: disable=...` comment lines turn off."""
    noqas: dict[int, list[_Noqa]] = {}
    disabled: set[str] = set()
    if not _DIRECTIVE_HINT.search(data):
        return noqas, frozenset()
    for line, column, comment, own_line in _comments(data):
        if own_line and (match := _FILE_DISABLE.match(comment)):
            disabled |= {c.strip().upper() for c in match.group("codes").split(",")}
        for match in _NOQA.finditer(comment):
            codes = match.group("codes")
            noqas.setdefault(line, []).append(_Noqa(
                line, column + match.start(), column + match.end(),
                None if codes is None else tuple(dict.fromkeys(c.upper() for c in re.split(r"[\s,]+", codes))),
            ))  # fmt: skip
    return noqas, frozenset(disabled)


def _comments(data: bytes) -> Iterator[tuple[int, int, str, bool]]:
    """(line, 1-based column, text, whether it is alone on its line) of each comment: tokens, so never a
    `# noqa` inside a string."""
    try:
        for token in tokenize.tokenize(io.BytesIO(data).readline):
            if token.type == tokenize.COMMENT:
                column = token.start[1]
                yield token.start[0], column + 1, token.string, not token.line[:column].strip()
    except (tokenize.TokenError, SyntaxError):
        return  # ast accepted what the tokenize module does not: keep the comments seen so far


def lint_source(data: bytes, path: str, settings: Settings, codes: frozenset[str]) -> list[Diagnostic]:
    source = parse_bytes(data)
    if isinstance(source, ParseFailure):
        if PARSE_ERROR not in codes:
            return []
        return [Diagnostic(path, source.line, source.column, PARSE_ERROR, source.message)]
    return sorted(_lint_source(source, data, path, settings, codes))


def _lint_source(source: Source, data: bytes, path: str, settings: Settings,
                 codes: frozenset[str]) -> dict[Diagnostic, Fix | None]:  # fmt: skip
    """The diagnostics of a parsed file, each with the fix its rule offers."""
    analysis = Analysis(source, settings).run()
    attach_syntax(source, analysis.operations)
    rules = [rule for rule in ALL_RULES if rule.code in codes]
    findings = [finding for op in analysis.operations.values() for rule in rules for finding in rule.check(op)]
    if X64_PORTABILITY in codes:
        findings += _x64_portability(source, analysis)
    if not findings and UNUSED_NOQA not in codes:
        return {}
    noqas, disabled = _directives(data)
    enabled = codes - disabled
    diagnostics: dict[Diagnostic, Fix | None] = {}
    for finding in (f for f in findings if f.code in enabled):
        span = source.span(finding.node)
        covering = [noqa for noqa in noqas.get(span.line, ()) if noqa.covers(finding.code)]
        for noqa in covering:  # each one counts as used, not only the first
            noqa.used.add(finding.code)
        if not covering:
            summary = FixSummary(finding.fix.title, finding.fix.safe) if finding.fix else None
            diagnostics.setdefault(Diagnostic(path, span.line, span.column, finding.code, finding.message,
                                              span.end_line, span.end_column, summary), finding.fix)  # fmt: skip
    if UNUSED_NOQA in enabled:
        for noqa in (noqa for line in noqas.values() for noqa in line):
            if message := noqa.unused_message(enabled):
                diagnostics.setdefault(Diagnostic(path, noqa.line, noqa.column, UNUSED_NOQA, message,
                                                  noqa.line, noqa.end_column), None)  # fmt: skip
    return diagnostics


def _x64_portability(source: Source, analysis: Analysis) -> list:
    """PRM010's findings: the file analyzed with x64 off and on (reusing ``analysis`` when it
    forces one of them), each operation compared with itself."""
    def forced(x64: str) -> Analysis:
        return analysis if analysis.settings.x64 == x64 else Analysis(source, replace(analysis.settings, x64=x64)).run()

    x32, x64 = forced("off"), forced("on")
    rule = rule_by_code(X64_PORTABILITY)
    return [finding for key, operation in x32.operations.items() if (other := x64.operations.get(key)) is not None
            for finding in rule.check_pair(operation, other)]  # fmt: skip


def fix_source(data: bytes, path: str, settings: Settings, codes: frozenset[str],
               unsafe: bool = False) -> tuple[bytes, int, list[Diagnostic]]:  # fmt: skip
    """``data`` with the fixes of its diagnostics applied (the unsafe ones too with ``unsafe``),
    analyzed again after each pass until no fix applies; the number of fixes applied and the
    diagnostics left."""
    from promolint.frontend.fix import apply_fixes  # loads libcst: only fixes need it

    source = parse_bytes(data)
    if isinstance(source, ParseFailure):
        return data, 0, lint_source(data, path, settings, codes)
    applied = 0
    for _ in range(_MAX_FIX_PASSES):
        diagnostics = _lint_source(source, data, path, settings, codes)
        fixes = [fix for fix in diagnostics.values() if fix is not None and (fix.safe or unsafe)]
        fixed, count = apply_fixes(data, source, fixes) if fixes else (data, 0)
        reparsed = parse_bytes(fixed) if count else None
        if reparsed is None or isinstance(reparsed, ParseFailure):  # nothing to do, or a fix gone wrong
            return data, applied, sorted(diagnostics)
        source, data, applied = reparsed, fixed, applied + count
    return data, applied, sorted(_lint_source(source, data, path, settings, codes))


def _lint_path(job: tuple[str, Settings, frozenset[str]]) -> list[Diagnostic]:
    path, settings, codes = job
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        return [Diagnostic(path, 1, 1, PARSE_ERROR, f"cannot read file: {error.strerror}")]
    return lint_source(data, path, settings, codes)


def check_paths(paths: list[Path], config: Config, jobs: int | None = None) -> list[Diagnostic]:
    from promolint.runner import run_check

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
