"""Render a labelled square table as text, Markdown or CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

FORMATS = ("text", "markdown", "csv")


def render_table(labels: Sequence[str], cells: dict[tuple[str, str], str], fmt: str = "text") -> str:
    header = ["", *labels]
    rows = [[a, *(cells[a, b] for b in labels)] for a in labels]
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
        return out.getvalue()
    if fmt == "markdown":
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines) + "\n"
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return "".join(" ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() + "\n" for r in [header, *rows])
