"""A JSON array of the diagnostics, one object each with the Diagnostic's fields."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict

from linter.check import Diagnostic


def render(diagnostics: Sequence[Diagnostic]) -> str:
    return json.dumps([asdict(d) for d in diagnostics], indent=1) + "\n"
