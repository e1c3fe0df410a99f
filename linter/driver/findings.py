"""An analyzed file's findings as diagnostics: the enabled rules over its operations, and what
its comments say of them (`# noqa`, `# promolint: disable=`, PRM100 for directives that suppress
nothing).  The per-file jobs (``promolint.driver.lint``) add the checks that need more than one
analysis (PRM010, fix verification) between the two steps."""

from __future__ import annotations

from promolint.core.diagnostics import Diagnostic, FixSummary, RelatedLocation
from promolint.driver.config import PARSE_ERROR, UNUSED_NOQA
from promolint.driver.noqa import directives
from promolint.engine.records import Module
from promolint.engine.walker.analysis import Analysis
from promolint.engine.walker.deep import deeply
from promolint.engine.walker.source import Source
from promolint.engine.walker.syntax import attach_syntax
from promolint.rules import ALL_RULES
from promolint.rules.base import Finding, Fix


def rule_findings(analysis: Analysis, codes: frozenset[str]) -> list[Finding]:
    """What the rules enabled in ``codes`` find in the operations of ``analysis``."""
    source = analysis.source
    flow = analysis.flow
    attach_syntax(source, analysis.operations, [*flow.invocations.values(), *flow.loop_calls], analysis.sites)
    rules = [rule for rule in ALL_RULES if rule.code in codes]
    module = Module(list(analysis.operations.values()), list(flow.invocations.values()), flow.returns,
                    flow.uses_jax(), flow.loop_calls)

    def found() -> list[Finding]:
        return [finding for rule in rules for finding in rule.check_module(module)]

    try:
        return found()
    except RecursionError:  # a rule weighed a value built over a chain longer than the stack allows
        return deeply(found)


def reported(analysis: Analysis, data: bytes, path: str, findings: list[Finding], codes: frozenset[str],
             external: tuple[str, ...] = ()) -> dict[Diagnostic, Fix | None]:  # fmt: skip
    """The diagnostics of an analyzed file (``data`` its bytes, for its comments), each with the
    fix its rule offers: the statements it could not analyze, then ``findings`` but those a
    `# noqa` covers (``external``: other tools' codes a `# noqa` may name), then the unused
    directives where PRM100 is enabled."""
    source = analysis.source
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
            related = tuple(_related(source, r.node, r.message) for r in finding.related)
            diagnostics.setdefault(Diagnostic(path, span.line, span.column, finding.code, finding.message,
                                              span.end_line, span.end_column, summary, related=related),
                                   finding.fix)  # fmt: skip
    if UNUSED_NOQA in enabled:
        for noqa in (noqa for line in noqas.values() for noqa in line):
            if message := noqa.unused_message(enabled, external):
                diagnostics.setdefault(Diagnostic(path, noqa.line, noqa.column, UNUSED_NOQA, message,
                                                  noqa.line, noqa.end_column), None)  # fmt: skip
    return diagnostics


def _related(source: Source, node: object, message: str) -> RelatedLocation:
    span = source.span(node)
    return RelatedLocation(span.line, span.column, span.end_line, span.end_column, message)
