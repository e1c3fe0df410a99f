"""Diagnostics rendered for people and machines."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

from linter.check import Diagnostic

FORMATS = ("text", "json")


def render(diagnostics: Sequence[Diagnostic], fmt: str, statistics: bool = False) -> str:
    if fmt == "json":
        return json.dumps([d.__dict__ for d in diagnostics], indent=1) + "\n"
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
