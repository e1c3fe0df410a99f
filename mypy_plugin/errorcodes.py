"""One mypy error code per promolint rule, pydantic style: ``promolint-<rule name>``.

The codes are module-level objects created when mypy imports the plugin, before it validates
``disable_error_code``/``enable_error_code``, so they work there, in ``# type: ignore[...]``
comments and in ``-O json`` like mypy's own codes.  ``tests/mypy_plugin`` checks that this
table matches ``promolint.rules.ALL_RULES`` (importing the rules here would slow every mypy run).
"""

from __future__ import annotations

from mypy.errorcodes import ErrorCode, error_codes

CATEGORY = "promolint"

IMPLICIT_X64 = ErrorCode("promolint-implicit-x64", "A 64-bit result no operand asked for (PRM001)", CATEGORY)
MIXED_DISPATCH = ErrorCode(
    "promolint-mixed-dispatch", "A NumPy/JAX chain whose dtype depends on its association (PRM002)", CATEGORY
)
NUMPY_NONASSOCIATIVE = ErrorCode(
    "promolint-numpy-nonassociative", "A NumPy chain whose dtype depends on its association (PRM003)", CATEGORY
)
STRICT_PROMOTION = ErrorCode(
    "promolint-strict-promotion", "An implicit promotion strict mode rejects (PRM004)", CATEGORY
)
NO_PROMOTION_PATH = ErrorCode(
    "promolint-no-promotion-path", "A promotion JAX rejects in every mode (PRM005)", CATEGORY
)
LITERAL_OVERFLOW = ErrorCode(
    "promolint-literal-overflow", "A Python int literal outside the dtype it is converted to (PRM006)", CATEGORY
)
X64_TRUNCATION = ErrorCode(
    "promolint-x64-truncation", "A 64-bit dtype request JAX truncates with x64 off (PRM007)", CATEGORY
)
LAX_DTYPE_MISMATCH = ErrorCode(
    "promolint-lax-dtype-mismatch", "jax.lax operands of different dtypes (PRM008)", CATEGORY
)
INPLACE_CAST = ErrorCode(
    "promolint-inplace-cast", "An in-place NumPy operation whose result cannot be stored (PRM009)", CATEGORY
)
X64_DEPENDENT_DTYPE = ErrorCode(
    "promolint-x64-dependent-dtype", "A dtype that differs with x64 on and off (PRM010; `promolint check` only)", CATEGORY
)
# Not rules: a bad [tool.promolint] table, reported once so that editors show it; and a failure
# of the plugin itself, reported where it happened instead of crashing mypy (set
# PROMOLINT_MYPY_DEBUG=1 to get the traceback from mypy instead).
CONFIG = ErrorCode("promolint-config", "promolint's [tool.promolint] configuration is invalid", CATEGORY)
INTERNAL = ErrorCode("promolint-internal", "The promolint plugin failed on an expression", CATEGORY)

BY_RULE_CODE: dict[str, ErrorCode] = {
    "PRM001": IMPLICIT_X64,
    "PRM002": MIXED_DISPATCH,
    "PRM003": NUMPY_NONASSOCIATIVE,
    "PRM004": STRICT_PROMOTION,
    "PRM005": NO_PROMOTION_PATH,
    "PRM006": LITERAL_OVERFLOW,
    "PRM007": X64_TRUNCATION,
    "PRM008": LAX_DTYPE_MISMATCH,
    "PRM009": INPLACE_CAST,
    "PRM010": X64_DEPENDENT_DTYPE,
}


def code_name(rule) -> str:
    return f"promolint-{rule.name}"


def error_code(rule) -> ErrorCode:
    """The code a rule reports under; a rule added after this table still gets its own code
    (registered on first use, so ``disable_error_code`` only knows it from then on)."""
    code = BY_RULE_CODE.get(rule.code)
    if code is not None and code.code == code_name(rule):
        return code
    return error_codes.get(code_name(rule)) or ErrorCode(code_name(rule), f"{rule.summary} ({rule.code})", CATEGORY)
