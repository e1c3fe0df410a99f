"""promolint's rules as Fixit rules: ``[tool.fixit] enable = ["promolint.fixit"]``.

One Fixit rule per promolint rule (``ImplicitX64``, ``StrictPromotion``...), so that Fixit's
``enable``/``disable``, its ``# lint-ignore: StrictPromotion`` comments and its reports name the
rule, and each carries its own VALID/INVALID examples (promolint's, which follow Fixit's
convention).  The file is analyzed once for all of them: the first rule to visit a module
computes the findings of every code, the others read them.

Settings come from the file's ``[tool.promolint]``, as for ``promolint check``: modes, ``ignore``,
``per-file-ignores``; opt-in rules (PRM010, PRM100) fire only where it switches them on.  Autofixes
are the safe fixes of ``promolint check --fix``; an unsafe one is named in the message, for
``promolint check --fix --unsafe-fixes``.  Fixit itself reports files that do not parse.
"""

from __future__ import annotations

import textwrap
from typing import ClassVar

import libcst as cst
from fixit import Invalid, LintRule, Valid
from libcst.metadata import FilePathProvider, PositionProvider

from promolint.integrations.cst import CSTFinding, findings
from promolint.rules import rule_by_code
from promolint.rules.registry import PARSE_ERROR, REGISTRY, RuleInfo

_last: tuple[cst.Module, object, list[CSTFinding]] | None = None  # the module analyzed last, for the other rules


def _module_findings(module: cst.Module, path, positions) -> list[CSTFinding]:
    global _last
    if _last is None or _last[0] is not module or _last[1] != path:
        _last = (module, path, findings(module, path, fixes="safe", positions=positions))
    return _last[2]


class _PromolintRule(LintRule):
    """The Fixit rule of one promolint code."""

    CODE: ClassVar[str] = ""
    METADATA_DEPENDENCIES = (PositionProvider, FilePathProvider)

    def visit_Module(self, node: cst.Module) -> None:
        path = self.get_metadata(FilePathProvider, node, None)
        for finding in _module_findings(node, path, self.metadata[PositionProvider]):
            if finding.code != self.CODE:
                continue
            message = f"{finding.code} {finding.message}"
            if finding.fix is not None and not finding.fix.safe:
                message += f" (unsafe fix: {finding.fix.title}; `promolint check --fix --unsafe-fixes` applies it)"
            reported, replacement = finding.replacement or (finding.node, None)
            self.report(reported, message, position=finding.range, replacement=replacement)


def _class_name(info: RuleInfo) -> str:
    return "".join(part[:1].upper() + part[1:] for part in info.name.split("-"))


def _rule_class(info: RuleInfo) -> type[_PromolintRule]:
    """The Fixit rule for ``info``, with the examples that hold under the default settings (the
    others need modes or an opt-in from ``[tool.promolint]``)."""
    rule = rule_by_code(info.code)
    default = [e for e in (*rule.valid, *rule.invalid) if (e.x64, e.promotion) == ("auto", "auto")]
    valid = [Valid(textwrap.dedent(e.code)) for e in rule.valid if e in default]
    invalid = [Invalid(textwrap.dedent(e.code)) for e in rule.invalid if e in default and not info.opt_in]
    return type(_class_name(info), (_PromolintRule,), {
        "__doc__": rule.summary, "__module__": "promolint.fixit", "CODE": info.code, "VALID": valid, "INVALID": invalid,
        "AUTOFIX": info.fix != "never",
    })  # fmt: skip


RULES: tuple[type[_PromolintRule], ...] = tuple(_rule_class(info) for info in REGISTRY if info.code != PARSE_ERROR)
# Fixit collects every LintRule subclass the module holds: the rules, and not their base.
globals().update({rule.__name__: rule for rule in RULES})
del _PromolintRule
__all__ = ["RULES", *(rule.__name__ for rule in RULES)]
