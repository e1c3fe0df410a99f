"""Run-time verification of promolint's inferred dtypes (see docs/runtime.md).

``@verify`` checks one function; ``verifying()`` collects the checks made inside a block;
``promolint run script.py`` and ``pytest --promolint-verify=PKG`` instrument whole modules.

The names below load the shim on first use: the pytest plugin is registered in every pytest run
where promolint is installed, and must cost nothing there unless ``--promolint-verify`` is given.
"""

from __future__ import annotations

import importlib

MODES = ("warn", "raise", "report")
PREDICTIONS = ("arguments", "code")  # parameters typed from each call's arguments, or from the code alone
DEFAULT_REPORT = "promolint-runtime.json"

_EXPORTS = {
    "AcceleratorX64Warning": "promolint.runtime.session",
    "PromotionMismatch": "promolint.runtime.session",
    "PromotionMismatchWarning": "promolint.runtime.session",
    "Session": "promolint.runtime.session",
    "ShimError": "promolint.runtime.session",
    "ShimWarning": "promolint.runtime.session",
    "verifying": "promolint.runtime.verify",
    "verify": "promolint.runtime.verify",
}
__all__ = ["DEFAULT_REPORT", "MODES", "PREDICTIONS", *_EXPORTS]


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(_EXPORTS[name])
    # All of the module's exports at once: importing promolint.runtime.verify binds the submodule
    # as this package's attribute ``verify``, which the function of that name must replace.
    globals().update({export: getattr(module, export) for export, where in _EXPORTS.items() if where == module.__name__})
    return globals()[name]
