"""One file's findings: analyze it once, run every enabled rule over its operations, honour its
`# noqa` comments; and its fixes.  What `promolint check` runs in each worker, and what the other
front ends (editors, plugins) call for one buffer."""

from __future__ import annotations

from dataclasses import replace

from promolint.config import PARSE_ERROR, UNUSED_NOQA, X64_PORTABILITY
from promolint.diagnostics import Diagnostic, FixSummary
from promolint.frontend.analysis import Analysis, Settings, analyze
from promolint.frontend.source import ParseFailure, Source, parse_bytes
from promolint.frontend.syntax import attach_syntax
from promolint.noqa import directives
from promolint.rules import ALL_RULES, rule_by_code
from promolint.rules.base import Fix

_MAX_FIX_PASSES = 5  # a fix can expose another (a cast makes the next operator of a chain refuse)


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
    return diagnose(analyze(source, settings), data, path, codes)


def diagnose(analysis: Analysis, data: bytes, path: str, codes: frozenset[str]) -> dict[Diagnostic, Fix | None]:
    """The diagnostics of an analyzed file (``data`` its bytes, for its comments), each with the
    fix its rule offers: the rules enabled in ``codes`` over its operations, `# noqa` honoured."""
    source = analysis.source
    attach_syntax(source, analysis.operations)
    rules = [rule for rule in ALL_RULES if rule.code in codes]
    findings = [finding for op in analysis.operations.values() for rule in rules for finding in rule.check(op)]
    if X64_PORTABILITY in codes:
        findings += _x64_portability(source, analysis)
    diagnostics: dict[Diagnostic, Fix | None] = {}
    for failed in analysis.failures:  # the rest of the file was analyzed: its findings stand
        span = source.span(failed)
        diagnostics[Diagnostic(path, span.line, span.column, PARSE_ERROR, "promolint could not analyze this "
                               "statement: it is nested too deeply; the rest of the file was analyzed",
                               span.end_line, span.end_column)] = None  # fmt: skip
    if not findings and UNUSED_NOQA not in codes:
        return diagnostics
    noqas, disabled = directives(data)
    enabled = codes - disabled
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
        if analysis.settings.x64 == x64:
            return analysis
        return analyze(source, replace(analysis.settings, x64=x64), analysis.flow.seeds)

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


def lint_with_fixes(data: bytes, path: str, settings: Settings,
                    codes: frozenset[str]) -> tuple[Source | ParseFailure, dict[Diagnostic, Fix | None]]:  # fmt: skip
    """``lint_source``'s diagnostics, each with the fix its rule offers, and the parsed file the
    fixes' nodes belong to: for front ends that offer fixes one at a time (the language server,
    Fixit)."""
    source = parse_bytes(data)
    if isinstance(source, ParseFailure):
        return source, dict.fromkeys(lint_source(data, path, settings, codes))
    return source, _lint_source(source, data, path, settings, codes)
