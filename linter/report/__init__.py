"""Diagnostics rendered for people and machines: one module per ``--format``, imported on use so
that the CLI starts fast."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from promolint.core.diagnostics import Diagnostic

FORMATS = ("text", "json", "github", "sarif", "junit")


def render(diagnostics: Sequence[Diagnostic], fmt: str, statistics: bool = False, fixed: int = 0,
           unsafe_fixes: bool = False) -> str:  # fmt: skip
    """``fixed`` fixes were applied before ``diagnostics`` were found; ``unsafe_fixes`` counts the
    unsafe fixes as applicable (text output marks and counts what `--fix` would do)."""
    renderer = import_module(f"promolint.report.{fmt}").render
    if fmt == "text":
        return renderer(diagnostics, statistics=statistics, fixed=fixed, unsafe_fixes=unsafe_fixes)
    return renderer(diagnostics)
