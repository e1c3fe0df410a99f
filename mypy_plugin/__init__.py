"""promolint's mypy plugin: the engine's diagnostics in editors, with mypy's cross-module types.

Enable it with ``plugins = ["promolint.mypy_plugin"]`` in ``[tool.mypy]`` (or ``plugins = promolint.mypy_plugin`` in
mypy.ini); see docs/mypy.md.  Importing this module registers one mypy error code per rule.
"""

from __future__ import annotations

from mypy.plugin import Plugin

from promolint.mypy_plugin import errorcodes  # noqa: F401  (registers the error codes)
from promolint.mypy_plugin.plugin import PromolintPlugin

__all__ = ["PromolintPlugin", "plugin"]


def plugin(version: str) -> type[Plugin]:
    return PromolintPlugin
