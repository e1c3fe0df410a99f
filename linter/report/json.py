"""A JSON array of the diagnostics, one object each with the Diagnostic's fields (``fix`` only
where there is one).  In a notebook, as in ruff's JSON, ``cell`` is the cell (1-based, every cell
counted) and the lines count within it.  ``related`` lists the other places a finding concerns
(where a 64-bit leak widens data), each with its span and message."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict

from promolint.core.diagnostics import Diagnostic


def render(diagnostics: Sequence[Diagnostic]) -> str:
    return json.dumps([_fields(d) for d in diagnostics], indent=1) + "\n"


def _fields(diagnostic: Diagnostic) -> dict:
    fields = asdict(diagnostic)
    del fields["file_line"], fields["internal"]  # internal: for the exit status; the message says it
    if not fields["cell"]:
        del fields["cell"]
    if fields["fix"] is None:
        del fields["fix"]
    if fields["related"]:  # other places the finding concerns, in the same file
        fields["related"] = [{k: v for k, v in r.items() if v or k not in ("cell", "file_line")}
                             for r in fields["related"]]  # fmt: skip
    else:
        del fields["related"]
    return fields
