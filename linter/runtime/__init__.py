"""Run-time verification of promolint's inferred dtypes (see docs/runtime.md).

``@verify`` checks one function; ``verifying()`` collects the checks made inside a block;
``promolint run script.py`` and ``pytest --promolint-verify=PKG`` instrument whole modules.
"""

from linter.runtime.shim import (
    AcceleratorX64Warning,
    PromotionMismatch,
    PromotionMismatchWarning,
    Session,
    ShimError,
    ShimWarning,
    verifying,
)
from linter.runtime.verify import verify

__all__ = [
    "AcceleratorX64Warning",
    "PromotionMismatch",
    "PromotionMismatchWarning",
    "Session",
    "ShimError",
    "ShimWarning",
    "verify",
    "verifying",
]
