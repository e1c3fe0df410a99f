"""A finding as reporters see it: light enough to load without the parser (warm cache runs)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class FixSummary:
    """What `--fix` would do about a diagnostic: the fix's title, and whether it is safe."""

    title: str
    safe: bool


@dataclass(frozen=True)
class RelatedLocation:
    """Another place in the same file a diagnostic concerns (where a 64-bit leak widens data),
    with what happens there; in a notebook placed as the diagnostic is."""

    line: int
    column: int
    end_line: int
    end_column: int
    message: str
    cell: int = 0
    file_line: int = 0


@dataclass(frozen=True, order=True)
class Diagnostic:
    """In a notebook, ``cell`` is the cell (1-based, every cell counted) and ``line``/``end_line``
    count lines within it; ``file_line`` is the line of the ``.ipynb`` file that holds ``line``,
    for formats that point into the file as text (SARIF, GitHub).  0 outside notebooks."""

    path: str
    cell: int = field(default=0, kw_only=True)  # before ``line``: a notebook's findings sort by cell, then line
    line: int
    column: int
    code: str
    message: str
    end_line: int = 0
    end_column: int = 0
    fix: FixSummary | None = field(default=None, compare=False)
    file_line: int = field(default=0, kw_only=True, compare=False)
    related: tuple[RelatedLocation, ...] = field(default=(), kw_only=True, compare=False)
    internal: bool = field(default=False, kw_only=True, compare=False)  # a bug of promolint's, not a finding

    @property
    def location(self) -> str:
        """``path:line:column``, or ``nb.ipynb:cell 3:2:5`` in a notebook (as ruff writes it)."""
        cell = f"cell {self.cell}:" if self.cell else ""
        return f"{self.path}:{cell}{self.line}:{self.column}"
