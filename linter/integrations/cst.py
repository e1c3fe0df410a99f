"""promolint for libcst users: findings at the nodes of a ``libcst.Module``, each fix as one node
to replace, and a codemod that writes the strict-mode casts.

The analysis reads Python's ``ast`` (ten times faster to build), so a module is analyzed through
its code, and findings come back to libcst's nodes by their spans, as ``--fix`` finds them.  A fix
is rendered by ``promolint.fix.edits`` (the very edits of ``promolint check --fix``), then
narrowed to the smallest node whose replacement makes the same change: the expression it edits,
the statement when it adds a trailing comment, the module when it adds an import.

    findings(module, path)                                   # libcst visitors, Fixit rules
    python -m libcst.tool codemod -x promolint.cst.StrictCasts --no-format src/
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

import libcst as cst
from libcst.codemod import CodemodCommand, CodemodContext
from libcst.metadata import CodePosition, CodeRange, MetadataWrapper, PositionProvider

from promolint.core.diagnostics import FixSummary
from promolint.driver import jobs
from promolint.driver.config import Config, load_config
from promolint.engine.records import Span
from promolint.engine.walker.source import Source
from promolint.fix.edits import apply_fixes
from promolint.rules.registry import find

STRICT_PROMOTION = find("strict-promotion").code


@dataclass(frozen=True)
class CSTFinding:
    """One finding at a libcst node.  ``range`` counts as libcst's ``PositionProvider`` does
    (1-based lines, 0-based columns); ``replacement`` is the fix as ``(node, new node)``, when
    one was asked for and the fix applies."""

    code: str
    message: str
    node: cst.CSTNode  # the reported expression; the module for a comment (an unused noqa)
    range: CodeRange
    fix: FixSummary | None = None
    replacement: tuple[cst.CSTNode, cst.CSTNode] | None = None


def findings(module: cst.Module, path: str | Path | None = None, *, config: Config | None = None,
             fixes: Literal["none", "safe", "all"] = "safe",
             positions: Mapping[cst.CSTNode, CodeRange] | None = None) -> list[CSTFinding]:  # fmt: skip
    """promolint's findings in ``module``, with the settings of ``[tool.promolint]`` found from
    ``path`` (or ``config``), honouring ``# noqa`` and ``# promolint: disable=``.

    ``fixes`` says which fixes to render as replacements (``"safe"``: those ``promolint check
    --fix`` applies).  ``positions``: libcst's ``PositionProvider`` of ``module`` when the caller
    has resolved it already (a visitor, a Fixit rule), saving a second resolution."""
    if config is None:
        config = load_config(Path(path)) if path is not None else Config()
    codes = config.enabled_codes(Path(path) if path is not None else None)
    data = module.bytes
    job = jobs.LintJob(str(path or "<module>"), data, config.settings(), codes, keep_fixes=True,
                       describe_unsafe_fixes=True)  # Fixit shows an unsafe fix's title  # fmt: skip
    checked = jobs.check_job(job)  # the job `promolint check` runs per file
    source, diagnostics = checked.source, checked.fixes
    if positions is None:
        positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    at_span = _expressions_by_span(positions)
    out = []
    for d, fix in sorted(diagnostics.items()):
        end_line, end_column = (d.end_line, d.end_column) if d.end_line else (d.line, d.column)
        node = at_span.get(Span(d.line, d.column, end_line, end_column), module)
        finding = CSTFinding(d.code, d.message, node, CodeRange(CodePosition(d.line, d.column - 1),
                                                                CodePosition(end_line, end_column - 1)), d.fix)  # fmt: skip
        if fix is not None and isinstance(source, Source) and (fixes == "all" or (fixes == "safe" and fix.safe)):
            fixed, count = apply_fixes(data, source, [fix])
            if count:
                finding = replace(finding, replacement=smallest_change(module, cst.parse_module(fixed)))
        out.append(finding)
    return out


def _expressions_by_span(positions: Mapping[cst.CSTNode, CodeRange]) -> dict[Span, cst.CSTNode]:
    """Expressions (and augmented assignments, which rules report) by their spans as promolint
    counts them; where several share one, the outermost (positions list parents first)."""
    at_span: dict[Span, cst.CSTNode] = {}
    for node, r in positions.items():
        if isinstance(node, (cst.BaseExpression, cst.AugAssign)):
            at_span.setdefault(Span(r.start.line, r.start.column + 1, r.end.line, r.end.column + 1), node)
    return at_span


def smallest_change(original: cst.CSTNode, changed: cst.CSTNode) -> tuple[cst.CSTNode, cst.CSTNode]:
    """The deepest node of ``original`` and its counterpart in ``changed`` such that replacing the
    one by the other turns ``original`` into ``changed``: descend while exactly one child differs."""
    while True:
        children, new_children = original.children, changed.children
        if type(original) is not type(changed) or len(children) != len(new_children):
            return original, changed
        differing = [(a, b) for a, b in zip(children, new_children) if not a.deep_equals(b)]
        if len(differing) != 1:  # several parts changed, or only the node's own text (a name, a number)
            return original, changed
        original, changed = differing[0]


class StrictCasts(CodemodCommand):
    """libcst codemod: ``python -m libcst.tool codemod -x promolint.cst.StrictCasts PATH``."""

    DESCRIPTION = ("Write out the casts standard promotion performs implicitly, so that the code keeps its dtypes "
                   "under jax_numpy_dtype_promotion='strict' (promolint's PRM004 fixes; x64 from [tool.promolint]).")  # fmt: skip

    def __init__(self, context: CodemodContext, unsafe: bool = False) -> None:
        super().__init__(context)
        self.unsafe = unsafe

    @staticmethod
    def add_args(arg_parser) -> None:
        arg_parser.add_argument("--unsafe", action="store_true",
                                help="also write the casts that change a result's weak flag (promolint's unsafe fixes)")  # fmt: skip

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        path = self.context.filename
        config = load_config(Path(path)) if path else Config()
        settings = replace(config.settings(), promotion="strict")
        job = jobs.LintJob(path or "<module>", tree.bytes, settings, frozenset({STRICT_PROMOTION}), unsafe=self.unsafe)
        fixed = jobs.fix_job(job)  # the job `promolint check --fix` runs per file
        return cst.parse_module(fixed.data) if fixed.count else tree
