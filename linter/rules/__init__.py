"""The rules: one a module (or a package, where one rule holds several concepts), each named by
its row in ``registry``, which lists them without loading any; ``base`` is what a rule is and
``shared`` what several rules build on.  Rules read the engine through ``promolint.engine.model``
only.  The names below load every rule (and with them the engine) on first use."""

from __future__ import annotations

import functools
import importlib
from typing import TYPE_CHECKING

from promolint.rules.registry import PACKAGE, REGISTRY, RuleInfo, find

if TYPE_CHECKING:
    from promolint.rules.base import Example, Finding, Rule

__all__ = ["ALL_RULES", "RULES", "Example", "Finding", "Rule", "rule_by_code"]


def load(info: RuleInfo) -> Rule:
    """The rule's instance (imports its module, and with it the engine)."""
    from promolint.rules.base import Rule

    module = importlib.import_module(f"{PACKAGE}.{info.module}")
    classes = [value for value in vars(module).values()
               if isinstance(value, type) and issubclass(value, Rule) and value.__module__ == module.__name__
               and getattr(value, "code", None) == info.code]  # fmt: skip
    if len(classes) != 1:
        raise LookupError(f"{module.__name__} must define exactly one rule class for {info.code}")
    return classes[0]()


@functools.cache
def _rules() -> tuple[Rule, ...]:
    return tuple(load(info) for info in REGISTRY)


def rule_by_code(code_or_name: str) -> Rule | None:
    """A rule by its code (any case) or its name."""
    info = find(code_or_name)
    return next(rule for rule in _rules() if rule.code == info.code) if info else None


def __getattr__(name: str):
    if name == "RULES":  # every code promolint reports, the checker's own PRM000 and PRM100 included
        return _rules()
    if name == "ALL_RULES":  # the rules that read the engine's operations
        return tuple(rule for rule in _rules() if rule.info.reported_by != "checker")
    if name in ("Example", "Finding", "Rule"):
        from promolint.rules import base

        return getattr(base, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
