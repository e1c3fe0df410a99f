"""One mypy error code per promolint rule, pydantic style: ``promolint-<rule name>``.

The codes are module-level objects created when mypy imports the plugin, before it validates
``disable_error_code``/``enable_error_code``, so they work there, in ``# type: ignore[...]``
comments and in ``-O json`` like mypy's own codes.  They come from the rule registry, which loads
no rule.
"""

from __future__ import annotations

from mypy.errorcodes import ErrorCode

from promolint.rules.registry import REGISTRY

CATEGORY = "promolint"

BY_RULE_CODE: dict[str, ErrorCode] = {
    info.code: ErrorCode(f"promolint-{info.name}", f"{info.title} ({info.code})", CATEGORY)
    for info in REGISTRY
    if info.reported_by != "checker"
}
# Not rules: a bad [tool.promolint] table, reported once so that editors show it; and a failure
# of the plugin itself, reported where it happened instead of crashing mypy (set
# PROMOLINT_MYPY_DEBUG=1 to get the traceback from mypy instead).
CONFIG = ErrorCode("promolint-config", "promolint's [tool.promolint] configuration is invalid", CATEGORY)
INTERNAL = ErrorCode("promolint-internal", "The promolint plugin failed on an expression", CATEGORY)


def error_code(rule) -> ErrorCode:
    return BY_RULE_CODE[rule.code]
