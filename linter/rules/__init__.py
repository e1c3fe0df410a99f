"""The rules, by code. Each is one class with its docs and examples; all read engine records."""

from __future__ import annotations

from linter.rules.base import Example, Finding, Rule
from linter.rules.dispatch_chains import MixedDispatch, NumpyNonassociative
from linter.rules.implicit_x64 import ImplicitX64
from linter.rules.literal_overflow import LiteralOverflow
from linter.rules.refusals import InplaceCast, LaxDtypeMismatch, NoPromotionPath, StrictPromotion
from linter.rules.x64_portability import X64Portability
from linter.rules.x64_truncation import X64Truncation

__all__ = ["ALL_RULES", "Example", "Finding", "Rule", "rule_by_code"]

ALL_RULES: tuple[Rule, ...] = tuple(
    sorted(
        (
            ImplicitX64(),
            MixedDispatch(),
            NumpyNonassociative(),
            StrictPromotion(),
            NoPromotionPath(),
            LiteralOverflow(),
            X64Truncation(),
            LaxDtypeMismatch(),
            InplaceCast(),
            X64Portability(),
        ),
        key=lambda rule: rule.code,
    )
)


def rule_by_code(code: str) -> Rule | None:
    return next((rule for rule in ALL_RULES if rule.code == code), None)
