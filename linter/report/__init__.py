"""Diagnostics rendered for people and machines: one module per ``--format``, imported on use so
that the CLI starts fast."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from linter.check import Diagnostic

FORMATS = ("text", "json", "github", "sarif", "junit")


def render(diagnostics: Sequence[Diagnostic], fmt: str, statistics: bool = False) -> str:
    renderer = import_module(f"linter.report.{fmt}").render
    return renderer(diagnostics, statistics=statistics) if fmt == "text" else renderer(diagnostics)
