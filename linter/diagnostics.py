"""A finding as reporters see it: light enough to load without the parser (warm cache runs)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class FixSummary:
    """What `--fix` would do about a diagnostic: the fix's title, and whether it is safe."""

    title: str
    safe: bool


@dataclass(frozen=True, order=True)
class Diagnostic:
    path: str
    line: int
    column: int
    code: str
    message: str
    end_line: int = 0
    end_column: int = 0
    fix: FixSummary | None = field(default=None, compare=False)
