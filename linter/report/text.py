"""``path:line:col: CODE message``, like ruff's concise output, and a count."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from linter.check import Diagnostic


def render(diagnostics: Sequence[Diagnostic], statistics: bool = False) -> str:
    lines = [f"{d.path}:{d.line}:{d.column}: {d.code} {d.message}" for d in diagnostics]
    if statistics:
        lines += ["", *_statistics(diagnostics)]
    if diagnostics:
        lines.append(f"Found {len(diagnostics)} finding{'s' if len(diagnostics) != 1 else ''}.")
    return "\n".join(lines) + ("\n" if lines else "")


def _statistics(diagnostics: Sequence[Diagnostic]) -> list[str]:
    by_rule = Counter(d.code for d in diagnostics)
    by_file = Counter(d.path for d in diagnostics)
    lines = ["By rule:"] + [f"{count:6d}  {code}" for code, count in sorted(by_rule.items())]
    lines += ["By file:"] + [f"{count:6d}  {path}" for path, count in sorted(by_file.items())]
    return lines
