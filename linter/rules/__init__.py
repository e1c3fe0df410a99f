"""The rules, by code. Each is one class with its docs and examples; all read engine records."""

from __future__ import annotations

from promolint.rules.base import Example, Finding, Rule
from promolint.rules.dispatch_chains import MixedDispatch, NumpyNonassociative
from promolint.rules.implicit_x64 import ImplicitX64
from promolint.rules.literal_overflow import LiteralOverflow
from promolint.rules.refusals import InplaceCast, LaxDtypeMismatch, NoPromotionPath, StrictPromotion
from promolint.rules.x64_portability import X64Portability
from promolint.rules.x64_truncation import X64Truncation

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
