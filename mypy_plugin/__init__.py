"""promolint's mypy plugin: the engine's diagnostics in editors, with mypy's cross-module types.

Enable it with ``plugins = ["promolint_mypy"]`` in ``[tool.mypy]`` (or ``plugins = promolint_mypy`` in
mypy.ini); see docs/mypy.md.  Importing this module registers one mypy error code per rule.
"""

from __future__ import annotations

from mypy.plugin import Plugin

from promolint_mypy import errorcodes  # noqa: F401  (registers the error codes)
from promolint_mypy.plugin import PromolintPlugin

__all__ = ["PromolintPlugin", "plugin"]


def plugin(version: str) -> type[Plugin]:
    return PromolintPlugin
